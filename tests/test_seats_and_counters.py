"""Issue 34's language: shared counters gained, lost and paid; counters that may go below 0;
players named by where they sit (`the player to your left`, `the previous player`, `the
start player`, `become the start player`). A small game of chips: each turn runs the text
under test once, and the game ends after `turn-limit` turns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_dsl import interpreter
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError, StateFormatError

RULES = """
vocabulary:
  kinds: {chip: chips}
  counters:
    info: {per: game, start: 2}
    fuse: {per: game, plural: fuses, may-be-negative: {shared_negative}}
    coin: {per: player, plural: coins}
    point: {per: player, plural: points, may-be-negative: true}
  zones:
    deck: {visibility: hidden, facing: down}
    hand: {per: player, visibility: owner, facing: up}
    passing: {per: player, visibility: hidden}
setup: |
  for each player: (move the top card of the deck to your hand; move the top card of the deck to your hand)
turn:
  - phase: main
    text: |
{turn}
game-end:
  triggers:
    - {name: never, when: "the deck is empty and the deck is not empty"}
  turn-limit: {turns}
scoring:
  score: your coins
"""
CARDS = "cards:\n  - {id: chip, kind: chip, zone: deck, count: 12}\n"


def pack(tmp_path: Path, turn: str, turns: int = 1, shared_negative: str = "false", name: str = "chips") -> Path:
    folder = tmp_path / name
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(
        f"id: {name}\nname: Chips\nversion: 0.0.0\nplayers: [2, 4]\nfiles: [rules.yaml, cards.yaml]\n",
        encoding="utf-8",
    )
    text = "\n".join("      " + line for line in turn.splitlines())
    rules = RULES.replace("{turn}", text).replace("{turns}", str(turns))
    (folder / "rules.yaml").write_text(rules.replace("{shared_negative}", shared_negative), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def played(tmp_path: Path, turn: str, players: int = 3, turns: int = 1, **kw: str) -> tuple[Engine, object]:
    engine = Engine.load([str(pack(tmp_path, turn, turns, **kw))])
    st = engine.new_game(players, 1)
    assert st.over and st.turn == turns
    return engine, st


# ---- shared counters ---------------------------------------------------------------------


def test_a_shared_counter_is_gained_lost_and_paid(tmp_path: Path) -> None:
    # before issue 34: "unknown counter 'info'" though it is declared (per: game)
    _, st = played(tmp_path, "gain 3 info; lose 1 info; pay 2 info; gain 1 fuse; lose 5 fuses")
    assert st.shared == {"info": 2, "fuse": 0}  # 2 + 3 - 1 - 2; a fuse gained, then lost down to 0


def test_paying_a_shared_counter_fails_when_short_and_changes_nothing(tmp_path: Path) -> None:
    _, st = played(tmp_path, "pay 3 info; gain 1 coin")
    assert st.shared["info"] == 2 and st.counters["coin"] == [0, 0, 0]  # the block stopped at the pay


def test_a_shared_counter_after_for_the_player_is_still_the_shared_one(tmp_path: Path) -> None:
    _, st = played(tmp_path, "for each player: gain 1 info")
    assert st.shared["info"] == 5


def test_an_unknown_counter_is_still_reported_with_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(PackError) as err:
        played(tmp_path, "gain 1 infos")
    problem = err.value.problems[0]
    assert "unknown counter 'infos'" in problem.message and problem.suggestion == "did you mean 'info'?"


# ---- counters that may be negative ------------------------------------------------------


def test_lose_takes_a_may_be_negative_counter_below_0_and_the_others_stop_at_0(tmp_path: Path) -> None:
    engine, st = played(tmp_path, "lose 6 points; lose 6 coins; lose 2 fuses", shared_negative="true")
    assert st.counters["point"] == [-6, 0, 0] and st.counters["coin"] == [0, 0, 0]
    assert st.shared["fuse"] == -2
    assert interpreter.check_state(engine.rules, st) == []


def test_paying_a_may_be_negative_counter_still_needs_what_it_pays(tmp_path: Path) -> None:
    _, st = played(tmp_path, "gain 2 points; pay 3 points; gain 1 coin")
    assert st.counters["point"] == [2, 0, 0] and st.counters["coin"] == [0, 0, 0]


def test_the_state_check_and_a_saved_game_accept_negative_values_only_where_declared(tmp_path: Path) -> None:
    engine, st = played(tmp_path, "lose 6 points")
    data = json.loads(engine.to_json(st))
    assert engine.from_json(json.dumps(data)).counters["point"] == [-6, 0, 0]
    st.counters["coin"][1] = -1
    assert interpreter.check_state(engine.rules, st) == ["counter coin of player 1 is negative (-1)"]
    data["counters"]["coin"] = [0, -1, 0]
    with pytest.raises(StateFormatError, match="counter coin of player 1 is negative"):
        engine.from_json(json.dumps(data), replay=False)
    st.counters["coin"][1] = 0
    st.shared["info"] = -1
    assert interpreter.check_state(engine.rules, st) == ["counter info is negative (-1)"]


def test_only_a_may_be_negative_counter_starts_below_0(tmp_path: Path) -> None:
    folder = pack(tmp_path, "nothing")
    rules = (folder / "rules.yaml").read_text(encoding="utf-8")
    (folder / "rules.yaml").write_text(rules.replace("info: {per: game, start: 2}", "info: {per: game, start: -2}"))
    with pytest.raises(PackError, match="counter 'info' starts below 0"):
        Engine.load([str(folder)])
    (folder / "rules.yaml").write_text(rules.replace("may-be-negative: true", "may-be-negative: yes please"))
    with pytest.raises(PackError, match="may-be-negative must be true or false"):
        Engine.load([str(folder)])


# ---- players by seat -----------------------------------------------------------------------


def test_hands_pass_to_the_left_with_no_counter(tmp_path: Path) -> None:
    engine = Engine.load(
        [
            str(
                pack(
                    tmp_path,
                    "for each player: move all cards in your hand to the player to your left's passing;\n"
                    "for each player: move all cards in your passing to your hand",
                )
            )
        ]
    )
    before = engine.set_up(3, 1)
    after = engine.new_game(3, 1)
    # left is the next seat clockwise: seat 1's hand is now seat 2's, seat 3's is seat 1's
    assert [after.zones[f"hand.{p}"] for p in range(3)] == [before.zones[f"hand.{p}"] for p in (2, 0, 1)]


@pytest.mark.parametrize(
    ("text", "coins"),
    [
        ("for the player to your left: gain 1 coin", [0, 1, 0, 0]),
        ("for the player to your right: gain 1 coin", [0, 0, 0, 1]),
        ("for the player to the left of the player to your left: gain 1 coin", [0, 0, 1, 0]),
        ("for the previous player: gain 1 coin", [0, 0, 0, 1]),
        # the previous player skips a seat that left the turn order
        ("for the player to your right: leave the turn order; for the previous player: gain 1 coin", [0, 0, 1, 0]),
        ("for the start player: gain 1 coin", [1, 0, 0, 0]),
        (
            "choose another player where their seat is 3 as the target;\n"
            "for the player to the right of the target: gain 1 coin",
            [0, 1, 0, 0],
        ),
        # each player's own left, inside for each player; a neighbour's counter and seat read
        ("for each player: (for the player to your left: gain your seat coins)", [1, 2, 3, 4]),
        ("gain the player to your right's seat coins; gain the player to your left's coins coins", [4, 0, 0, 0]),
    ],
)
def test_players_by_seat(tmp_path: Path, text: str, coins: list[int]) -> None:
    _, st = played(tmp_path, text, players=4)
    assert st.counters["coin"] == coins


def test_a_neighbours_zone_is_counted(tmp_path: Path) -> None:
    _, st = played(tmp_path, "gain the number of cards in the player to your left's hand coins", players=2)
    assert st.counters["coin"] == [2, 0]


def test_become_the_start_player_moves_the_end_of_a_round(tmp_path: Path) -> None:
    # seat 2 becomes the start player in the second turn: the round now ends after seat 1's
    # turn (the seat before the start player), not after seat 3's (the game is scored after
    # its last turn, before the turn passes on: 5 turns pass seat 1 -> seat 2 once)
    turn = "gain 1 info; if the info is 4 then become the start player"
    _, st = played(tmp_path / "three", turn, players=3, turns=3)
    assert (st.first, st.round) == (1, 0)
    _, st = played(tmp_path / "four", turn, players=3, turns=5)
    assert (st.first, st.round) == (1, 1)


def test_a_seat_is_named_player_not_opponent(tmp_path: Path) -> None:
    for i, text in enumerate(("for the opponent to your left: gain 1 coin", "become the start opponent")):
        with pytest.raises(PackError, match="write 'the player|write 'become the start player'"):
            played(tmp_path / str(i), text)


@pytest.mark.parametrize(
    "text",
    [
        "for the player to your left: (gain 1 coin; become the start player)",
        "move all cards in the player to the right of the target's hand to the previous player's hand",
        "for the player to the left of the player to the right of the start player: gain 1 coin",
        "gain 2 info; pay 1 fuse",
    ],
)
def test_the_new_words_print_back_to_the_same_tree(text: str) -> None:
    from test_printer import assert_round_trip

    assert_round_trip(text, "start")


# ---- a trigger that ends the game after one more turn for everyone --------------------------

ROTATION = """
game-end:
  triggers:
    - {name: four, when: "the info is at least 4", ends: after-rotation}
    - {name: a fuse, when: "the fuses is at least 1", ends: after-turn}
  turn-limit: 40
"""


def rotation_pack(tmp_path: Path, turn: str, name: str = "chips") -> Engine:
    folder = pack(tmp_path, turn, name=name)
    rules = (folder / "rules.yaml").read_text(encoding="utf-8")
    head, _, tail = rules.partition("game-end:")
    tail = tail[tail.index("scoring:") :]
    (folder / "rules.yaml").write_text(head + ROTATION.lstrip("\n") + tail, encoding="utf-8")
    return Engine.load([str(folder)])


def test_after_rotation_gives_every_player_one_more_turn(tmp_path: Path) -> None:
    # the info reaches 4 in the second turn (seat 2's): seats 3, 1 and 2 play once more
    st = rotation_pack(tmp_path, "gain 1 info").new_game(3, 1)
    assert st.over and st.end_trigger == "four" and st.turn == 5 and st.shared["info"] == 7


def test_a_trigger_ending_after_the_turn_cuts_the_rotation_short(tmp_path: Path) -> None:
    st = rotation_pack(tmp_path, "gain 1 info; if the info is 5 then gain 1 fuse").new_game(3, 1)
    assert st.over and st.end_trigger == "a fuse" and st.turn == 3


def test_a_triggers_ends_must_be_known(tmp_path: Path) -> None:
    folder = pack(tmp_path, "nothing")
    rules = (folder / "rules.yaml").read_text(encoding="utf-8")
    (folder / "rules.yaml").write_text(
        rules.replace(
            'when: "the deck is empty and the deck is not empty"}', 'when: "the deck is empty", ends: after-lap}'
        )
    )
    with pytest.raises(PackError, match="a trigger's ends must be after-round, after-turn or after-rotation"):
        Engine.load([str(folder)])


# ---- the word for one turn of every seat ------------------------------------------------------


def test_outputs_say_rotation_in_a_game_of_deals_and_the_packs_own_word_if_it_has_one(tmp_path: Path) -> None:
    from rules_dsl.narrate import Narrator
    from rules_dsl.simulate import summary_rows
    from rules_dsl.trace import transcript

    love_letter = Engine.for_pack(str(Path(__file__).resolve().parent.parent / "examples" / "games" / "love-letter"))
    assert love_letter.rules.rotation_word == "rotation"  # its rounds are deals
    st = love_letter.set_up(2, 1)
    assert Narrator(love_letter.rules, st).turn_line(st) == ["Turn 1 (rotation 1): Player 1"]
    assert "turn 2 (rotation 1), player 2" in transcript(love_letter, 2, 1, None, lambda s: s.pending.options[0])
    row = summary_rows(
        {
            "games": 1,
            "mean_turns": 1,
            "mean_rounds": 2,
            "mean_decisions": 3,
            "mean_score": 0,
            "mean_winning_score": 0,
            "max_score": 0,
            "shared_wins": 0,
            "seat_orders": {"a": 1},
            "rotated": False,
            "win_share_by_seat": [],
            "win_rate_by_bot": {},
            "end_triggers": {},
            "score_parts": {},
            "games_per_second": None,
            "rotation_word": "rotation",
        }
    )[2]
    assert row == ("mean rotations", "2.0")
    engine = Engine.load([str(pack(tmp_path, "gain 1 coin"))])
    assert engine.rules.rotation_word == "round"
    folder = pack(tmp_path, "gain 1 coin", name="laps")
    rules = (folder / "rules.yaml").read_text(encoding="utf-8")
    (folder / "rules.yaml").write_text(rules.replace("vocabulary:\n", "vocabulary:\n  rotation-word: lap\n"))
    assert Engine.load([str(folder)]).rules.rotation_word == "lap"


# ---- zone groups with per-player zones ------------------------------------------------------


def test_a_zone_group_holds_your_zones_too(tmp_path: Path) -> None:
    folder = pack(
        tmp_path,
        "choose a stock that is not empty as the pile; move the top card of the pile to the deck;\n"
        "gain the number of empty stocks coins; gain the number of cards in a stock points",
    )
    rules = (folder / "rules.yaml").read_text(encoding="utf-8")
    rules = rules.replace("  zones:\n", "  zone-groups:\n    stocks: [hand, passing, deck]\n  zones:\n", 1)
    (folder / "rules.yaml").write_text(rules)
    engine = Engine.load([str(folder)])
    st = engine.new_game(2, 1)
    assert st.pending is not None and st.pending.options == ["hand", "deck"]  # your passing is empty
    hand = list(st.zones["hand.0"])
    engine.apply(st, "hand")
    # the top card of your hand went to the deck: your passing is empty (1 empty stock); the
    # stocks then hold your hand (1 card), your passing (0) and the deck (12 - 4 dealt + 1)
    assert st.zones["hand.0"] == hand[:-1] and st.counters["coin"][0] == 1 and st.counters["point"][0] == 10
