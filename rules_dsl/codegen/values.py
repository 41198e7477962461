"""Values written as Python expressions (rules_dsl/effects/values.py): each emitter gives
the expression of what the class's `num`, `test` or `card` answers, for the card `cand`
and the frame `fr` (names in the generated code)."""

from __future__ import annotations

from rules_dsl.codegen.generator import Generator, card_of, numbers, tests
from rules_dsl.effects import values as v

# a comparison's operator as Python writes it (values._OPS)
OPERATORS = {"ge": ">=", "le": "<=", "gt": ">", "lt": "<", "eq": "==", "ne": "!="}


@numbers(v.Num)
def _num(g: Generator, e: v.Num, cand: str, fr: str) -> str:
    if type(e.value) is not int:
        return f"{g.bind(e, '_v')}.num(st, {fr}, {cand})"
    return f"({g.lit(e.value)})"


@numbers(v.VarNum)
def _var_num(g: Generator, e: v.VarNum, cand: str, fr: str) -> str:
    return f"_var_num(st, {g.bind(e.name)})"


@numbers(v.Arith)
def _arith(g: Generator, e: v.Arith, cand: str, fr: str) -> str:
    if e.sign not in (1, -1):
        return f"{g.bind(e, '_v')}.num(st, {fr}, {cand})"
    return f"({g.num(e.left, cand, fr)} {'+' if e.sign == 1 else '-'} {g.num(e.right, cand, fr)})"


@numbers(v.PlayerCounter)
def _player_counter(g: Generator, e: v.PlayerCounter, cand: str, fr: str) -> str:
    return f"st.counters[{g.bind(e.counter)}][{fr}.player]"


@numbers(v.SharedCounter)
def _shared_counter(g: Generator, e: v.SharedCounter, cand: str, fr: str) -> str:
    return f"st.shared[{g.bind(e.counter)}]"


@numbers(v.ZoneSize)
def _zone_size(g: Generator, e: v.ZoneSize, cand: str, fr: str) -> str:
    zone = e.zone
    if isinstance(zone, v.PlayerZone):
        key = f"{g.bind(zone.by_seat)}[{fr}.player]"
    elif isinstance(zone, v.SharedZone):
        key = g.bind(zone.name)
    else:
        key = f"{g.bind(zone, '_v')}.key(st, {fr}, {cand})"
    return f"len(st.zones[{key}])"


@tests(v.Compare)
def _compare(g: Generator, e: v.Compare, cand: str, fr: str) -> str:
    return f"({g.num(e.left, cand, fr)} {OPERATORS[e.op]} {g.num(e.right, cand, fr)})"


@tests(v.IsZero)
def _is_zero(g: Generator, e: v.IsZero, cand: str, fr: str) -> str:
    return f"({g.num(e.value, cand, fr)} {'!=' if e.negated else '=='} 0)"


@card_of(v.ItCard)
def _it(g: Generator, e: v.ItCard, cand: str, fr: str) -> str:
    if cand == "-1":
        return "_lookup(st, 'it')"
    return f"({cand} if {cand} >= 0 else _lookup(st, 'it'))"


@card_of(v.CardVar)
def _card_var(g: Generator, e: v.CardVar, cand: str, fr: str) -> str:
    return f"_lookup(st, {g.bind(e.name)})"


@numbers(v.CountCards)
def _count_cards(g: Generator, e: v.CountCards, cand: str, fr: str) -> str:
    q = e.cset
    if isinstance(q, v.Query) and q.plain and q.facing < 0 and q.seat_key is not None:
        return f"len(st.zones[{g.bind(q.seat_key)}[{fr}.player]])"  # `Query.count`'s plain case
    return f"{g.bind(q, '_v')}.count(st, {fr}, {cand})"
