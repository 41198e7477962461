"""Engines side by side: the rules travel with each game's state, never in a global.

Games of every built-in pack played in several threads at once, and two engines' games
interleaved decision by decision in one thread, must each end byte-identical to the same
seed played alone.
"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from rules_dsl.bots.random_bot import RandomBot
from rules_dsl.engine import Engine, builtin_packs
from rules_dsl.state import GameState

PACKS = sorted(builtin_packs())
SEEDS = range(3)


def _players(engine: Engine) -> int:
    return engine.rules.min_players


def _start(engine: Engine, seed: int) -> tuple[GameState, RandomBot]:
    return engine.new_game(_players(engine), seed), RandomBot(seed)


def _step(engine: Engine, st: GameState, bot: RandomBot) -> None:
    assert st.pending is not None
    engine.apply_fast(st, bot.choose(st.pending))


def _alone(engine: Engine, seed: int) -> str:
    st, bot = _start(engine, seed)
    while st.pending is not None:
        _step(engine, st, bot)
    return engine.to_json(st)


@pytest.fixture(scope="module")
def engines() -> dict[str, Engine]:
    return {pack: Engine.for_pack(pack) for pack in PACKS}


@pytest.fixture(scope="module")
def alone(engines: dict[str, Engine]) -> dict[tuple[str, int], str]:
    return {(pack, seed): _alone(engine, seed) for pack, engine in engines.items() for seed in SEEDS}


def test_games_of_every_pack_in_threads_equal_the_games_played_alone(
    engines: dict[str, Engine], alone: dict[tuple[str, int], str]
) -> None:
    jobs = [(pack, seed) for _ in range(2) for pack in PACKS for seed in SEEDS]
    # a tiny switch interval makes the threads change hands every few bytecodes, in the
    # middle of effects, where a shared "current rules" would be overwritten
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(lambda job: _alone(engines[job[0]], job[1]), jobs))
    finally:
        sys.setswitchinterval(interval)
    for job, result in zip(jobs, results):
        assert result == alone[job], f"{job} differs when played in a thread beside other packs"


def test_two_engines_interleaved_in_one_thread(engines: dict[str, Engine], alone: dict[tuple[str, int], str]) -> None:
    games = [(pack, seed, *_start(engines[pack], seed)) for pack in PACKS for seed in SEEDS]
    while any(st.pending is not None for _, _, st, _ in games):
        for pack, _, st, bot in games:  # one decision of each game in turn
            if st.pending is not None:
                _step(engines[pack], st, bot)
    for pack, seed, st, _ in games:
        assert engines[pack].to_json(st) == alone[(pack, seed)]


def test_threads_see_no_partial_state_of_another_engine(engines: dict[str, Engine]) -> None:
    # the observation and the score are entry points too: each reads its own game's rules
    a, b = engines["base"], engines["microcosm"]
    sa, sb = a.new_game(2, 1), b.new_game(2, 1)
    expected = (a.observe(sa, 0), b.observe(sb, 0), a.score_now(sa), b.score_now(sb))
    seen: list[object] = []

    def read() -> None:
        for _ in range(50):
            seen.append((a.observe(sa, 0), b.observe(sb, 0), a.score_now(sa), b.score_now(sb)))

    threads = [threading.Thread(target=read) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen and all(s == expected for s in seen)
