"""rules-dsl serve, running a session (issue 35): the lobby of open seats, live spectators,
the seats' clocks and the access log, against a real server (tests/test_serve.py's `Server`).
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_serve import HAVE_SERVE, Server

pytestmark = pytest.mark.skipif(not HAVE_SERVE, reason="needs the serve extra")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.sqlite")
    yield s
    if s.process.poll() is None:
        s.kill()


def test_an_open_seat_is_offered_in_the_lobby_and_taken_once(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(db)
    try:
        game, tokens = server.new_game(pack="microcosm", seed=3, seats=["human", "open"])
        assert sorted(tokens) == [1]  # an open seat has no link until someone takes it
        full, _ = server.new_game(pack="microcosm", seed=4, seats=["human", "human"])
        status, lobby = server.json("GET", "/api/lobby")
        assert status == 200 and [g["id"] for g in lobby["games"]] == [game]
        offered = lobby["games"][0]
        assert offered["seats"] == [
            {"seat": 1, "kind": "human", "name": "Player 1"},
            {"seat": 2, "kind": "open", "name": "Player 2 (open)"},
        ]
        assert "token" not in json.dumps(lobby) and tokens[1] not in json.dumps(lobby)
        status, page = server.call("GET", "/")
        assert status == 200 and f'data-game="{game}"' in page.decode() and full not in page.decode().split("Games")[0]
        # the first seat is waiting for the open one's person: no bot moves it
        view = json.loads(server.read(game, 1, tokens[1]))
        if not view["options"]:
            assert view["view"]["waiting"] == [1]
        # bad names: 4xx, nothing taken
        for body, code in ((b'{"name": "<b>\\u0007</b>"}', 400), (b'{"name": 7}', 400), (b"[1]", 400), (b"{", 400)):
            status, data = server.call("POST", f"/api/games/{game}/join", raw=body)
            assert status == code, (body, data)
        status, data = server.call("POST", f"/api/games/{game}/join", raw=b'{"name": "' + b"x" * 41 + b'"}')
        assert status == 400 and b"at most 40" in data
        assert server.json("GET", "/api/lobby")[1]["games"][0]["seats"][1]["kind"] == "open"
        status, joined = server.json("POST", f"/api/games/{game}/join", body={"name": "<i>Bea</i>"})
        assert (
            status == 201 and joined["seat"] == 2 and joined["url"] == (f"/games/{game}/seat/2?token={joined['token']}")
        )
        assert json.loads(server.read(game, 2, joined["token"]))["view"]["player"] == 1
        status, error = server.json("POST", f"/api/games/{game}/join", body={"name": "Cy"})
        assert status == 409 and "every seat is taken" in error["error"]
        status, error = server.json("POST", "/api/games/nosuchgame/join", body={})
        assert status == 404
        assert server.json("GET", "/api/lobby")[1]["games"] == []
        status, page = server.call("GET", f"/games/{game}/seat/2?token={joined['token']}")
        assert status == 200 and "&lt;i&gt;Bea&lt;/i&gt;" in page.decode() and "<i>Bea</i>" not in page.decode()
    finally:
        server.kill()  # kill -9 right after the answer: the seat and its name are kept
    again = Server(db)
    try:
        assert json.loads(again.read(game, 2, joined["token"]))["decisions"] >= 0
        status, chat = again.json("GET", f"/api/games/{game}/chat", joined["token"])
        assert status == 200 and chat["names"] == ["Player 1", "<i>Bea</i>"]
        assert again.json("GET", "/api/lobby")[1]["games"] == []
    finally:
        again.kill()


def test_two_people_racing_for_one_open_seat_get_it_once(server: Server) -> None:
    game, _ = server.new_game(pack="microcosm", seed=5, seats=["open", "human"])
    codes: list[int] = []

    def take() -> None:
        codes.append(server.call("POST", f"/api/games/{game}/join", body={})[0])

    threads = [threading.Thread(target=take) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409, 409, 409, 409, 409]


def test_a_spectators_page_follows_the_game_and_shows_only_what_everyone_sees(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", players=2, seed=7, seats=["human", "human"])
    status, page = server.call("GET", f"/games/{game}/replay")
    assert status == 200 and 'data-live="1"' in page.decode() and "after decision 0 of 0" in page.decode()
    version = server.json("GET", f"/api/games/{game}/version")[1]["version"]
    # a long poll waiting on the game is answered as soon as a decision is stored
    answered: list[float] = []

    def wait() -> None:
        status, data = server.json("GET", f"/api/games/{game}/version?known={version}")
        assert status == 200 and data["version"] != version
        answered.append(time.monotonic())

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(1.5)
    assert not answered  # nothing changed yet: it waits
    decided = time.monotonic()
    status, body = server.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": "draw-from-the-deck"})
    assert status == 200, body
    waiter.join(10)
    assert answered and answered[0] - decided < 0.5
    status, part = server.call("GET", f"/games/{game}/replay/part")
    text = part.decode()
    assert status == 200 and "after decision 1 of 1" in text and 'id="live"' in text
    # the card drawn is named to its drawer only, not to the spectators
    drawn = "the domain deck -&gt; Player 1&#39;s hand"
    assert drawn not in text and "Player 1&#39;s hand: 0 -&gt; 1 card" in text
    assert drawn in server.call("GET", f"/games/{game}/replay/part?seat=1&token={tokens[1]}")[1].decode()
    assert server.call("GET", f"/games/{game}/replay/part?seat=1&token={tokens[2]}")[0] == 403
    status, data = server.call("GET", f"/api/games/{game}/version?known={'x' * 65}")
    assert status == 400 and b"at most 64" in data
    # a replay at a step is still a replay: it does not follow
    assert 'data-live="0"' in server.call("GET", f"/games/{game}/replay?step=0")[1].decode()


def test_the_clock_counts_the_time_each_seat_is_waited_on(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(db)
    try:
        game, tokens = server.new_game(pack="microcosm", players=2, seed=7, seats=["human", "human"])
        time.sleep(1.2)
        status, clock = server.json("GET", f"/api/games/{game}/clock")
        assert status == 200 and clock["running"] == [1] and clock["used"][1] == 0.0
        assert 1.0 <= clock["used"][0] == clock["since"] < 30
        status, body = server.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": "draw-from-the-deck"})
        assert status == 200
        first = server.json("GET", f"/api/games/{game}/clock")[1]
        assert 1.0 <= first["used"][0] < 30 and first["since"] < 1.0
        page = server.call("GET", f"/games/{game}/seat/1?token={tokens[1]}")[1].decode()
        assert re.search(r'id="clock".*<span class="time">0:0\d</span>', page), page[page.find("clock") :][:600]
        status, _ = server.call("GET", "/api/games/nosuchgame/clock")
        assert status == 404
    finally:
        server.kill()
    with sqlite3.connect(db) as c:
        stored = [r[0] for r in c.execute("SELECT at FROM decisions WHERE game = ?", (game,))]
    assert len(stored) == 1 and isinstance(stored[0], float)
    again = Server(db)  # the time used so far is kept: counted from the stored times
    try:
        after = again.json("GET", f"/api/games/{game}/clock")[1]
        for seat in (0, 1):  # a stopped clock as it was; a running one has run on since
            if seat + 1 in after["running"]:
                assert after["used"][seat] >= first["used"][seat]
            else:
                assert after["used"][seat] == pytest.approx(first["used"][seat], abs=0.2)
    finally:
        again.kill()


def test_the_access_log_has_a_line_per_request_and_no_token(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", players=2, seed=7, seats=["human", "human"])
    server.call("GET", f"/games/{game}/seat/1?token={tokens[1]}")
    server.call("GET", f"/games/{game}/replay?seat=1&tok%65n={tokens[1]}&step=0")
    server.call("GET", f"/api/games/{game}?seat=2", tokens[2])
    server.call("POST", f"/api/games/{game}/chat", tokens[1], {"text": "a secret plan"})
    server.call("GET", "/nowhere/%0a%1b[31mred?x=" + "y" * 500)
    time.sleep(0.3)
    out = server.output()
    lines = [line for line in out.splitlines() if " GET " in line or " POST " in line]
    assert len(lines) >= 6
    for token in tokens.values():
        assert token not in out
    assert "a secret plan" not in out and "\x1b" not in out
    assert any(f"GET /games/{game}/seat/1?token=… 200" in line for line in lines), lines
    assert any(f"GET /games/{game}/replay?seat=1&tok%65n=…&step=0 200" in line for line in lines), lines
    assert any(f"POST /api/games/{game}/chat 201" in line for line in lines), lines
    long = next(line for line in lines if "/nowhere/" in line)
    assert " 404 " in long and "…" in long and len(long) < 420


def test_a_game_with_an_open_seat_is_played_to_the_end_once_it_is_taken(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", seed=8, seats=["open", "greedy"])
    status, joined = server.json("POST", f"/api/games/{game}/join", body={"name": "Al"})
    assert status == 201
    rnd = random.Random(8)
    for _ in range(2000):
        view = json.loads(server.read(game, 1, joined["token"]))
        if view["over"]:
            break
        if view["options"]:
            option = rnd.choice(view["options"])
            assert server.json("POST", f"/api/games/{game}/decisions", joined["token"], {"option": option})[0] == 200
        else:
            time.sleep(0.02)
    assert view["over"]
    clock = server.json("GET", f"/api/games/{game}/clock")[1]
    assert clock["running"] == [] and clock["since"] == 0.0 and clock["used"][0] > 0
