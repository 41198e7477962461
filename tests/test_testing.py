"""rules_dsl.testing: the strategies users test their packs with, and the example suite."""

from __future__ import annotations

import importlib.util
from typing import Any

from conftest import ROOT, base_engine
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_dsl.testing import GameSpec, decision_sequences, game_specs, options, playthroughs, positions

FEW = settings(max_examples=5, deadline=None)


@FEW
@given(game_specs(base_engine(), players=[3], variants=[None, ["learning"]]))
def test_game_specs_draw_from_what_is_given(spec: GameSpec) -> None:
    assert spec.players == 3
    assert spec.variants in (None, ("learning",))
    state = spec.new_game(base_engine())
    assert state.players == 3 and state.pending is not None


@FEW
@given(decision_sequences(base_engine(), players=[2], max_length=25))
def test_decision_sequences_are_legal_and_replay(game: tuple[GameSpec, tuple[str, ...]]) -> None:
    spec, log = game
    assert len(log) <= 25
    state = base_engine().replay(spec.players, spec.seed, None, list(log))
    assert state.log == list(log)


@FEW
@given(positions(base_engine(), players=[2], max_length=25))
def test_positions_are_consistent(state: Any) -> None:
    assert base_engine().check(state) == []


@settings(max_examples=3, deadline=None)
@given(playthroughs(base_engine(), players=[2], drawn=20))
def test_playthroughs_are_whole_games(game: Any) -> None:
    assert game.final.over
    assert list(game.log) == game.final.log


@FEW
@given(st.data())
def test_options_shrink_to_the_first(data: st.DataObject) -> None:
    state = base_engine().new_game(2, 1)
    assert data.draw(options(state)) in state.pending.options  # type: ignore[union-attr]


def test_the_example_suite_passes() -> None:
    path = ROOT / "examples" / "tests" / "test_pack_properties.py"
    spec = importlib.util.spec_from_file_location("example_pack_properties", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tests = [getattr(module, name) for name in dir(module) if name.startswith("test_")]
    assert len(tests) == 3
    for test in tests:
        test()
