"""The narrated log and the options in words: exact lines after exact decisions."""

from __future__ import annotations

import random

from rules_dsl import knowledge, narrate
from rules_dsl.engine import Engine


def test_decisions_are_told_from_the_public_view() -> None:
    engine = Engine.for_pack("microcosm")
    st = engine.new_game(2, 6)
    narrator = narrate.Narrator(engine.rules, st)
    assert narrator.opening(st) == ["The game begins: 2 players, microcosm", "Turn 1 (round 1): Player 1"]
    assert narrate.option_labels(engine.rules, st, st.pending) == ["Draw from the supply", "Draw from the deck"]

    told = narrate.apply_told(engine, narrator, st, "draw-from-the-supply")
    line = ["Player 1 (draw phase): draw from the supply"]
    assert told == narrate.Told(line, 0, False, (line, line))

    # the supply's cards are face up: each is its name and printed facts, and where it is
    assert narrate.option_labels(engine.rules, st, st.pending)[0] == (
        "Warfare (crosshair) (domain: colour red, score spoils, reveals crosshair, symbols crosshair), from the supply"
    )
    told = narrate.apply_told(engine, narrator, st, "warfare-crosshair")
    assert told.lines == [
        "Player 1 (draw phase): chooses Warfare (crosshair)",
        "  Political Intrigue: the domain deck -> the supply",  # the supply is refilled face up
        "  Warfare (crosshair): the supply -> Player 1's hand",  # where it went, though the hand is hidden
        "  the domain deck: 15 -> 14 cards",
        "  Player 1's hand: 0 -> 1 card",
    ]
    assert told.reveals  # a card came off the hidden deck: no undo
    # told to its own seat, the hand is not a pile of unknown cards
    assert told.to(0) == told.lines[:-1] and told.to(1) == told.lines

    told = narrate.apply_told(engine, narrator, st, "play-a-card")
    assert told.lines[1] == "  Warfare (crosshair): Player 1's hand -> Player 1's action area"
    assert told.reveals  # the others now see the card that was in the hand

    # face-down planets offered: only their backs and places, never their names or ids
    labels = narrate.option_labels(engine.rules, st, st.pending)
    assert labels[:2] == [
        "A face-down planet (cost 0), 4th from the top of the cost 0 planets",
        "A face-down planet (cost 0), 3rd from the top of the cost 0 planets",
    ]
    assert st.pending.options[:2] == ["cost-0-planets#4", "cost-0-planets#3"]
    assert len(set(labels)) == len(labels) == len(st.pending.options)
    assert not any(engine.rules.cards[st.cards[v].type].name in " ".join(labels) for v in st.pending.values)


def test_a_chosen_card_is_named_only_to_those_who_can_identify_it() -> None:
    engine = Engine.for_pack("microcosm")
    rnd = random.Random(3)
    told_both = {True: 0, False: 0}
    for seed in range(3):
        st = engine.new_game(2, seed)
        narrator = narrate.Narrator(engine.rules, st)
        while st.pending is not None:
            d = st.pending
            index = rnd.randrange(len(d.options))
            card = narrate.card_of(engine.rules, st, d, index)
            seats = [narrate.PUBLIC, 0, 1]
            before = [knowledge.identified_cards(engine.rules, st, s) for s in seats]
            told = narrate.apply_told(engine, narrator, st, d.options[index])
            if card is None:
                continue
            name = engine.rules.cards[st.cards[card].type].name
            for seat, was in zip(seats, before):
                knows = card in was | knowledge.identified_cards(engine.rules, st, seat)
                line = told.to(seat)[0]
                assert line.endswith(f"chooses {name}") if knows else ": chooses a card in " in line, (seat, line)
                assert knows or name not in " ".join(told.to(seat)), (seat, told.to(seat))
                told_both[knows] += 1
    assert told_both[True] and told_both[False]


def test_undo_is_for_your_own_last_decision_that_showed_nothing() -> None:
    mine = narrate.Told([], 0, False)
    assert narrate.why_no_undo([], 0) == "nothing has been decided yet"
    assert narrate.why_no_undo([mine], 0) == ""
    assert narrate.why_no_undo([mine], 1) == "the last decision was not yours: others have decided since"
    shown = narrate.Told([], 0, True)
    assert narrate.why_no_undo([mine, shown], 0) == "your last decision showed something hidden or drew on chance"


def test_a_tuck_of_a_card_a_seat_cannot_identify_is_told_without_its_name() -> None:
    """A card from a hidden hand tucked under another card of that hand: the others are told
    that a card went under a card, never which; its owner is told which."""
    from rules_dsl.effects.base import detach

    engine = Engine.for_pack("base")
    before = engine.new_game(2, 1)
    hand = before.zones["hand.0"]
    card, host = hand[0], hand[1]
    after = before.clone()
    detach(after, card)
    after.card_to_change(host).under = (*after.cards[host].under, card)
    cs = after.card_to_change(card)
    cs.loc, cs.up = f"^{host}", True
    option = before.pending.options[0]
    names = engine.rules.cards[before.cards[card].type].name, engine.rules.cards[before.cards[host].type].name
    for seat in (narrate.PUBLIC, 1):
        narrator = narrate.Narrator(engine.rules, before, seat)
        lines = narrator.step(before, narrator.snapshot(before), after, option)
        assert "  a card: Player 1's hand -> under a card in Player 1's hand" in lines, lines
        assert not any(name in line for line in lines[1:] for name in names), lines
    owner = narrate.Narrator(engine.rules, before, 0)
    lines = owner.step(before, owner.snapshot(before), after, option)
    assert f"  {names[0]}: Player 1's hand -> under {names[1]}" in lines, lines
