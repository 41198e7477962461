"""`CARD is [not] a copy of CARD-ID`: which card a card is, tested in a condition (issue 26).
The words `a copy of` mark the name as a card id, so it means one thing; an unknown id is
a compile error at its place."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_replacement import CARDS, pack, play

from rules_dsl.compiler import compile_packs
from rules_dsl.errors import PackError
from rules_dsl.parser import parse
from rules_dsl.printer import show


def test_a_copy_of_counts_the_cards_that_are_that_card(tmp_path: Path) -> None:
    # the opponent gains 10 coins, then one per copy of wall in their hand
    after = "gain the number of cards in your hand where it is a copy of wall coins"
    folder = pack(tmp_path, after=after)
    report = play(folder, {1: ["plain"], 2: ["plain", "wall", "wall"]}, ["pass"], {"counters": {"coin": [1, 12]}})
    assert report.ok, report.render()


def test_not_a_copy_of(tmp_path: Path) -> None:
    after = "for each card in your hand as the held: (if the held is not a copy of wall then gain 5 coins)"
    hands = {1: ["plain"], 2: ["plain", "wall", "plain"]}
    report = play(pack(tmp_path, after=after), hands, ["pass"], {"counters": {"coin": [1, 20]}})
    assert report.ok, report.render()


def test_an_unknown_card_id_is_a_compile_error_at_its_place(tmp_path: Path) -> None:
    text = "MAY INSTEAD OF you suffer-attack: only if this card is a copy of wal; gain 1 coin"
    cards = CARDS + f'  - {{id: odd, kind: chip, zone: deck, count: 1, text: "{text}"}}\n'
    with pytest.raises(PackError) as exc:
        compile_packs([str(pack(tmp_path, cards=cards))])
    text = str(exc.value)
    assert "cards.yaml:13:121:" in text and "unknown card id 'wal'" in text and "wall" in text


def test_the_printer_writes_it_back() -> None:
    for text in ("it is a copy of silver", "the treasure is not a copy of gold"):
        assert show(parse(text, "condition")) == text
