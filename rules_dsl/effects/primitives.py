"""Atomic effects: they change the state in one go and never ask anything."""

from __future__ import annotations

import attrs

from rules_dsl import knowledge, rng
from rules_dsl.effects.base import Effect, detach, lookup, move_card, refill_possible, take_top, watch
from rules_dsl.effects.control import Guard
from rules_dsl.effects.values import CardExpr, CardSet, NumExpr, OneCard, Query, TextExpr, TopCard, ZoneExpr, seat_keys
from rules_dsl.errors import RulesError
from rules_dsl.numbers import MAX_VALUE, bounded
from rules_dsl.state import Frame, GameState, without


@attrs.frozen(eq=False)
class MoveCards(Effect):
    """`move it to ...`, `move all cards in X to ...`, `move the cards under it to ...`."""

    changes = True

    eid: int
    text: str
    cset: CardSet
    dest: ZoneExpr
    facing: str
    bottom: bool = False
    atomic = True
    dest_keys: tuple[str, ...] | None = attrs.field(init=False)  # values.seat_keys

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "dest_keys", seat_keys(self.dest))

    def execute(self, st: GameState, fr: Frame) -> bool:
        keys = self.dest_keys
        dest = keys[fr.player] if keys is not None else self.dest.key(st, fr)
        cset = self.cset
        if cset.__class__ is OneCard:  # `move it to ...`, the usual case: no list
            c = cset.card_expr.card(st, fr)
            if c < 0:
                return False
            move_card(st, c, dest, self.facing, self.bottom)
            return True
        cards = cset.cards(st, fr)
        for c in cards:
            move_card(st, c, dest, self.facing, self.bottom)
        return bool(cards) or not isinstance(self.cset, OneCard)


@attrs.frozen(eq=False)
class MoveAll(Effect):
    changes = True
    eid: int
    text: str
    source: ZoneExpr
    dest: ZoneExpr
    facing: str
    atomic = True
    source_keys: tuple[str, ...] | None = attrs.field(init=False)  # values.seat_keys
    dest_keys: tuple[str, ...] | None = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "source_keys", seat_keys(self.source))
        object.__setattr__(self, "dest_keys", seat_keys(self.dest))

    def execute(self, st: GameState, fr: Frame) -> bool:
        keys = self.source_keys
        src = keys[fr.player] if keys is not None else self.source.key(st, fr)
        keys = self.dest_keys
        dest = keys[fr.player] if keys is not None else self.dest.key(st, fr)
        for c in list(st.zones[src]):
            move_card(st, c, dest, self.facing)
        return True


@attrs.frozen(eq=False)
class MoveTop(Guard):
    """`move the top N cards of X to Y`: refills X when it runs out; fails if none moved."""

    changes = True

    eid: int
    text: str
    count: NumExpr | None
    source: ZoneExpr
    dest: ZoneExpr
    facing: str
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        n = 1 if self.count is None else self.count.num(st, fr)
        if n <= 0:
            return True
        src = self.source.key(st, fr)
        dest = self.dest.key(st, fr)
        moved = 0
        for _ in range(n):
            if not take_top(st, src, dest, self.facing):
                break
            moved += 1
        return moved > 0

    def can_start(self, st: GameState, fr: Frame) -> bool:
        key = self.source.key(st, fr)
        return bool(st.zones[key]) or refill_possible(st, key)


@attrs.frozen(eq=False)
class Draw(Effect):
    """`draw N cards`: from the pack's draw pile to hand, reshuffling as the zone says."""

    changes = True

    eid: int
    text: str
    count: NumExpr
    source: ZoneExpr
    dest: ZoneExpr
    atomic = True
    source_keys: tuple[str, ...] | None = attrs.field(init=False)  # values.seat_keys
    dest_keys: tuple[str, ...] | None = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "source_keys", seat_keys(self.source))
        object.__setattr__(self, "dest_keys", seat_keys(self.dest))

    def execute(self, st: GameState, fr: Frame) -> bool:
        n = self.count.num(st, fr)
        keys = self.source_keys
        src = keys[fr.player] if keys is not None else self.source.key(st, fr)
        keys = self.dest_keys
        dest = keys[fr.player] if keys is not None else self.dest.key(st, fr)
        for _ in range(n):
            if not take_top(st, src, dest):
                break
        return True


@attrs.frozen(eq=False)
class Tuck(Effect):
    changes = True
    eid: int
    text: str
    card_expr: CardExpr
    host_expr: CardExpr
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        card = self.card_expr.card(st, fr)
        host = self.host_expr.card(st, fr)
        if card == host or card < 0 or host < 0:
            return False
        detach(st, card)
        cs = st.card_to_change(card)
        hs = st.card_to_change(host)
        hs.under = (*hs.under, card)
        source = cs.loc
        cs.loc = f"^{host}"
        cs.up = True
        if source in st.rules.private_zones:
            knowledge.taken_unseen(st, card, source)
        return True


class OnOneCard(Guard):
    """An atomic effect on one card; it fails, changing nothing, when there is no card."""

    changes = True

    card_expr: CardExpr
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        c = self.card_expr.card(st, fr)
        if c < 0:
            return False
        self.act(st, fr, c)
        return True

    def act(self, st: GameState, fr: Frame, card: int) -> None:
        raise NotImplementedError

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return card_available(st, fr, self.card_expr)


@attrs.frozen(eq=False)
class Flip(OnOneCard):
    eid: int
    text: str
    card_expr: CardExpr
    up: bool

    def act(self, st: GameState, fr: Frame, card: int) -> None:
        st.card_to_change(card).up = self.up


@attrs.frozen(eq=False)
class Shuffle(Effect):
    changes = True
    eid: int
    text: str
    zone: ZoneExpr
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        cards = st.zones[self.zone.key(st, fr)]
        knowledge.shuffled(st, cards)  # nobody knows where a card is after a shuffle
        st.rng = rng.shuffle(st.rng, cards)
        return True


@attrs.frozen(eq=False)
class Gain(Effect):
    """Gain from the counter's supply; when the supply is out the gain still happens."""

    changes = True

    eid: int
    text: str
    amount: NumExpr
    counter: str
    supply: str
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        n = self.amount.num(st, fr)
        if n <= 0:
            return True
        values = st.counters[self.counter]
        total = values[fr.player] + n
        values[fr.player] = total if total <= MAX_VALUE else bounded(total, self.text)
        if self.supply:
            st.shared[self.supply] = max(0, st.shared[self.supply] - n)
        watched = st.rules.watch_counters
        if watched and (self.counter in watched or self.supply in watched):
            watch(st)
        return True


@attrs.frozen(eq=False)
class Lose(Guard):
    """`lose N x` loses what there is; `pay N x` fails, changing nothing, if short;
    `return N x` loses what there is and puts it back into the counter's supply."""

    changes = True

    eid: int
    text: str
    amount: NumExpr
    counter: str
    must_pay: bool
    supply: str = ""  # `return`: the shared counter that gets back what was lost
    floor: int = 0  # the lowest value: 0, or -MAX_VALUE for a counter that `may-be-negative`
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        n = max(0, self.amount.num(st, fr))
        values = st.counters[self.counter]
        have = values[fr.player]
        if self.must_pay and have < n:
            return False
        values[fr.player] = max(self.floor, have - n)
        if self.supply:
            st.shared[self.supply] += have - values[fr.player]
        watched = st.rules.watch_counters
        if watched and (self.counter in watched or self.supply in watched):
            watch(st)
        return True

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return not self.must_pay or st.counters[self.counter][fr.player] >= self.amount.num(st, fr)


@attrs.frozen(eq=False)
class ChangeShared(Guard):
    """`gain 1 info`, `lose 1 fuse`, `pay 1 info`, `return 1 info` on a shared (`per: game`)
    counter: as on a player's counter (`gain` takes from a supply, `lose` and `return` stop
    at the floor, `pay` fails when short), but the one value everyone shares changes."""

    changes = True

    eid: int
    text: str
    amount: NumExpr
    counter: str
    verb: str  # gain | lose | pay | return
    supply: str = ""  # `gain` takes from it, `return` gives back to it
    floor: int = 0  # 0, or -MAX_VALUE for a counter that `may-be-negative`
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        n = self.amount.num(st, fr)
        shared = st.shared
        have = shared[self.counter]
        if self.verb == "gain":
            if n <= 0:
                return True
            total = have + n
            shared[self.counter] = total if total <= MAX_VALUE else bounded(total, self.text)
            if self.supply:
                shared[self.supply] = max(0, shared[self.supply] - n)
        else:
            n = max(0, n)
            if self.verb == "pay" and have < n:
                return False
            shared[self.counter] = max(self.floor, have - n)
            if self.supply and self.verb == "return":
                shared[self.supply] += have - shared[self.counter]
        watched = st.rules.watch_counters
        if watched and (self.counter in watched or self.supply in watched):
            watch(st)
        return True

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return self.verb != "pay" or st.shared[self.counter] >= self.amount.num(st, fr)


@attrs.frozen(eq=False)
class Mark(OnOneCard):
    """`mark it as revealed` / `unmark it as revealed`: a named flag on a card."""

    eid: int
    text: str
    card_expr: CardExpr
    name: str
    on: bool

    def act(self, st: GameState, fr: Frame, card: int) -> None:
        marks = st.cards[card].marks
        if self.on and self.name not in marks:
            st.card_to_change(card).marks = (*marks, self.name)
        elif not self.on and self.name in marks:
            st.card_to_change(card).marks = without(marks, self.name)


@attrs.frozen(eq=False)
class MarkValue(OnOneCard):
    """`mark it as the hint`: the mark is the value bound as `name` (a chosen property value:
    `red`, `3`), as a word."""

    eid: int
    text: str
    card_expr: CardExpr
    name: str
    on: bool

    def act(self, st: GameState, fr: Frame, card: int) -> None:
        mark = str(lookup(st, self.name))
        marks = st.cards[card].marks
        if self.on and mark not in marks:
            st.card_to_change(card).marks = (*marks, mark)
        elif not self.on and mark in marks:
            st.card_to_change(card).marks = without(marks, mark)


@attrs.frozen(eq=False)
class PutToken(OnOneCard):
    """`put a blockade token on it`."""

    eid: int
    text: str
    kind: str
    card_expr: CardExpr

    def act(self, st: GameState, fr: Frame, card: int) -> None:
        cs = st.card_to_change(card)
        cs.tokens = (*cs.tokens, self.kind)


@attrs.frozen(eq=False)
class Note(Effect):
    """`note the kind as sold`: remember a word for the player (each word once)."""

    changes = True

    eid: int
    text: str
    value: TextExpr
    name: str
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        word = self.value.text(st, fr)
        notes = st.notes.setdefault(f"{self.name}.{fr.player}", [])
        if word not in notes:
            notes.append(word)
        return True


@attrs.frozen(eq=False)
class ClearNotes(Effect):
    """`clear all sold notes`: for every player."""

    changes = True

    eid: int
    text: str
    name: str
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        prefix = self.name + "."
        for key in [k for k in st.notes if k.startswith(prefix)]:
            del st.notes[key]
        return True


@attrs.frozen(eq=False)
class ClearMarks(Effect):
    """`clear all revealed marks`: from every card."""

    changes = True

    eid: int
    text: str
    name: str
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        name = self.name
        for i, cs in enumerate(st.cards):
            if name in cs.marks:
                st.card_to_change(i).marks = without(cs.marks, name)
        return True


@attrs.frozen(eq=False)
class Peek(OnOneCard):
    """`peek at it`: the player now sees the card until it is shuffled away."""

    eid: int
    text: str
    card_expr: CardExpr

    def act(self, st: GameState, fr: Frame, card: int) -> None:
        seen = st.cards[card].seen
        if fr.player not in seen:
            st.card_to_change(card).seen = (*seen, fr.player)


@attrs.frozen(eq=False)
class PointOut(Effect):
    """`point out QUERY`: every player learns, of each card in the query's zones (facing as
    it says), whether it passes the query's filters (`knowledge.point_out`)."""

    eid: int
    text: str
    query: Query
    atomic = True
    changes = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        query = self.query
        up = query.facing == 1
        cards = [
            c for key in query.zone_keys(st, fr, -1) for c in st.zones[key] if query.facing < 0 or st.cards[c].up == up
        ]
        knowledge.point_out(st, cards, lambda state, card: card in query.cards(state, fr))
        return True


def card_available(st: GameState, fr: Frame, expr: CardExpr) -> bool:
    """Whether a card expression names a card, without changing anything."""
    if isinstance(expr, TopCard):
        return expr.available(st, fr)
    try:
        return expr.card(st, fr) >= 0
    except RulesError:
        return False
