"""The ASGI application: the JSON API (docs/serve.md) and the pages that use it.

Engine work runs in Starlette's thread pool under the table's one lock, so requests are
applied one after the other: two decisions posted at once for one game never mix.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TextIO, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rules_dsl import card_face as card_faces
from rules_dsl import chosen, narrate
from rules_dsl.bots import BOT_NAMES, SEARCH_BOTS
from rules_dsl.packs.installed import installed_packs
from rules_dsl.serve import pages
from rules_dsl.serve.store import BUSY_SECONDS, Store
from rules_dsl.serve.table import BOT_WORKERS, OPEN, BudgetCap, Game, Refused, Table
from rules_dsl.terminal import SCENARIO_OPTION

T = TypeVar("T")
MAX_BODY = 64 * 1024
MAX_DEPTH = 32  # a request body nested deeper is refused before it is parsed
WAIT_SECONDS = 20.0  # the longest a page's long poll for a change waits
FACE_HEADERS = {"Cache-Control": "max-age=3600"}  # a card's face never changes within a game
LOG_SHOWN = 200  # the last lines of the narrated log a page shows (the API and the replays have all)


class Changes:
    """Wakes the long polls waiting on a game when it changes: the table calls `changed` from
    any thread (under its lock), the waits run on the event loop. A page hears of a move as
    soon as it is stored, with no polling in between."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiting: dict[str, set[asyncio.Future[None]]] = {}

    def changed(self, game_id: str) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._wake, game_id)

    def _wake(self, game_id: str) -> None:
        for waiter in self.waiting.pop(game_id, set()):
            if not waiter.done():
                waiter.set_result(None)

    def watch(self, game_id: str) -> asyncio.Future[None]:
        """A future done at the game's next change (made before the version is read, so a
        change in between is not missed)."""
        self.loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = self.loop.create_future()
        self.waiting.setdefault(game_id, set()).add(waiter)
        return waiter

    def forget(self, game_id: str, waiter: asyncio.Future[None]) -> None:
        waiters = self.waiting.get(game_id)
        if waiters is not None:
            waiters.discard(waiter)
            if not waiters:
                del self.waiting[game_id]


def create_app(
    db: Path, cap: BudgetCap | None = None, busy_seconds: float = BUSY_SECONDS, access_log: TextIO | None = None
) -> Starlette:
    """The server of the games in `db`, which it holds for itself (StoreBusy when another
    server does); `cap` bounds the bots' budgets, `busy_seconds` how long a write waits for
    another program's lock on the file before the request is answered 503; one line per
    request goes to `access_log` (none when None)."""
    table = Table(Store(db, busy_seconds), cap)
    changes = Changes()
    table.changed = changes.changed
    env = pages.environment()
    books: dict[str, pages.CardBook] = {}

    async def locked(work: Callable[[], T]) -> T:
        def run() -> T:
            with table.lock:
                return work()

        return await run_in_threadpool(run)

    def book(game: Game) -> pages.CardBook:
        if game.row.id not in books:
            books[game.row.id] = pages.CardBook(game.rules, game.row.players, list(game.row.variants))
        return books[game.row.id]

    def html(template: str, status: int = 200, **values: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(template).render(**values), status)

    # -- the JSON API ----------------------------------------------------------------------

    async def create_game(request: Request) -> Response:
        body = await _json_body(request)
        game_id, tokens = await locked(lambda: table.create(body))
        seats = {
            str(seat + 1): {"token": token, "url": f"/games/{game_id}/seat/{seat + 1}?token={token}"}
            for seat, token in tokens.items()
        }
        return JSONResponse({"id": game_id, "seats": seats}, 201)

    async def read_game(request: Request) -> Response:
        game_id = request.path_params["game"]
        seat = _seat_param(request)
        token = _token(request)

        def work() -> dict[str, Any]:
            game = table.load(game_id)
            table.check_seat(game, seat, token)
            return table.view(game, seat)

        return JSONResponse(await locked(work))

    async def as_seat(request: Request, token: str, act: Callable[[Game, int], T]) -> T:
        """`act` on the request's game for the seat `token` names, under the lock."""
        game_id = request.path_params["game"]

        def work() -> T:
            game = table.load(game_id)
            return act(game, table.seat_of(game, token))

        return await locked(work)

    async def post_decision(request: Request) -> Response:
        token = _token(request)
        raw = await _raw_body(request)

        # a seat's page asks for its panel drawn again (Accept: text/html): one round trip a click
        page = "text/html" in request.headers.get("accept", "")

        def decide(game: Game, seat: int) -> dict[str, Any]:
            body = _parse_json(raw)
            option = body.get("option")
            if not isinstance(option, str):
                raise Refused(400, 'the body must be {"option": OPTION_ID}')
            table.decide(game, seat, option)
            return seat_context(game, seat, token) if page else table.view(game, seat)

        answer = await as_seat(request, token, decide)
        return html("panel.html", **answer) if page else JSONResponse(answer)

    async def post_undo(request: Request) -> Response:
        def undo(game: Game, seat: int) -> dict[str, Any]:
            table.undo(game, seat)
            return table.view(table.load(game.row.id), seat)

        return JSONResponse(await as_seat(request, _token(request), undo))

    async def post_chat(request: Request) -> Response:
        token = _token(request)
        raw = await _raw_body(request)

        def say(game: Game, seat: int) -> dict[str, Any]:
            return {"n": table.say(game, seat, _parse_json(raw).get("text"))}

        return JSONResponse(await as_seat(request, token, say), 201)

    async def read_chat(request: Request) -> Response:
        """The chat lines after `?after=N` (all when absent), each seat's name and whether
        it is present; asked with a seat's token, which marks that seat present."""
        token = _token(request)
        after = request.query_params.get("after")
        since = -1 if after is None else _whole(after, "after")

        def chat(game: Game, seat: int) -> dict[str, Any]:
            table.visit(game, seat)
            return {"lines": table.chat(game, since), "names": table.names(game), "present": table.present(game)}

        return JSONResponse(await as_seat(request, token, chat))

    async def post_rematch(request: Request) -> Response:
        """The next game of this table (made by the first seat asking): this seat's link in it."""

        def rematch(game: Game, seat: int) -> dict[str, Any]:
            next_id, next_token = table.rematch(game, seat)
            return {"id": next_id, "url": f"/games/{next_id}/seat/{seat + 1}?token={next_token}"}

        return JSONResponse(await as_seat(request, _token(request), rematch))

    async def post_name(request: Request) -> Response:
        token = _token(request)
        raw = await _raw_body(request)

        def name(game: Game, seat: int) -> dict[str, Any]:
            table.name(game, seat, _parse_json(raw).get("name"))
            return {"names": table.names(game)}

        return JSONResponse(await as_seat(request, token, name))

    async def read_lobby(request: Request) -> Response:
        return JSONResponse({"games": await locked(table.lobby)})

    async def post_join(request: Request) -> Response:
        """Take the game's first open seat (from the lobby): its number, token and link."""
        game_id = request.path_params["game"]
        raw = await _raw_body(request)

        def work() -> dict[str, Any]:
            game = table.load(game_id)
            seat, token = table.join(game, _parse_json(raw or b"{}").get("name"))
            url = f"/games/{game_id}/seat/{seat + 1}?token={token}"
            return {"id": game_id, "seat": seat + 1, "token": token, "url": url}

        return JSONResponse(await locked(work), 201)

    async def read_clock(request: Request) -> Response:
        """Each seat's time used (public: the whole table sees the clock)."""
        game_id = request.path_params["game"]
        return JSONResponse(await locked(lambda: table.clocks(table.load(game_id))))

    async def read_card(request: Request) -> Response:
        game_id, card_id = request.path_params["game"], request.path_params["card"]

        def work() -> dict[str, Any]:
            game = table.load(game_id)
            try:
                card = book(game).get(card_id)
            except Exception as exc:  # noqa: BLE001 - RulesError names the card and suggests one
                raise Refused(404, str(exc)) from None
            facts = [{"name": f.name, "value": f.value, "written": f.written} for f in card.facts]
            return {"id": card.id, "name": card.name, "kind": card.kind, "facts": facts, "text": card.canonical}

        return JSONResponse(await locked(work))

    async def card_face(request: Request) -> Response:
        """A card's front as SVG (rules_dsl/card_face.py): pack data, the same for every seat;
        a page asks only for the cards its seat can identify."""
        game_id, card_id = request.path_params["game"], request.path_params["card"]

        def work() -> str:
            game = table.load(game_id)
            try:
                card = book(game).get(card_id)
            except Exception as exc:  # noqa: BLE001 - RulesError names the card and suggests one
                raise Refused(404, str(exc)) from None
            ct = game.rules.cards[game.rules.card_index[card_id]]
            return card_faces.svg_document(card_faces.front(game.rules, card, ct.public_props))

        return Response(await locked(work), media_type="image/svg+xml", headers=FACE_HEADERS)

    async def card_back(request: Request) -> Response:
        """The back of a card of a kind, with the properties its kind prints there (given in
        the query, as the seat's view shows them: only the kind's back properties)."""
        game_id, kind = request.path_params["game"], request.path_params["kind"]
        given = dict(request.query_params)

        def work() -> str:
            game = table.load(game_id)
            rules = game.rules
            kinds = {ct.kind: ct.public_props for ct in rules.cards}
            if kind not in kinds:
                raise Refused(404, f"no card kind {kind!r} in {rules.name}")
            extra = sorted(set(given) - set(kinds[kind]))
            if extra:
                raise Refused(400, f"a {kind}'s back shows {', '.join(kinds[kind]) or 'no property'}, not {extra[0]!r}")
            if any(len(v) > 100 for v in given.values()):
                raise Refused(400, "a property's value is at most 100 characters")
            facts = [(p, given[p]) for p in kinds[kind] if p in given]
            return card_faces.svg_document(card_faces.back(rules, kind, facts))

        return Response(await locked(work), media_type="image/svg+xml", headers=FACE_HEADERS)

    # -- pages -----------------------------------------------------------------------------

    async def table_page(request: Request) -> Response:
        def work() -> tuple[
            list[dict[str, Any]], list[tuple[str, str]], dict[str, dict[str, Any]], list[dict[str, Any]]
        ]:
            rows, broken = table.store.games()
            games = [
                {"id": g.id, "pack": g.pack, "players": g.players, "seats": [s.kind for s in g.seats]} for g in rows
            ]
            packs = {}
            for p in installed_packs().values():
                if p.problem:
                    continue
                rules = table.engine(p.id).rules
                option = rules.choosable.get(SCENARIO_OPTION)
                packs[p.id] = {
                    "players": [rules.min_players, rules.max_players],
                    "variants": sorted(rules.variants),
                    "scenarios": [] if option is None else chosen.names(rules, option),
                }
            return games, broken, packs, table.lobby()

        games, broken, packs, lobby = await locked(work)
        return html(
            "table.html",
            packs=packs,
            games=games,
            broken=broken,
            lobby=lobby,
            bots=["human", OPEN, *BOT_NAMES],
            search=SEARCH_BOTS,
        )

    def seat_context(game: Game, seat: int, token: str) -> dict[str, Any]:
        data = table.view(game, seat)
        # this seat's decision; several seats may be deciding at once
        mine_d = game.engine.decision(game.state, seat)
        d = mine_d or game.state.pending
        mine = mine_d is not None and not data["over"]
        waiting = [w for w in data["view"]["waiting"] if w != seat]
        table.visit(game, seat)
        names = table.names(game)
        short = narrate.option_labels(game.rules, game.state, d, facts=False) if mine and d is not None else []
        cards = narrate.option_cards(game.rules, game.state, d) if mine and d is not None else []
        faces = [pages.face_url(game.row.id, c) if c else "" for c in cards]
        question = pages.question(game.rules, d) if d is not None else ""
        if data["over"]:
            title = f"Game over · {game.row.pack}"
        elif mine:
            title = f"▶ Your turn: {question} · Player {seat + 1}"
        else:
            who = ", ".join(f"Player {w + 1}" for w in waiting) or "?"
            title = f"Waiting for {who} · you are Player {seat + 1}"
        return {
            "game": game.row,
            "seat": seat,
            "token": token,
            "data": data,
            "decision": data["view"]["decision"] if mine else None,
            "question": question,
            "context": pages.context(data["log"]),
            "title": title,
            "mine": mine,
            # every seat still deciding (several when they decide at once)
            "waiting": waiting,
            "areas": pages.areas(book(game), data["view"], seat, game.row.id, names),
            "names": names,
            "named": seat in table.store.names(game.row.id),
            "present": table.present(game),
            "chat": table.chat(game),
            "version": table.version(game),
            "log": data["log"][-LOG_SHOWN:],
            "earlier": max(0, len(data["log"]) - LOG_SHOWN),
            "clock": clock_view(table.clocks(game), names),
            "choices": list(zip(data["options"], short, faces, data["labels"])),
        }

    async def seat_page(request: Request) -> Response:
        return await _seat_html(request, "seat.html")

    async def seat_panel(request: Request) -> Response:
        return await _seat_html(request, "panel.html")

    async def _seat_html(request: Request, template: str) -> Response:
        game_id = request.path_params["game"]
        seat = _path_seat(request)
        token = request.query_params.get("token", "") or _token(request, required=False)

        def work() -> dict[str, Any]:
            game = table.load(game_id)
            table.check_seat(game, seat, token)
            return seat_context(game, seat, token)

        return html(template, **await locked(work))

    async def seat_version(request: Request) -> Response:
        """The game's version; with `?known=V`, answered once it differs from V (or after
        WAIT_SECONDS): a long poll, so pages hear of others' moves at once."""
        game_id = request.path_params["game"]
        known = request.query_params.get("known")
        if known is not None and len(known) > 64:
            raise Refused(400, "'known' is a version: at most 64 characters")

        def work() -> str:
            return table.version(table.load(game_id))

        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            waiter = changes.watch(game_id)
            try:
                version = await locked(work)
                left = deadline - time.monotonic()
                if known is None or version != known or left <= 0:
                    return JSONResponse({"version": version})
                # woken by the change; a second's timeout keeps a lost wake-up short
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(waiter), min(left, 1.0))
            finally:
                changes.forget(game_id, waiter)

    async def replay_page(request: Request) -> Response:
        """A replay at `?step=N`; without a step, the game as it stands, which follows the
        game live (a spectator's page: the public's view unless a seat's token is given)."""
        return await _replay_html(request, "replay.html")

    async def replay_part(request: Request) -> Response:
        return await _replay_html(request, "watched.html")

    async def _replay_html(request: Request, template: str) -> Response:
        game_id = request.path_params["game"]
        seat = _seat_param(request, required=False)
        token = request.query_params.get("token", "")
        live = "step" not in request.query_params

        def work() -> dict[str, Any]:
            game = table.load(game_id)
            if seat >= 0:
                table.check_seat(game, seat, token)
            last = len(game.state.log)
            step = _whole(request.query_params.get("step", str(last)), "step")
            step = min(step, last)
            view, log = table.replay(game, step, seat)
            names = table.names(game)
            shown = seat_labels(names)
            waiting = [shown[w] for w in view.get("waiting", [])] if step == last else []
            if not live:
                title = f"Replay {game.row.id}: rules-dsl table"
            elif game.state.over:
                title = f"Game over · watching {game.row.pack} {game.row.id}"
            else:  # whose turn it is, as on a seat's page
                title = f"Waiting for {', '.join(waiting) or '?'} · watching {game.row.pack} {game.row.id}"
            return {
                "title": title,
                "live": live,
                "version": table.version(game),
                "clock": clock_view(table.clocks(game), names) if live else [],
                "game": game.row,
                "seat": seat,
                "token": token,
                "step": step,
                "last": last,
                "areas": pages.areas(book(game), view, seat, game.row.id, names),
                "waiting": waiting,
                "log": log[-LOG_SHOWN:],
                "earlier": max(0, len(log) - LOG_SHOWN),
                "over": game.state.over and step == last,
                "scores": table.scores(game) if step == last else None,
            }

        return html(template, **await locked(work))

    # -- errors ----------------------------------------------------------------------------

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.reason, "status": exc.status}, exc.status)
        return html("error.html", exc.status, code=exc.status, reason=exc.reason)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.detail, "status": exc.status_code}, exc.status_code)
        return html("error.html", exc.status_code, code=exc.status_code, reason=exc.detail)

    routes = [
        Route("/", table_page),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game}", read_game),
        Route("/api/games/{game}/decisions", post_decision, methods=["POST"]),
        Route("/api/games/{game}/undo", post_undo, methods=["POST"]),
        Route("/api/games/{game}/cards/{card}", read_card),
        Route("/api/games/{game}/chat", read_chat),
        Route("/api/games/{game}/chat", post_chat, methods=["POST"]),
        Route("/api/games/{game}/name", post_name, methods=["POST"]),
        Route("/api/games/{game}/rematch", post_rematch, methods=["POST"]),
        Route("/api/games/{game}/faces/{card}.svg", card_face),
        Route("/api/games/{game}/backs/{kind}.svg", card_back),
        Route("/api/games/{game}/version", seat_version),
        Route("/api/games/{game}/clock", read_clock),
        Route("/api/games/{game}/join", post_join, methods=["POST"]),
        Route("/api/lobby", read_lobby),
        Route("/games/{game}/seat/{seat}", seat_page),
        Route("/games/{game}/seat/{seat}/panel", seat_panel),
        Route("/games/{game}/replay", replay_page),
        Route("/games/{game}/replay/part", replay_part),
        Mount("/static", StaticFiles(directory=pages.HERE / "static"), name="static"),
    ]
    stop = threading.Event()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # bots that were due when the server stopped move again; then the bots' workers
        resume = threading.Thread(target=table.resume, name="resume", daemon=True)
        resume.start()
        bots = [
            threading.Thread(target=table.run_bots, args=(stop,), name=f"bots-{i}", daemon=True)
            for i in range(BOT_WORKERS)
        ]
        for worker in bots:
            worker.start()
        changes.loop = asyncio.get_running_loop()
        yield
        stop.set()
        for worker in bots:
            worker.join(5)

    app = Starlette(routes=routes, exception_handlers={Refused: refused, HTTPException: http_error}, lifespan=lifespan)
    app.state.table = table
    if access_log is not None:
        app.add_middleware(AccessLog, out=access_log)
    return app


def seat_labels(names: list[str]) -> list[str]:
    """ "Player 2 (Bea)": each seat and the name chosen for it ("Player 1" when none was)."""
    return [n if n.startswith(narrate.seat_name(i)) else f"{narrate.seat_name(i)} ({n})" for i, n in enumerate(names)]


def clock_view(clocks: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The clock line of a page: each seat, its time used as m:ss, and whether it runs."""
    return [
        {"name": name, "used": used, "shown": _minutes(used), "running": seat + 1 in clocks["running"]}
        for seat, (name, used) in enumerate(zip(seat_labels(names), clocks["used"], strict=True))
    ]


def _minutes(seconds: float) -> str:
    whole = int(seconds)
    return (
        f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
        if whole >= 3600
        else f"{whole // 60}:{whole % 60:02d}"
    )


SECRET_PARAMS = frozenset({"token"})
LOG_PATH_MOST = 300  # characters of a request's path and query in the access log


class AccessLog:
    """One line per request: time, client, method, path and query (a seat's token replaced
    by `…`, control characters escaped, at most LOG_PATH_MOST characters), status, bytes
    sent, milliseconds. Headers (the Authorization token) and bodies (chat) are never written."""

    def __init__(self, app: Any, out: TextIO) -> None:
        self.app = app
        self.out = out

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        answer = {"status": 0, "bytes": 0}

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            elif message["type"] == "http.response.body":
                answer["bytes"] += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            ms = (time.perf_counter() - start) * 1000
            client = scope.get("client") or ("-", 0)
            when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            status = answer["status"] or "-"
            line = f"{when} {client[0]} {scope['method']} {_logged_target(scope)} {status} {answer['bytes']} {ms:.0f}ms"
            with contextlib.suppress(OSError, ValueError):
                print(line, file=self.out, flush=True)


def _logged_target(scope: dict[str, Any]) -> str:
    """The request's path and query as sent, each secret parameter's value replaced."""
    path = scope.get("raw_path") or scope["path"].encode()
    query = scope.get("query_string", b"")
    if query:
        parts = []
        for part in query.split(b"&"):
            key, eq, _ = part.partition(b"=")
            name = urllib.parse.unquote_to_bytes(key).decode("utf-8", "replace")
            parts.append(key + b"=\xe2\x80\xa6" if eq and name in SECRET_PARAMS else part)
        path += b"?" + b"&".join(parts)
    text = path.decode("utf-8", "replace")
    text = "".join(c if c.isprintable() and c != " " else f"\\x{ord(c):02x}" for c in text)
    return text if len(text) <= LOG_PATH_MOST else text[:LOG_PATH_MOST] + "…"


async def _raw_body(request: Request) -> bytes:
    """The body, read as it arrives and refused (413) as soon as it passes MAX_BODY bytes,
    whether its length was declared or it comes in chunks."""
    declared = request.headers.get("content-length")
    if declared is not None and not _digits(declared):
        raise Refused(400, f"Content-Length must be a whole number of bytes, not {declared!r}")
    if declared is not None and (len(declared) > 9 or int(declared) > MAX_BODY):
        raise Refused(413, f"the body must be JSON of at most {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"the body must be JSON of at most {MAX_BODY} bytes")
    return bytes(body)


def _depth(raw: bytes) -> int:
    """How deep the JSON text's arrays and objects nest (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def _parse_json(raw: bytes) -> dict[str, Any]:
    if _depth(raw) > MAX_DEPTH:
        raise Refused(400, f"the JSON body nests deeper than {MAX_DEPTH} levels")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise Refused(400, f"malformed JSON: {exc}") from None
    except RecursionError:
        raise Refused(400, f"the JSON body nests deeper than {MAX_DEPTH} levels") from None
    if not isinstance(body, dict):
        raise Refused(400, "the body must be a JSON object")
    return body


async def _json_body(request: Request) -> dict[str, Any]:
    return _parse_json(await _raw_body(request))


def _token(request: Request, required: bool = True) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        if not required:
            return ""
        raise Refused(403, "send the seat's token as 'Authorization: Bearer TOKEN'")
    return token.strip()


def _digits(text: str) -> bool:
    """ASCII digits only: str.isdigit also takes '²' and other digits int() refuses."""
    return text.isascii() and text.isdigit()


def _whole(text: str, name: str) -> int:
    if not _digits(text) or len(text) > 9:
        raise Refused(400, f"{name!r} must be a whole number, not {text!r}")
    return int(text)


def _seat_param(request: Request, required: bool = True) -> int:
    """`?seat=N` (1-based) -> the seat index; -1 (the public's view) when absent and allowed."""
    text = request.query_params.get("seat")
    if text is None:
        if required:
            raise Refused(400, "give the seat: ?seat=N")
        return -1
    seat = _whole(text, "seat")
    if seat < 1:
        raise Refused(400, "'seat' counts from 1")
    return seat - 1


def _path_seat(request: Request) -> int:
    seat = _whole(request.path_params["seat"], "seat")
    if seat < 1:
        raise Refused(400, "'seat' counts from 1")
    return seat - 1
