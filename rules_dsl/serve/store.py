"""Games kept in SQLite: what was set up and every decision, nothing derived.

A game's state is rebuilt by replaying its decisions, so a server killed at any moment
loses at most a decision it had not yet acknowledged. The database runs in WAL mode with
full sync, and each decision is committed before the response that acknowledges it; a
decision that cannot be committed (the file locked by another program, a disk error)
raises `StoreFailed` and the server applies nothing.

One server writes to a database: `Store` holds an exclusive `flock` on `FILE.lock` beside
it for as long as it is open (released by the kernel when the process dies, `kill -9`
included), and a second `Store` on the same file is refused with `StoreBusy`.

Each decision row carries `chain`, a SHA-256 over the previous row's chain and its own step
and option (the first over the game's id), so a decision list edited by hand no longer
matches and the game is refused when loaded (`Tampered`). Each game has a random `salt`,
never shown, from which its public version is made (`Table.version`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock file (docs/serve.md)
    fcntl = None  # type: ignore[assignment]

SCHEMA_VERSION = 3  # PRAGMA user_version: 0 before the chain and the salt, 1 before chat and names,
# 2 before the clock (games.created, decisions.at)
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    pack TEXT NOT NULL,      -- as given: installed pack ids or folders, separated by commas
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    variants TEXT NOT NULL,  -- JSON list, scenario choices included
    seats TEXT NOT NULL,     -- JSON list, one {"kind", "token"?, "budget"?} per seat ("open": in the lobby)
    salt TEXT,               -- random, never shown: the key of the game's public version
    created REAL             -- when it was made (Unix time): the clock's start
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL,
    option TEXT NOT NULL,
    chain TEXT,              -- sha256(previous chain, step, option): see `link`
    at REAL,                 -- when it was stored (Unix time): the seats' clocks
    PRIMARY KEY (game, step)
);
CREATE TABLE IF NOT EXISTS chat (
    game TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,      -- 0, 1, ... in the order said
    seat INTEGER NOT NULL,   -- from 0
    step INTEGER NOT NULL,   -- decisions taken when it was said
    text TEXT NOT NULL,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS rematches (
    game TEXT PRIMARY KEY REFERENCES games(id),
    next TEXT NOT NULL REFERENCES games(id)   -- the game the same table plays next
);
CREATE TABLE IF NOT EXISTS names (
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
"""
BUSY_SECONDS = 5.0  # how long a write waits for a lock another program holds on the file


class StoreFailed(Exception):
    """The database could not commit a write (locked by another program, a disk error)."""


class StoreBusy(Exception):
    """Another server (another `Store`) has this database open."""


class Tampered(Exception):
    """A game's rows do not match their checks: edited outside the server, or damaged."""


@attrs.frozen
class Seat:
    kind: str  # "human", "open" (a person's seat no one has taken yet: the lobby's) or a bot name
    token: str = ""  # a human seat's private token
    budget: str = ""  # a search bot's budget (iterations, or seconds like "0.5s")


@attrs.frozen
class GameRow:
    id: str
    pack: str
    players: int
    seed: int
    variants: tuple[str, ...]
    seats: tuple[Seat, ...]
    salt: str = ""  # made by `add_game` when empty
    created: float = 0.0  # Unix time; 0 for a game stored before the clock


def link(previous: str, step: int, option: str) -> str:
    """A decision's chain value: the previous one's (the game's id for the first) with this one."""
    return hashlib.sha256(f"{previous}\n{step}\n{option}".encode()).hexdigest()


class Store:
    """One SQLite file. Not thread-safe by itself: the server calls it under its one lock."""

    def __init__(self, path: Path, busy_seconds: float = BUSY_SECONDS) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.lock_fd = _lock(path)
        try:
            self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=busy_seconds)
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.execute("PRAGMA foreign_keys=ON")
                self._migrate()
            except BaseException:
                self.db.close()
                raise
        except BaseException:
            os.close(self.lock_fd)
            raise

    def _migrate(self) -> None:
        """Make the tables, or bring an older file to this schema once: columns added, the
        chain computed for the decisions already stored, a salt drawn for each game."""
        if self.db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
            return  # nothing to write: a server starts while another program holds the lock
        with self._write():
            if self.db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
                return
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            for table, column, kind in (
                ("games", "salt", "TEXT"),
                ("decisions", "chain", "TEXT"),
                ("games", "created", "REAL"),
                ("decisions", "at", "REAL"),
            ):
                columns = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                if column not in columns:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            for (game_id,) in self.db.execute("SELECT id FROM games WHERE salt IS NULL").fetchall():
                self.db.execute("UPDATE games SET salt = ? WHERE id = ?", (secrets.token_hex(16), game_id))
            rows = self.db.execute("SELECT game, step, option FROM decisions ORDER BY game, step").fetchall()
            previous: dict[str, str] = {}
            for game_id, step, option in rows:
                value = link(previous.get(game_id, game_id), step, option)
                previous[game_id] = value
                self.db.execute("UPDATE decisions SET chain = ? WHERE game = ? AND step = ?", (value, game_id, step))
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, committed when the block ends; StoreFailed if it cannot be."""
        try:
            self.db.execute("BEGIN IMMEDIATE")  # takes the write lock now, waiting busy_seconds
        except sqlite3.Error as exc:
            raise StoreFailed(str(exc)) from None
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise StoreFailed(str(exc)) from None
            raise

    def close(self) -> None:
        self.db.close()
        os.close(self.lock_fd)

    def add_game(self, row: GameRow, previous: str = "") -> None:
        """A new game; with `previous`, the next game of that one's table (a rematch),
        stored with the link from it, or neither."""
        seats = [attrs.asdict(s) for s in row.seats]
        with self._write():
            self.db.execute(
                "INSERT INTO games (id, pack, players, seed, variants, seats, salt, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.pack,
                    row.players,
                    row.seed,
                    json.dumps(list(row.variants)),
                    json.dumps(seats),
                    row.salt or secrets.token_hex(16),
                    row.created or time.time(),
                ),
            )
            if previous:
                self.db.execute("INSERT INTO rematches (game, next) VALUES (?, ?)", (previous, row.id))

    def game(self, game_id: str) -> GameRow | None:
        """The game's row; Tampered when the row cannot be read."""
        found = self.db.execute(f"SELECT {COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if found is None else _row(found)

    def games(self) -> tuple[list[GameRow], list[tuple[str, str]]]:
        """Every game that can be read, and (id, what is wrong) for each row that cannot."""
        good: list[GameRow] = []
        broken: list[tuple[str, str]] = []
        for found in self.db.execute(f"SELECT {COLUMNS} FROM games ORDER BY rowid").fetchall():
            try:
                good.append(_row(found))
            except Tampered as exc:
                broken.append((str(found[0]), str(exc)))
        return good, broken

    def decisions(self, game_id: str) -> list[str]:
        """The game's decisions in order, each checked against its chain; Tampered if one fails."""
        rows = self.db.execute(
            "SELECT step, option, chain FROM decisions WHERE game = ? ORDER BY step", (game_id,)
        ).fetchall()
        previous = game_id
        for n, (step, option, chain) in enumerate(rows):
            if step != n or not isinstance(option, str):
                raise Tampered(f"the stored decisions of game {game_id} skip or repeat step {n + 1}")
            value = link(previous, step, option)
            if chain != value:
                raise Tampered(
                    f"decision {n + 1} of game {game_id} ({option!r}) does not match its check: "
                    "the decisions were changed outside the server"
                )
            previous = value
        return [r[1] for r in rows]

    def times(self, game_id: str) -> list[float | None]:
        """When each decision was stored (None for one stored before the clock)."""
        rows = self.db.execute("SELECT at FROM decisions WHERE game = ? ORDER BY step", (game_id,)).fetchall()
        return [r[0] if isinstance(r[0], float) else None for r in rows]

    def claim(self, game_id: str, seat: int, token: str, name: str) -> bool:
        """An open seat taken by a person (with `token`, and `name` when not empty), in one
        transaction committed when this returns; False (nothing written) when the seat is no
        longer open. StoreFailed when it cannot be committed."""
        with self._write():
            found = self.db.execute("SELECT seats FROM games WHERE id = ?", (game_id,)).fetchone()
            seats = json.loads(found[0]) if found else []
            if not 0 <= seat < len(seats) or seats[seat].get("kind") != "open":
                return False
            seats[seat] = {"kind": "human", "token": token, "budget": ""}
            self.db.execute("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(seats), game_id))
            if name:
                self.db.execute(
                    "INSERT OR REPLACE INTO names (game, seat, name) VALUES (?, ?, ?)", (game_id, seat, name)
                )
        return True

    def add_decision(self, game_id: str, step: int, option: str) -> float:
        """Committed when this returns: the decision survives a kill from then on; when it
        was stored. StoreFailed (nothing written) when the database cannot commit it."""
        at = time.time()
        with self._write():
            found = self.db.execute(
                "SELECT chain FROM decisions WHERE game = ? AND step = ?", (game_id, step - 1)
            ).fetchone()
            previous = game_id if step == 0 or found is None else str(found[0])
            self.db.execute(
                "INSERT INTO decisions (game, step, option, chain, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, step, option, link(previous, step, option), at),
            )
        return at

    def add_chat(self, game_id: str, seat: int, step: int, text: str) -> int:
        """A chat line, committed when this returns; its number. StoreFailed when it cannot be."""
        with self._write():
            n = self.db.execute("SELECT COUNT(*) FROM chat WHERE game = ?", (game_id,)).fetchone()[0]
            self.db.execute(
                "INSERT INTO chat (game, n, seat, step, text) VALUES (?, ?, ?, ?, ?)", (game_id, n, seat, step, text)
            )
        return int(n)

    def chat(self, game_id: str, after: int = -1, most: int = 200) -> list[tuple[int, int, int, str]]:
        """(n, seat, step, text) of the game's chat lines numbered above `after`, the last `most`."""
        rows = self.db.execute(
            "SELECT n, seat, step, text FROM chat WHERE game = ? AND n > ? ORDER BY n DESC LIMIT ?",
            (game_id, after, most),
        ).fetchall()
        return [(int(n), int(seat), int(step), str(text)) for n, seat, step, text in reversed(rows)]

    def rematch(self, game_id: str) -> str | None:
        found = self.db.execute("SELECT next FROM rematches WHERE game = ?", (game_id,)).fetchone()
        return None if found is None else str(found[0])

    def set_name(self, game_id: str, seat: int, name: str) -> None:
        with self._write():
            self.db.execute("INSERT OR REPLACE INTO names (game, seat, name) VALUES (?, ?, ?)", (game_id, seat, name))

    def names(self, game_id: str) -> dict[int, str]:
        rows = self.db.execute("SELECT seat, name FROM names WHERE game = ?", (game_id,)).fetchall()
        return {int(seat): str(name) for seat, name in rows}

    def drop_last_decision(self, game_id: str, step: int) -> None:
        with self._write():
            self.db.execute("DELETE FROM decisions WHERE game = ? AND step = ?", (game_id, step))


COLUMNS = "id, pack, players, seed, variants, seats, salt, created"


def _lock(path: Path) -> int:
    """An exclusive flock on `path`.lock, held until the descriptor is closed (or the process
    dies); StoreBusy when another process (or another Store) holds it."""
    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    if fcntl is None:  # pragma: no cover
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreBusy(
            f"another rules-dsl serve is using {path} (it holds {lock_path}): one server writes to a "
            "database; stop the other one or give this one another --db"
        ) from None
    return fd


def _row(found: tuple[Any, ...]) -> GameRow:
    game_id = found[0]
    try:
        seats_in = json.loads(found[5])
        variants = json.loads(found[4])
        if not isinstance(seats_in, list) or not all(isinstance(s, dict) for s in seats_in):
            raise ValueError("seats is not a list of objects")
        seats = tuple(Seat(**s) for s in seats_in)
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise ValueError("variants is not a list of strings")
        if not isinstance(found[2], int) or not isinstance(found[3], int) or len(seats) != found[2]:
            raise ValueError("players, seed or the number of seats is wrong")
        if not isinstance(found[6], str) or not found[6]:
            raise ValueError("it has no salt")
        created = found[7] if isinstance(found[7], float) else 0.0
        return GameRow(game_id, str(found[1]), found[2], found[3], tuple(variants), seats, found[6], created)
    except (ValueError, TypeError) as exc:
        raise Tampered(f"the stored row of game {game_id} is damaged ({exc})") from None
