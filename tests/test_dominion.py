"""Dominion's First Game as a standalone example pack (issue 26): the 2-player supply, its
scenarios (Moat against Militia, Merchant's first Silver, Mine into hand, Remodel, Cellar,
the end on three piles, the tie broken by fewer turns), and random, greedy and ismcts games
played to their end under `simulate` and `check`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rules_dsl.checking.runner import CheckOptions, check_games
from rules_dsl.engine import Engine
from rules_dsl.scenario import run_scenario_file
from rules_dsl.simulate import Batch, play_game

ROOT = Path(__file__).resolve().parent.parent
DOMINION = ROOT / "examples" / "games" / "dominion-first-game"
SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "dominion-first-game").glob("*.yaml"))
KINGDOM = ("cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy", "village", "workshop")


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.load([str(DOMINION)])


def test_the_two_player_supply_and_the_starting_decks(engine: Engine) -> None:
    st = engine.set_up(2, 3)
    piles = {z: len(cards) for z, cards in st.zones.items() if z.endswith("-pile")}
    wanted = {"copper": 46, "silver": 40, "gold": 30, "estate": 8, "duchy": 8, "province": 8, "curse": 10}
    wanted |= dict.fromkeys(KINGDOM, 10)
    assert piles == {f"{name}-pile": n for name, n in wanted.items()}
    for p in range(2):
        assert len(st.zones[f"hand.{p}"]) == 5 and len(st.zones[f"deck.{p}"]) == 5
        held = Counter(engine.rules.cards[st.cards[c].type].id for z in ("hand", "deck") for c in st.zones[f"{z}.{p}"])
        assert held == {"copper": 7, "estate": 3}
    assert engine.rules.min_players == engine.rules.max_players == 2


def test_there_is_a_scenario_for_each_tricky_rule() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {
        "moat_reveal_leaves_its_owner_unaffected_by_militia",
        "militia_without_a_moat_discards_down_to_three",
        "merchant_gives_a_coin_for_the_first_silver_only",
        "mine_gains_a_treasure_to_hand",
        "the_game_ends_when_three_supply_piles_are_empty",
        "a_tie_goes_to_the_player_with_fewer_turns",
    } <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    report = run_scenario_file(path)
    assert report.ok, report.render()


@pytest.mark.parametrize("bots", [("random", "random"), ("greedy", "random")])
def test_games_play_to_their_end(engine: Engine, bots: tuple[str, str]) -> None:
    batch = Batch((str(DOMINION),), "dominion-first-game", 2, None, bots)
    for seed in (1, 2):
        record = play_game(engine, batch, seed)
        assert "error" not in record, record
        assert record["end_trigger"] in ("the Provinces are gone", "three supply piles are empty")
        assert record["turns"] < 400 and record["winners"]


def test_the_search_bot_plays_with_the_pack_evaluation(engine: Engine) -> None:
    assert engine.rules.evaluation is not None
    record = play_game(engine, Batch((str(DOMINION),), "dominion-first-game", 2, None, ("ismcts", "random"), "5"), 1)
    assert "error" not in record, record


def test_check_finds_no_problem(engine: Engine) -> None:
    outcome = check_games(engine, CheckOptions(players=(2,), games=4, shorten=0))
    assert outcome.failure is None, outcome.failure


def test_the_pack_validates_without_warnings(engine: Engine) -> None:
    assert engine.rules.warnings == ()
