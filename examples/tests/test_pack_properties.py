"""Property tests of a pack in your own test suite, with `rules_dsl.testing`.

Run with `python -m pytest examples/tests`. Point ENGINE at your pack
(`Engine.load(["cards", "path/to/your/mod"])`); every strategy plays legal games only,
through the decision API, and hypothesis shrinks a failing game to a short one.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings

from rules_dsl.engine import Engine
from rules_dsl.state import GameState
from rules_dsl.testing import GameSpec, Playthrough, decision_sequences, playthroughs, positions

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Engine.load([str(ROOT / "cards"), str(ROOT / "examples" / "mods" / "veteran-survey")])
FEW = settings(max_examples=5, deadline=None)


@FEW
@given(playthroughs(ENGINE, players=[2, 3]))
def test_the_winners_have_the_best_score(game: Playthrough) -> None:
    final = game.final
    assert final.over
    best = max(zip(final.scores, final.tiebreaks))
    assert all((final.scores[w], final.tiebreaks[w]) == best for w in final.winners)


@FEW
@given(positions(ENGINE, players=[2], max_length=40))
def test_the_scout_reserve_is_empty_after_set_up(state: GameState) -> None:
    # the mod's set-up moves its Scouts onto the Survey stack; nothing puts one back
    assert state.zones["scout-reserve"] == []


@FEW
@given(decision_sequences(ENGINE, players=[2], max_length=30))
def test_a_decision_log_replays_exactly(game: tuple[GameSpec, tuple[str, ...]]) -> None:
    spec, log = game
    once = ENGINE.replay(spec.players, spec.seed, None, list(log))
    twice = ENGINE.replay(spec.players, spec.seed, None, list(log))
    assert ENGINE.to_json(once) == ENGINE.to_json(twice)
    assert once.log == list(log)
