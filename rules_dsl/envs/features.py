"""A seat's view of a state as a fixed-length array of numbers, laid out from the pack's
declared phases, counters, zones, card types and token kinds, and filled straight from the
state (no observation dict in between) for one seat at a time.

What the seat may see is `knowledge`'s to say, as for the observation
(rules_dsl/observation.py): a zone's view for the seat (`Rules.views`), which cards of a
listed zone show their fronts (`knowledge.front_shown`), and the cards it peeked at
(`CardState.seen`). The array holds nothing the seat's observation does not show.

Seats are relative: "seat 0" is the observer, then the seats after it in turn order, so
the same numbers mean the same thing whichever seat a learner plays. The layout, in order
(`Features.layout()` gives each block's name and index range, `feature_names()` a name for
every index):

- the observer's absolute seat (one-hot), the seat to play (relative, one-hot), whether
  the observer must decide now, turns completed, rounds completed, the phase (one-hot over
  the pack's phases and "setup"; a phase the pack does not declare counts as the last);
- each per-player counter for each relative seat, then each shared counter;
- each zone (a per-player zone once per relative seat): its number of cards, how many of
  them the observer cannot identify (hidden zones, face-down backs), then the identified
  cards by type (one count per card type), the tokens on its listed cards by kind, and the
  cards tucked under its listed cards (a `top` zone lists its top card);
- whether the game is over, each relative seat's score and whether it won.

Values are clipped to +-BOUND (an observation space must be bounded).
"""

from __future__ import annotations

import array
import itertools
import operator
from collections.abc import Iterable
from typing import Any

import attrs
import numpy as np

from rules_dsl import knowledge
from rules_dsl.effects.primitives import PutToken
from rules_dsl.rules import Rules
from rules_dsl.state import CardState, GameState

BOUND = 1024.0


@attrs.frozen
class Block:
    """Consecutive features of one kind: `names[i]` is feature `start + i`."""

    name: str
    start: int
    stop: int
    names: tuple[str, ...]


class Features:
    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.phases = {"setup": 0} | {name: i + 1 for i, (name, _) in enumerate(rules.phases)}
        self.counters = [c.name for c in rules.counters.values() if c.per_player]
        self.shared = list(rules.shared_counters)
        self.types = dict(rules.card_index)
        kinds: dict[str, None] = {}
        for ct in rules.cards:
            for slot in ct.slots:
                kinds.update(dict.fromkeys(rules.slot_groups.get(slot, (slot,))))
        for e in rules.effects:
            if isinstance(e, PutToken):
                kinds.setdefault(e.kind, None)
        self.kinds = {k: i for i, k in enumerate(kinds)}
        self.zone_names = [(z.name, z.per_player) for z in rules.zones.values()]
        self.block = 3 + len(self.types) + len(self.kinds)  # count, unknown, types, kinds, under
        n = players
        self.header = 2 * n + 3 + len(self.phases) + 1
        self.counter_size = len(self.counters) * n + len(self.shared)
        zone_keys = sum(n if per else 1 for _, per in self.zone_names)
        self.zones_start = self.header + self.counter_size
        self.end_start = self.zones_start + zone_keys * self.block
        self.size = self.end_start + 1 + 2 * n
        self.low = np.full(self.size, -BOUND, np.float32)
        self.high = np.full(self.size, BOUND, np.float32)
        # per observer seat: (zone key, first index of its block, its view for the seat)
        self._plans = [self._plan(me) for me in range(n)]
        self._where = [{key: at for at, (key, _, _) in enumerate(plan)} for plan in self._plans]
        # per observer seat, what its last `fill` saw (see there): the card objects, and
        # the cards (in order) of each zone of its plan that shows its top card; its
        # array is `_bufs`
        self._cards: list[list[CardState] | None] = [None] * n
        self._tops: list[dict[int, list[int] | None]] = [
            {at: None for at, (_, _, view) in enumerate(plan) if view in (knowledge.TOP, knowledge.TOP_OWN)}
            for plan in self._plans
        ]
        self._bufs = [array.array("f", bytes(4 * self.size)) for _ in range(n)]
        self._views = [np.frombuffer(b, np.float32) for b in self._bufs]  # the same memory
        self._zero_head = array.array("f", bytes(4 * self.zones_start))
        self._zero_block = array.array("f", bytes(4 * self.block))

    def _plan(self, me: int) -> list[tuple[str, int, int]]:
        n = self.players
        plan = []
        i = self.zones_start
        for name, per in self.zone_names:
            for r in range(n) if per else (0,):
                key = f"{name}.{(me + r) % n}" if per else name
                plan.append((key, i, self.rules.views[key][me]))
                i += self.block
        return plan

    def _zone(self, objs: list[CardState], view: int, me: int) -> dict[int, float]:
        """The block of a zone holding these cards, shown to seat `me` in `view`: its
        values that are not 0, by their index in the block."""
        v: dict[int, float] = {0: len(objs)}
        unknown = 0
        listed = objs
        if view == knowledge.COUNT or view == knowledge.TOP or view == knowledge.TOP_OWN:
            # counted: only the cards the seat peeked at are known
            for cs in objs if view == knowledge.COUNT else objs[:-1]:
                if me in cs.seen:
                    v[2 + cs.type] = v.get(2 + cs.type, 0) + 1
                else:
                    unknown += 1
            listed = _NO_OBJECTS if view == knowledge.COUNT else objs[-1:]
            view = knowledge.LIST if view == knowledge.TOP else knowledge.OWN
        for cs in listed:
            if knowledge.front_shown(cs, view) or me in cs.seen:
                v[2 + cs.type] = v.get(2 + cs.type, 0) + 1
            else:
                unknown += 1
            if cs.tokens:
                k0 = 2 + len(self.types)
                for kind in cs.tokens:
                    j = self.kinds.get(kind)
                    if j is not None:
                        v[k0 + j] = v.get(k0 + j, 0) + 1
            if cs.under:
                v[self.block - 1] = v.get(self.block - 1, 0) + len(cs.under)
        v[1] = unknown
        return v

    # ------------------------------------------------------------ the layout, by name

    def layout(self) -> list[Block]:
        """Every block of the array in order, with its index range and feature names.
        Relative seats are `rel0` (the observer), `rel1` (the next seat), ..."""
        n = self.players
        rel = [f"rel{r}" for r in range(n)]
        blocks: list[Block] = []

        def add(name: str, names: list[str]) -> None:
            start = blocks[-1].stop if blocks else 0
            blocks.append(Block(name, start, start + len(names), tuple(names)))

        add("seat", [f"seat[{p}]" for p in range(n)])
        add("to_play", [f"to_play[{r}]" for r in rel])
        add("deciding", ["deciding"])
        add("turn", ["turn"])
        add("round", ["round"])
        add("phase", [f"phase[{p}]" for p in self.phases] + ["phase[other]"])
        for c in self.counters:
            add(f"counter:{c}", [f"counter:{c}[{r}]" for r in rel])
        for c in self.shared:
            add(f"shared:{c}", [f"shared:{c}"])
        types = list(self.types)
        for name, per in self.zone_names:
            for r in rel if per else [""]:
                z = f"zone:{name}" + (f"[{r}]" if r else "")
                add(
                    z,
                    [f"{z}.count", f"{z}.unknown"]
                    + [f"{z}.card:{t}" for t in types]
                    + [f"{z}.tokens:{k}" for k in self.kinds]
                    + [f"{z}.under"],
                )
        add("over", ["over"])
        add("score", [f"score[{r}]" for r in rel])
        add("won", [f"won[{r}]" for r in rel])
        assert blocks[-1].stop == self.size
        return blocks

    def feature_names(self) -> list[str]:
        """A name for each index of the array (`layout()` groups them)."""
        return [name for b in self.layout() for name in b.names]

    # ------------------------------------------------------------ filling the array

    def from_observation(self, obs: dict[str, Any]) -> np.ndarray:
        """The array laid out from a seat's observation (`Engine.observe`, as an agent or
        the JSON API gets it) instead of the state: the same numbers as `vector(state,
        seat)` (tested at every decision of random games), built more slowly."""
        n, me = self.players, obs["player"]
        v = np.zeros(self.size, np.float32)
        v[me] = 1
        if obs["waiting_for"] is not None:
            v[n + (obs["waiting_for"] - me) % n] = 1
        v[2 * n] = obs["decision"] is not None
        v[2 * n + 1], v[2 * n + 2] = obs["turn"], obs["round"]
        v[2 * n + 3 + self.phases.get(obs["phase"], len(self.phases))] = 1
        i = self.header
        for name in self.counters:
            for r in range(n):
                v[i] = obs["counters"].get(name, [0] * n)[(me + r) % n]
                i += 1
        for name in self.shared:
            v[i] = obs["shared"].get(name, 0)
            i += 1
        types, kinds = self.types, self.kinds

        def listed(card: dict[str, Any], i: int) -> None:
            if "card" in card:
                v[i + 2 + types[card["card"]]] += 1
            else:
                v[i + 1] += 1
            for kind in card.get("tokens", ()):
                if kind in kinds:
                    v[i + 2 + len(types) + kinds[kind]] += 1
            v[i + self.block - 1] += len(card.get("under", ()))

        for name, per in self.zone_names:
            for r in range(n) if per else (0,):
                view = obs["zones"].get(f"{name}.{(me + r) % n}" if per else name, [])
                if isinstance(view, dict):  # counted, and perhaps its top card shown
                    v[i] = view["count"]
                    known = view.get("known", [])
                    v[i + 1] = view["count"] - len(known) - ("top" in view)
                    for k in known:
                        v[i + 2 + types[k["card"]]] += 1
                    if "top" in view:
                        listed(view["top"], i)
                else:
                    v[i] = len(view)
                    for card in view:
                        listed(card, i)
                i += self.block
        v[i] = obs["over"]
        for r in range(n):
            p = (me + r) % n
            v[i + 1 + r] = obs["scores"][p] if p < len(obs["scores"]) else 0
            v[i + 1 + n + r] = p in obs["winners"]
        return np.clip(v, -BOUND, BOUND, out=v)

    def vector(self, st: GameState, seat: int) -> np.ndarray:
        """A new array of what `seat` sees of `st`."""
        return self.fill(st, seat, np.empty(self.size, np.float32))

    def fill(self, st: GameState, seat: int, out: np.ndarray) -> np.ndarray:
        """Write what `seat` sees of `st` into `out` (a float32 array of `size`), in place.

        Each seat's array is kept between calls, and only the blocks of zones that may have
        changed are redone: a zone's block depends only on its cards and the seat, and a
        card that changes in any way (moves, turns, is peeked at, ...) is a new `CardState`
        object, since `GameState.share_cards` makes sure no card object seen here changes
        in place afterwards. So the zones to redo are those of the cards that are not the
        objects seen last time, where they are and where they were (a card's `loc` names
        the zone holding it), whatever state is filled next; and a zone that shows its
        top card, when the order of its cards changed (a shuffle need not change a card)."""
        n = self.players
        me = seat
        buf = self._bufs[me]  # array.array: a Python write to one element costs little
        buf[: self.zones_start] = self._zero_head
        buf[me] = 1.0
        d = st.pending
        if d is not None:
            buf[n + (d.player - me) % n] = 1.0
            if d.player == me or (st.also and any(x.player == me for x in st.also)):  # several may decide at once
                buf[2 * n] = 1.0
        buf[2 * n + 1] = _clip(st.turn)
        buf[2 * n + 2] = _clip(st.round)
        buf[2 * n + 3 + self.phases.get(st.phase, len(self.phases))] = 1.0
        i = self.header
        counters = st.counters
        for name in self.counters:
            seats = counters.get(name)
            if seats is not None:
                for r in range(n):
                    buf[i + r] = _clip(seats[(me + r) % n])
            i += n
        shared = st.shared
        for name in self.shared:
            buf[i] = _clip(shared.get(name, 0))
            i += 1
        cards = st.cards
        last = self._cards[me]
        plan = self._plans[me]
        zones = st.zones
        if last is None or len(last) != len(cards):
            dirty: Iterable[int] = range(len(plan))
        else:
            # a card that moved, turned, was peeked at, got a token, ... is a new object
            # (`GameState.share_cards`), and its zone, before and after, is to be redone;
            # a zone showing its top card also when only its order changed (a shuffle)
            where = self._where[me]
            dirty = set()
            for c in itertools.compress(range(len(cards)), map(operator.is_not, cards, last)):
                dirty.add(where.get(knowledge.root(st, c)[1], -1))
                dirty.add(where.get(last[c].loc, -1))
            tops = self._tops[me]
            for at in tops:
                if tops[at] != zones.get(plan[at][0], _NO_CARDS):
                    dirty.add(at)
            dirty.discard(-1)
        for at in dirty:
            key, o, view = plan[at]
            zone = zones.get(key, _NO_CARDS)
            buf[o : o + self.block] = self._zero_block
            for k, x in self._zone([cards[c] for c in zone], view, me).items():
                buf[o + k] = min(x, BOUND)
            if view in (knowledge.TOP, knowledge.TOP_OWN):
                self._tops[me][at] = zone.copy()
        self._cards[me] = cards.copy()  # the objects seen, for the next call: which changed, where each was
        st.share_cards()  # so that no card object seen here changes in place afterwards
        scores, winners = st.scores, st.winners
        i = self.end_start
        buf[i] = 1.0 if st.over else 0.0
        for r in range(n):
            p = (me + r) % n
            buf[i + 1 + r] = _clip(scores[p]) if p < len(scores) else 0.0
            buf[i + 1 + n + r] = 1.0 if p in winners else 0.0
        out[:] = self._views[me]
        return out


_NO_CARDS: list[int] = []
_NO_OBJECTS: list[CardState] = []


def _clip(x: float) -> float:
    return -BOUND if x < -BOUND else BOUND if x > BOUND else float(x)
