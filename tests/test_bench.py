"""benchmarks/bench.py still runs (a tiny scale): it measures, it must not rot; and its
yardstick, benchmarks/handcoded/, plays the Learning Game by the rules."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"


def test_the_bench_prints_every_line_it_measured() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--only", "search,clone,json,memory,load", "--scale", "0.01", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for what in (
        "ismcts iterations",
        "state.clone()",
        "to_json + from_json",
        "Engine.from_json",
        "import + load + compile",
        "memory of a 4p mid-game state",
    ):
        assert any(line.startswith(what) for line in lines), what
    figures = json.loads(lines[-1])["working_tree"]
    assert figures["clone"]["clone_us"] > 0
    assert figures["search"]["search_positions"] == 6 and figures["search"]["ismcts_ucb_iterations_per_s"] > 0
    assert figures["load"]["packs"] == sorted(figures["load"]["packs"]) and "base" in figures["load"]["packs"]
    assert figures["load"]["uncached_load_s"] > 0  # the cache off, in a fresh process too


# ---- the yardstick: benchmarks/handcoded/, a hand-written Learning Game ---------------
def _load(name: str, path: Path) -> ModuleType:
    """A module of benchmarks/, imported from its file (benchmarks is no package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


learning = _load("handcoded_learning", BENCH.parent / "handcoded" / "learning.py")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_handcoded_games_end_and_keep_every_card(players: int) -> None:
    """After every turn: no card or planet appears or vanishes, no count goes negative, the
    influence taken equals what left the supply; the game ends after a complete round."""
    cards, planets = learning.total_cards(players)
    assert (cards, planets) == (92 + players, 30)  # 20+16+20+16+20 role cards; 6 + 24 planets

    def check(game: Any) -> None:
        assert game.card_counts() == (cards, planets)
        assert all(s >= 0 for s in game.stacks) and 0 <= game.supply <= 24
        influence = sum(p.influence for p in game.players)
        assert influence == 24 - game.supply if game.supply else influence >= 24
        for p in game.players:
            assert min(p.hand) >= 0 and p.fighters >= 0 and p.area == 0
            assert not set(p.down) & set(p.up)

    for seed in range(1, 9):
        game = learning.Game(players, seed).play(check)
        assert game.end_reason in ("role stacks exhausted", "influence supply exhausted")
        assert game.turns % players == 0 and 0 < game.turns < learning.TURN_LIMIT
        assert game.decisions > game.turns  # each turn asks at least for the role
        assert all(s >= 0 for s in game.scores())
        assert game.winners() and set(game.winners()) <= set(range(players))
        empty = sum(not s for s in game.stacks[:4])
        assert empty >= learning.END_STACKS[players] or game.supply == 0


@pytest.mark.parametrize("players", [2, 3])
def test_handcoded_game_ends_after_the_round_of_an_empty_influence_supply(players: int) -> None:
    game = learning.Game(players, 1)
    game.supply = 0  # as if every token had been taken before the first turn
    game.play()
    assert game.end_reason == "influence supply exhausted" and game.turns == players


def test_handcoded_turn_limit_ends_the_game_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learning, "TURN_LIMIT", 3)
    game = learning.play(2, 1)
    assert game.end_reason == "turn limit" and game.turns == 3  # mid-round, as the engine's safety net


def test_handcoded_games_follow_their_seed() -> None:
    one, two, other = learning.play(2, 5), learning.play(2, 5), learning.play(2, 6)
    assert (one.turns, one.decisions, one.scores()) == (two.turns, two.decisions, two.scores())
    assert (one.turns, one.decisions, one.scores()) != (other.turns, other.decisions, other.scores())


def test_handcoded_scores_are_influence_and_face_up_planets() -> None:
    game = learning.play(2, 3)
    expected = [p.influence + sum(learning.PLANET_INFLUENCE[pl] for pl in p.up) for p in game.players]
    assert game.scores() == expected
    names = [learning.PLANET_NAME[pl] for p in game.players for pl in p.down + p.up]
    assert len(names) == len(set(names))


def test_handcoded_has_no_research_planets_and_rejects_other_player_counts() -> None:
    assert learning.R not in learning.PLANET_SYMBOL and len(learning.PLANETS) == 30
    with pytest.raises(ValueError, match="2 to 4 players"):
        learning.Game(5, 1)


def test_handcoded_and_engine_agree_on_the_statistics() -> None:
    """The same game by two programs: 150 random 2-player games each (fixed seeds, so this
    cannot flake) agree within 4 standard errors on turns, decisions and scores."""
    from rules_dsl.engine import Engine

    bench = _load("rules_dsl_bench", BENCH)
    seeds = range(1, 151)
    engine = bench.yardstick_statistics(bench._engine_records(Engine.for_pack("base"), 2, seeds))
    handcoded = bench.yardstick_statistics(
        [
            (
                g.turns,
                g.decisions,
                g.scores(),
                g.end_reason,
                [(p.fighters, p.influence, len(p.up), len(p.down)) for p in g.players],
            )
            for g in (learning.play(2, s) for s in seeds)
        ]
    )
    assert engine.keys() == handcoded.keys()
    for key, (mean, se) in engine.items():
        other, other_se = handcoded[key]
        assert abs(mean - other) <= 4 * max((se * se + other_se * other_se) ** 0.5, 1e-9), key


def test_the_yardstick_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--yardstick", "--games", "4", "--rounds", "2", "--players", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "3 players, 4 games a side" in out
    for what in ("games/s (CPU time)", "engine / handcoded", "turns per game", "decisions per game"):
        assert any(line.startswith(what) for line in out.splitlines()), what
    assert "winner's score" in out and "ended by: " in out


def test_instruction_counts_need_valgrind_and_say_so() -> None:
    """`--instructions` without valgrind on PATH: a clear message, no traceback."""
    done = subprocess.run(
        [sys.executable, str(BENCH), "--instructions"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": str(Path(sys.executable).parent)},
    )
    assert done.returncode != 0
    assert "valgrind" in done.stderr and "not installed" in done.stderr
    assert "Traceback" not in done.stderr
