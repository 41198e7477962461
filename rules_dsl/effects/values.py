"""Compiled expressions: numbers, zones, card sets, symbols and conditions.

Each has one method that evaluates it against the state, with `fr` the running frame
(who "you" are, which card is "this card") and `cand` the card a filter is testing.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from rules_dsl.effects.base import frame, lookup
from rules_dsl.errors import RulesError
from rules_dsl.numbers import bounded
from rules_dsl.state import Frame, GameState

# players a per-player zone has keys for (compiler/statements.py MAX_PLAYERS)
MAX_SEATS = 8


class NumExpr:
    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        raise NotImplementedError


class CardExpr:
    def card(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        raise NotImplementedError


class ZoneExpr:
    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        raise NotImplementedError

    def keys(self, st: GameState, fr: Frame, cand: int = -1) -> list[str]:
        """Every zone meant: one, except for "an opponent's hand" and the like."""
        return [self.key(st, fr, cand)]


class SymExpr:
    def sym(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        raise NotImplementedError


class Cond:
    # True where the answer depends on the state and the frame's player only, never on the
    # card asked about (`cand`): a wild-card condition of this kind holds for all of one
    # owner's copies of a card at once, so a count asks it once per type and place (CountSymbols)
    owner_only = False

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        raise NotImplementedError


class CardSet:
    def cards(self, st: GameState, fr: Frame, cand: int = -1) -> list[int]:
        raise NotImplementedError

    def count(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return len(self.cards(st, fr, cand))


# ---- numbers -----------------------------------------------------------------------


@attrs.frozen
class Num(NumExpr):
    value: int

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return self.value


@attrs.frozen
class VarNum(NumExpr):
    name: str

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        v = lookup(st, self.name)
        if not isinstance(v, int):
            raise RulesError(f"{self.name} is not a number here")
        return v


@attrs.frozen
class Arith(NumExpr):
    sign: int
    left: NumExpr
    right: NumExpr

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return self.left.num(st, fr, cand) + self.sign * self.right.num(st, fr, cand)


@attrs.frozen
class Multiply(NumExpr):
    """A product, bounded (numbers.bounded): squaring in a loop must not eat the memory."""

    left: NumExpr
    right: NumExpr
    text: str

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return bounded(self.left.num(st, fr, cand) * self.right.num(st, fr, cand), self.text)


@attrs.frozen
class Divide(NumExpr):
    """A whole quotient, rounded down (towards minus infinity) or up; by 0 is an error
    in the rules text, reported with the text."""

    left: NumExpr
    right: NumExpr
    up: bool
    text: str

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        left, right = self.left.num(st, fr, cand), self.right.num(st, fr, cand)
        if right == 0:
            raise RulesError(f"{self.text}: divided by 0")
        return -(-left // right) if self.up else left // right


@attrs.frozen
class PlayerCounter(NumExpr):
    counter: str

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return st.counters[self.counter][fr.player]


@attrs.frozen
class SharedCounter(NumExpr):
    counter: str

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return st.shared[self.counter]


@attrs.frozen
class CardProp(NumExpr, SymExpr, ZoneExpr):
    """A printed property of a card: a number, a symbol or the name of a zone."""

    card_expr: CardExpr
    prop: str

    def value(self, st: GameState, fr: Frame, cand: int) -> Any:
        c = self.card_expr.card(st, fr, cand)
        if c < 0:
            raise RulesError(f"there is no card to read {self.prop!r} from")
        return st.rules.cards[st.cards[c].type].props[self.prop]

    # num and sym read the property as `value` does, inline: they are hot paths
    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        c = self.card_expr.card(st, fr, cand)
        if c < 0:
            raise RulesError(f"there is no card to read {self.prop!r} from")
        value = st.rules.cards[st.cards[c].type].props[self.prop]
        if value.__class__ is int:
            return value
        if isinstance(value, NumExpr):  # an expression property, worked out for that card
            return value.num(st, fr, c)
        return int(value)

    def sym(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        c = self.card_expr.card(st, fr, cand)
        if c < 0:
            raise RulesError(f"there is no card to read {self.prop!r} from")
        return str(st.rules.cards[st.cards[c].type].props[self.prop])

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        name = str(self.value(st, fr, cand))
        zone = st.rules.zones.get(name)
        if zone is None:  # the card does not give this zone property (it defaults to "")
            card = st.rules.cards[st.cards[self.card_expr.card(st, fr, cand)].type]
            raise RulesError(f"card {card.id!r} gives no {self.prop!r}, so it names no zone")
        return f"{name}.{fr.player}" if zone.per_player else name


@attrs.frozen
class CountCards(NumExpr):
    cset: CardSet

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return self.cset.count(st, fr, cand)


@attrs.frozen
class ZoneSize(NumExpr):
    zone: ZoneExpr

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return len(st.zones[self.zone.key(st, fr, cand)])


def owner_of(st: GameState, card: int) -> int:
    """The player whose zone holds a card (or the card it is tucked under); -1 if shared."""
    loc = st.cards[card].loc
    while loc[0] == "^":
        loc = st.cards[int(loc[1:])].loc
    _, _, seat = loc.partition(".")
    return int(seat) if seat else -1


def is_wild(st: GameState, card: int) -> bool:
    """Whether a card counts as one of every symbol now (a pack's wild-cards rule)."""
    cond = st.rules.wild.get(st.cards[card].type)
    if cond is None:
        return False
    owner = owner_of(st, card)
    return owner >= 0 and cond.test(st, frame(-1, owner), card)


@attrs.frozen
class CountSymbols(NumExpr):
    symbol: SymExpr
    cset: CardSet

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        s = self.symbol.sym(st, fr, cand)
        types = st.rules.cards
        cards = st.cards
        wild = st.rules.wild
        total = 0
        asked: dict[tuple[int, str], bool] | None = None  # (card type, where it lies) -> wild, where owner_only
        for c in self.cset.cards(st, fr, cand):
            cs = cards[c]
            t = cs.type
            n = types[t].symbols.get(s, 0)
            if n:
                total += n
            elif t in wild:  # a wild card without the symbol counts one
                if wild[t].owner_only:  # the same answer for every copy in one place (one owner)
                    key = (t, cs.loc)
                    if asked is None:
                        asked = {}
                    w = asked.get(key)
                    if w is None:
                        w = asked[key] = is_wild(st, c)
                    total += w
                elif is_wild(st, c):
                    total += 1
        return total


# a zone group member written with this mark after its name is a per-player zone: the zone
# of the player asking ("you"), compiler/statements.py `group`
YOURS = "*"


def group_zones(st: GameState, members: tuple[tuple[str, str], ...], player: int = -1) -> list[str]:
    """A zone group's zones in this game: a member with a condition is there when its
    parameter is not 0 (a pile that only some variants use); a per-player member (`hand*`)
    is `player`'s zone."""
    params = st.params
    zones = []
    for z, when in members:  # a loop, not a comprehension (a function call in Python 3.11): an end trigger's hot path
        if not when or params.get(when, 0):
            zones.append(z if z[-1] != YOURS else f"{z[:-1]}.{player}")
    return zones


@attrs.frozen
class CountEmpty(NumExpr):
    zones: tuple[tuple[str, str], ...]

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        z = st.zones
        n = 0
        # loops, not sum(...): no generator (an end trigger's hot path)
        for k in group_zones(st, self.zones, fr.player):
            if not z[k]:
                n += 1
        return n


@attrs.frozen
class CountTokens(NumExpr):
    cset: CardSet

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        cards = st.cards
        n = 0
        for c in self.cset.cards(st, fr, cand):  # a loop, not sum(...): no generator
            n += len(cards[c].tokens)
        return n


@attrs.frozen
class Total(NumExpr):
    prop: str
    cset: CardSet

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        types = st.rules.cards
        cards = st.cards
        p = self.prop
        total = 0
        for c in self.cset.cards(st, fr, cand):
            value = types[cards[c].type].props.get(p, 0)
            # an expression property is worked out for the card itself ("it")
            total += value if value.__class__ is int else value.num(st, fr, c)
        return total


@attrs.frozen
class ValuedTotal(NumExpr):
    """`the total score of ...` for a property whose values each stand for an expression
    (`score: {per-tech: the number of cards in your techs, ...}`): each card's value is
    worked out for that card ("it"); a card without the property counts 0."""

    prop: str
    cset: CardSet
    values: dict[str, NumExpr]

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        types = st.rules.cards
        cards = st.cards
        total = 0
        for c in self.cset.cards(st, fr, cand):
            expr = self.values.get(types[cards[c].type].props.get(self.prop, ""))
            if expr is not None:
                total += expr.num(st, fr, c)
        return total


# ---- cards -------------------------------------------------------------------------


@attrs.frozen
class ItCard(CardExpr):
    def card(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        if cand >= 0:
            return cand
        it: int = lookup(st, "it")  # a card: choices bind card numbers
        return it


@attrs.frozen
class ThisCard(CardExpr):
    def card(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        if fr.src >= 0:
            return fr.src
        raise RulesError("'this card' is used outside a card's text")


@attrs.frozen
class CardVar(CardExpr):
    name: str

    def card(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        card: int = lookup(st, self.name)  # a card: choices bind card numbers
        return card


@attrs.frozen
class TopCard(CardExpr):
    """`the top card of the draw-pile`; refills the zone if its rules say so; -1 if none."""

    zone: ZoneExpr

    def card(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        from rules_dsl.effects.base import refill

        key = self.zone.key(st, fr, cand)
        if not st.zones[key] and not refill(st, key):
            return -1
        return st.zones[key][-1]

    def available(self, st: GameState, fr: Frame) -> bool:
        """Whether there is a top card, without refilling anything (for option checks)."""
        from rules_dsl.effects.base import refill_possible

        key = self.zone.key(st, fr)
        return bool(st.zones[key]) or refill_possible(st, key)


@attrs.frozen
class CardId(NumExpr):
    """A card as a number, so that conditions can say `it is not this card`."""

    card_expr: CardExpr

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return self.card_expr.card(st, fr, cand)


@attrs.frozen
class Seat(NumExpr):
    """`your seat`: 1 for the start player, then clockwise."""

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return (fr.player - st.first) % st.players + 1


@attrs.frozen
class OpponentCounter(NumExpr):
    counter: str

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return st.counters[self.counter][(fr.player + 1) % st.players]


@attrs.frozen
class OneCard(CardSet):
    card_expr: CardExpr

    def cards(self, st: GameState, fr: Frame, cand: int = -1) -> list[int]:
        c = self.card_expr.card(st, fr, cand)
        return [c] if c >= 0 else []


@attrs.frozen
class CardsUnder(CardSet):
    card_expr: CardExpr

    def cards(self, st: GameState, fr: Frame, cand: int = -1) -> list[int]:
        c = self.card_expr.card(st, fr, cand)
        return list(st.cards[c].under) if c >= 0 else []


@attrs.frozen
class CardsUnderAll(CardSet):
    """Everything tucked under the cards a query finds, card by card in query order."""

    query: CardSet

    def cards(self, st: GameState, fr: Frame, cand: int = -1) -> list[int]:
        cards = st.cards
        return [u for c in self.query.cards(st, fr, cand) for u in cards[c].under]


@attrs.frozen
class Query(CardSet):
    """Cards in some zones that pass every filter, in zone order, bottom to top."""

    zones: tuple[ZoneExpr, ...]
    facing: int  # -1 any, 0 face down, 1 face up
    kind: str  # "" any
    symbol: SymExpr | None
    section: str
    where: Cond | None
    whose: tuple[tuple[str, Any, bool], ...] = ()  # (property, str or CardProp, negated)
    plain: bool = attrs.field(init=False)  # no filter but facing
    # Worked out once here, so that the hot path reads only what it needs: when no zone
    # depends on the state ("your hand", "the role-display"), the zone keys for each seat
    # (else None), and the one key for each seat when there is one zone; and whether a
    # card's type alone can fail it (kind, section, symbol, whose)
    seat_keys: tuple[tuple[str, ...], ...] | None = attrs.field(init=False)
    seat_key: tuple[str, ...] | None = attrs.field(init=False)
    typed: bool = attrs.field(init=False)
    # the whose-tests whose value is not a literal ("whose type is its type"), worked out at
    # each call; the literal ones are part of `type_filter`'s set
    live_whose: tuple[tuple[str, Any, bool], ...] = attrs.field(init=False, eq=False)
    # (the rules' card types, the indexes of those that pass the filters a card's type alone
    # decides: kind, section, whose-tests with a literal value), worked out at the first call
    # from the card types it is called with; a card is then tested by one set lookup instead
    # of reading its type's fields. Kept with the card types it was worked out from, so a
    # query object that ever met other rules works the set out again, never uses a wrong one.
    passing: tuple[Any, frozenset[int]] | None = attrs.field(init=False, default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        plain = not (self.kind or self.symbol or self.section or self.where or self.whose)
        object.__setattr__(self, "plain", plain)
        object.__setattr__(self, "typed", bool(self.kind or self.symbol or self.section or self.whose))
        each = [seat_keys(z) for z in self.zones]
        by_seat = None
        if all(keys is not None for keys in each):
            by_seat = tuple(tuple(keys[s] for keys in each if keys is not None) for s in range(MAX_SEATS))
        object.__setattr__(self, "seat_keys", by_seat)
        object.__setattr__(self, "seat_key", each[0] if len(each) == 1 else None)
        object.__setattr__(self, "live_whose", tuple(w for w in self.whose if not isinstance(w[1], str)))

    def type_filter(self, types: Sequence[Any]) -> frozenset[int]:
        """The card types (indexes into `types`, the rules' `cards`) that pass this query's
        kind, section and literal whose-tests: `passing`'s set, worked out now if not yet
        for these types (one tuple stored at once: threads sharing rules agree)."""
        memo = self.passing
        if memo is not None and memo[0] is types:
            return memo[1]
        kind, section = self.kind, self.section
        fixed = [w for w in self.whose if isinstance(w[1], str)]
        ok = frozenset(
            i
            for i, t in enumerate(types)
            if (not kind or t.kind == kind)
            and (not section or section in t.sections)
            and all(((t.id if p == "id" else t.props.get(p)) == val) != neg for p, val, neg in fixed)
        )
        object.__setattr__(self, "passing", (types, ok))
        return ok

    def zone_keys(self, st: GameState, fr: Frame, cand: int) -> tuple[str, ...] | list[str]:
        if self.seat_keys is not None:
            return self.seat_keys[fr.player]
        zones = self.zones
        if len(zones) == 1:
            return zones[0].keys(st, fr, cand)
        return [k for z in zones for k in z.keys(st, fr, cand)]

    def count(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        """How many cards it finds: `len(cards(...))`, without the list in the plain case."""
        seat_key = self.seat_key
        if seat_key is not None and self.plain and self.facing < 0:
            return len(st.zones[seat_key[fr.player]])
        return len(self.cards(st, fr, cand))

    def cards(self, st: GameState, fr: Frame, cand: int = -1) -> list[int]:
        facing = self.facing
        if self.plain:
            # the hot case: "cards in your hand", "face-up cards in your empire"
            seat_key = self.seat_key
            if seat_key is not None:
                zone = st.zones[seat_key[fr.player]]
                if facing < 0:
                    return zone.copy()
                up = facing == 1
                cards = st.cards
                found = []
                for c in zone:  # a loop, not a comprehension: no function call (Python 3.11) for a few cards
                    if cards[c].up == up:
                        found.append(c)
                return found
            zone_keys = self.zone_keys(st, fr, cand)
            zones = st.zones
            found = []
            if facing < 0:
                for key in zone_keys:
                    found.extend(zones[key])
                return found
            up = facing == 1
            cards = st.cards
            for key in zone_keys:
                for c in zones[key]:
                    if cards[c].up == up:
                        found.append(c)
            return found
        seat_keys = self.seat_keys
        zone_keys = seat_keys[fr.player] if seat_keys is not None else self.zone_keys(st, fr, cand)
        zones = st.zones
        cards = st.cards
        out: list[int] = []
        where = self.where
        typed = self.typed
        any_facing = facing < 0
        up = facing == 1
        if typed:
            types = st.rules.cards
            memo = self.passing
            ok = memo[1] if memo is not None and memo[0] is types else self.type_filter(types)
            sym = self.symbol.sym(st, fr, cand) if self.symbol is not None else ""
            wild = st.rules.wild
            # "whose type is its type": the value belongs to the enclosing card, so work it out once
            whose = []
            for p, v, neg in self.live_whose:  # a loop, not a comprehension: usually none or one
                whose.append((p, v.value(st, fr, cand), neg))
        for key in zone_keys:
            for c in zones[key]:
                cs = cards[c]
                if not any_facing and cs.up != up:
                    continue
                if typed:
                    if cs.type not in ok:
                        continue
                    if sym and sym not in types[cs.type].symbols and not (cs.type in wild and is_wild(st, c)):
                        continue
                    if whose:
                        t = types[cs.type]
                        passes = True
                        for p, val, neg in whose:  # inline, not a call for each card
                            if ((t.id if p == "id" else t.props.get(p)) == val) == neg:
                                passes = False
                                break
                        if not passes:
                            continue
                if where is not None and not where.test(st, fr, c):
                    continue
                out.append(c)
        return out


# ---- zones and symbols -------------------------------------------------------------


@attrs.frozen
class PlayerZone(ZoneExpr):
    name: str
    by_seat: tuple[str, ...]

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return self.by_seat[fr.player]

    def keys(self, st: GameState, fr: Frame, cand: int = -1) -> list[str]:
        return [self.by_seat[fr.player]]


@attrs.frozen
class SharedZone(ZoneExpr):
    name: str

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return self.name

    def keys(self, st: GameState, fr: Frame, cand: int = -1) -> list[str]:
        return [self.name]


def seat_keys(zone: ZoneExpr) -> tuple[str, ...] | None:
    """A zone's key for each seat, when it depends on nothing but the seat ("your hand",
    "the box"), else None: an effect works it out once and then only indexes it."""
    if isinstance(zone, PlayerZone):
        return zone.by_seat
    if isinstance(zone, SharedZone):
        return (zone.name,) * MAX_SEATS
    return None


@attrs.frozen
class OpponentZone(ZoneExpr):
    """`the opponent's discard`: the next player's zone (the opponent, with two players)."""

    name: str

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return f"{self.name}.{(fr.player + 1) % st.players}"


@attrs.frozen
class OpponentsZones(ZoneExpr):
    """`an opponent's tableau`: that zone of every other player, clockwise."""

    name: str

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        raise RulesError(f"'an opponent's {self.name}' names several zones; use it where cards are chosen or counted")

    def keys(self, st: GameState, fr: Frame, cand: int = -1) -> list[str]:
        n = st.players
        return [f"{self.name}.{(fr.player + i) % n}" for i in range(1, n)]


@attrs.frozen
class ZoneVar(ZoneExpr):
    name: str

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return str(lookup(st, self.name))


@attrs.frozen
class SymLit(SymExpr):
    name: str

    def sym(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return self.name


# ---- words (token kinds, noted values) ---------------------------------------------


class TextExpr:
    def text(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        raise NotImplementedError


@attrs.frozen
class TextLit(TextExpr):
    value: str

    def text(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return self.value


@attrs.frozen
class TextVar(TextExpr):
    """A word bound by a choice, such as `the kind` after a token is taken."""

    name: str

    def text(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return str(lookup(st, self.name))


@attrs.frozen
class TextProp(TextExpr):
    prop: CardProp

    def text(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return str(self.prop.value(st, fr, cand))


@attrs.frozen
class CountNotes(NumExpr):
    name: str

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return len(st.notes.get(f"{self.name}.{fr.player}", ()))


@attrs.frozen
class CountTokensOf(NumExpr):
    kinds: tuple[str, ...]
    cset: CardSet

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        cards = st.cards
        kinds = self.kinds
        n = 0
        for c in self.cset.cards(st, fr, cand):  # loops, not sum(...): no generator for each card a filter tests
            for t in cards[c].tokens:
                if t in kinds:
                    n += 1
        return n


@attrs.frozen
class Extreme(NumExpr):
    larger: bool
    left: NumExpr
    right: NumExpr

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        a = self.left.num(st, fr, cand)
        b = self.right.num(st, fr, cand)
        return max(a, b) if self.larger else min(a, b)


# ---- conditions --------------------------------------------------------------------

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "ge": operator.ge,
    "le": operator.le,
    "gt": operator.gt,
    "lt": operator.lt,
    "eq": operator.eq,
    "ne": operator.ne,
}


@attrs.frozen
class Compare(Cond):
    op: str
    left: NumExpr
    right: NumExpr
    compare: Callable[[Any, Any], bool] = attrs.field(init=False, eq=False, repr=False)  # operator.ge, ...

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "compare", _OPS[self.op])

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        return self.compare(self.left.num(st, fr, cand), self.right.num(st, fr, cand))


@attrs.frozen
class IsZero(Cond):
    value: NumExpr
    negated: bool

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        return (self.value.num(st, fr, cand) == 0) != self.negated


@attrs.frozen
class IsFacing(Cond):
    card_expr: CardExpr
    up: bool

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        c = self.card_expr.card(st, fr, cand)
        return c >= 0 and st.cards[c].up == self.up


@attrs.frozen
class IsIn(Cond):
    card_expr: CardExpr
    zone: ZoneExpr

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        c = self.card_expr.card(st, fr, cand)
        return c >= 0 and st.cards[c].loc in self.zone.keys(st, fr, cand)


@attrs.frozen
class IsMarked(Cond):
    card_expr: CardExpr
    name: str
    negated: bool

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        c = self.card_expr.card(st, fr, cand)
        return (c >= 0 and self.name in st.cards[c].marks) != self.negated


@attrs.frozen
class IsCopy(Cond):
    """`CARD is [not] a copy of CARD-ID`: the card's id (its type) is the one named."""

    card_expr: CardExpr
    card_id: str
    negated: bool

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        c = self.card_expr.card(st, fr, cand)
        return (c >= 0 and st.rules.cards[st.cards[c].type].id == self.card_id) != self.negated


@attrs.frozen
class IsNoted(Cond):
    value: TextExpr
    name: str

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        return self.value.text(st, fr, cand) in st.notes.get(f"{self.name}.{fr.player}", ())


@attrs.frozen
class AnyOf(Cond):
    conds: tuple[Cond, ...]

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        for c in self.conds:  # noqa: SIM110 (a loop, not any(...): no generator for each card a filter tests)
            if c.test(st, fr, cand):
                return True
        return False


@attrs.frozen
class NotCond(Cond):
    cond: Cond

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        return not self.cond.test(st, fr, cand)


@attrs.frozen
class AllOf(Cond):
    conds: tuple[Cond, ...]

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        for c in self.conds:  # noqa: SIM110 (a loop, not all(...): no generator for each card a filter tests)
            if not c.test(st, fr, cand):
                return False
        return True
