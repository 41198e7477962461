"""Games kept in SQLite: what was set up and every decision, nothing derived.

A game's state is rebuilt by replaying its decisions, so a server killed at any moment
loses at most a decision it had not yet acknowledged. The database runs in WAL mode with
full sync, and each decision is committed before the response that acknowledges it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import attrs

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    pack TEXT NOT NULL,      -- as given: installed pack ids or folders, separated by commas
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    variants TEXT NOT NULL,  -- JSON list, scenario choices included
    seats TEXT NOT NULL      -- JSON list, one {"kind", "token"?, "budget"?} per seat
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL,
    option TEXT NOT NULL,
    PRIMARY KEY (game, step)
);
"""


@attrs.frozen
class Seat:
    kind: str  # "human" or a bot name
    token: str = ""  # a human seat's private token
    budget: str = ""  # an ismcts bot's budget (iterations, or seconds like "0.5s")


@attrs.frozen
class GameRow:
    id: str
    pack: str
    players: int
    seed: int
    variants: tuple[str, ...]
    seats: tuple[Seat, ...]


class Store:
    """One SQLite file. Not thread-safe by itself: the server calls it under its one lock."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def add_game(self, row: GameRow) -> None:
        seats = [attrs.asdict(s) for s in row.seats]
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO games (id, pack, players, seed, variants, seats) VALUES (?, ?, ?, ?, ?, ?)",
                (row.id, row.pack, row.players, row.seed, json.dumps(list(row.variants)), json.dumps(seats)),
            )

    def game(self, game_id: str) -> GameRow | None:
        found = self.db.execute(
            "SELECT id, pack, players, seed, variants, seats FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return None if found is None else _row(found)

    def games(self) -> list[GameRow]:
        rows = self.db.execute("SELECT id, pack, players, seed, variants, seats FROM games ORDER BY rowid").fetchall()
        return [_row(r) for r in rows]

    def decisions(self, game_id: str) -> list[str]:
        rows = self.db.execute("SELECT option FROM decisions WHERE game = ? ORDER BY step", (game_id,)).fetchall()
        return [r[0] for r in rows]

    def add_decision(self, game_id: str, step: int, option: str) -> None:
        """Committed when this returns: the decision survives a kill from then on."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO decisions (game, step, option) VALUES (?, ?, ?)", (game_id, step, option))

    def drop_last_decision(self, game_id: str, step: int) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM decisions WHERE game = ? AND step = ?", (game_id, step))


def _row(found: tuple[Any, ...]) -> GameRow:
    seats = tuple(Seat(**s) for s in json.loads(found[5]))
    return GameRow(found[0], found[1], found[2], found[3], tuple(json.loads(found[4])), seats)
