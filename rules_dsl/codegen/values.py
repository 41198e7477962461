"""Values written as Python expressions (rules_dsl/effects/values.py): each emitter gives
the expression of what the class's `num`, `test` or `card` answers, for the card `cand`
and the frame `fr` (names in the generated code)."""

from __future__ import annotations

from typing import Any

from rules_dsl.codegen.generator import (
    RUNTIME,
    Generator,
    Lines,
    card_of,
    card_sets,
    numbers,
    symbols,
    tests,
    zone_keys,
)
from rules_dsl.effects import values as v
from rules_dsl.errors import RulesError
from rules_dsl.state import Frame, GameState

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
        key = g.zkey(zone, cand, fr)
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


def _pn(st: GameState, fr: Frame, c: int, value: Any) -> int:
    """`CardProp.num` once the property is read."""
    if value.__class__ is int:
        return int(value)
    if isinstance(value, v.NumExpr):  # an expression property, worked out for that card
        return value.num(st, fr, c)
    return int(value)


def _ps(st: GameState, fr: Frame, c: int, value: Any) -> str:
    return str(value)


def _pk(st: GameState, fr: Frame, c: int, value: Any, prop: str) -> str:
    """`CardProp.key` once the property is read: the zone it names."""
    name = str(value)
    zone = st.rules.zones.get(name)
    if zone is None:  # the card does not give this zone property (it defaults to "")
        raise RulesError(f"card {st.rules.cards[st.cards[c].type].id!r} gives no {prop!r}, so it names no zone")
    return f"{name}.{fr.player}" if zone.per_player else name


def _nc(prop: str) -> None:
    raise RulesError(f"there is no card to read {prop!r} from")


def _ns() -> int:
    raise RulesError("'this card' is used outside a card's text")


RUNTIME.update(
    _pn=_pn,
    _ps=_ps,
    _pk=_pk,
    _nc=_nc,
    _ns=_ns,
)


@card_of(v.ThisCard)
def _this_card(g: Generator, e: v.ThisCard, cand: str, fr: str) -> str:
    return f"({fr}.src if {fr}.src >= 0 else _ns())"


def _card_prop(g: Generator, e: v.CardProp, cand: str, fr: str, read: str) -> str:
    """A card property read as `CardProp.num` / `sym` / `key` do: a function made once per
    property value, the card expression inline in it."""

    def write(name: str, out: Lines) -> None:
        with out.block(f"def {name}(st, fr, cand):"):
            out.add(f"c = {g.card(e.card_expr, 'cand', 'fr')}")
            with out.block("if c < 0:"):
                out.add(f"_nc({g.bind(e.prop)})")
            prop = g.bind(e.prop)
            extra = f", {prop}" if read == "_pk" else ""
            out.add(f"return {read}(st, fr, c, st.rules.cards[st.cards[c].type].props[{prop}]{extra})")

    return f"{g.helper(e, '_q' + read[1:], write)}(st, {fr}, {cand})"


@numbers(v.CardProp)
def _card_prop_num(g: Generator, e: v.CardProp, cand: str, fr: str) -> str:
    return _card_prop(g, e, cand, fr, "_pn")


@symbols(v.CardProp)
def _card_prop_sym(g: Generator, e: v.CardProp, cand: str, fr: str) -> str:
    return _card_prop(g, e, cand, fr, "_ps")


@zone_keys(v.CardProp)
def _card_prop_key(g: Generator, e: v.CardProp, cand: str, fr: str) -> str:
    return _card_prop(g, e, cand, fr, "_pk")


_WILD = "wild"


@numbers(v.CountSymbols)
def _count_symbols(g: Generator, e: v.CountSymbols, cand: str, fr: str) -> str:
    """`CountSymbols.num`: the symbol's count summed over the generated query's cards."""

    def write(name: str, out: Lines) -> None:
        with out.block(f"def {name}(st, fr, cand):"):
            out.add(f"sym = {g.sym(e.symbol, 'cand', 'fr')}", "types = st.rules.cards", "cards = st.cards")
            out.add(f"{_WILD} = st.rules.wild", "total = 0")
            with out.block(f"for c in {g.card_list(e.cset, 'cand', 'fr')}:"):
                out.add("t = cards[c].type", "n = types[t].symbols.get(sym, 0)")
                with out.block("if n:"):
                    out.add("total += n")
                with out.block(f"elif t in {_WILD} and _is_wild(st, c):"):
                    out.add("total += 1")
            out.add("return total")

    return f"{g.helper(e, '_q', write)}(st, {fr}, {cand})"


@numbers(v.Total)
def _total(g: Generator, e: v.Total, cand: str, fr: str) -> str:
    """`Total.num`: a property summed over the generated query's cards."""

    def write(name: str, out: Lines) -> None:
        with out.block(f"def {name}(st, fr, cand):"):
            out.add("types = st.rules.cards", "cards = st.cards", "total = 0")
            with out.block(f"for c in {g.card_list(e.cset, 'cand', 'fr')}:"):
                out.add(f"n = types[cards[c].type].props.get({g.bind(e.prop)}, 0)")
                out.add("total += n if type(n) is int else n.num(st, fr, c)")
            out.add("return total")

    return f"{g.helper(e, '_q', write)}(st, {fr}, {cand})"


@numbers(v.CountTokens)
def _count_tokens(g: Generator, e: v.CountTokens, cand: str, fr: str) -> str:
    def write(name: str, out: Lines) -> None:
        with out.block(f"def {name}(st, fr, cand):"):
            out.add("cards = st.cards", "n = 0")
            with out.block(f"for c in {g.card_list(e.cset, 'cand', 'fr')}:"):
                out.add("n += len(cards[c].tokens)")
            out.add("return n")

    return f"{g.helper(e, '_q', write)}(st, {fr}, {cand})"


@zone_keys(v.PlayerZone)
def _player_zone(g: Generator, e: v.PlayerZone, cand: str, fr: str) -> str:
    return f"{g.bind(e.by_seat)}[{fr}.player]"


@zone_keys(v.SharedZone)
def _shared_zone(g: Generator, e: v.SharedZone, cand: str, fr: str) -> str:
    return g.bind(e.name)


@tests(v.AllOf)
def _all_of(g: Generator, e: v.AllOf, cand: str, fr: str) -> str:
    # in the order `AllOf.test` asks them, stopping at the first that fails
    if not e.conds:
        return "True"
    return "(" + " and ".join(g.test(c, cand, fr) for c in e.conds) + ")"


@tests(v.AnyOf)
def _any_of(g: Generator, e: v.AnyOf, cand: str, fr: str) -> str:
    if not e.conds:
        return "False"
    return "(" + " or ".join(g.test(c, cand, fr) for c in e.conds) + ")"


@tests(v.NotCond)
def _not(g: Generator, e: v.NotCond, cand: str, fr: str) -> str:
    return f"(not {g.test(e.cond, cand, fr)})"


@numbers(v.CardId)
def _card_id(g: Generator, e: v.CardId, cand: str, fr: str) -> str:
    return g.card(e.card_expr, cand, fr)


@numbers(v.Extreme)
def _extreme(g: Generator, e: v.Extreme, cand: str, fr: str) -> str:
    return f"{'max' if e.larger else 'min'}({g.num(e.left, cand, fr)}, {g.num(e.right, cand, fr)})"


@numbers(v.CountTokensOf)
def _count_tokens_of(g: Generator, e: v.CountTokensOf, cand: str, fr: str) -> str:
    def write(name: str, out: Lines) -> None:
        with out.block(f"def {name}(st, fr, cand):"):
            out.add("cards = st.cards", f"types = {g.bind(e.kinds)}", "n = 0")
            loop = f"for c in {g.card_list(e.cset, 'cand', 'fr')}:"
            with out.block(loop), out.block("for t in cards[c].tokens:"), out.block("if t in types:"):
                out.add("n += 1")
            out.add("return n")

    return f"{g.helper(e, '_q', write)}(st, {fr}, {cand})"


@card_sets(v.CardsUnder)
def _cards_under(g: Generator, e: v.CardsUnder, cand: str, fr: str) -> str:
    def write(name: str, out: Lines) -> None:
        with out.block(f"def {name}(st, fr, cand):"):
            out.add(f"c = {g.card(e.card_expr, 'cand', 'fr')}")
            out.add("return list(st.cards[c].under) if c >= 0 else []")

    return f"{g.helper(e, '_q', write)}(st, {fr}, {cand})"
