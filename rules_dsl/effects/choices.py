"""Effects that ask a player: a card, a zone, a slot to fill, a token to take.

Each builds the complete list of legal options with stable, printable ids. A forced
choice (exactly one option, no way to pass) is taken without asking.
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.base import Effect, ask, bind, check_depth, frame, push
from rules_dsl.effects.control import Guard, Scope
from rules_dsl.effects.values import CardExpr, CardSet, NumExpr, group_zones, owner_of
from rules_dsl.knowledge import identifies, root
from rules_dsl.state import CardState, Frame, GameState, without


def card_options(st: GameState, cards: list[int], player: int, blind: bool = True) -> tuple[list[str], list[int]]:
    """Option ids for cards `player` chooses among: the card's id, or id#n when two options
    share a card type; a card `player` cannot identify is named by its place, never by what
    it is (`hidden_id`).

    Identical cards in the same place (same type, facing, nothing on them) are one
    option: choosing between copies changes nothing, and fewer options help bots. Cards
    the player cannot identify are never merged: which one is taken may matter. `blind`
    False: a choice that can never offer such a card (`Rules.blind_choices`), so none is
    asked about.
    """
    if blind:
        return _blind_options(st, cards, player)
    types = st.rules.cards
    states = st.cards
    if len(cards) == 1:  # nothing to merge or to tell apart
        c = cards[0]
        return [types[states[c].type].id], [c]
    # the usual case first, without a tuple made for each card: copies of a type that
    # lie alike; two copies that lie differently go the general way (`_merged`)
    kept: dict[int, CardState] = {}
    chosen: list[int] = []
    ids: list[str] = []
    for c in cards:
        cs = states[c]
        if not cs.under and not cs.tokens:
            other = kept.get(cs.type)
            if other is None:
                kept[cs.type] = cs
            elif other.loc == cs.loc and other.up == cs.up and other.marks == cs.marks and other.seen == cs.seen:
                continue
            else:
                return _merged(st, cards)
        chosen.append(c)
        ids.append(types[cs.type].id)
    if len(set(ids)) != len(ids):
        ids = distinct_ids(st, ids, chosen)
    return ids, chosen


def _merged(st: GameState, cards: list[int]) -> tuple[list[str], list[int]]:
    """`card_options` (no card hidden) for cards among which some copies lie differently:
    each kind of copy kept once."""
    types = st.rules.cards
    states = st.cards
    seen: set[tuple[Any, ...]] = set()
    chosen: list[int] = []
    ids: list[str] = []
    for c in cards:
        cs = states[c]
        if not cs.under and not cs.tokens:
            sig = (cs.type, cs.loc, cs.up, cs.marks, cs.seen)
            if sig in seen:
                continue
            seen.add(sig)
        chosen.append(c)
        ids.append(types[cs.type].id)
    if len(set(ids)) != len(ids):
        ids = distinct_ids(st, ids, chosen)
    return ids, chosen


def _blind_options(st: GameState, cards: list[int], player: int) -> tuple[list[str], list[int]]:
    """`card_options` where some cards may be ones `player` cannot identify: those are
    offered by place, in their place among the others."""
    rules = st.rules
    known = [c for c in cards if identifies(rules, st, c, player)]
    if len(known) == len(cards):
        return card_options(st, cards, player, False)
    named: dict[int, str] = {}
    if known:
        known_ids, known_cards = card_options(st, known, player, False)
        named = dict(zip(known_cards, known_ids))
    hidden = set(cards).difference(known)
    ids: list[str] = []
    chosen: list[int] = []
    for c in cards:
        if c in named:
            ids.append(named[c])
        elif c in hidden:
            ids.append(hidden_id(st, c))
        else:  # a copy merged with an earlier one
            continue
        chosen.append(c)
    return ids, chosen


def hidden_id(st: GameState, card: int) -> str:
    """A card by its place alone: `ZONE#N`, the Nth from the top of the zone (with the
    owner's seat, `hand.p2#3`), or `under-ZONE#N`, the Nth from the top of the cards
    tucked under cards of that zone (in the order the zone lists them)."""
    host, key = root(st, card)
    name, _, seat = key.partition(".")
    where = f"{name}.p{int(seat) + 1}" if seat else name
    zone = st.zones[key]
    if host == card:
        return f"{where}#{len(zone) - zone.index(card)}"
    tucked = _tucked(st, zone)
    return f"under-{where}#{len(tucked) - tucked.index(card)}"


def _tucked(st: GameState, zone: list[int]) -> list[int]:
    """The cards tucked under the cards of a zone, bottom to top, each host's in order."""
    out: list[int] = []
    stack = list(reversed(zone))
    while stack:
        c = stack.pop()
        under = st.cards[c].under
        out.extend(under)
        stack.extend(reversed(under))
    return out


def _where(st: GameState, card: int, owner: bool) -> str:
    """Where a card is, for an option id: its zone (with its owner's seat), or `under-ID`."""
    loc = st.cards[card].loc
    if loc[0] == "^":
        return "under-" + st.rules.cards[st.cards[int(loc[1:])].type].id
    name, _, seat = loc.partition(".")
    return f"{name}.p{int(seat) + 1}" if owner and seat else name


def distinct_ids(st: GameState, ids: list[str], cards: list[int]) -> list[str]:
    """Options that share a card id say where each card is: `card@hand` and `card@discard`,
    then with the owner's seat (`card@hand.p2`). Copies in one zone that still differ
    (one holding a token) keep their number in the game: `card#12`."""
    for owner in (False, True):
        labels = [f"{i}@{_where(st, c, owner)}" if ids.count(i) > 1 else i for i, c in zip(ids, cards)]
        if len(set(labels)) == len(labels):
            return labels
    return [lab if labels.count(lab) == 1 else f"{i}#{c}" for lab, i, c in zip(labels, ids, cards)]


def token_options(st: GameState, pairs: list[Any], player: int, blind: bool = True) -> tuple[list[str], list[Any]]:
    """Ids for (card, token kind) options, identical cards merged as in card_options (`blind`
    as there)."""
    rules = st.rules
    types = rules.cards
    seen: set[tuple[Any, ...]] = set()
    kept: list[Any] = []
    known: list[bool] = []
    for c, kind in pairs:
        cs = st.cards[c]
        knows = not blind or identifies(rules, st, c, player)
        if knows:
            sig = (
                cs.type,
                cs.loc,
                cs.up,
                tuple(sorted(cs.tokens)),
                bool(cs.under),
                tuple(cs.marks),
                tuple(cs.seen),
                kind,
            )
            if sig in seen:
                continue
            seen.add(sig)
        kept.append([c, kind])
        known.append(knows)
    places = [types[st.cards[c].type].id if k else hidden_id(st, c) for (c, _), k in zip(kept, known)]
    ids = [f"{place}:{kind}" for place, (_, kind) in zip(places, kept)]
    if len(set(ids)) != len(ids):
        named = [i for i, k in enumerate(known) if k]
        for i, place in zip(named, distinct_ids(st, [places[i] for i in named], [kept[i][0] for i in named])):
            ids[i] = f"{place}:{kept[i][1]}"
    return ids, kept


@attrs.frozen(eq=False)
class ChooseCard(Guard):
    secret = True
    eid: int
    text: str
    query: CardSet
    name: str
    optional: bool = False
    pass_label: str = "pass"
    # whether it may offer a card the chooser cannot identify (`Rules.blind_choices`, set
    # by the compiler): else every option names its card without asking
    blind: bool = True

    def step(self, st: GameState, fr: Frame) -> None:
        cards = self.query.cards(st, fr)
        if not cards:
            st.failed = True
            st.frames.pop()
            return
        if len(cards) == 1 and not self.optional:  # forced: no option ids needed
            if st.trace is not None:  # a scenario watches (`forced:`): the file sees the card
                st.trace.forced(st, fr.player, self.text, st.rules.cards[st.cards[cards[0]].type].id)
            self.resume(st, fr, cards[0])
            return
        ids, values = card_options(st, cards, fr.player, self.blind)
        if len(values) == 1 and not self.optional:
            if st.trace is not None:
                st.trace.forced(st, fr.player, self.text, ids[0])
            self.resume(st, fr, values[0])
            return
        if self.optional:
            ids.append(self.pass_label)
            values.append(-1)
        ask(st, fr, fr.player, self.text, ids, values)

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        frames = st.frames
        if value < 0:
            st.failed = True
        else:
            # as `bind` twice, with one walk: both names go to the nearest scope
            for i in range(len(frames) - 1, -1, -1):
                names = frames[i].vars
                if names is not None:
                    names["it"] = value
                    names[self.name] = value
                    break
        frames.pop()

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return bool(self.query.cards(st, fr))


@attrs.frozen(eq=False)
class ChooseZone(Guard):
    """`choose a market-pile that is not empty as the pile`."""

    secret = True
    eid: int
    text: str
    zones: tuple[tuple[str, str], ...]  # (zone, parameter that must not be 0, or "")
    name: str
    optional: bool = False
    pass_label: str = "pass"

    def _options(self, st: GameState, player: int) -> list[str]:
        return [z for z in group_zones(st, self.zones, player) if st.zones[z]]

    def step(self, st: GameState, fr: Frame) -> None:
        opts = self._options(st, fr.player)
        if not opts:
            st.failed = True
            st.frames.pop()
            return
        if len(opts) == 1 and not self.optional:
            if st.trace is not None:
                st.trace.forced(st, fr.player, self.text, opts[0].partition(".")[0])
            self.resume(st, fr, opts[0])
            return
        values: list[Any] = list(opts)
        ids = [o.partition(".")[0] for o in opts]  # "hand.0": your hand, offered as "hand"
        if self.optional:
            ids.append(self.pass_label)
            values.append("")
        ask(st, fr, fr.player, self.text, ids, values)

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        if not value:
            st.failed = True
        else:
            bind(st, self.name, value)
        st.frames.pop()

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return bool(self._options(st, fr.player))


class TokenChoice(Guard):
    """A choice of (card, token kind) pairs: which slot to fill, which token to take."""

    changes = True

    text: str
    optional: bool
    pass_label: str

    def _options(self, st: GameState, fr: Frame) -> tuple[list[str], list[Any]]:
        raise NotImplementedError

    def _apply(self, st: GameState, card: int, kind: str) -> None:
        raise NotImplementedError

    def step(self, st: GameState, fr: Frame) -> None:
        ids, values = self._options(st, fr)
        if not values:
            st.failed = True
            st.frames.pop()
            return
        if len(values) == 1 and not self.optional:
            if st.trace is not None:
                st.trace.forced(st, fr.player, self.text, ids[0])
            self.resume(st, fr, values[0])
            return
        if self.optional:
            ids.append(self.pass_label)
            values.append(None)
        ask(st, fr, fr.player, self.text, ids, values)

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        if value is None:
            st.failed = True
        else:
            card, kind = value
            self._apply(st, card, kind)
            bind(st, "it", card)
            bind(st, "kind", kind)
        st.frames.pop()

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return bool(self._options(st, fr)[1])


@attrs.frozen(eq=False)
class FillSlot(TokenChoice):
    """`fill an empty slot on a face-up card in your tableau`: a token of the slot's kind.
    A slot with room for more (the vocabulary's `slot-room` quantity of the card's owner)
    is "empty" until it holds that many more."""

    eid: int
    text: str
    query: CardSet
    optional: bool = False
    pass_label: str = "pass"
    room: NumExpr | None = None  # the vocabulary's slot-room quantity, if it has one

    def _options(self, st: GameState, fr: Frame) -> tuple[list[str], list[Any]]:
        types = st.rules.cards
        values: list[Any] = []
        groups = st.rules.slot_groups
        rooms: dict[int, int] = {}  # owner -> tokens each slot holds
        for c in self.query.cards(st, fr):
            cs = st.cards[c]
            slots = types[cs.type].slots
            if not slots:
                continue
            each = 1
            if self.room is not None:
                owner = owner_of(st, c)
                if owner not in rooms:
                    extra = 0 if owner < 0 else self.room.num(st, frame(-1, owner, -1))
                    rooms[owner] = 1 + max(0, extra)
                each = rooms[owner]
            for kind, cap in slots.items():
                if kind in groups:
                    # an "any" slot: tokens of the group beyond the card's own slots of their kind
                    members = groups[kind]
                    held = sum(max(0, cs.tokens.count(k) - slots.get(k, 0) * each) for k in members)
                    if held < cap * each:
                        values.extend([c, k] for k in members)
                elif cs.tokens.count(kind) < cap * each:
                    values.append([c, kind])
        return token_options(st, values, fr.player, self.eid in st.rules.blind_choices)

    def _apply(self, st: GameState, card: int, kind: str) -> None:
        cs = st.card_to_change(card)
        cs.tokens = (*cs.tokens, kind)


@attrs.frozen(eq=False)
class TakeToken(TokenChoice):
    """`remove a token from a face-up card in your tableau`."""

    eid: int
    text: str
    query: CardSet
    optional: bool = False
    pass_label: str = "pass"
    kinds: tuple[str, ...] = ()  # only tokens of these kinds; () for any

    def _options(self, st: GameState, fr: Frame) -> tuple[list[str], list[Any]]:
        values: list[Any] = []
        kinds = self.kinds
        for c in self.query.cards(st, fr):
            for kind in sorted(set(st.cards[c].tokens)):
                if not kinds or kind in kinds:
                    values.append([c, kind])
        return token_options(st, values, fr.player, self.eid in st.rules.blind_choices)

    def _apply(self, st: GameState, card: int, kind: str) -> None:
        cs = st.card_to_change(card)
        cs.tokens = without(cs.tokens, kind)


@attrs.frozen(eq=False)
class ChooseKind(Guard):
    """`choose a resource kind as the kind`: a token kind of a group, bound as a word."""

    secret = True
    eid: int
    text: str
    kinds: tuple[str, ...]
    name: str

    def step(self, st: GameState, fr: Frame) -> None:
        if len(self.kinds) == 1:
            if st.trace is not None:
                st.trace.forced(st, fr.player, self.text, self.kinds[0])
            self.resume(st, fr, self.kinds[0])
            return
        ask(st, fr, fr.player, self.text, list(self.kinds), list(self.kinds))

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        bind(st, self.name, value)
        st.frames.pop()


@attrs.frozen(eq=False)
class DoSection(Effect):
    """`do its ACTION`: run a section of a card's text, with that card as 'this card'."""

    eid: int
    text: str
    card_expr: CardExpr
    section: str

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 1:
            st.failed = False
            st.frames.pop()
            return
        fr.pc = 1
        check_depth(st, "the section", self.section)
        card = self.card_expr.card(st, fr)
        eid = st.rules.cards[st.cards[card].type].sections.get(self.section)
        if eid is not None:
            # a section absorbs its failures (this frame does, on its next step)
            scope = st.rules.effects[eid]
            assert isinstance(scope, Scope)
            body = scope.body.eid if st.trace is None else st.rules.step_twins.get(scope.body.eid, scope.body.eid)
            push(st, body, fr.player, card, scope=True)
