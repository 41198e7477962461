"""Values written as Python expressions (rules_dsl/effects/values.py): each emitter gives
the expression of what the class's `num`, `test` or `card` answers, for the card `cand`
and the frame `fr` (names in the generated code)."""

from __future__ import annotations

from rules_dsl.codegen.generator import Generator, Lines, card_of, card_sets, numbers, tests
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
    if isinstance(q, v.Query):
        return f"len({g.card_list(q, cand, fr)})"
    return f"{g.bind(q, '_v')}.count(st, {fr}, {cand})"


@card_sets(v.Query)
def _query(g: Generator, q: v.Query, cand: str, fr: str) -> str:
    """`Query.cards` as a function of its own, its filters written out: only the tests this
    query has, its facing and its set of card types (`Query.type_filter`) as constants."""
    return f"{g.helper(q, '_q', lambda name, out: _query_function(g, q, name, out))}(st, {fr}, {cand})"


def _query_function(g: Generator, q: v.Query, name: str, out: Lines) -> None:
    with out.block(f"def {name}(st, fr, cand):"):
        if q.seat_keys is not None:
            keys = f"{g.bind(q.seat_keys)}[fr.player]"
        else:
            keys = f"{g.bind(q, '_v')}.zone_keys(st, fr, cand)"
        if q.plain and q.facing < 0 and q.seat_key is not None:
            out.add(f"return st.zones[{g.bind(q.seat_key)}[fr.player]].copy()")
            return
        out.add("zones = st.zones", "cards = st.cards", "found = []")
        if q.typed:
            out.add("types = st.rules.cards")
            if q.symbol is not None:
                out.add(f"sym = {g.sym(q.symbol)}")
            whose = []
            for prop, value, negated in q.live_whose:
                # "whose type is its type": worked out once, as `Query.cards` does
                local = g.local("w")
                out.add(f"{local} = {g.bind(value, '_v')}.value(st, fr, cand)")
                whose.append((prop, local, negated))
        with out.block(f"for key in {keys}:"), out.block("for c in zones[key]:"):
            out.add("cs = cards[c]")
            if q.facing >= 0:
                with out.block(f"if cs.up != {'True' if q.facing == 1 else 'False'}:"):
                    out.add("continue")
            if q.typed:
                if q.kind or q.section or len(q.live_whose) < len(q.whose):
                    # kind, section, literal whose-tests: the card types that pass them (`Query.cards`)
                    with out.block(f"if cs.type not in {g.bind(q.type_filter(g.rules.cards))}:"):
                        out.add("continue")
                if q.symbol is not None or whose:
                    out.add("t = types[cs.type]")
                tests = []
                if q.symbol is not None:
                    wild = g.bind(g.rules.wild)
                    tests.append(f"(sym and sym not in t.symbols and not (cs.type in {wild} and _is_wild(st, c)))")
                for prop, value, negated in whose:
                    read = "t.id" if prop == "id" else f"t.props.get({g.bind(prop)})"
                    tests.append(f"({read} == {value}) == {'True' if negated else 'False'}")
                for test in tests:
                    with out.block(f"if {test}:"):
                        out.add("continue")
            if q.where is not None:
                with out.block(f"if not {g.test(q.where, cand='c', fr='fr')}:"):
                    out.add("continue")
            out.add("found.append(c)")
        out.add("return found")
