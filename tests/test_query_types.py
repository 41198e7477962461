"""A query tests what a card's type alone decides (kind, section, whose-tests with a literal
value) by one lookup in a set of card types worked out once (`Query.type_filter`): the
cards it finds must be exactly those the filters read field by field find."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from rules_dsl.effects import values as v
from rules_dsl.engine import Engine
from rules_dsl.rules import CardType
from rules_dsl.state import Frame, GameState


def _queries(engine: Engine) -> list[v.Query]:
    """Every query of the rules with a filter a card's type decides, in effect order."""
    found: list[v.Query] = []
    seen: set[int] = set()
    stack: list[Any] = list(engine.rules.effects)
    while stack:  # the effects' objects by their attrs fields (a graph: each visited once)
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
            continue
        if not attrs.has(type(node)) or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, v.Query) and (node.kind or node.section or node.whose):
            found.append(node)
        stack.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
    return found


def _passes(t: CardType, q: v.Query) -> bool:
    """The type filters of `q`, read from the card type's fields."""
    if q.kind and t.kind != q.kind:
        return False
    if q.section and q.section not in t.sections:
        return False
    return all(
        ((t.id if p == "id" else t.props.get(p)) == value) != negated
        for p, value, negated in q.whose
        if isinstance(value, str)
    )


def _by_fields(st: GameState, q: v.Query, fr: Frame) -> list[int]:
    """The cards `q` finds, for a query with no symbol, no `where` and literal whose-tests:
    every card of its zones tested field by field."""
    assert q.seat_keys is not None
    types = st.rules.cards
    return [
        c
        for key in q.seat_keys[fr.player]
        for c in st.zones[key]
        if (q.facing < 0 or st.cards[c].up == (q.facing == 1)) and _passes(types[st.cards[c].type], q)
    ]


@pytest.mark.parametrize("pack", ["base", "escalation"])
def test_the_type_filter_is_the_kind_section_and_literal_whose_tests(pack: str) -> None:
    engine = Engine.for_pack(pack)
    types = engine.rules.cards
    queries = _queries(engine)
    assert queries
    for q in queries:
        assert q.type_filter(types) == {i for i, t in enumerate(types) if _passes(t, q)}
        assert q.type_filter(types) is q.type_filter(types)  # worked out once


@pytest.mark.parametrize(("pack", "players"), [("base", 4), ("escalation", 3)])
def test_a_query_finds_the_cards_its_filters_read_field_by_field_find(pack: str, players: int) -> None:
    engine = Engine.for_pack(pack)
    simple = [
        q
        for q in _queries(engine)
        if q.seat_keys is not None and q.symbol is None and q.where is None and not q.live_whose
    ]
    assert simple
    rnd = random.Random(5)
    checked = 0
    for seed in (1, 2):
        st = engine.new_game(players, seed)
        while st.pending is not None and len(st.log) < 150:
            for q in simple:
                for seat in range(players):
                    fr = Frame(-1, seat)
                    found = q.cards(st, fr)
                    assert found == _by_fields(st, q, fr)
                    checked += bool(found)
            engine.apply_fast(st, rnd.choice(st.pending.options))
    assert checked > 100  # not only empty answers


def test_a_query_met_with_other_card_types_works_its_set_out_again() -> None:
    """A query keeps its set with the card types it came from: another rules' types (here
    the same types in another order) get their own set, never the one kept."""
    engine = Engine.for_pack("base")
    types = engine.rules.cards
    q = next(q for q in _queries(engine) if q.kind and 0 < len(q.type_filter(types)) < len(types))
    other: Any = tuple(reversed(types))
    last = len(types) - 1
    assert q.type_filter(other) == {last - i for i in q.type_filter(types)}
    assert q.type_filter(other) != q.type_filter(types)
