"""The games a server runs: set-up, decisions, bots, undo, replays, through the Engine only.

Every game is a `Store` row plus its decisions; in memory it is the state rebuilt by replay,
with the narrated log and, per decision, who took it and whether it showed anything hidden.
All engine work and every write to the store is serialized through one lock (`Table.lock`),
so two decisions posted at once are applied one after the other (docs/serve.md); a bot
thinks on a copy of its game's state without the lock, so no request waits for a bot.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sys
import threading
import time
import traceback
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from rules_dsl import card_view, narrate
from rules_dsl.bots import BOT_NAMES, SEARCH_BOTS, BotSpec, Turn, make_bot, parse_bot, parse_budget
from rules_dsl.engine import Engine, addressed_option
from rules_dsl.errors import IllegalOption, RulesError, suggest
from rules_dsl.packs.installed import installed_packs
from rules_dsl.serve.store import GameRow, Seat, Store, StoreFailed, Tampered
from rules_dsl.state import Decision, GameState

MAX_PLAYERS = 16
MAX_SEED = 2**63 - 1
BOT_SECONDS = 5.0  # the largest search budget a seat may ask for, in seconds per decision
BOT_ITERATIONS = 10_000  # and in iterations (about 5 seconds in the built-in packs)
BOT_RETRY_SECONDS = 0.5  # the bots' pause after the database refused a bot's decision
BOT_WORKERS = 3  # bots thinking at once, each for its own game
CHAT_MOST = 500  # characters in a chat line
NAME_MOST = 40  # characters in a seat's name
CHAT_RATE = (5, 10.0)  # a seat says at most 5 lines in 10 seconds
PRESENT_SECONDS = 30.0  # a seat whose page asked for anything this recently is shown as present
LOBBY_MOST = 50  # games listed in the lobby of open seats (the newest)
OPEN = "open"  # a person's seat no one has taken yet: offered in the lobby


class Refused(Exception):
    """A request the table will not carry out; `status` is its HTTP status."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@attrs.define(slots=True)
class Game:
    row: GameRow
    engine: Engine
    state: GameState
    narrator: narrate.Narrator
    opening: list[str]  # the narrated lines before the first decision
    taken: list[
        narrate.Told
    ]  # each decision: its lines told to each seat, who took it, whether it showed something hidden
    trouble: str = ""  # why a bot could not move (a pack that fails on a legal option)
    times: list[float | None] = attrs.Factory(list)  # when each decision was stored (the clock)
    deciders: list[tuple[int, ...]] = attrs.Factory(list)  # the seats each decision waited on

    @property
    def rules(self) -> Any:
        return self.engine.rules


@attrs.frozen
class BudgetCap:
    """The most a search bot may think per decision on this server (`rules-dsl serve
    --bot-seconds/--bot-iterations`): every page waits while a bot thinks."""

    seconds: float = BOT_SECONDS
    iterations: int = BOT_ITERATIONS

    def check(self, budget: str) -> bool:
        iterations, seconds = parse_budget(budget)
        return iterations <= self.iterations and seconds <= self.seconds

    def capped(self, budget: str) -> str:
        """The budget, or the cap when it is over it (a game stored before the cap was lowered)."""
        iterations, seconds = parse_budget(budget)
        if seconds > self.seconds:
            return f"{self.seconds:g}s"
        if iterations > self.iterations:
            return str(self.iterations)
        return budget

    def __str__(self) -> str:
        return f"{self.iterations} iterations or {self.seconds:g}s per decision"


class Table:
    def __init__(self, store: Store, cap: BudgetCap | None = None) -> None:
        self.store = store
        self.cap = cap or BudgetCap()
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)  # bots have a decision to take
        self.due: list[str] = []  # games whose next decision is a bot's, in the order they became due
        self.engines: dict[str, Engine] = {}
        self.games: dict[str, Game] = {}
        self.said: dict[tuple[str, int], list[float]] = {}  # (game, seat) -> when its last lines were said
        self.seen: dict[tuple[str, int], float] = {}  # (game, seat) -> when its page last asked for anything
        self.changed: Callable[[str], None] = lambda game_id: None  # told of every change of a game (pages wait on it)

    # -- set-up --------------------------------------------------------------------------

    def engine(self, pack: str) -> Engine:
        installed = {p.id for p in installed_packs().values() if not p.problem}
        unknown = [p for p in pack.split(",") if p not in installed]
        if unknown:
            # only installed packs: a request never makes the server read a folder it names
            hint = suggest(unknown[0], installed)
            raise RulesError(
                f"no installed pack {unknown[0]!r} (installed: {', '.join(sorted(installed))})"
                + (f" ({hint})" if hint else "")
            )
        if pack not in self.engines:
            self.engines[pack] = Engine.for_pack(pack)
        return self.engines[pack]

    def create(self, request: dict[str, Any]) -> tuple[str, dict[int, str]]:
        """A new game from the API's request: its id and each human seat's token."""
        pack = _text(request, "pack", "base")
        seats_in = request.get("seats")
        if not isinstance(seats_in, list) or not seats_in or len(seats_in) > MAX_PLAYERS:
            raise Refused(400, f"'seats' must be a list of 1 to {MAX_PLAYERS} seats: 'human' or a bot name")
        players = request.get("players", len(seats_in))
        if not isinstance(players, int) or isinstance(players, bool) or players != len(seats_in):
            raise Refused(400, f"'players' must be a whole number equal to the number of seats ({len(seats_in)})")
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise Refused(400, f"'seed' must be a whole number from 0 to {MAX_SEED}")
        variants = request.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise Refused(400, "'variants' must be a list of variant names (a scenario as 'scenario=NAME')")
        seats = tuple(_seat(s, self.cap) for s in seats_in)
        try:
            engine = self.engine(pack)
            engine.new_game(players, seed, variants)  # checks players and variants
        except RulesError as exc:
            raise Refused(400, str(exc)) from None
        game_id = secrets.token_urlsafe(9)
        row = GameRow(game_id, pack, players, seed, tuple(variants), seats)
        try:
            self.store.add_game(row)
        except StoreFailed as exc:
            raise Refused(503, f"the games database could not store the new game ({exc}); try again") from None
        self.load(game_id)
        return game_id, {i: s.token for i, s in enumerate(seats) if s.kind == "human"}

    def load(self, game_id: str) -> Game:
        """The game, rebuilt by replay the first time it is asked for; bots that were due to
        move (a server killed while they thought) are woken."""
        game = self.games.get(game_id)
        if game is None:
            try:
                row = self.store.game(game_id)
                if row is None:
                    raise Refused(404, f"no game {game_id!r}")
                decisions = self.store.decisions(game_id)
                times = self.store.times(game_id)
            except Tampered as exc:
                raise Refused(409, f"game {game_id} is not served: {exc}") from None
            try:
                engine = self.engine(row.pack)
                st = engine.new_game(row.players, row.seed, list(row.variants))
                narrator = narrate.Narrator(engine.rules, st)
                game = Game(row, engine, st, narrator, narrator.opening(st), [])
                for option in decisions:
                    _advance(game, option)
                game.times = times
            except RulesError as exc:  # the pack was removed or changed since the game was played
                raise Refused(500, f"game {game_id} does not replay with the installed packs: {exc}") from None
            self.games[game_id] = game
            self._wake_bots(game)
        return game

    # -- play ----------------------------------------------------------------------------

    def seat_of(self, game: Game, token: str) -> int:
        for i, s in enumerate(game.row.seats):
            if s.kind == "human" and _same(s.token, token):
                self.visit(game, i)  # any request with a seat's token: the seat is present
                return i
        raise Refused(403, "this token is not a seat's of this game")

    def check_seat(self, game: Game, seat: int, token: str) -> None:
        if not 0 <= seat < game.row.players:
            raise Refused(400, f"'seat' must be 1 to {game.row.players}")
        s = game.row.seats[seat]
        if s.kind != "human" or not _same(s.token, token):
            raise Refused(403, f"this token is not seat {seat + 1}'s")
        self.visit(game, seat)

    def decide(self, game: Game, seat: int, option: str) -> None:
        st = game.state
        if st.pending is None:
            raise Refused(409, "the game is over: there is nothing to decide")
        d = game.engine.decision(st, seat)
        if d is None:
            waiting = ", ".join(str(x.player + 1) for x in game.engine.decisions(st))
            raise Refused(409, f"it is not seat {seat + 1}'s decision: waiting for seat {waiting}")
        if option not in d.options:
            raise Refused(409, f"{option!r} is not a legal option now; legal: {', '.join(d.options)}")
        self._commit(game, addressed_option(st, option, seat))
        self._wake_bots(game)

    def _commit(self, game: Game, option: str) -> None:
        """Apply the option and store it, or neither: when the store cannot commit it, the
        game in memory is put back exactly as it was and the answer is 503."""
        before = game.state.clone()
        try:
            _advance(game, option)
        except IllegalOption as exc:
            raise Refused(409, str(exc)) from None
        except RulesError as exc:  # the pack failed on a legal option: Engine.apply undid it
            raise Refused(500, f"the rules failed on this option: {exc}") from None
        try:
            # as the log writes it (`@N:option` for one seat of several deciding at once)
            at = self.store.add_decision(game.row.id, len(game.state.log) - 1, game.state.log[-1])
        except StoreFailed as exc:
            game.state = before
            game.taken.pop()
            game.deciders.pop()
            raise Refused(503, f"{UNSTORED} ({exc}): nothing was applied; send it again") from None
        game.times.append(at)
        self.changed(game.row.id)

    def _bot_decision(self, game: Game) -> Decision | None:
        """The first pending decision a bot seat must take (several seats may decide at once)."""
        return next((d for d in game.engine.decisions(game.state) if is_bot(game.row.seats[d.player])), None)

    def _wake_bots(self, game: Game) -> None:
        if self._bot_decision(game) is not None and game.row.id not in self.due:
            self.due.append(game.row.id)
            self.wake.notify()

    def bot_job(self) -> BotJob | None:
        """The next bot decision to think about: the game first due, with a copy of its
        state to think on. Called with the lock held; None when the game is no longer a
        bot's to move (undone or rebuilt since it became due)."""
        game = self.games.get(self.due.pop(0))
        if game is None or (d := self._bot_decision(game)) is None:
            return None
        seat = game.row.seats[d.player]
        # the seat's spec with its options (bots/spec.py), the budget within the server's cap
        try:
            spec = parse_bot(f"{seat.kind}:{seat.budget}" if seat.budget else seat.kind)
        except RulesError as exc:  # checked when the game was made: a stored seat changed since
            game.trouble = f"seat {d.player + 1} ({seat.kind}) could not move: {exc}"
            return None
        budget = self.cap.capped(spec.get("budget") or "200") if spec.name in SEARCH_BOTS else ""
        spec = BotSpec(spec.name, tuple(kv for kv in spec.options if kv[0] != "budget"))
        # a fresh bot per decision, seeded by the game, the seat and the step: after a
        # restart the bots choose as they would have
        seed = game.row.seed * 1009 + d.player + 7919 * len(game.state.log)
        return BotJob(game, len(game.state.log), game.state.clone(), spec.text, budget, seed, d.player)

    def bot_finish(self, job: BotJob, option: str | None, failure: str) -> bool:
        """Apply and store the option a bot chose (or note why it could not choose). Called
        with the lock held. False when the database could not store it: the game is due
        again, and the bots wait a little."""
        game, player, kind = job.game, job.player, job.kind
        if self.games.get(game.row.id) is not game or len(game.state.log) != job.step:
            return True  # undone or rebuilt while the bot thought: its due again from there
        if option is None:
            game.trouble = f"seat {player + 1} ({kind}) could not move: {failure}"
            print(f"game {game.row.id}: {game.trouble}", file=sys.stderr, flush=True)
            return True
        try:
            # several seats may be deciding at once: the option answers the bot's own
            self._commit(game, addressed_option(game.state, option, player))
        except Refused as exc:
            if exc.status == 503:  # the database is busy: nothing applied, the bot tries again
                game.trouble = f"seat {player + 1} ({kind}) is waiting: {exc.reason}"
                self.due.append(game.row.id)
                return False
            game.trouble = f"seat {player + 1} ({kind}) could not move: {exc.reason}"
            print(f"game {game.row.id}: {game.trouble}", file=sys.stderr, flush=True)
            return True
        game.trouble = ""
        self._wake_bots(game)
        return True

    def resume(self) -> None:
        """Load every stored game, one at a time under the lock, so that bots that were due
        to move when the server stopped (killed mid-thought) move again without waiting
        for someone to open their game."""
        with self.lock:
            rows, _ = self.store.games()
        for row in rows:
            with self.lock:
                try:
                    self.load(row.id)
                except Refused as exc:  # a game that no longer replays is named when it is asked for
                    print(f"game {row.id} not resumed: {exc.reason}", file=sys.stderr, flush=True)

    def run_bots(self, stop: threading.Event) -> None:
        """A bots' worker: takes the game first due under the lock, thinks without it (so
        every other request and game goes on while a bot thinks), then applies its choice
        under the lock. Several workers run at once: one game's slow bot holds up no other."""
        while not stop.is_set():
            with self.wake:
                if not self.due:
                    self.wake.wait(0.5)
                    continue
                job = self.bot_job()
            if job is None:
                continue
            option, failure = think(job)
            with self.lock:
                stored = self.bot_finish(job, option, failure)
            # after a decision the database refused, let whatever holds it finish
            time.sleep(0.001 if stored else BOT_RETRY_SECONDS)

    def rematch(self, game: Game, seat: int) -> tuple[str, str]:
        """The next game of this table once this one is over: the same pack, players,
        variants and seats (bots and their budgets, people with new tokens), a new seed;
        made by the first seat that asks, found by the others. (its id, `seat`'s new token)"""
        if not game.state.over:
            raise Refused(409, "a rematch is for a finished game: this one is not over")
        next_id = self.store.rematch(game.row.id)
        if next_id is None:
            # a seat still open stays open; a person's gets a new key
            seats = tuple(Seat("human", secrets.token_urlsafe(18)) if s.kind == "human" else s for s in game.row.seats)
            row = GameRow(
                secrets.token_urlsafe(9),
                game.row.pack,
                game.row.players,
                secrets.randbelow(2**31),
                game.row.variants,
                seats,
            )
            try:
                self.store.add_game(row, game.row.id)
            except StoreFailed as exc:
                raise Refused(503, f"the games database could not store the rematch ({exc}); try again") from None
            next_id = row.id
            names = self.store.names(game.row.id)
            for i, name in names.items():  # the people keep their names
                self.store.set_name(next_id, i, name)
        following = self.load(next_id)
        return next_id, following.row.seats[seat].token

    # -- the lobby of open seats -----------------------------------------------------------

    def lobby(self) -> list[dict[str, Any]]:
        """The games not over with a seat open to anyone, newest first (at most LOBBY_MOST):
        pack, variants, and each seat as its kind and shown name; never a token."""
        rows, _ = self.store.games()
        out: list[dict[str, Any]] = []
        for row in reversed(rows):
            if len(out) >= LOBBY_MOST:
                break
            if not any(s.kind == OPEN for s in row.seats):
                continue
            try:
                game = self.load(row.id)
            except Refused:
                continue  # named when it is asked for
            if game.state.over:
                continue
            names = self.names(game)
            out.append(
                {
                    "id": row.id,
                    "pack": row.pack,
                    "players": row.players,
                    "variants": list(row.variants),
                    "decisions": len(game.state.log),
                    "seats": [{"seat": i + 1, "kind": s.kind, "name": names[i]} for i, s in enumerate(game.row.seats)],
                }
            )
        return out

    def join(self, game: Game, name: Any) -> tuple[int, str]:
        """The first open seat of the game taken by a person (named `name` when given):
        (the seat, its new token), committed before it is answered. 409 when no seat is open."""
        clean = (
            "" if name is None or (isinstance(name, str) and not name.strip()) else _clean(name, NAME_MOST, "a name")
        )
        if game.state.over:
            raise Refused(409, "the game is over: no seat to take")
        for seat, s in enumerate(game.row.seats):
            if s.kind != OPEN:
                continue
            token = secrets.token_urlsafe(18)
            try:
                taken = self.store.claim(game.row.id, seat, token, clean)
            except StoreFailed as exc:
                raise Refused(503, f"the games database could not store the seat ({exc}); try again") from None
            if not taken:  # pragma: no cover - the store and the memory agree under the lock
                continue
            seats = list(game.row.seats)
            seats[seat] = Seat("human", token)
            game.row = attrs.evolve(game.row, seats=tuple(seats))
            self.visit(game, seat)
            self.changed(game.row.id)
            return seat, token
        raise Refused(409, "no seat of this game is open: every seat is taken")

    # -- the clock -----------------------------------------------------------------------

    def clocks(self, game: Game, now: float | None = None) -> dict[str, Any]:
        """Each seat's time used, in seconds: the time the game waited on it (a chess clock
        that counts up, bots included), from when the game was made; `running` the seats
        it waits on now, `since` how long it has waited on them. Counted from the stored
        times, so the same after a restart (the time the server was down counts too)."""
        now = time.time() if now is None else now
        used = [0.0] * game.row.players
        start: float | None = game.row.created or None
        for waited, at in zip(game.deciders, game.times, strict=False):
            if start is not None and at is not None:
                for seat in waited:
                    used[seat] += max(0.0, at - start)
            start = at
        running = [] if game.state.over else [d.player for d in game.engine.decisions(game.state)]
        since = max(0.0, now - start) if start is not None and running else 0.0
        for seat in running:
            used[seat] += since
        return {"used": [round(u, 1) for u in used], "running": [r + 1 for r in running], "since": round(since, 1)}

    # -- chat, names, presence -------------------------------------------------------------

    def say(self, game: Game, seat: int, text: Any) -> int:
        """A chat line of a seat, stored with the game: its number. Refused (400) when it is
        not text, empty, too long or holds control characters, (429) when the seat says
        more than CHAT_RATE allows; HTML is kept as written and escaped wherever shown."""
        line = _clean(text, CHAT_MOST, "a chat line")
        lines, seconds = CHAT_RATE
        now = time.monotonic()
        recent = [t for t in self.said.get((game.row.id, seat), []) if now - t < seconds]
        if len(recent) >= lines:
            raise Refused(429, f"slow down: a seat says at most {lines} lines in {seconds:g} seconds")
        try:
            n = self.store.add_chat(game.row.id, seat, len(game.state.log), line)
        except StoreFailed as exc:
            raise Refused(503, f"the games database could not store the line ({exc}); send it again") from None
        self.said[(game.row.id, seat)] = [*recent, now]
        return n

    def chat(self, game: Game, after: int = -1) -> list[dict[str, Any]]:
        names = self.names(game)
        return [
            {"n": n, "seat": seat + 1, "name": names[seat], "step": step, "text": text}
            for n, seat, step, text in self.store.chat(game.row.id, after)
        ]

    def name(self, game: Game, seat: int, text: Any) -> None:
        try:
            self.store.set_name(game.row.id, seat, _clean(text, NAME_MOST, "a name"))
        except StoreFailed as exc:
            raise Refused(503, f"the games database could not store the name ({exc}); send it again") from None

    def names(self, game: Game) -> list[str]:
        """Each seat's name: the one chosen at joining, or "Player N" (a bot: its kind; an
        open seat: "open")."""
        chosen = self.store.names(game.row.id)
        return [
            chosen.get(i)
            or (
                narrate.seat_name(i)
                + ("" if s.kind == "human" else " (open)" if s.kind == OPEN else f" ({s.kind} bot)")
            )
            for i, s in enumerate(game.row.seats)
        ]

    def visit(self, game: Game, seat: int) -> None:
        self.seen[(game.row.id, seat)] = time.monotonic()

    def present(self, game: Game) -> list[bool]:
        now = time.monotonic()
        return [
            is_bot(s) or now - self.seen.get((game.row.id, i), -PRESENT_SECONDS) < PRESENT_SECONDS
            for i, s in enumerate(game.row.seats)
        ]

    def undo_status(self, game: Game, seat: int) -> tuple[bool, str]:
        if game.state.over:
            return False, "the game is over"
        refusal = narrate.why_no_undo(game.taken, seat)
        return (False, refusal) if refusal else (True, "take back your last decision")

    def undo(self, game: Game, seat: int) -> None:
        allowed, reason = self.undo_status(game, seat)
        if not allowed:
            raise Refused(409, f"cannot undo: {reason}")
        step = len(game.state.log) - 1
        try:
            self.store.drop_last_decision(game.row.id, step)
        except StoreFailed as exc:
            raise Refused(503, f"the games database could not store the undo ({exc}): nothing changed") from None
        del self.games[game.row.id]
        self.load(game.row.id)
        self.changed(game.row.id)

    # -- views ---------------------------------------------------------------------------

    def version(self, game: Game) -> str:
        """Changes whenever the game does (a decision, an undo), the same after a restart, and
        tells nothing of the decisions: keyed by the game's salt, which is never shown."""
        log = "\n".join(game.state.log).encode()
        return hmac.new(game.row.salt.encode(), log, hashlib.sha256).hexdigest()[:16]

    def view(self, game: Game, seat: int) -> dict[str, Any]:
        """What the API returns to a seat: a pure function of the game (no clock, no token)."""
        st = game.state
        d = game.engine.decision(st, seat)
        mine = d is not None
        allowed, reason = self.undo_status(game, seat)
        return {
            "over": st.over,
            "options": list(d.options) if mine and d is not None else [],
            "labels": narrate.option_labels(game.rules, st, d) if mine and d is not None else [],
            "view": game.engine.observe(st, seat),
            "log": told_to(game, seat, len(game.taken)),
            "scores": self.scores(game),
            "decisions": len(st.log),
            "undo": {"allowed": allowed, "reason": reason},
            "trouble": game.trouble,
        }

    def scores(self, game: Game) -> dict[str, Any] | None:
        st = game.state
        if not st.over:
            return None
        return {
            "scores": list(st.scores),
            "tiebreaks": list(st.tiebreaks),
            "winners": [w + 1 for w in st.winners],
            "breakdown": {k: list(v) for k, v in st.breakdown.items()},
            "end": st.end_trigger,
        }

    def replay(self, game: Game, step: int, seat: int) -> tuple[dict[str, Any], list[str]]:
        """Seat `seat`'s view (-1: the public's) after `step` decisions, and the log to there
        as told to that seat."""
        if step == len(game.state.log):  # the game as it stands: what live spectators follow
            return game.engine.observe(game.state, seat), told_to(game, seat, step)
        log = game.state.log[:step]
        st = game.engine.replay(game.row.players, game.row.seed, list(game.row.variants), log)
        return game.engine.observe(st, seat), told_to(game, seat, step)

    def card(self, game: Game, card_id: str) -> card_view.CardView:
        rules = game.rules
        setting = card_view.setting(rules, game.row.players, list(game.row.variants))
        return card_view.view(rules, card_view.find(rules, card_id), setting)


UNSTORED = "the games database could not store the decision"


@attrs.frozen
class BotJob:
    """One bot decision to think about, on a copy of the game's state taken at `step`."""

    game: Game
    step: int
    state: GameState
    kind: str
    budget: str
    seed: int
    player: int


def think(job: BotJob) -> tuple[str | None, str]:
    """The bot's option, or None and why it could not choose (a bug in a bot or a pack):
    worked out on the job's own copy of the state, outside the table's lock."""
    try:
        bot = make_bot(job.kind, job.game.engine, job.seed, job.budget)
        return bot.choose(Turn(job.game.engine, job.state, job.player)), ""
    except RulesError as exc:
        return None, str(exc)
    except Exception as exc:  # a bug in a bot or the engine: the other games play on
        traceback.print_exc()
        return None, f"{type(exc).__name__}: {exc}"


def is_bot(seat: Seat) -> bool:
    return seat.kind not in ("human", OPEN)


def _advance(game: Game, option: str) -> None:
    """Apply one option through the Engine and tell it (and note the seats it waited on)."""
    waited = tuple(d.player for d in game.engine.decisions(game.state))
    game.taken.append(narrate.apply_told(game.engine, game.narrator, game.state, option))
    game.deciders.append(waited)  # after the option applied: an illegal one leaves both lists as they were


def told_to(game: Game, seat: int, step: int) -> list[str]:
    """The narrated log of the first `step` decisions as told to `seat` (-1: to nobody in
    particular, what a public replay shows): each seat reads only what it may know."""
    return [*game.opening, *(line for told in game.taken[:step] for line in told.to(seat))]


def _clean(text: Any, most: int, what: str) -> str:
    """Text a person typed, stripped: refused when not text, empty, longer than `most`
    characters, or holding control or format characters (or unpaired surrogates)."""
    if not isinstance(text, str):
        raise Refused(400, f"{what} must be text")
    clean: str = text.strip()
    if not clean:
        raise Refused(400, f"{what} must not be empty")
    if len(clean) > most:
        raise Refused(400, f"{what} is at most {most} characters, not {len(clean)}")
    bad = next((c for c in clean if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")), None)
    if bad is not None:
        raise Refused(400, f"{what} must not hold control characters (U+{ord(bad):04X})")
    return clean


def _same(token: str, given: str) -> bool:
    """Tokens compared in constant time, as bytes (a header may hold any character)."""
    return secrets.compare_digest(token.encode(), given.encode("utf-8", "replace"))


def _text(request: dict[str, Any], key: str, default: str) -> str:
    value = request.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise Refused(400, f"{key!r} must be a non-empty string")
    return value.strip()


def _seat(entry: Any, cap: BudgetCap) -> Seat:
    """`"human"`, or a bot spec (bots/spec.py): `"random"`, `"greedy"`, a search bot
    (`"ismcts"`, `"ismcts:BUDGET"` with BUDGET 200 or 0.5s, `"ismcts:budget=0.5s,opponents=12"`),
    its budget at most `cap`. The seat keeps the options' text as its `budget`."""
    if not isinstance(entry, str):
        raise Refused(400, f"a seat is 'human' or a bot name ({', '.join(BOT_NAMES)}), not {entry!r}")
    if entry.strip() == "human":
        return Seat("human", secrets.token_urlsafe(18))
    if entry.strip() == OPEN:  # a person's seat, taken from the lobby
        return Seat(OPEN)
    try:
        spec = parse_bot(entry)
    except RulesError as exc:
        raise Refused(400, f"unknown seat {entry!r}: 'human' or a bot ({exc})") from None
    if spec.name in SEARCH_BOTS and not cap.check(spec.get("budget") or "200"):
        raise Refused(400, f"seat {entry!r}: this server caps a bot's budget at {cap}")
    return Seat(spec.name, "", spec.text.partition(":")[2])


def default_db() -> Path:
    """The user's data folder (XDG_DATA_HOME or ~/.local/share)/rules-dsl/games.sqlite."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rules-dsl" / "games.sqlite"
