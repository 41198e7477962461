"""rules-dsl serve against what users broke (issue 33, third round): a database locked by
another program, two servers on one file, undo after the end, decisions edited by hand,
huge bodies and budgets, bodies and parameters that used to raise, and a version that
told the decisions. Each test runs a real server (tests/test_serve.py's `Server`).
"""

from __future__ import annotations

import hashlib
import json
import random
import select
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_serve import HAVE_SERVE, Server, free_port

pytestmark = pytest.mark.skipif(not HAVE_SERVE, reason="needs the serve extra")

MICROCOSM = {"pack": "microcosm", "players": 2, "seats": ["human", "human"]}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.sqlite", "--db-wait", "0.2")
    yield s
    if s.process.poll() is None:
        s.kill()


def views(server: Server, game: str, tokens: dict[int, str]) -> dict[int, bytes]:
    return {seat: server.read(game, seat, t) for seat, t in tokens.items()}


def decide(server: Server, game: str, tokens: dict[int, str], rnd: random.Random) -> dict[str, Any]:
    """One random legal decision by whichever seat must decide."""
    for seat, token in tokens.items():
        view = json.loads(server.read(game, seat, token))
        if view["options"]:
            status, after = server.json(
                "POST", f"/api/games/{game}/decisions", token, {"option": rnd.choice(view["options"])}
            )
            assert status == 200, after
            return dict(after)
    raise AssertionError("nobody must decide")


def stored(db: Path, game: str) -> list[str]:
    with sqlite3.connect(db) as c:
        return [r[0] for r in c.execute("SELECT option FROM decisions WHERE game = ? ORDER BY step", (game,))]


# -- 1. a decision the database cannot store ------------------------------------------------


def test_a_decision_the_locked_database_cannot_store_is_503_and_applied_nowhere(server: Server) -> None:
    game, tokens = server.new_game(seed=3, **MICROCOSM)
    before = views(server, game, tokens)
    options = json.loads(before[1])["options"]
    other = sqlite3.connect(server.db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
    try:
        status, error = server.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": options[0]})
        assert status == 503 and "could not store the decision" in error["error"], error
        assert "nothing was applied" in error["error"]
        assert views(server, game, tokens) == before  # the game in memory is exactly as before
    finally:
        other.execute("ROLLBACK")
        other.close()
    # the next decision is stored as the first, and a restart replays exactly what was answered
    status, after = server.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": options[-1]})
    assert status == 200 and after["decisions"] == 1
    assert stored(server.db, game) == [options[-1]]
    seen = views(server, game, tokens)
    server.kill()
    again = Server(server.db)
    try:
        assert views(again, game, tokens) == seen
    finally:
        again.kill()


def test_a_bot_waits_for_a_locked_database_and_moves_once_it_is_free(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    first = Server(db)
    try:  # the bot is to move first, when the game is first loaded after a restart
        game, tokens = first.new_game(pack="microcosm", seed=4, seats=["random", "human"])
    finally:
        first.kill()
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM decisions")
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    server = Server(db, "--db-wait", "0.1")  # starts although the file is locked: it writes nothing
    try:
        view: dict[str, Any] = {}
        deadline = time.monotonic() + 30
        while "waiting" not in (view := json.loads(server.read(game, 2, tokens[2])))["trouble"]:
            assert time.monotonic() < deadline, view["trouble"]
            time.sleep(0.05)
        assert view["decisions"] == 0 and "could not store the decision" in view["trouble"]
        other.execute("ROLLBACK")
        while not (view := json.loads(server.read(game, 2, tokens[2])))["options"]:  # the person's turn
            assert time.monotonic() < deadline, view["trouble"]
            time.sleep(0.05)
        assert view["trouble"] == "" and view["decisions"] > 0
        assert len(stored(db, game)) == view["decisions"]
    finally:
        other.close()
        server.kill()


# -- 2. one server per database --------------------------------------------------------------


def test_a_second_server_on_the_same_database_is_refused_at_start(server: Server) -> None:
    port = free_port()
    second = subprocess.run(
        [sys.executable, "-m", "rules_dsl", "serve", "--port", str(port), "--db", str(server.db)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert second.returncode == 1, second
    assert f"another rules-dsl serve is using {server.db}" in second.stderr
    assert "Traceback" not in second.stderr
    game, tokens = server.new_game(seed=1, **MICROCOSM)  # the first one serves on
    assert json.loads(server.read(game, 1, tokens[1]))["decisions"] == 0


# -- 3. undo after the end -------------------------------------------------------------------


def test_undo_on_a_finished_game_is_refused(server: Server) -> None:
    # microcosm seed 0 with these random choices ends on a decision that showed nothing hidden,
    # which undo would take back if the game were not over
    game, tokens = server.new_game(seed=0, **MICROCOSM)
    rnd = random.Random(0)
    after: dict[str, Any] = {}
    for _ in range(1000):
        after = decide(server, game, tokens, rnd)
        if after["over"]:
            break
    assert after["over"]
    end = views(server, game, tokens)
    for seat, token in tokens.items():
        assert json.loads(end[seat])["undo"] == {"allowed": False, "reason": "the game is over"}
        status, error = server.json("POST", f"/api/games/{game}/undo", token)
        assert status == 409 and "the game is over" in error["error"], error
    assert views(server, game, tokens) == end


# -- 4. decisions edited by hand -------------------------------------------------------------


def test_a_decision_edited_in_the_database_is_refused_clearly(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    first = Server(db)
    try:
        game, tokens = first.new_game(seed=5, **MICROCOSM)
        # the first decision: the supply or the deck, both legal
        status, _ = first.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": "draw-from-the-supply"})
        assert status == 200
        untouched, untouched_tokens = first.new_game(seed=6, **MICROCOSM)
        decide(first, untouched, untouched_tokens, random.Random(1))
    finally:
        first.kill()
    with sqlite3.connect(db) as c:
        c.execute("UPDATE decisions SET option = 'draw-from-the-deck' WHERE game = ? AND step = 0", (game,))
    second = Server(db)
    try:
        status, error = second.json("GET", f"/api/games/{game}?seat=1", tokens[1])
        assert status == 409, error
        assert "changed outside the server" in error["error"] and "draw-from-the-deck" in error["error"]
        status, _ = second.call("GET", f"/games/{game}/replay")
        assert status == 409
        assert json.loads(second.read(untouched, 1, untouched_tokens[1]))["decisions"] == 1  # the others play on
    finally:
        second.kill()


OLD_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, pack TEXT NOT NULL, players INTEGER NOT NULL,
    seed INTEGER NOT NULL, variants TEXT NOT NULL, seats TEXT NOT NULL);
CREATE TABLE decisions (game TEXT NOT NULL REFERENCES games(id), step INTEGER NOT NULL,
    option TEXT NOT NULL, PRIMARY KEY (game, step));
"""


def test_a_database_from_before_the_chain_is_migrated_once_and_then_checked(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    seats = json.dumps([{"kind": "human", "token": "t1", "budget": ""}, {"kind": "human", "token": "t2", "budget": ""}])
    with sqlite3.connect(db) as c:
        c.executescript(OLD_SCHEMA)
        c.execute("INSERT INTO games VALUES ('old', 'microcosm', 2, 5, '[]', ?)", (seats,))
        c.execute("INSERT INTO decisions VALUES ('old', 0, 'draw-from-the-supply')")
    server = Server(db)
    try:
        view = json.loads(server.read("old", 1, "t1"))
        assert view["decisions"] == 1  # served as before
        status, _ = server.json("POST", "/api/games/old/decisions", "t1", {"option": view["options"][0]})
        assert status == 200
    finally:
        server.kill()
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 3
        assert c.execute("SELECT count(*) FROM decisions WHERE chain IS NULL").fetchone()[0] == 0
        c.execute("UPDATE decisions SET option = 'draw-from-the-deck' WHERE game = 'old' AND step = 0")
    server = Server(db)
    try:
        status, error = server.json("GET", "/api/games/old?seat=1", "t1")
        assert status == 409 and "changed outside the server" in error["error"], error
    finally:
        server.kill()


# -- 5. bodies and budgets -------------------------------------------------------------------


def test_a_huge_chunked_body_is_refused_as_it_arrives(server: Server) -> None:
    chunk = b"x" * 65536
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        answered = False
        try:
            while sent < 8 * 1024 * 1024 and not answered:  # 8 MB of a body announced as endless
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                answered = bool(select.select([s], [], [], 0)[0])
        except OSError:  # the server answered and closed while we were still sending
            answered = True
        assert select.select([s], [], [], 10)[0], "no answer before the body ended"
        head = b""
        deadline = time.monotonic() + 10
        # the answer may come in several packets (its head, then its body): read it whole
        while b"at most" not in head and time.monotonic() < deadline:
            if not select.select([s], [], [], 1)[0]:
                continue
            part = s.recv(65536)
            if not part:
                break
            head += part
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert b"at most 65536 bytes" in head
    assert sent < 4 * 1024 * 1024


def test_a_declared_body_over_the_cap_is_413(server: Server) -> None:
    status, data = server.call("POST", "/api/games", raw=b" " * 70_000)
    assert status == 413 and b"at most" in data


def test_bot_budgets_are_capped_by_the_server(server: Server, tmp_path: Path) -> None:
    for seat, cap in (("ismcts:3600s", "5s"), ("ismcts:5000000", "10000 iterations"), ("ismcts-ucb:60s", "5s")):
        status, error = server.json("POST", "/api/games", body={"pack": "microcosm", "seats": ["human", seat]})
        assert status == 400 and "caps a bot's budget" in error["error"] and cap in error["error"], error
    status, _ = server.json("POST", "/api/games", body={"pack": "microcosm", "seats": ["human", "ismcts:0.05s"]})
    assert status == 201
    server.kill()
    roomy = Server(tmp_path / "roomy.sqlite", "--bot-seconds", "60")
    try:
        status, _ = roomy.json("POST", "/api/games", body={"pack": "microcosm", "seats": ["human", "ismcts:30s"]})
        assert status == 201
    finally:
        roomy.kill()


# -- 6. what used to be a traceback ------------------------------------------------------------


@pytest.mark.parametrize("seat", ["²", "١", "1²"])
def test_a_seat_in_other_digits_is_a_400(server: Server, seat: str) -> None:
    game, tokens = server.new_game(seed=2, **MICROCOSM)
    seat = urllib.parse.quote(seat)
    for path in (
        f"/api/games/{game}?seat={seat}",
        f"/games/{game}/replay?seat={seat}&token={tokens[1]}",
        f"/games/{game}/seat/{seat}?token={tokens[1]}",
    ):
        status, data = server.call("GET", path, tokens[1])
        assert status == 400 and b"must be a whole number" in data, (path, data)
    status, data = server.call("GET", f"/games/{game}/replay?step={seat}")
    assert status == 400 and b"must be a whole number" in data


def test_a_deeply_nested_body_is_a_400(server: Server) -> None:
    game, tokens = server.new_game(seed=2, **MICROCOSM)
    deep = b"[" * 40_000  # 40,000 deep within the body's 64 KB: json.loads recursed until it failed
    for path, token, raw in (
        ("/api/games", "", deep),
        (f"/api/games/{game}/decisions", tokens[1], deep),
        ("/api/games", "", b'{"seats": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"),
    ):
        status, data = server.call("POST", path, token, raw=raw)
        assert status == 400 and b"nests deeper" in data, (path, data[:200])
    assert json.loads(server.read(game, 1, tokens[1]))["decisions"] == 0


def test_a_damaged_game_row_is_flagged_and_the_rest_listed(server: Server) -> None:
    good, tokens = server.new_game(seed=1, **MICROCOSM)
    bad, bad_tokens = server.new_game(seed=2, **MICROCOSM)
    with sqlite3.connect(server.db) as c:
        c.execute("UPDATE games SET seats = 'not json' WHERE id = ?", (bad,))
    status, page = server.call("GET", "/")
    text = page.decode()
    assert status == 200 and f"/games/{good}/replay" in text
    assert f"/games/{bad}/replay" not in text and f"{bad}: the stored row of game {bad} is damaged" in text
    server.kill()
    again = Server(server.db)  # the games in memory are served as they were: a restart reads the row
    try:
        status, error = again.json("GET", f"/api/games/{bad}?seat=1", bad_tokens[1])
        assert status == 409 and f"the stored row of game {bad} is damaged" in error["error"], error
        assert json.loads(again.read(good, 1, tokens[1]))["decisions"] == 0
    finally:
        again.kill()


# -- 7. the public version ---------------------------------------------------------------------


def test_the_version_tells_nothing_of_the_decisions(server: Server) -> None:
    one, one_tokens = server.new_game(seed=8, **MICROCOSM)
    two, two_tokens = server.new_game(seed=8, **MICROCOSM)
    versions = []
    for game, tokens in ((one, one_tokens), (two, two_tokens)):
        status, got = server.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": "draw-from-the-deck"})
        assert status == 200
        versions.append(server.json("GET", f"/api/games/{game}/version")[1]["version"])
    # the same decisions, different versions: no hash of the log to compare against
    assert versions[0] != versions[1]
    assert versions[0] != hashlib.sha256(b"draw-from-the-deck").hexdigest()[:16]
    # it still changes with every decision, and is the same after a restart
    decide(server, one, one_tokens, random.Random(2))
    changed = server.json("GET", f"/api/games/{one}/version")[1]["version"]
    assert changed != versions[0]
    server.kill()
    again = Server(server.db)
    try:
        assert again.json("GET", f"/api/games/{one}/version")[1]["version"] == changed
        assert again.json("GET", f"/api/games/{two}/version")[1]["version"] == versions[1]
    finally:
        again.kill()


# -- bots off the request path (issue 35) ------------------------------------------------


def test_a_bot_thinking_in_one_game_holds_up_no_other_games_requests(tmp_path: Path) -> None:
    """With a search bot thinking (at least 3 s: the issue's case) a decision in game A,
    reads of game B answer at once: the bot thinks on a copy of its game without the
    server's lock. It thinks 10 s of its thread's CPU, so that the 50 reads are all made
    while it thinks, however slow the machine."""
    server = Server(tmp_path / "games.sqlite", "--bot-seconds", "10")
    try:
        game_b, tokens_b = server.new_game(seed=5, **MICROCOSM)
        server.read(game_b, 1, tokens_b[1])  # loaded and warm
        game_a, tokens_a = server.new_game(pack="microcosm", seed=6, seats=["ismcts:10s", "human"])
        time.sleep(0.3)  # the bot of game A is thinking its first decision (10 s)
        thinking = json.loads(server.read(game_a, 2, tokens_a[2]))
        assert thinking["decisions"] == 0 and not thinking["options"]  # it is the bot's move
        waits = []
        for _ in range(50):
            start = time.perf_counter()
            server.read(game_b, 1, tokens_b[1])
            waits.append(time.perf_counter() - start)
        assert json.loads(server.read(game_a, 2, tokens_a[2]))["decisions"] == 0  # still thinking
        waits.sort()
        assert waits[int(0.95 * len(waits)) - 1] < 0.2, waits
    finally:
        server.kill()


def test_a_server_killed_while_a_bot_thinks_resumes_it_on_restart(tmp_path: Path) -> None:
    """No request names the game after the restart: the server finds the bot due and it moves."""
    db = tmp_path / "games.sqlite"
    first = Server(db, "--bot-seconds", "1")
    game, tokens = first.new_game(pack="microcosm", seed=8, seats=["ismcts:1s", "human"])
    time.sleep(0.2)
    first.kill()  # mid-thought: the bot's first decision is not taken
    assert stored(db, game) == []
    second = Server(db, "--bot-seconds", "1")
    try:
        deadline = time.monotonic() + 30
        while not stored(db, game):
            assert time.monotonic() < deadline, "the bot never moved after the restart"
            time.sleep(0.1)
        assert json.loads(second.read(game, 2, tokens[2]))["decisions"] >= 1
    finally:
        second.kill()


# -- chat and names (issue 35) ------------------------------------------------------------


def test_chat_and_names_are_kept_escaped_bounded_and_rate_limited(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(db)
    try:
        game, tokens = server.new_game(seed=9, **MICROCOSM)
        chat = f"/api/games/{game}/chat"
        status, named = server.json("POST", f"/api/games/{game}/name", tokens[1], {"name": "<b>Ann</b>"})
        assert status == 200 and named["names"] == ["<b>Ann</b>", "Player 2"]
        status, said = server.json("POST", chat, tokens[1], {"text": "<script>alert(1)</script> hello"})
        assert status == 201 and said == {"n": 0}
        # bad lines: each a clear 4xx, nothing stored
        for body, code in (
            ({"text": "a\x00b"}, 400),
            ({"text": "bell\x07"}, 400),
            ({"text": "\u202eevil"}, 400),  # a right-to-left override: a format character
            ({"text": ""}, 400),
            ({"text": 5}, 400),
            ({"text": "x" * 501}, 400),
            ({"name": "x\x1b[31m"}, 400),
        ):
            path = f"/api/games/{game}/name" if "name" in body else chat
            status, error = server.json("POST", path, tokens[2], body)
            assert status == code and error["status"] == code, (body, error)
        # 1 MB of text: refused from its declared length, before it is read
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            head = f"POST {chat} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tokens[2]}\r\n"
            s.sendall(f"{head}Content-Type: application/json\r\nContent-Length: 1000012\r\n\r\n".encode())
            s.sendall(b'{"text": "' + b"x" * 60_000)
            assert s.recv(200).startswith(b"HTTP/1.1 413")
        status, _ = server.call("POST", chat, "not-a-token", {"text": "hi"})
        assert status == 403
        # a flood: refused with 429 after the first lines, never a 500, the table unslowed
        codes = [server.call("POST", chat, tokens[2], {"text": f"spam {i}"})[0] for i in range(300)]
        assert set(codes) == {201, 429} and codes.count(201) == 5, sorted(set(codes))
        start = time.perf_counter()
        server.read(game, 1, tokens[1])
        assert time.perf_counter() - start < 0.5
        status, lines = server.json("GET", chat, tokens[2])
        assert status == 200 and [line["text"] for line in lines["lines"]][:2] == [
            "<script>alert(1)</script> hello",
            "spam 0",
        ]
        assert lines["names"] == ["<b>Ann</b>", "Player 2"] and lines["present"] == [True, True]
        # the page escapes both
        status, page = server.call("GET", f"/games/{game}/seat/2?token={tokens[2]}")
        text = page.decode()
        assert status == 200 and "<script>alert(1)" not in text and "&lt;script&gt;alert(1)" in text
        assert "<b>Ann</b>" not in text and "&lt;b&gt;Ann&lt;/b&gt;" in text
    finally:
        server.kill()  # kill -9: every acknowledged line and name is kept
    again = Server(db)
    try:
        status, lines = again.json("GET", f"/api/games/{game}/chat?after=0", tokens[1])
        assert status == 200 and [line["n"] for line in lines["lines"]] == [1, 2, 3, 4, 5]
        assert lines["names"][0] == "<b>Ann</b>"
    finally:
        again.kill()
