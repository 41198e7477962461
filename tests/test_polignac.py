"""Polignac (Four Jacks) as a standalone example pack (issue 26): a third card game, not
named by the issue, written with the constructs Love Letter and Dominion use. A plain
trick-taking game: deals above the turns, one card per turn, follow suit, the highest card
of the suit led wins, the trick's winner leads next (aggregates over the players and the
turn order as data), penalty points per deal, the game to 10 points."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rules_dsl.checking.runner import CheckOptions, check_games
from rules_dsl.engine import Engine
from rules_dsl.scenario import run_scenario_file
from rules_dsl.simulate import Batch, play_game

ROOT = Path(__file__).resolve().parent.parent
POLIGNAC = ROOT / "examples" / "games" / "polignac"
SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "polignac").glob("*.yaml"))


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.load([str(POLIGNAC)])


def test_the_piquet_pack_is_dealt_eight_cards_each(engine: Engine) -> None:
    cards = engine.rules.cards
    assert len(cards) == 32
    assert Counter(str(c.props["suit"]) for c in cards) == dict.fromkeys(("clubs", "diamonds", "hearts", "spades"), 8)
    assert sorted(int(c.props["penalty"]) for c in cards if int(c.props["penalty"])) == [1, 1, 1, 2]
    st = engine.set_up(4, 7)
    assert [len(st.zones[f"hand.{p}"]) for p in range(4)] == [8, 8, 8, 8] and not st.zones["deck"]
    # the start player is the first deal's eldest hand, queued to lead; the first turn is theirs, once
    assert st.counters["deal-led"] == [1, 0, 0, 0] and st.next_turns == [0]
    st = engine.new_game(4, 7)
    assert st.active == 0 and st.turn == 0 and st.next_turns == []


def test_there_is_a_scenario_for_each_tricky_rule() -> None:
    assert len(SCENARIOS) == 4


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    report = run_scenario_file(path)
    assert report.ok, report.render()


@pytest.mark.parametrize("bots", [("random",) * 4, ("greedy", "random", "random", "random")])
def test_games_play_to_their_end(engine: Engine, bots: tuple[str, ...]) -> None:
    batch = Batch((str(POLIGNAC),), "polignac", 4, None, bots)
    for seed in (1, 2):
        record = play_game(engine, batch, seed)
        assert "error" not in record, record
        assert record["end_trigger"] == "a player reached the agreed total"
        # whole deals of 32 turns: the game ends after a deal's scoring
        assert record["turns"] % 32 == 0 and record["winners"]
        assert max(-s for s in record["scores"]) >= 10
        assert -max(record["scores"]) == min(-s for s in record["scores"])


def test_check_finds_no_problem(engine: Engine) -> None:
    outcome = check_games(engine, CheckOptions(players=(4,), games=3, shorten=0))
    assert outcome.failure is None, outcome.failure


def test_the_pack_validates_without_warnings(engine: Engine) -> None:
    assert engine.rules.warnings == ()
