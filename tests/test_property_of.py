"""`the PROPERTY of CARD`: a property of a card named by an expression (`the suit of the
card in an opponent's lead`), as a number, as a `whose` value and compared with another
card's word in a condition (docs/dsl.md#the-property-of-a-card)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from rules_dsl import ast, printer
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError, PackProblem, RulesError
from rules_dsl.parser import parse

BASE = str(ROOT / "cards")

# after the dissent's draw: fighters for the cards of the hand with the icon of its top card;
# influence for those whose icon differs from the first card of the discard or hand; the
# hand-bonus of the top card of the hand as a number
READS = """\
extend:
  procedures:
    dissent:
      after: |
        gain the number of cards in your hand whose icon is the icon of the top card of your hand fighters;
        gain the number of cards in your hand where its icon is not the icon of the card in your discard or your hand
          influence;
        let B be the influence of the top card of your hand plus 1;
        gain B influence
"""


def mod(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "of"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: of\nrequires: [base]\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(body, encoding="utf-8")
    return folder


def problem(tmp_path: Path, body: str) -> PackProblem:
    folder = mod(tmp_path, body)
    with pytest.raises(PackError) as info:
        compile_packs([BASE, str(folder)])
    [p] = info.value.problems
    assert p.file == str(folder / "rules.yaml")
    return p


def at(body: str, word: str) -> tuple[int, int]:
    start = body.index(word)
    return body.count("\n", 0, start) + 1, start - (body.rfind("\n", 0, start) + 1) + 1


def before_dissent(engine: Engine, seed: int) -> Any:
    st = engine.new_game(2, seed)
    for _ in range(200):
        assert st.pending is not None
        if st.pending.prompt == "choose: follow OR dissent":
            return st
        engine.apply(st, st.pending.options[-1])
    raise AssertionError("no dissent offered")


# ---- syntax ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("its suit is the suit of the card in your lead or an opponent's lead", "condition"),
        ("the rank of the top card of the deck plus the rank of the played", "expression"),
        ("choose a card in your hand whose suit is not the suit of the card in a stock", "start"),
        ("note the suit of this card as led", "start"),
    ],
)
def test_the_property_of_a_card_parses_and_prints_back(text: str, start: str) -> None:
    tree = parse(text, start)
    assert printer.to_text(tree) == text
    refs = [n for n in _walk(tree) if isinstance(n, ast.Ref) and n.owner == "of"]
    assert refs and all(r.card is not None for r in refs)


def test_the_card_in_zones_keeps_its_zones() -> None:
    cond = parse("its suit is the suit of the card in your lead or an opponent's lead", "condition")
    assert isinstance(cond, ast.Compare) and isinstance(cond.right, ast.Ref)
    card = cond.right.card
    assert isinstance(card, ast.CardIn)
    assert [(z.owner, z.name) for z in card.zones] == [("your", "lead"), ("opponents", "lead")]  # type: ignore[union-attr]


def _walk(node: Any) -> Any:
    yield node
    if isinstance(node, tuple):
        for n in node:
            yield from _walk(n)
    elif hasattr(type(node), "__attrs_attrs__") and not isinstance(node, ast.Pos):
        for f in type(node).__attrs_attrs__:
            yield from _walk(getattr(node, f.name))


# ---- what it reads ----------------------------------------------------------------------


def test_a_number_a_whose_value_and_a_word_comparison_read_the_card_named(tmp_path: Path) -> None:
    engine = Engine.load([BASE, str(mod(tmp_path, READS))])
    st = before_dissent(engine, 1)
    player = st.pending.player
    fighters, influence = st.counters["fighter"][player], st.counters["influence"][player]
    engine.apply(st, "dissent")
    hand = list(st.zones[f"hand.{player}"])
    discard = list(st.zones[f"discard.{player}"])
    props = [st.rules.cards[st.cards[c].type].props for c in hand]
    top = props[-1]
    first = st.rules.cards[st.cards[(discard or hand)[0]].type].props
    same_as_top = sum(1 for p in props if p["icon"] == top["icon"])
    differ = sum(1 for p in props if p["icon"] != first["icon"])
    assert same_as_top >= 1 and differ < len(hand)  # the cards read are in the counts
    assert st.counters["fighter"][player] == fighters + same_as_top
    assert st.counters["influence"][player] == influence + differ + top["influence"] + 1


def test_a_card_missing_stops_the_game_with_the_property_named(tmp_path: Path) -> None:
    body = READS.replace("the card in your discard or your hand", "the card in your discard")
    engine = Engine.load([BASE, str(mod(tmp_path, body))])
    st = before_dissent(engine, 1)
    assert not st.zones[f"discard.{st.pending.player}"]
    with pytest.raises(RulesError, match="there is no card to read 'icon' from"):
        engine.apply(st, "dissent")


def test_polignac_reads_the_suit_led_without_counting_cards() -> None:
    text = (ROOT / "examples" / "games" / "polignac" / "rules.yaml").read_text(encoding="utf-8")
    assert "whose suit is its suit" not in text
    assert text.count("its suit is the suit of the card in ") == 4
    compile_packs([str(ROOT / "examples" / "games" / "polignac")])


# ---- errors at file:line:col ------------------------------------------------------------


def test_an_unknown_property_is_named_with_a_suggestion(tmp_path: Path) -> None:
    body = READS.replace("the icon of the top card", "the icn of the top card")
    p = problem(tmp_path, body)
    assert "unknown property 'icn'" in p.message
    assert "icon" in p.suggestion
    assert (p.line, p.column) == at(body, "icn")


def test_the_cards_in_is_refused_with_the_card_in(tmp_path: Path) -> None:
    body = READS.replace("the card in your discard", "the cards in your discard")
    p = problem(tmp_path, body)
    assert "write 'the card in ...': a property is read from one card, not 'cards'" in p.message
    assert p.suggestion == "the card in your discard or your hand"
    assert (p.line, p.column) == at(body, "the cards in your discard")


def test_a_zone_is_not_a_card(tmp_path: Path) -> None:
    body = READS.replace("the icon of the top card of your hand", "the icon of your hand")
    p = problem(tmp_path, body)
    assert "expected a card after 'of'" in p.message
    assert "'the card in ZONE'" in p.message
    assert p.suggestion == "the card in your hand"
    assert (p.line, p.column) == at(body, "hand fighters")


def test_words_of_different_properties_never_match(tmp_path: Path) -> None:
    body = READS.replace("where its icon is not the icon of", "where its icon is not the type of")
    p = problem(tmp_path, body)
    assert "'icon' and 'type' are different kinds of property: they never match" in p.message
    assert (p.line, p.column) == at(body, "its icon is not")


def test_a_word_is_compared_with_is_only(tmp_path: Path) -> None:
    body = READS.replace("where its icon is not the icon of", "where its icon is at least the icon of")
    p = problem(tmp_path, body)
    assert "'icon' is a word: compare it with 'is' or 'is not'" in p.message
    assert p.expected == ["is", "is not"]
    assert (p.line, p.column) == at(body, "its icon is at least")
