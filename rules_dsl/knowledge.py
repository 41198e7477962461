"""Who knows what: the one place that says which cards each seat can identify, and which
states a seat cannot tell from the real one.

Every surface asks this module: the observation (`observation.observe`), the option ids of
choices among cards (`effects/choices.card_options`), option labels and the narrated log
(`narrate`), and the states a bot searches (`sample`, through `determinize` and
`bots.base.Turn`). Nothing here knows a game: only the zones' declared `visibility`, which
way up each card lies, peeks, and where cards have been shuffled.

**Seeing a card.** A seat sees a card's front when the card lies where the seat may look:

- `public` zones list their cards; a face-up card shows its front to everyone, a face-down
  one its back, except to the zone's owner (a player's own face-down cards);
- `owner` zones list their cards to the owner only; others see how many there are;
- `others` zones (a hand held facing out) list their cards, fronts up, to everyone but the
  owner, who sees each card's back (and its marks) in its place;
- `hidden` zones show how many cards they hold;
- `top` zones list their top card (as a `public` zone would) and count the rest;
- a card tucked under another is listed with it.

A seat also identifies a card it has peeked at (`CardState.seen`) until the card is
shuffled, or taken unseen from among others it cannot tell apart.

**Pools.** A card a seat cannot identify could be any card of its *pool*: the cards whose
places were mixed up together by chance or by choices the seat did not see. Every card
starts alone (`CardState.pool` is -1: where the set-up puts each card is public); shuffling
a zone puts its cards, and every card that shared a pool with one of them, into one new
pool (`shuffled`); a card taken from a player's `owner` zone to a place where some other
seat still cannot see it joins the pool of the cards left there (`taken_unseen`), as that
seat cannot tell which one went. A pool's contents are public (everyone saw what went in),
so a seat knows the multiset of the pool's cards it cannot identify: the real ones.

**Sampling.** `sample` deals the cards a seat cannot identify again, pool by pool, from
each pool's multiset, keeping what the seat can see of each (a face-down card's kind and
back). It is canonical: the types are taken in sorted order and laid out by position, so
two states that differ only by which of a pool's unidentified cards is which give the same
samples for the same random draws.

**Pointed out.** `point out QUERY` (a hint: "these cards of your hand are blue") tells
every seat, of each card in the query's zones, whether it matches: the card types it may
be are kept on the card (`CardState.allowed`, the types for which it would answer the
same), public, shown in observations (`could-be`), and `sample` deals each such card a
type it allows. They are forgotten where the card could be followed no more (a shuffle,
a card taken unseen) and when it lies face up in everyone's sight.

Known limits (weaker, never stronger, than a perfect memory): a seat forgets a card it saw
that went somewhere hidden without a shuffle (a discard pile's covered cards, a card
taken into a hand) unless its pool tells it; merging pools at a shuffle may forget that a
card outside the shuffle could not be one of the shuffled ones; marks are public but the
sampler does not read what a mark may tell about a card (`point out` is what it reads).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs

from rules_dsl.rules import Rules, ZoneType
from rules_dsl.state import CardState, GameState

PUBLIC = -1  # the seat of nobody: what every player may see

# How a zone shows its cards to one seat.
LIST = 0  # every card, by its front (face up) or its back (face down)
COUNT = 1  # how many, and none of them
TOP = 2  # the top card as LIST would; the others as COUNT
BACKS = 3  # every card by its back, in its place (the owner of an `others` zone)
OWN = 4  # every card by its front, face down or not (the owner of a `public` or `owner` zone)
TOP_OWN = 5  # the top card as OWN would; the others as COUNT


def owner_of_key(key: str) -> int:
    """The seat a zone key belongs to (`hand.1` -> 1), PUBLIC for a shared zone."""
    _, _, seat = key.partition(".")
    return int(seat) if seat else PUBLIC


def view_of(visibility: str, owner: int, seat: int) -> int:
    """How a zone of this visibility, owned by `owner` (PUBLIC: shared), shows its cards to `seat`."""
    mine = seat >= 0 and owner == seat
    if visibility == "public":
        return OWN if mine else LIST
    if visibility == "top":
        return TOP_OWN if mine else TOP
    if visibility == "hidden":
        return COUNT
    if visibility == "owner":
        return OWN if mine else COUNT
    return BACKS if mine else LIST  # others


def views(zones: dict[str, ZoneType], max_players: int) -> dict[str, tuple[int, ...]]:
    """Every zone key of games of up to `max_players` -> its view for each seat, the last
    entry for PUBLIC (so `views[key][seat]` works for seat -1 too): `Rules.views`."""
    out = {}
    seats = [*range(max_players), PUBLIC]
    for z in zones.values():
        for key in [z.key(p) for p in range(max_players)] if z.per_player else [z.name]:
            owner = owner_of_key(key)
            out[key] = tuple(view_of(z.visibility, owner, s) for s in seats)
    return out


def front_shown(cs: CardState, view: int) -> bool:
    """Whether a card a zone lists (in a LIST, BACKS or OWN view) shows its front."""
    return view == OWN or (view == LIST and cs.up)


def root(st: GameState, card: int) -> tuple[int, str]:
    """The card at the bottom of a tuck chain (the one lying in a zone) and its zone key."""
    loc = st.cards[card].loc
    for _ in range(len(st.cards)):  # a chain is never longer than the cards
        if loc[:1] != "^":
            break
        card = int(loc[1:])
        loc = st.cards[card].loc
    return card, loc


def listed(rules: Rules, st: GameState, card: int, seat: int) -> int | None:
    """The view (LIST, BACKS or OWN) in which the card is listed to `seat` (by front or
    back), None when it is only counted."""
    host, key = root(st, card)
    view = rules.views[key][seat]
    if view == COUNT:
        return None
    if view in (TOP, TOP_OWN):
        zone = st.zones[key]
        if not zone or zone[-1] != host:
            return None
        return LIST if view == TOP else OWN
    return view


def sees_front(rules: Rules, st: GameState, card: int, seat: int) -> bool:
    """Whether `seat` sees the card's front now (not counting what it peeked at)."""
    cs = st.cards[card]
    loc = cs.loc
    if loc[0] == "^":
        view = listed(rules, st, card, seat)
        return view is not None and front_shown(cs, view)
    view = rules.views[loc][seat]
    if view == OWN:
        return True
    if view == LIST:
        return cs.up
    if view in (TOP, TOP_OWN):
        zone = st.zones[loc]
        return bool(zone) and zone[-1] == card and (cs.up or view == TOP_OWN)
    return False


def identifies(rules: Rules, st: GameState, card: int, seat: int) -> bool:
    """Whether `seat` can tell which card this is: it sees its front, or peeked at it."""
    return seat in st.cards[card].seen or sees_front(rules, st, card, seat)


def identified_cards(rules: Rules, st: GameState, seat: int) -> set[int]:
    """Every card `seat` can identify now, in one pass over the zones."""
    out: set[int] = set()
    for _, card, how in placed(rules, st, seat):
        if how is True or seat in st.cards[card].seen:
            out.add(card)
    return out


def placed(rules: Rules, st: GameState, seat: int) -> Iterator[tuple[str, int, bool | None]]:
    """Every card in zone order, bottom to top, each followed by the cards under it: (zone
    key, card, True if `seat` sees its front, False if only its back, None if it is only
    counted)."""
    cards = st.cards
    views_ = rules.views
    for key, zone in st.zones.items():
        view = views_[key][seat]
        top = len(zone) - 1
        for i, c in enumerate(zone):
            v = view
            if view in (TOP, TOP_OWN):
                v = COUNT if i != top else LIST if view == TOP else OWN
            stack = [c]
            while stack:
                x = stack.pop()
                cs = cards[x]
                yield key, x, (front_shown(cs, v) if v != COUNT else None)
                if cs.under:
                    stack.extend(reversed(cs.under))


def back_of(rules: Rules, card_type: int) -> tuple[str, tuple[Any, ...]]:
    """What a card shows face down: its kind and its kind's `back:` properties."""
    ct = rules.cards[card_type]
    return (ct.kind, tuple(ct.props[p] for p in ct.public_props))


# ---- keeping pools --------------------------------------------------------------------


def _merge(st: GameState, cards: list[int], forget: bool = False) -> None:
    """Put `cards`, and every card sharing a pool with one of them, into one new pool;
    `forget`: also forget what was peeked at or pointed out of `cards` (a shuffle). One
    pass over the cards (a shuffle of every refilled deck: a hot path)."""
    states = st.cards
    own = st.own
    new = st.pools
    st.pools = new + 1
    old: set[int] = set()
    last = -1
    for c in cards:
        cs = states[c] if c in own else st.card_to_change(c)
        if forget:
            if cs.seen:
                cs.seen = ()
            if cs.allowed:
                cs.allowed = ()
        pool = cs.pool
        if pool != last and pool >= 0:
            old.add(pool)
            last = pool
        cs.pool = new
    if old:
        for i, cs in enumerate(states):
            if cs.pool in old:
                st.card_to_change(i).pool = new


def shuffled(st: GameState, cards: list[int]) -> None:
    """A zone holding `cards` was shuffled: nobody knows which is where any more, and the
    cards share one new pool (with every card that shared a pool with one of them)."""
    if len(cards) > 1:
        _merge(st, cards, forget=True)
        return
    for c in cards:
        cs = st.cards[c]
        if cs.seen or cs.allowed:
            cs = st.card_to_change(c)
            cs.seen = ()
            cs.allowed = ()


_BLIND = (COUNT, TOP, TOP_OWN)  # views in which a card taken from inside the zone is not seen going


def taken_unseen(st: GameState, card: int, source: str) -> None:
    """`card` was taken from `source`, a hand or the inside of a pile, where some seats could
    not see which card it was (`effects.base.place` and `detach` call this). A seat that
    could not see it there, and does not see its front now, cannot tell which of the cards
    it could not see there went: for it they all share a pool from now on, and what it had
    peeked at among them it no longer knows where to find. (A chooser that had peeked at
    the pile forgets too: weaker than it must be, never stronger.)"""
    rules = st.rules
    where = rules.views[source]
    blind = [s for s in range(st.players) if where[s] in _BLIND and not sees_front(rules, st, card, s)]
    if not blind:
        return
    group = [card, *st.zones[source]]
    for c in group:
        seen = st.cards[c].seen
        if seen and any(s in seen for s in blind):
            st.card_to_change(c).seen = tuple(s for s in seen if s not in blind)
        if st.cards[c].allowed:  # which of them it was told of, a blind seat cannot follow
            st.card_to_change(c).allowed = ()
    pools = {st.cards[c].pool for c in group}
    if len(pools) > 1 or -1 in pools:
        _merge(st, group)


def point_out(st: GameState, cards: list[int], matches: Any) -> None:
    """Tell every seat, of each of `cards`, whether `matches(state, card)` holds: each card
    keeps the types it may be (those for which it would answer the same), narrowed by
    what was pointed out of it before. `matches` reads the state; it is asked of a copy
    in which the card is each type in turn."""
    rules = st.rules
    every = range(len(rules.cards))
    probe = st.clone()
    for c in cards:
        real = st.cards[c].type
        answer = matches(st, c)
        fits = []
        for t in st.cards[c].allowed or every:
            probe.card_to_change(c).type = t
            if matches(probe, c) == answer:
                fits.append(t)
        probe.card_to_change(c).type = real
        st.card_to_change(c).allowed = () if len(fits) == len(rules.cards) else tuple(fits)


def _constrained(
    rules: Rules, cards: list[CardState], pool: Pool, left: list[int], rnd: random.Random
) -> dict[int, int] | None:
    """Types for the pool's cards that were pointed out (`CardState.allowed`), each one it
    allows and shows the back of, drawn from `left` (the pool's types, sorted): the most
    narrowly told first, each from its fits in random order, backtracking when a later card
    has none left. None when the pool holds no such card."""
    look = {c: back for back, holders in pool.backs for c in holders}
    told = [c for c in pool.cards() if cards[c].allowed]
    if not told:
        return None
    told.sort(key=lambda c: len(cards[c].allowed))
    counts: dict[int, int] = {}
    for t in left:
        counts[t] = counts.get(t, 0) + 1
    chosen: dict[int, int] = {}
    budget = [10_000]  # a bound on the search; the real deal is always a way through

    def fits(c: int) -> list[int]:
        allowed = cards[c].allowed
        out = [t for t in allowed if counts.get(t, 0) and (c not in look or back_of(rules, t) == look[c])]
        rnd.shuffle(out)
        return out

    def place(i: int) -> bool:
        if i == len(told):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        c = told[i]
        for t in fits(c):
            counts[t] -= 1
            chosen[c] = t
            if place(i + 1):
                return True
            counts[t] += 1
            del chosen[c]
        return False

    if not place(0):
        return None
    return chosen


# ---- sampling -------------------------------------------------------------------------


@attrs.define(slots=True)
class Pool:
    """The cards of one pool that a seat cannot identify, in position order, and their
    types (sorted). `backs` lists, for each face-down look the seat sees, the cards
    showing it; `free` the cards it only counts."""

    types: list[int]
    backs: list[tuple[tuple[str, tuple[Any, ...]], list[int]]]
    free: list[int]
    told: bool = False  # some of its cards were pointed out (`CardState.allowed`)

    def cards(self) -> list[int]:
        return [c for _, cs in self.backs for c in cs] + self.free


def unknown_pools(rules: Rules, st: GameState, seat: int) -> list[Pool]:
    """The cards `seat` cannot identify, pool by pool (in the order their first card lies),
    leaving out pools where it is a single card: its place tells what it is."""
    found: dict[int, tuple[list[int], dict[tuple[str, tuple[Any, ...]], list[int]], list[int]]] = {}
    cards = st.cards
    for _, card, how in placed(rules, st, seat):
        cs = cards[card]
        if how is True or cs.pool < 0 or seat in cs.seen:
            continue
        members, backs, free = found.setdefault(cs.pool, ([], {}, []))
        members.append(card)
        if how is None:
            free.append(card)
        else:
            backs.setdefault(back_of(rules, cs.type), []).append(card)
    pools = []
    for members, backs, free in found.values():
        if len(members) > 1:
            told = any(cards[c].allowed for c in members)
            pools.append(Pool(sorted(cards[c].type for c in members), list(backs.items()), free, told))
    return pools


def sample(rules: Rules, st: GameState, seat: int, rnd: random.Random, pools: list[Pool] | None = None) -> GameState:
    """A copy of `st` that `seat` cannot tell from it: every card it cannot identify dealt
    again from its pool (see the module docstring), and the copy's random generator
    reseeded, so later shuffles are not the real ones either.

    `pools`: `unknown_pools(rules, st, seat)`, worked out once by a caller that samples the
    same state many times (`bots.base.Turn`)."""
    copy = st.clone()
    cards = copy.cards
    for pool in unknown_pools(rules, st, seat) if pools is None else pools:
        left = pool.types.copy()
        told = _constrained(rules, cards, pool, left, rnd) if pool.told else None
        if told:
            for c, t in told.items():
                left.remove(t)
                if cards[c].type != t:
                    copy.card_to_change(c).type = t
        if pool.backs:
            for look, holders in pool.backs:
                if told:
                    holders = [c for c in holders if c not in told]
                fits = [t for t in left if back_of(rules, t) == look]
                rnd.shuffle(fits)
                for c, t in zip(holders, fits):
                    left.remove(t)
                    if cards[c].type != t:
                        copy.card_to_change(c).type = t
        rnd.shuffle(left)
        free = [c for c in pool.free if c not in told] if told else pool.free
        for c, t in zip(free, left):
            if cards[c].type != t:  # copies of one card swapped: nothing to change (or copy)
                copy.card_to_change(c).type = t
    copy.rng = rnd.getrandbits(64)
    frames = copy.frames
    if frames and rules.effects[frames[-1].eid].simultaneous:
        # the others' answers are hidden from `seat`: in the sample they have not answered
        # yet, and their questions are asked again on the sample's cards
        rules.effects[frames[-1].eid].forget(copy, frames[-1], seat)  # type: ignore[attr-defined]
    return copy
