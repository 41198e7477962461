"""`point out QUERY` (a hint): every seat learns, of each card in the query's zones, whether
it passes the filters; a seat that cannot see those cards (its own hand held facing out)
sees what they could be, and the samples its bots search deal only such cards there."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules_dsl import narrate
from rules_dsl.bots.base import Turn
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError

RULES = """
vocabulary:
  kinds: {tile: tiles}
  properties: {colour: [red, blue], number: number}
  counters:
    clue: {per: player, plural: clues}
  zones:
    deck: {visibility: hidden, facing: down}
    hand: {per: player, visibility: others, facing: up}
    discard: {visibility: public, facing: up}
setup: |
  shuffle the deck;
  for each player: (move the top card of the deck to your hand; move the top card of the deck to your hand;
    move the top card of the deck to your hand; move the top card of the deck to your hand)
turn:
  - phase: main
    text: |
      either (choose an opponent as the target; choose a colour value as the named;
              point out tiles in the target's hand whose colour is the named; gain 1 clue)
      OR (choose a tile in your hand as the gone; move the gone to the discard;
          move the top card of the deck to your hand)
game-end:
  triggers:
    - {name: out, when: "the deck is empty"}
  ends: after-turn
  turn-limit: 30
scoring:
  score: your clues
"""
CARDS = """
cards:
  - {id: red-1, name: Red 1, kind: tile, zone: deck, colour: red, number: 1, count: 3}
  - {id: red-2, name: Red 2, kind: tile, zone: deck, colour: red, number: 2, count: 2}
  - {id: blue-1, name: Blue 1, kind: tile, zone: deck, colour: blue, number: 1, count: 3}
  - {id: blue-2, name: Blue 2, kind: tile, zone: deck, colour: blue, number: 2, count: 2}
"""


def hints_pack(tmp_path: Path, rules: str = RULES) -> Engine:
    folder = tmp_path / "hints"
    folder.mkdir(exist_ok=True)
    (folder / "pack.yaml").write_text(
        "id: hints\nname: Hints\nversion: 0.0.0\nplayers: [2, 3]\nfiles: [rules.yaml, cards.yaml]\n",
        encoding="utf-8",
    )
    (folder / "rules.yaml").write_text(rules, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return Engine.load([str(folder)])


def hinted(engine: Engine, seed: int, colour: str) -> tuple[object, list[str]]:
    """A 2-player game after player 1 pointed out player 2's tiles of `colour`."""
    st = engine.new_game(2, seed)
    d = st.pending
    assert d is not None and d.player == 0
    hint = next(o for o in d.options if o.startswith("choose an opponent"))
    engine.apply(st, hint)  # one opponent: taken without asking
    engine.apply(st, colour)
    hand = [engine.rules.cards[st.cards[c].type].id for c in st.zones["hand.1"]]
    return st, hand


def test_the_owner_sees_what_each_hinted_card_could_be(tmp_path: Path) -> None:
    engine = hints_pack(tmp_path)
    st, hand = hinted(engine, 3, "red")
    shown = engine.observe(st, 1)["zones"]["hand.1"]  # player 2 sees only backs of their hand
    reds, blues = ["red-1", "red-2"], ["blue-1", "blue-2"]
    assert [card["could-be"] for card in shown] == [reds if h.startswith("red") else blues for h in hand]
    # the others see the fronts: nothing to add
    assert all("could-be" not in card for card in engine.observe(st, 0)["zones"]["hand.1"])


def test_samples_deal_only_what_a_hinted_card_could_be(tmp_path: Path) -> None:
    engine = hints_pack(tmp_path)
    for seed in range(1, 6):
        st, hand = hinted(engine, seed, "blue")
        # player 2 decides next; its samples keep every hinted card's colour
        turn = Turn(engine, st)
        assert turn.player == 1
        for i in range(20):
            world = turn.sample(random.Random(i))
            dealt = [engine.rules.cards[world.cards[c].type].id for c in world.zones["hand.1"]]
            assert [d.split("-")[0] for d in dealt] == [h.split("-")[0] for h in hand], (seed, i)


def test_a_second_hint_narrows_what_a_card_could_be(tmp_path: Path) -> None:
    rules = RULES.replace(
        "point out tiles in the target's hand whose colour is the named;",
        "point out tiles in the target's hand whose colour is the named;\n"
        "              point out tiles in the target's hand where its number is 1;",
    )
    engine = hints_pack(tmp_path, rules)
    st, hand = hinted(engine, 4, "red")
    shown = engine.observe(st, 1)["zones"]["hand.1"]
    assert [card["could-be"] for card in shown] == [[h] for h in hand]  # colour and number: the card itself


def test_the_hint_is_told_to_every_seat(tmp_path: Path) -> None:
    engine = hints_pack(tmp_path)
    st = engine.new_game(2, 3)
    hint = next(o for o in st.pending.options if o.startswith("choose an opponent"))  # type: ignore[union-attr]
    engine.apply(st, hint)
    narrator = narrate.Narrator(engine.rules, st)
    told = narrate.apply_told(engine, narrator, st, "red")
    hand = [engine.rules.cards[st.cards[c].type] for c in st.zones["hand.1"]]
    lines = [line for line in told.to(1) if "could be" in line]
    assert len(lines) == len(hand)
    for place, card in zip(range(len(hand), 0, -1), hand):
        could = "Red 1, Red 2" if card.props["colour"] == "red" else "Blue 1, Blue 2"
        assert f"Player 2's hand, card {place} from the top: could be {could}" in " ".join(lines)


def test_a_hinted_card_shuffled_away_is_forgotten(tmp_path: Path) -> None:
    engine = hints_pack(tmp_path)
    st, _ = hinted(engine, 3, "red")
    card = st.zones["hand.1"][0]
    assert st.cards[card].allowed
    from rules_dsl import knowledge

    st.zones["hand.1"].remove(card)
    st.zones["deck"].append(card)
    st.card_to_change(card).loc = "deck"
    knowledge.shuffled(st, st.zones["deck"])
    assert st.cards[card].allowed == ()


def test_point_out_needs_a_query(tmp_path: Path) -> None:
    with pytest.raises(PackError) as err:
        hints_pack(tmp_path, RULES.replace("point out tiles in the target's hand", "point out the target"))
    assert "rules.yaml:" in str(err.value)
