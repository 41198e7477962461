"""Random legal games through hypothesis, every invariant checked at every position.

A failing game is shrunk by hypothesis (its decisions are drawn as option indices), and the
minimal one is kept as a `Failure`: the game's set-up, its decision log, the invariant broken
and where. With several processes each runs its share of the games with its own seed.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from rules_dsl.checking import properties
from rules_dsl.checking.failures import Broken
from rules_dsl.checking.pack_invariants import Tracker
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesLoopError
from rules_dsl.state import GameState
from rules_dsl.testing.games import DRAWN, MAX_DECISIONS, GameSpec, drawing_chooser, game_specs, play

STEP_LIMIT = "the step limit never fires"


@attrs.frozen
class CheckOptions:
    players: tuple[int, ...] = ()  # () : every count the pack allows
    variants: tuple[tuple[str, ...] | None, ...] = (None,)  # variant sets to draw from
    variant_mixes: bool = False  # also any mix of the pack's variants
    games: int = 100
    seed: int = 1
    max_decisions: int = MAX_DECISIONS
    horizon: int = 0  # > 0: only the first `horizon` decisions of each game (a search for a shorter failure)
    shorten: int = 3  # rounds of that search after a failure
    drawn: int = DRAWN
    round_trips: int = 3  # JSON round trips per game, at drawn positions
    looks: int = 10  # positions per game where every observation is checked by swapping hidden cards
    swaps: int = 2  # hidden-card swaps per player at such a position


@attrs.frozen
class Failure:
    invariant: str
    detail: str
    of_invariant: bool  # a problem of the pack's invariant, not of the game
    expected: Any  # what a scenario should expect at the end (see scenario_file)
    spec: GameSpec
    log: tuple[str, ...]  # the decisions applied, including a last one that raised
    applied: int  # decisions applied without error (len(log) or len(log) - 1)
    where: str


@attrs.define
class Stats:
    games: int = 0
    decisions: int = 0
    checks: int = 0
    shrink_runs: int = 0
    seconds: float = 0.0

    def add(self, other: Stats) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.checks += other.checks
        self.shrink_runs += other.shrink_runs


@attrs.define
class Outcome:
    stats: Stats
    failure: Failure | None


Progress = Callable[[str], None]  # "game" after each game, "shrink" after each shrinking run


def _where(engine: Engine, st: GameState, applied: int, last: tuple[int, str, str, str] | None) -> str:
    parts = [f"after {applied} decision{'s' * (applied != 1)}" if applied else "after set-up"]
    if last is not None:
        player, option, prompt, source = last
        parts.append(f"the last: player {player + 1} chose {option!r} to {prompt}" + (f" ({source})" if source else ""))
    parts.append(f"now turn {st.turn + 1}, player {st.active + 1}'s {st.phase} phase")
    return "; ".join(parts)


class GameChecker:
    """Plays one game, checking everything at every position; raises Broken with a Failure."""

    def __init__(self, engine: Engine, opts: CheckOptions, stats: Stats) -> None:
        self.engine = engine
        self.opts = opts
        self.stats = stats
        self.played = 0  # decisions applied in the last game run

    def run(
        self,
        spec: GameSpec,
        choose: Callable[[GameState], str],
        trips: set[int],
        looks: set[int],
        swap_seed: int,
        horizon: int = 0,
    ) -> None:
        """`horizon` > 0 (or `opts.horizon`): check only that many decisions of the game."""
        engine, stats = self.engine, self.stats
        self.played = 0
        tracker = Tracker(engine.rules)
        rnd = random.Random(swap_seed)
        log: list[str] = []
        last: list[tuple[int, str, str, str]] = []
        applied = [0]  # decisions applied without error
        state: GameState | None = None

        def on_step(s: GameState, i: int) -> None:
            applied[0] = self.played = i
            properties.check_position(engine, s)
            tracker.check(s)
            stats.checks += 2 + len(engine.rules.invariants)
            if s.pending is not None:
                if i in looks:
                    properties.check_observations(engine, s, rnd, self.opts.swaps)
                else:
                    properties.check_options_hidden(engine, s)
                stats.checks += 1
            if i in trips:
                properties.check_round_trip(engine, s)
                stats.checks += 1

        def before_apply(s: GameState, option: str) -> None:
            assert s.pending is not None
            log.append(option)
            last[:] = [(s.pending.player, option, s.pending.prompt, s.pending.source)]

        try:
            try:
                state = spec.new_game(engine)
                horizon = horizon or self.opts.horizon
                play(engine, state, choose, on_step, horizon or self.opts.max_decisions, before_apply)
            except Broken:
                raise
            except RulesLoopError as exc:
                raise Broken(STEP_LIMIT, str(exc)) from None
            except Exception as exc:  # an engine error on a legal option is a finding, not a crash
                raise Broken(properties.RUNS, f"{type(exc).__name__}: {exc}") from None
            if horizon and not state.over:
                return
            if not state.over:
                raise Broken(
                    properties.ENDS, f"the game is not over after {self.opts.max_decisions} decisions", expected="over"
                )
            properties.check_final(engine, state)
            properties.check_replay(engine, state)
            stats.checks += 2
        except Broken as exc:
            where = "during set-up" if state is None else _where(engine, state, applied[0], last[0] if last else None)
            raise _Found(
                Failure(exc.invariant, exc.detail, exc.of_invariant, exc.expected, spec, tuple(log), applied[0], where)
            ) from None


class _Found(Exception):
    def __init__(self, failure: Failure) -> None:
        super().__init__(f"{failure.invariant}: {failure.detail}")
        self.failure = failure


def check_games(
    engine: Engine, opts: CheckOptions, progress: Progress | None = None, stop: Callable[[], bool] | None = None
) -> Outcome:
    """Play `opts.games` games through hypothesis; the shrunk failure if one breaks.

    Shrinking is local: it cannot swap a game's seed for another whose deal shows the
    failure sooner. So after a failure of n decisions, up to `opts.shorten` more searches
    look for one in games cut at n - 1 decisions, keeping the shortest found.
    """
    outcome = _search(engine, opts, progress, stop)
    failure = outcome.failure
    for k in range(opts.shorten):
        if failure is None or len(failure.log) <= 1 or failure.invariant == properties.ENDS:
            break
        tighter = attrs.evolve(opts, horizon=len(failure.log) - 1, seed=opts.seed + 7919 * (k + 1))
        shorter = _search(engine, tighter, (lambda _kind: progress("shrink")) if progress else None, stop)
        outcome.stats.shrink_runs += shorter.stats.games + shorter.stats.shrink_runs
        outcome.stats.checks += shorter.stats.checks
        outcome.stats.seconds += shorter.stats.seconds
        if shorter.failure is None or len(shorter.failure.log) >= len(failure.log):
            break
        failure = shorter.failure
    return Outcome(outcome.stats, failure)


def _search(
    engine: Engine, opts: CheckOptions, progress: Progress | None = None, stop: Callable[[], bool] | None = None
) -> Outcome:
    stats = Stats()
    checker = GameChecker(engine, opts, stats)
    found: list[Failure] = []
    # Once a failure within the drawn decisions is found, a game that goes past it without
    # failing cannot shrink it (it draws more), so shrinking runs stop there.
    cap = [0]
    specs = game_specs(engine, opts.players or None, list(opts.variants), variant_mixes=opts.variant_mixes)

    @settings(
        max_examples=max(1, opts.games),
        deadline=None,
        database=None,
        derandomize=False,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        print_blob=False,
    )
    @hypothesis_seed(opts.seed)
    @given(data=st.data())
    def one_game(data: st.DataObject) -> None:
        if stop is not None and stop() and not found:
            return  # another process found a failure: finish quickly
        spec = data.draw(specs, label="game")
        trips = set(data.draw(st.lists(st.integers(0, 400), max_size=opts.round_trips), label="round trips"))
        looks = set(data.draw(st.lists(st.integers(0, 400), max_size=opts.looks), label="observation checks"))
        swap_seed = data.draw(st.integers(0, 2**16), label="swap seed")
        searching = not found  # a game of the search, not a shrinking run
        try:
            checker.run(spec, drawing_chooser(data, opts.drawn), trips, looks, swap_seed, cap[0])
        except _Found as exc:
            if searching:  # the failing game ran too: the summary counts it and its decisions
                stats.games += 1
                stats.decisions += checker.played
            found.append(exc.failure)
            f = exc.failure
            if f.invariant != properties.ENDS and len(f.log) <= opts.drawn:
                cap[0] = min(cap[0] or len(f.log), len(f.log))
            if progress is not None:
                progress("shrink")
            stats.shrink_runs += 1
            raise
        if not found:
            stats.games += 1
            stats.decisions += checker.played
            if progress is not None:
                progress("game")
        else:
            stats.shrink_runs += 1
            if progress is not None:
                progress("shrink")

    start = time.perf_counter()
    try:
        one_game()
    except _Found:
        pass
    except Exception:
        # hypothesis could not reproduce the failure (Flaky) or failed itself: report the last one found
        if not found:
            raise
    stats.seconds = time.perf_counter() - start
    return Outcome(stats, found[-1] if found else None)


# ---- several processes ----------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init(paths: list[str], queue: Any, flag: Any) -> None:
    _worker["engine"] = Engine.load(paths)
    _worker["queue"] = queue
    _worker["flag"] = flag


def _run_share(opts: CheckOptions) -> Outcome:
    queue, flag = _worker["queue"], _worker["flag"]
    out = check_games(_worker["engine"], opts, progress=queue.put, stop=lambda: bool(flag.value))
    if out.failure is not None:
        flag.value = 1
    return out


def run_check(
    engine: Engine,
    paths: Sequence[str],
    opts: CheckOptions,
    processes: int = 1,
    progress: Progress | None = None,
) -> Outcome:
    """All games in this process, or split over `processes` workers (seed, seed+1, ...)."""
    if processes <= 1 or opts.games < 2:
        return check_games(engine, opts, progress)
    processes = min(processes, opts.games)
    shares = [opts.games // processes + (1 if k < opts.games % processes else 0) for k in range(processes)]
    jobs = [attrs.evolve(opts, games=n, seed=opts.seed + k) for k, n in enumerate(shares)]
    start = time.perf_counter()
    ctx = multiprocessing.get_context()
    with ctx.Manager() as manager:
        queue = manager.Queue()
        flag = manager.Value("i", 0)
        with ctx.Pool(processes, initializer=_init, initargs=(list(paths), queue, flag)) as pool:
            pending = pool.map_async(_run_share, jobs)
            while not pending.ready() or not queue.empty():
                try:
                    message = queue.get(timeout=0.1)
                except Exception:
                    continue
                if progress is not None:
                    progress(message)
            outcomes = pending.get()
    stats = Stats()
    for o in outcomes:
        stats.add(o.stats)
    stats.seconds = time.perf_counter() - start
    failures = [o.failure for o in outcomes if o.failure is not None]
    # the shortest reproduction of any process
    best = min(failures, key=lambda f: (len(f.log), f.spec.players)) if failures else None
    return Outcome(stats, best)
