"""rules-dsl serve: a real uvicorn server on 127.0.0.1, its JSON API, a restart after kill -9,
undo, and two people and a bot playing a game to the end in headless Chromium.

Needs the `serve` extra (scripts/test.sh installs it); without it these tests skip, except
under CI, where they fail.
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HAVE_SERVE = all(importlib.util.find_spec(m) is not None for m in ("starlette", "uvicorn", "jinja2"))
pytestmark = pytest.mark.skipif(not HAVE_SERVE and not os.environ.get("CI"), reason="needs the serve extra")

CHROMIUM = "/usr/bin/chromium"
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`rules-dsl serve` in its own process, on a free port of 127.0.0.1."""

    def __init__(self, db: Path, *options: str) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # its output (the access log among it) goes to a file: a pipe nobody reads would fill
        self.log = db.with_name(f"server-{self.port}.log")
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "rules_dsl", "serve", "--port", str(self.port), "--db", str(db), *options],
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=60) as r:
                    assert r.status == 200
                    return
            except OSError:  # not listening yet
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start: {self.output()}") from None
                time.sleep(0.2)

    def kill(self) -> None:
        """kill -9: no clean shut-down, no chance to write anything."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def output(self) -> str:
        """What the server wrote so far (its start line, the access log, errors)."""
        return self.log.read_text(errors="replace")

    def call(
        self, method: str, path: str, token: str = "", body: Any = None, raw: bytes | None = None
    ) -> tuple[int, bytes]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, method=method, data=data)
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def json(self, method: str, path: str, token: str = "", body: Any = None) -> tuple[int, Any]:
        status, data = self.call(method, path, token, body)
        return status, json.loads(data)

    def new_game(self, **request: Any) -> tuple[str, dict[int, str]]:
        status, created = self.json("POST", "/api/games", body=request)
        assert status == 201, created
        return created["id"], {int(k): v["token"] for k, v in created["seats"].items()}

    def read(self, game: str, seat: int, token: str) -> bytes:
        status, data = self.call("GET", f"/api/games/{game}?seat={seat}", token)
        assert status == 200, data
        return data


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.sqlite")
    yield s
    if s.process.poll() is None:
        s.kill()


def settled(server: Server, game: str, tokens: dict[int, str]) -> dict[int, Any]:
    """Every human seat's view once the bots have moved: a person must decide, or it is over."""
    deadline = time.monotonic() + 120
    while True:
        views = {seat: json.loads(server.read(game, seat, t)) for seat, t in tokens.items()}
        if any(v["over"] or v["options"] for v in views.values()):
            return views
        assert time.monotonic() < deadline, "the bots never let a person decide"
        time.sleep(0.05)


def play(server: Server, game: str, tokens: dict[int, str], rnd: random.Random, decisions: int) -> int:
    """Random legal decisions by the human seats, through the API: how many were taken."""
    for n in range(decisions):
        views = settled(server, game, tokens)
        if any(v["over"] for v in views.values()):
            return n
        seat = next(s for s, v in views.items() if v["options"])
        option = rnd.choice(views[seat]["options"])
        status, body = server.json("POST", f"/api/games/{game}/decisions", tokens[seat], {"option": option})
        assert status == 200, body
        assert body["view"]["player"] == seat - 1
    return decisions


def test_the_api_refuses_bad_input_and_loses_nothing(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", players=2, seed=3, seats=["human", "human"])
    assert sorted(tokens) == [1, 2]
    play(server, game, tokens, random.Random(1), 5)
    before = {seat: server.read(game, seat, t) for seat, t in tokens.items()}
    first = json.loads(before[1])
    decider = 1 if first["options"] else 2
    other = 3 - decider
    legal = json.loads(before[decider])["options"]
    path = f"/api/games/{game}/decisions"
    cases = [
        # (method, path, token, raw body, status, words in the reason)
        ("POST", path, tokens[decider], b"{not json", 400, "malformed JSON"),
        ("POST", path, tokens[decider], b"[1, 2]", 400, "JSON object"),
        ("POST", path, tokens[decider], b'{"choice": "x"}', 400, "option"),
        ("POST", path, "not-a-token", json.dumps({"option": legal[0]}).encode(), 403, "not a seat"),
        ("POST", path, "", json.dumps({"option": legal[0]}).encode(), 403, "Bearer"),
        ("POST", path, "t\u00f6ken", json.dumps({"option": legal[0]}).encode(), 403, "not a seat"),
        ("POST", path, tokens[decider], b'{"option": "no-such-option"}', 409, "not a legal option"),
        ("POST", path, tokens[other], json.dumps({"option": legal[0]}).encode(), 409, "not seat"),
        ("POST", "/api/games/nosuchgame/decisions", tokens[decider], b'{"option": "x"}', 404, "no game"),
        ("GET", f"/api/games/{game}?seat={decider}", tokens[other], None, 403, f"not seat {decider}"),
        ("GET", f"/api/games/{game}?seat=1", "", None, 403, "Bearer"),
        ("GET", f"/api/games/{game}?seat=9", tokens[1], None, 400, "seat"),
        ("GET", f"/api/games/{game}", tokens[1], None, 400, "seat"),
        ("GET", "/api/games/nosuchgame?seat=1", tokens[1], None, 404, "no game"),
        ("POST", "/api/games", "", b"{oops", 400, "malformed JSON"),
        ("POST", "/api/games", "", b'{"pack": "microcosm", "seats": ["human", "wizard"]}', 400, "unknown seat"),
        ("POST", "/api/games", "", b'{"pack": "nope", "seats": ["human", "human"]}', 400, "nope"),
        ("POST", "/api/games", "", b'{"pack": "microcosm", "seats": ["human", "human", "human"]}', 400, "2 players"),
        ("POST", "/api/games", "", b'{"pack": "microcosm", "seats": ["human", "ismcts:lots"]}', 400, "budget"),
        ("POST", f"/api/games/{game}/undo", "bad", None, 403, "not a seat"),
    ]
    for method, where, token, raw, status, reason in cases:
        got, data = server.call(method, where, token, raw=raw)
        assert got == status, (where, raw, data)
        error = json.loads(data)
        assert reason in error["error"], (where, raw, error)
        after = {seat: server.read(game, seat, t) for seat, t in tokens.items()}
        assert after == before, (where, raw)
    status, listing = server.call("GET", "/")
    assert status == 200 and listing.count(b"/replay") == 1  # the refused games were never made


def test_a_view_shows_only_the_seat_and_the_log_is_told_in_words(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", players=2, seed=4, seats=["human", "human"])
    play(server, game, tokens, random.Random(4), 12)
    one, two = (json.loads(server.read(game, s, tokens[s])) for s in (1, 2))
    assert isinstance(one["view"]["zones"]["hand.0"], list) and set(one["view"]["zones"]["hand.1"]) == {"count"}
    assert isinstance(two["view"]["zones"]["hand.1"], list) and set(two["view"]["zones"]["hand.0"]) == {"count"}
    # each seat reads its own log: the same decisions, a drawn card named to its drawer only
    assert one["log"][:2] == two["log"][:2] and one["log"] != two["log"]
    assert one["log"][0] == "The game begins: 2 players, microcosm"
    log = "\n".join(one["log"])
    assert "Turn 2 (round 1): Player 2" in log
    # cards are told by name and zones in words, never as ids with hyphens
    assert "domain deck" in log and "domain-deck" not in log
    for view in (one, two):
        assert len(view["labels"]) == len(view["options"])
        assert all(label and "-" not in label.split("(")[0] for label in view["labels"])


def test_decisions_posted_at_once_are_applied_one_after_the_other(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", players=2, seed=5, seats=["human", "human"])
    view = json.loads(server.read(game, 1, tokens[1]))
    assert view["options"] and view["decisions"] == 0
    results: list[int] = []

    def post(option: str) -> None:
        results.append(server.call("POST", f"/api/games/{game}/decisions", tokens[1], {"option": option})[0])

    threads = [threading.Thread(target=post, args=(view["options"][i % 2],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = json.loads(server.read(game, 1, tokens[1]))
    assert sorted(set(results)) <= [200, 409] and 200 in results
    # every acknowledged decision is in the log, and nothing else
    assert after["decisions"] == results.count(200)


def test_a_killed_server_serves_every_game_as_before(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    first = Server(db)
    try:
        game, tokens = first.new_game(pack="microcosm", players=2, seed=11, seats=["human", "human"])
        bot_game, bot_tokens = first.new_game(pack="microcosm", seed=12, seats=["greedy", "human"])
        rnd = random.Random(11)
        assert play(first, game, tokens, rnd, 20) == 20
        assert play(first, bot_game, bot_tokens, random.Random(3), 8) == 8
        seen = {seat: first.read(game, seat, t) for seat, t in tokens.items()}
        settled(first, bot_game, bot_tokens)
        seen_bot = first.read(bot_game, 2, bot_tokens[2])
        assert json.loads(seen[1])["decisions"] >= 20
    finally:
        first.kill()
    second = Server(db)
    try:
        assert {seat: second.read(game, seat, t) for seat, t in tokens.items()} == seen
        assert second.read(bot_game, 2, bot_tokens[2]) == seen_bot
        assert play(second, game, tokens, rnd, 1000) < 1000
        assert play(second, bot_game, bot_tokens, random.Random(3), 1000) < 1000
        for g, seat, token in ((game, 1, tokens[1]), (bot_game, 2, bot_tokens[2])):
            end = json.loads(second.read(g, seat, token))
            assert end["over"] and end["options"] == []
            assert end["scores"]["scores"] == end["view"]["scores"] and end["scores"]["winners"]
            assert end["log"][-1].startswith("Game over")
    finally:
        second.kill()


def test_undo_takes_back_a_decision_that_showed_nothing(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", players=2, seed=6, seats=["human", "human"])
    # the first decision (supply or deck) shows nothing by itself: it can be taken back
    start = {seat: server.read(game, seat, t) for seat, t in tokens.items()}
    view = json.loads(start[1])
    assert view["undo"] == {"allowed": False, "reason": "nothing has been decided yet"}
    status, after = server.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": "draw-from-the-supply"})
    assert status == 200 and after["undo"]["allowed"] is True
    status, other = server.json("POST", f"/api/games/{game}/undo", tokens[2])
    assert status == 409 and "not yours" in other["error"]
    status, undone = server.json("POST", f"/api/games/{game}/undo", tokens[1])
    assert status == 200 and undone["decisions"] == 0
    assert {seat: server.read(game, seat, t) for seat, t in tokens.items()} == start
    # drawing from the deck shows a hidden card: no undo, and the game is unchanged by asking
    status, drawn = server.json("POST", f"/api/games/{game}/decisions", tokens[1], {"option": "draw-from-the-deck"})
    assert status == 200 and drawn["undo"]["allowed"] is False and "hidden" in drawn["undo"]["reason"]
    kept = {seat: server.read(game, seat, t) for seat, t in tokens.items()}
    status, refused = server.json("POST", f"/api/games/{game}/undo", tokens[1])
    assert status == 409 and "hidden" in refused["error"]
    assert {seat: server.read(game, seat, t) for seat, t in tokens.items()} == kept


def test_replays_step_forward_and_back(server: Server) -> None:
    game, tokens = server.new_game(pack="microcosm", players=2, seed=7, seats=["human", "human"])
    play(server, game, tokens, random.Random(7), 6)
    status, page = server.call("GET", f"/games/{game}/replay?seat=1&token={tokens[1]}&step=2")
    text = page.decode()
    assert status == 200 and "after decision 2 of 6" in text
    assert "step=1" in text and "step=3" in text
    status, page = server.call("GET", f"/games/{game}/replay?seat=1&token={tokens[2]}&step=2")
    assert status == 403
    status, page = server.call("GET", f"/games/{game}/replay?step=0")  # what everyone sees
    assert status == 200 and "after decision 0 of 6" in page.decode()


OVERLAPS = """() => {
  const sel = "header.top, .status, .area, .zone h4, figure.card, .stack, button, #logbox, .scores";
  const shown = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length);
  const name = (e) => e.tagName + (e.id ? "#" + e.id : "") + "." + e.className + " " + (e.innerText || "").slice(0, 30);
  const bad = [];
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++) {
      const a = shown[i], b = shown[j];
      if (a.contains(b) || b.contains(a)) continue;
      const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
      const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      if (x > 1 && y > 1) bad.push([name(a), name(b)]);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push(["page", "wider than the screen"]);
  return bad.slice(0, 5);
}"""
FACES_LOADED = (
    "() => [...document.querySelectorAll('img.cardface, img.optface')].every((i) => i.complete && i.naturalWidth > 0)"
)


def check_page(page: Any) -> None:
    """No element over another (bounding boxes), every card face drawn, the title telling
    whether it is this seat's turn, never "to play" beside "Waiting"."""
    page.wait_for_function(FACES_LOADED, timeout=10_000)
    assert page.evaluate(OVERLAPS) == []
    status = page.locator("#status").inner_text()
    assert "to play" not in status
    title = page.title()
    if page.locator("#options button.option").count():
        assert title.startswith("▶ Your turn: "), title
    elif "The game is over." in status:
        assert title.startswith("Game over"), title
    else:
        assert title.startswith("Waiting for Player "), title


SEEN = """() => [document.querySelectorAll('#options button.option').length,
  document.getElementById('log').textContent, document.getElementById('scores') !== null]"""


def click_once(pages: list[Any], rnd: random.Random, check: bool) -> int:
    """A random option clicked on the first page that has options (checked first when
    `check`), waiting until its log shows it: 1; -1 when every page shows the final scores;
    else a short wait for the others: 0.
    One round trip to each page to look (a game to the end is hundreds of clicks)."""
    over = True
    for pg in pages:
        count, text, ended = pg.evaluate(SEEN)  # the log may be folded: its text, not its inner text
        over = over and ended
        if count:
            if check:
                check_page(pg)
            pg.locator("#options button.option").nth(rnd.randrange(count)).click()
            pg.wait_for_function("t => document.getElementById('log').textContent !== t", arg=text, timeout=20_000)
            return 1
    if over:
        return -1  # every page shows the final scores
    pages[0].wait_for_timeout(30)  # the other page hears of it by its long poll
    return 0


def play_to_the_end(pages: list[Any], rnd: random.Random, check_every: int) -> int:
    """Clicks until every page shows the final scores: how many."""
    clicks = 0
    for _ in range(5000):
        clicked = click_once(pages, rnd, check=clicks % check_every == 0)
        if clicked < 0:
            break
        clicks += clicked
    for pg in pages:
        pg.wait_for_selector("#scores", timeout=20_000)
        assert "The game is over." in pg.locator("#turn").inner_text()
        assert "Winner: Player" in pg.locator("#scores").inner_text()
        check_page(pg)
    return clicks


DOC_IMAGES = Path(__file__).parent.parent / "docs" / "images"


@pytest.mark.skipif(
    not os.environ.get("CI") and (not Path(CHROMIUM).exists() or shutil.which("chromium") is None),
    reason="needs chromium",
)
def test_two_people_and_a_bot_play_to_the_end_in_the_browser(server: Server) -> None:
    """The base game for three, to the end, by clicks: one person on a phone (390 x 844) with
    the link made for them, one on a laptop (1280 x 800) who takes the open seat from the
    lobby, each in a browser context of their own, a bot, and a spectator whose page follows
    the game live showing only what everyone may see."""
    from playwright import sync_api

    errors: list[str] = []
    started = time.monotonic()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)
        try:
            host = browser.new_context().new_page()
            host.on("pageerror", lambda e: errors.append(str(e)))
            host.goto(server.url + "/")
            host.select_option("select[name=pack]", "base")
            host.fill("input[name=players]", "3")
            host.fill("input[name=seed]", "21")
            assert host.locator("#variant-choices input.variant[value=learning]").count() == 1  # offered, not ticked
            seats = host.locator("#seats .seat .kind")
            seats.nth(0).select_option("human")
            seats.nth(1).select_option("open")  # for whoever takes it from the lobby
            seats.nth(2).select_option("random")
            host.click("#create")
            host.wait_for_selector("a.seat-link")
            links = host.eval_on_selector_all("a.seat-link", "as => as.map(a => a.href)")
            assert len(links) == 1
            game = links[0].split("/games/")[1].split("/")[0]
            # a spectator from the start: the public page without a step follows the game
            watcher = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            watcher.on("pageerror", lambda e: errors.append(str(e)))
            watcher.goto(f"{server.url}/games/{game}/replay")
            assert watcher.locator("#live").count() == 1
            assert watcher.locator("#step").inner_text() == "after decision 0 of 0"
            phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            laptop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            for page in (phone, laptop):
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            phone.goto(links[0])
            # the laptop's person finds the game in the lobby and takes its open seat
            laptop.goto(server.url + "/")
            offer = laptop.locator(f"li.open-game[data-game='{game}']")
            assert "Player 2 (open)" in offer.inner_text()
            if os.environ.get("UPDATE_DOC_IMAGES"):
                laptop.locator("#lobby").screenshot(path=str(DOC_IMAGES / "serve-lobby.png"))
            offer.locator("input[name=name]").fill("Bea")
            offer.locator("button").click()
            laptop.wait_for_url(f"**/games/{game}/seat/2?token=*")
            pages = [phone, laptop]
            assert "you are Player 1" in phone.content() and "you are Player 2" in laptop.content()
            assert laptop.locator("#join").count() == 0  # named when joining
            # each sees their own hand as card faces and only the count of the other's
            for me, other in ((0, 1), (1, 0)):
                areas = pages[me].locator("section.area")
                own = "You, Player 1" if me == 0 else "You, Player 2 (Bea)"
                assert areas.nth(0).locator("h3").inner_text() == own
                theirs = pages[me].locator("section.area", has=pages[me].locator("h3", has_text=f"Player {other + 1}"))
                hand = theirs.locator(".zone", has=pages[me].locator(".zname", has_text="hand"))
                assert "cards, hidden" in hand.inner_text() and hand.locator("figure.card").count() == 0
                mine = areas.nth(0).locator(".zone", has=pages[me].locator(".zname", has_text="hand"))
                assert mine.locator("figure.card img.cardface").count() >= 1
                assert pages[me].locator("#clock > span").count() == 3  # every seat's clock
                check_page(pages[me])
            # on the phone, the seat's own area and its options come before the log, which is folded
            assert phone.locator("#logbox").get_attribute("open") is None
            own_box = phone.locator("section.area").nth(0).bounding_box()
            log = phone.locator("#logbox").bounding_box()
            assert own_box is not None and log is not None and own_box["y"] < log["y"]
            # a card opens large on a tap
            phone.locator("figure.card").first.click()
            assert phone.locator("#zoom").is_visible()
            phone.locator("#zoom").click()
            assert not phone.locator("#zoom").is_visible()
            if os.environ.get("UPDATE_DOC_IMAGES"):
                phone.evaluate("window.scrollTo(0, 0)")
                laptop.screenshot(path=str(DOC_IMAGES / "serve-seat.png"))
                phone.screenshot(path=str(DOC_IMAGES / "serve-phone.png"))
            rnd = random.Random(21)
            clicks = 0
            for _ in range(12):  # the spectator sees the moves as they are made
                clicks += max(0, click_once(pages, rnd, check=False))
            watcher.wait_for_function("() => !document.getElementById('step').textContent.endsWith(' 0 of 0')")
            assert watcher.locator("#live").count() == 1 and watcher.locator("#clock > span").count() == 3
            for who in ("Player 1", "Player 2 (Bea)", "Player 3 (random bot)"):
                area = watcher.locator("section.area", has=watcher.locator("h3", has_text=who))
                hand = area.locator(".zone", has=watcher.locator(".zname", has_text="hand"))
                assert "cards, hidden" in hand.inner_text() and hand.locator("figure.card").count() == 0
            check_page(watcher)
            if os.environ.get("UPDATE_DOC_IMAGES"):
                watcher.screenshot(path=str(DOC_IMAGES / "serve-watch.png"))
            clicks += play_to_the_end(pages, rnd, check_every=25)
            assert clicks > 60  # both people played a whole game of the base game
            decisions = json.loads(server.read(game, 1, links[0].partition("token=")[2]))["decisions"]
            watcher.wait_for_selector("#scores", timeout=20_000)
            assert watcher.locator("#step").inner_text() == f"after decision {decisions} of {decisions}"
            check_page(watcher)
        finally:
            browser.close()
    assert errors == []
    print(f"base 3p by clicks: {clicks} clicks, {time.monotonic() - started:.1f} s")


@pytest.mark.skipif(
    not os.environ.get("CI") and (not Path(CHROMIUM).exists() or shutil.which("chromium") is None),
    reason="needs chromium",
)
def test_undo_and_replay_from_the_seat_page(server: Server) -> None:
    from playwright import sync_api

    game, tokens = server.new_game(pack="microcosm", seed=6, seats=["human", "human"])
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{server.url}/games/{game}/seat/1?token={tokens[1]}")
            assert page.locator("#undo").is_disabled()
            assert page.locator("#undo-why").inner_text() == "nothing has been decided yet"
            page.locator("#options button", has_text="Draw from the supply").click()
            page.wait_for_selector("#undo:enabled")
            assert "choose a card in the supply" in page.locator("#turn").inner_text()
            page.click("#undo")
            page.wait_for_selector("#options button:has-text('Draw from the deck')")
            assert page.locator("#undo").is_disabled()
            # an illegal option (the game moved on in another tab) is refused in words, nothing lost
            page.locator("#options button", has_text="Draw from the deck").evaluate(
                "b => b.dataset.option = 'no-such-option'"
            )
            page.locator("#options button", has_text="Draw from the deck").click()
            page.wait_for_selector("#message:has-text('not a legal option')")
            assert json.loads(server.read(game, 1, tokens[1]))["decisions"] == 0
            page.locator("#options button", has_text="Draw from the deck").click()
            page.wait_for_selector("#undo-why:has-text('showed something hidden')")
            page.click("text=replay")
            page.wait_for_selector("#step")
            assert page.locator("#step").inner_text() == "after decision 1 of 1"
            page.click("#back")
            page.wait_for_selector("#step:has-text('after decision 0 of 1')")
            page.click("#forward")
            page.wait_for_selector("#step:has-text('after decision 1 of 1')")
        finally:
            browser.close()
    assert errors == []


def test_serve_refuses_a_bad_port_or_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rules_dsl.cli import main

    assert main(["serve", "--port", "70000", "--db", str(tmp_path / "g.sqlite")]) == 1
    assert "--port 70000: a port is 1 to 65535" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        main(["serve", "--port", "0"])
    assert refused.value.code == 2
    capsys.readouterr()
    assert main(["serve", "--db", str(tmp_path)]) == 1  # a folder, not a database file
    assert f"cannot open the games database {tmp_path}" in capsys.readouterr().err


def test_a_game_that_no_longer_replays_is_a_clear_error(tmp_path: Path) -> None:
    from rules_dsl.serve.store import GameRow, Seat, Store

    db = tmp_path / "games.sqlite"
    store = Store(db)
    seats = (Seat("human", "t1"), Seat("human", "t2"))
    store.add_game(GameRow("gone", "no-such-pack", 2, 1, (), seats))
    store.add_game(GameRow("changed", "microcosm", 2, 1, (), seats))
    store.add_decision("changed", 0, "an-option-the-pack-no-longer-has")
    store.close()
    server = Server(db)
    try:
        status, error = server.json("GET", "/api/games/gone?seat=1", "t1")
        assert (
            status == 500 and "game gone does not replay with the installed packs: no installed pack" in error["error"]
        )
        status, error = server.json("GET", "/api/games/changed?seat=1", "t1")
        assert status == 500 and "'an-option-the-pack-no-longer-has' is not a legal option" in error["error"]
        status, raw = server.call("POST", "/api/games", raw=b"{" + b" " * 70_000 + b"}")
        assert status == 413 and b"at most" in raw
    finally:
        server.kill()


def test_the_log_is_told_to_each_seat_and_the_public_replay_to_nobody(server: Server) -> None:
    """A card drawn off the hidden deck is named to the player who drew it only: not to the
    other seat, not in the public replay."""
    game, tokens = server.new_game(pack="microcosm", players=2, seed=7, seats=["human", "human"])
    views = settled(server, game, tokens)
    seat = next(s for s, v in views.items() if v["options"])
    assert "draw-from-the-deck" in views[seat]["options"]
    status, body = server.json("POST", f"/api/games/{game}/decisions", tokens[seat], {"option": "draw-from-the-deck"})
    assert status == 200, body
    drawn = f"the domain deck -> Player {seat}'s hand"
    logs = {s: json.loads(server.read(game, s, t))["log"] for s, t in tokens.items()}
    assert any(line.endswith(drawn) for line in logs[seat]), logs[seat]
    other = 3 - seat
    assert not any(drawn in line for line in logs[other]), logs[other]
    assert any(f"Player {seat}'s hand: 0 -> 1 card" in line for line in logs[other])
    status, page = server.call("GET", f"/games/{game}/replay?step=1")
    text = html.unescape(page.decode())
    assert status == 200 and drawn not in text and f"Player {seat}'s hand: 0 -> 1 card" in text
    status, page = server.call("GET", f"/games/{game}/replay?seat={seat}&token={tokens[seat]}&step=1")
    assert status == 200 and drawn in html.unescape(page.decode())


@pytest.mark.skipif(
    not os.environ.get("CI") and (not Path(CHROMIUM).exists() or shutil.which("chromium") is None),
    reason="needs chromium",
)
def test_escalation_for_four_to_the_end_on_a_phone_and_a_laptop(server: Server) -> None:
    """Escalation, 2 people and 2 bots, to the end by clicks, the pages checked (faces drawn,
    nothing overlapping, the turn in the title) at 390 x 844 and 1280 x 800 along the way."""
    from playwright import sync_api

    game, tokens = server.new_game(pack="escalation", players=4, seed=3, seats=["human", "random", "human", "random"])
    errors: list[str] = []
    started = time.monotonic()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)
        try:
            pages = []
            for seat, size in ((1, {"width": 390, "height": 844}), (3, {"width": 1280, "height": 800})):
                page = browser.new_context(viewport=size).new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"{server.url}/games/{game}/seat/{seat}?token={tokens[seat]}")
                pages.append(page)
            for pg in pages:
                check_page(pg)
                assert pg.locator("figure.card img.cardface").count() > 10
            clicks = play_to_the_end(pages, random.Random(3), check_every=40)
            assert clicks > 60
            for pg in pages:
                assert pg.locator("figure.card img.cardface").count() > 10
        finally:
            browser.close()
    assert errors == []
    print(f"escalation 4p by clicks: {clicks} clicks, {time.monotonic() - started:.1f} s")


def test_a_rematch_seats_the_same_table_at_a_new_game(server: Server) -> None:
    game, tokens = server.new_game(
        pack="base", players=3, seed=4, variants=["learning"], seats=["human", "greedy", "human"]
    )
    status, error = server.json("POST", f"/api/games/{game}/rematch", tokens[1])
    assert status == 409 and "not over" in error["error"]
    status, _ = server.json("POST", f"/api/games/{game}/name", tokens[3], {"name": "Bea"})
    assert play(server, game, tokens, random.Random(4), 1000) < 1000  # to the end
    status, first = server.json("POST", f"/api/games/{game}/rematch", tokens[3])
    assert status == 200 and first["url"].startswith(f"/games/{first['id']}/seat/3?token=")
    status, second = server.json("POST", f"/api/games/{game}/rematch", tokens[1])
    assert status == 200 and second["id"] == first["id"]  # the same next game for everyone
    new = {seat: url.partition("token=")[2] for seat, url in ((3, first["url"]), (1, second["url"]))}
    assert new[1] != tokens[1] and new[3] != tokens[3]  # new keys
    view = json.loads(server.read(first["id"], 1, new[1]))
    assert view["decisions"] >= 0 and not view["over"]
    status, chat = server.json("GET", f"/api/games/{first['id']}/chat", new[3])
    assert status == 200 and chat["names"] == ["Player 1", "Player 2 (greedy bot)", "Bea"]
    status, _ = server.call("GET", f"/api/games/{first['id']}?seat=1", tokens[1])
    assert status == 403  # the old key opens nothing in the new game
