"""Games other than Eminent Domain: the defects a designer met writing new packs, and the
generic constructs for them (issue 26). The packs here are copies of the Spice Market
example with text edits, so each test names exactly what it changes."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from rules_dsl import narrate
from rules_dsl.checking.runner import CheckOptions, check_games
from rules_dsl.determinize import determinize
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError
from rules_dsl.scenario import Report, run_scenario, set_position

ROOT = Path(__file__).resolve().parent.parent
SPICE = ROOT / "examples" / "games" / "spice-market"


@pytest.fixture
def spice_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of Spice Market with text edits: `spice_copy((file, old, new), ...)`; each
    `old` occurs exactly once in its file, so an edit never silently misses."""

    def make(*edits: tuple[str, str, str]) -> Path:
        folder = tmp_path / "spice-market"
        if not folder.exists():
            shutil.copytree(SPICE, folder)
        for file, old, new in edits:
            path = folder / file
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
            path.write_text(text.replace(old, new), encoding="utf-8")
        return folder

    return make


def scenario(folder: Path, data: dict) -> Report:
    data = {"pack": [folder.name], "players": 2, "unused": "box", **data}
    return run_scenario(data, folder.parent, Report("test", "test"))


# ---- defects ------------------------------------------------------------------------


def test_a_printed_zero_is_a_number_the_total_adds(spice_copy: Callable[..., Path]) -> None:
    """`value: 0` is read by ruamel.yaml as its own int subclass; `the total value of ...`
    once took that for an expression property and crashed (AttributeError)."""
    folder = spice_copy(
        ("cards.yaml", "name: Clove (4), spice: clove, value: 4", "name: Clove (4), spice: clove, value: 0")
    )
    engine = Engine.load([str(folder)])
    assert type(engine.rules.cards[engine.rules.card_index["clove-4"]].props["value"]) is int
    report = scenario(
        folder,
        {
            "position": {
                "active": 1,
                "phase": "trade",
                "players": {1: {"hand": ["clove-4", "clove-1"], "sold": []}, 2: {"hand": [], "sold": []}},
            },
            "decisions": ["sell-goods", "clove-4"],
            "expect": {"players": {1: {"hand": [], "sold": ["clove-1", "clove-4"]}}, "counters": {"coin": [1, 0]}},
        },
    )
    assert report.ok, report.render()


def test_a_scenario_position_is_laid_out_before_the_game_runs(spice_copy: Callable[..., Path]) -> None:
    """The game is set up, the position laid out, and only then does the first turn start:
    a phase that runs without a decision runs once, for the position's active player."""
    folder = spice_copy(("rules.yaml", "turn:\n", "turn:\n  - phase: income\n    text: gain 1 coin\n"))
    report = scenario(
        folder,
        {
            "position": {"active": 2, "phase": "income"},
            "expect": {"counters": {"coin": [0, 1]}, "active": 2, "turn": 0},
        },
    )
    assert report.ok, report.render()


# ---- players as values ----------------------------------------------------------------

MINI_RULES = """
vocabulary:
  kinds: {chip: chips}
  properties: {rank: number}
  counters:
    coin: {per: player, plural: coins}
  zones:
    deck: {visibility: hidden, facing: down}
    hand: {per: player, visibility: owner, facing: up}
    pile: {per: player, visibility: public, facing: up}
setup: |
  for each player: move the top card of the deck to your hand
turn:
  - phase: main
    text: |
{turn}
game-end:
  triggers:
    - {name: rich, when: "{end}"}
  ends: after-turn
  turn-limit: 40
scoring:
  score: your coins
"""
MINI_CARDS = """
cards:
  - {id: one, kind: chip, zone: deck, rank: 1, count: 4}
  - {id: three, kind: chip, zone: deck, rank: 3, count: 4}
  - {id: seven, kind: chip, zone: deck, rank: 7, count: 4}
"""


def mini_pack(tmp_path: Path, turn: str, end: str = "any player where their coins is at least 30") -> Engine:
    """A small game of chips: `turn` is the text of its only phase."""
    folder = tmp_path / "mini"
    folder.mkdir(exist_ok=True)
    (folder / "pack.yaml").write_text(
        "id: mini\nname: Mini\nversion: 0.0.0\nplayers: [2, 4]\nfiles: [rules.yaml, cards.yaml]\n", encoding="utf-8"
    )
    body = "\n".join("      " + line for line in turn.strip().splitlines())
    (folder / "rules.yaml").write_text(MINI_RULES.replace("{turn}", body).replace("{end}", end), encoding="utf-8")
    (folder / "cards.yaml").write_text(MINI_CARDS, encoding="utf-8")
    return Engine.load([str(folder)])


def test_choose_an_opponent_where_binds_a_seat_whose_zones_and_counters_are_named(tmp_path: Path) -> None:
    engine = mini_pack(
        tmp_path,
        "choose an opponent where their coins is less than 2 as the target;\n"
        "gain the target's coins plus 1 coins;\n"
        "move all cards in the target's hand to the target's pile;\n"
        "for the target: gain 5 coins",
    )
    st = engine.new_game(4, 1)
    assert st.counters["coin"] == [0, 0, 0, 0]
    decision = engine.decision(st)
    assert decision is not None and decision.player == 0
    assert decision.options == ["player 2", "player 3", "player 4"]  # clockwise from "you", not you
    engine.apply(st, "player 3")
    assert st.counters["coin"] == [1, 0, 5, 0]
    assert st.zones["hand.2"] == [] and len(st.zones["pile.2"]) == 1
    # player 2: player 3 (5 coins) can no longer be chosen
    decision = engine.decision(st)
    assert decision is not None and decision.player == 1 and decision.options == ["player 4", "player 1"]


def test_choose_a_player_includes_you_and_one_player_is_taken_without_asking(tmp_path: Path) -> None:
    engine = mini_pack(tmp_path, "choose a player where your seat is 2 as the who; for the who: gain 1 coin")
    st = engine.new_game(3, 1)
    # every turn picks the seat-2 player without asking: the game runs to its turn limit
    assert st.over and st.counters["coin"] == [0, 30, 0]  # the end reads every player, not the active one
    engine = mini_pack(tmp_path, "choose a player as the who; for the who: gain 1 coin")
    st = engine.new_game(2, 1)
    assert engine.legal_options(st) == ["player 1", "player 2"]


def test_no_player_to_choose_fails_and_the_rest_of_the_block_is_skipped(tmp_path: Path) -> None:
    engine = mini_pack(
        tmp_path,
        "gain 1 coin;\n(choose an opponent where their coins is 9 as the target; gain 10 coins)",
        end="any player where their coins is at least 3",
    )
    st = engine.new_game(2, 1)
    assert st.over and st.counters["coin"] == [3, 2] and st.winners == [0]


def test_questions_about_every_player(tmp_path: Path) -> None:
    engine = mini_pack(
        tmp_path,
        "let HIGH be the highest (the highest rank of cards in your hand) among players;\n"
        "let LOW be the lowest your coins plus 2 among opponents;\n"
        "let MANY be the number of players where the highest rank of cards in your hand is at least 3;\n"
        "let NONE be the lowest rank of cards in your pile;\n"
        "gain HIGH plus LOW plus NONE coins;\n"
        "if every player where their hand is not empty then gain MANY coins;\n"
        "if no opponent where their coins is at least 1 then gain 100 coins;\n"
        "if any opponent where their coins is at least 100 then gain 1000 coins",
        end="any player where their coins is at least 1000",
    )
    engine_state = engine.new_game(3, 7)
    # replay the first turn by hand: the hands are what the seed dealt
    st = engine.set_up(3, 7)
    ranks = [engine.rules.cards[st.cards[st.zones[f"hand.{p}"][0]].type].props["rank"] for p in range(3)]
    many = sum(1 for r in ranks if r >= 3)
    first = max(ranks) + 2 + 0 + many + 100
    assert engine_state.counters["coin"][0] == first
    # player 2: the lowest opponent is player 3 (0 coins); player 1 has 100 or more
    second = max(ranks) + 2 + many + 1000
    assert engine_state.counters["coin"][1] == second
    assert engine_state.over and engine_state.winners == [1]


def test_for_each_player_where_and_set_carries_a_value_out_of_the_loop(tmp_path: Path) -> None:
    engine = mini_pack(
        tmp_path,
        "let FOUND be 0;\n"
        "for each player where your seat is at least 2: (let FOUND be 50; set SEEN to your seat);\n"
        "let SEEN be 0;\n"
        "for each player where your seat is at least 2: set SEEN to SEEN plus your seat;\n"
        "gain SEEN plus FOUND coins",
        end="any player where their coins is at least 1",
    )
    st = engine.new_game(4, 1)
    # FOUND stays 0 (a let in a body binds there); SEEN adds seats 2, 3 and 4
    assert st.counters["coin"] == [9, 0, 0, 0] and st.over


def test_choose_a_value_of_a_number_property(tmp_path: Path) -> None:
    engine = mini_pack(
        tmp_path,
        "choose a rank value other than 1 as the guess;\n"
        "gain the guess coins;\n"
        "gain the number of cards in your hand where its rank is the guess coins",
    )
    st = engine.new_game(2, 1)
    assert engine.legal_options(st) == ["3", "7"]  # the printed ranks, smallest first, but 1
    hand_rank = engine.rules.cards[st.cards[st.zones["hand.0"][0]].type].props["rank"]
    engine.apply(st, "7")
    assert st.counters["coin"] == [7 + (hand_rank == 7), 0]


def test_the_turn_order_skips_players_who_left_it_and_takes_queued_turns(tmp_path: Path) -> None:
    engine = mini_pack(
        tmp_path,
        "gain 1 coin;\nif your seat is 2 then leave the turn order;\n"
        "if your seat is 3 and your coins is 1 then take the next turn;\n"
        "if your seat is 1 and your coins is 2 then (choose an opponent where your seat is 2 as the who; "
        "for the who: (join the turn order; take the next turn))",
        end="any player where their coins is at least 4",
    )
    st = engine.new_game(4, 1)
    # turns: 1, 2 (leaves), 3 (takes the next turn), 3, 4, 1 (brings 2 back, to play next),
    # 2 (leaves again), 3, 4, 1, 3 (4 coins)
    assert st.over
    assert st.counters["coin"] == [3, 2, 4, 2]
    assert st.turn == 11 and st.round == 2  # an extra turn ends no round; passing seat 1 does
    assert st.out == [1] and st.next_turns == []


def test_the_last_player_in_the_turn_order_plays_again(tmp_path: Path) -> None:
    engine = mini_pack(
        tmp_path,
        "gain 1 coin; if your seat is at least 2 then leave the turn order",
        end="any player where their coins is at least 3",
    )
    st = engine.new_game(3, 1)
    assert st.over and st.counters["coin"] == [3, 1, 1] and st.out == [1, 2]
    assert engine.observe(st, 0)["out"] == [1, 2]


def test_the_turn_order_is_saved_and_checked(tmp_path: Path) -> None:
    engine = mini_pack(tmp_path, "leave the turn order; choose a rank value as the r")
    st = engine.new_game(2, 1)
    assert st.out == [0] and engine.decision(st) is not None
    again = engine.from_json(engine.to_json(st))
    assert again.out == [0]
    bad = engine.to_json(st).replace('"out":[0]', '"out":[5]')
    with pytest.raises(Exception, match="turn order names a seat"):
        engine.from_json(bad, replay=False)


def test_a_zone_group_in_a_query(spice_copy: Callable[..., Path]) -> None:
    """`a card in a GROUP`: every zone of the group (those there in this game)."""
    folder = spice_copy(
        (
            "rules.yaml",
            "    box: {visibility: public, facing: up}",
            "    box: {visibility: public, facing: up}\n"
            "    stall: {visibility: public, facing: up}\n  zone-groups:\n    stands: [market, stall]",
        ),
        (
            "rules.yaml",
            "take-a-card OR sell-goods",
            "choose a card in a stand as the pick; move the pick to your hand;\n"
            "      gain the number of cards in a stand coins;\n      move all cards in a stand to the spent",
        ),
    )
    engine = Engine.load([str(folder)])
    st = engine.set_up(2, 1)
    report = scenario(
        folder,
        {
            "position": {
                "active": 1,
                "phase": "trade",
                "zones": {"market": ["pepper-1", "clove-2"], "stall": ["caravan"], "spent": []},
            },
            "decisions": [
                {"expect": {"decision": {"player": 1, "options": ["clove-2", "pepper-1", "caravan"]}}},
                "caravan",
            ],
            "expect": {
                "counters": {"coin": [2, 0]},
                "players": {1: {"hand": {"contains": ["caravan"]}}},
                "zones": {"spent": {"contains": ["pepper-1", "clove-2"]}, "stall": []},
            },
        },
    )
    assert st.zones["stall"] == []
    assert report.ok, report.render()


def test_a_zone_that_shows_only_its_top_card(spice_copy: Callable[..., Path]) -> None:
    """`visibility: top`: everyone sees the top card and the count, nothing else; a search
    bot's sample keeps the top card and reshuffles the rest."""
    folder = spice_copy(("rules.yaml", "spent: {visibility: public,", "spent: {visibility: top,"))
    engine = Engine.load([str(folder)])
    st = engine.set_up(2, 1)
    position = {"active": 1, "phase": "trade", "zones": {"spent": ["caravan", "pepper-1", "clove-2"]}}
    set_position(engine, st, position, "box")
    view = engine.observe(st, 1)["zones"]["spent"]
    assert view["count"] == 3 and view["top"]["card"] == "caravan" and set(view) == {"count", "top"}
    spent = st.zones["spent"]
    tops = set()
    for seed in range(20):
        sample = determinize(engine.rules, st, 1, random.Random(seed))
        assert sample.cards[spent[-1]].type == st.cards[spent[-1]].type  # the top card is seen
        tops.add(tuple(sample.cards[c].type for c in spent[:-1]))
        assert engine.observe(sample, 1) == engine.observe(st, 1)
    assert len(tops) > 1  # the cards below it are not
    outcome = check_games(engine, CheckOptions(players=(2, 3), games=5, shorten=0))
    assert outcome.failure is None, outcome.failure


def test_choose_a_value_of_a_listed_property_compared_with_whose(spice_copy: Callable[..., Path]) -> None:
    folder = spice_copy(
        (
            "rules.yaml",
            "take-a-card OR sell-goods",
            "choose a spice value as the call; gain the number of goods in your hand whose spice is the call coins",
        )
    )
    report = scenario(
        folder,
        {
            "position": {"active": 1, "phase": "trade", "players": {1: {"hand": ["clove-1", "clove-2", "pepper-1"]}}},
            "decisions": [
                {"expect": {"decision": {"player": 1, "options": ["saffron", "pepper", "cinnamon", "clove"]}}},
                "clove",
                {"expect": {"counters": {"coin": [2, 0]}}},
            ],
        },
    )
    assert report.ok, report.render()
    bad = spice_copy(
        ("rules.yaml", "choose a spice value as the call;", "choose a spice value as the call; let X be the call;")
    )
    with pytest.raises(PackError, match="'the call' is a word"):
        Engine.load([str(bad)])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("for the nobody: gain 1 coin", "unknown chosen player 'nobody'"),
        ("choose a player as the who; move all cards in the who's tableau to your hand", "unknown zone 'tableau'"),
        ("choose a player as the who; gain the who's gold coins", "unknown counter or zone 'gold'"),
        ("choose a colour value as the c", "unknown number or listed property 'colour'"),
        ("let X be the highest colour of cards in your hand", "unknown number property 'colour'"),
        ("choose a card in a stands as the p", "unknown zone group 'stands'"),
    ],
)
def test_mistakes_in_the_new_constructs_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(PackError) as caught:
        mini_pack(tmp_path, text)
    first = str(caught.value).splitlines()[0]
    assert first.endswith(message) and "rules.yaml:16:" in first


def test_a_hand_held_facing_out(spice_copy: Callable[..., Path]) -> None:
    """`visibility: others` (Hanabi's hands): everyone but the owner sees the cards; the
    owner sees each card's back in its place. A bot's samples for the owner deal its own
    hand again; for another seat they keep it. A choice among one's own such cards names
    them by place."""
    folder = spice_copy(
        ("rules.yaml", "hand: {per: player, visibility: owner,", "hand: {per: player, visibility: others,")
    )
    engine = Engine.load([str(folder)])
    st = engine.new_game(2, 3)
    hand = st.zones["hand.0"]
    mine = engine.observe(st, 0)["zones"]["hand.0"]
    theirs = engine.observe(st, 1)["zones"]["hand.0"]
    assert [c.get("hidden") for c in mine] == [True] * len(hand)
    assert [c["card"] for c in theirs] == [engine.rules.cards[st.cards[c].type].id for c in hand]
    assert engine.observe(st, -1)["zones"]["hand.0"] == theirs  # a public replay sees them too
    dealt = set()
    for seed in range(20):
        own = determinize(engine.rules, st, 0, random.Random(seed))
        dealt.add(tuple(own.cards[c].type for c in hand))
        other = determinize(engine.rules, st, 1, random.Random(seed))
        assert [other.cards[c].type for c in hand] == [st.cards[c].type for c in hand]
    assert len(dealt) > 1
    rnd = random.Random(1)
    while (d := st.pending) is not None and not any(o.startswith("hand.") for o in d.options):
        engine.apply(st, rnd.choice(d.options))
    assert d is not None
    own = st.zones[f"hand.{d.player}"]
    assert d.options == [f"hand.p{d.player + 1}#{len(own) - own.index(v)}" for v in d.values]
    labels = narrate.option_labels(engine.rules, st, d)
    assert labels[0].startswith("A good you cannot see, ") and labels[-1].endswith(", top of your hand"), labels
    outcome = check_games(engine, CheckOptions(players=(2, 3), games=3, shorten=0))
    assert outcome.failure is None, outcome.failure


def test_a_hand_held_facing_out_needs_an_owner(tmp_path: Path) -> None:
    folder = tmp_path / "spice-market"
    shutil.copytree(SPICE, folder)
    rules = folder / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("spent: {visibility: public,", "spent: {visibility: others,"), encoding="utf-8")
    with pytest.raises(PackError) as info:
        Engine.load([str(folder)])
    assert "visibility 'others' needs an owner: zone 'spent' must be 'per: player'" in str(info.value)
    assert "rules.yaml:17:" in str(info.value)
