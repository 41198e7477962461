"""A seat's observation (rules_dsl/observation.py: only what that seat may see) as a
fixed-length array of numbers, laid out from the pack's declared phases, counters, zones,
card types and token kinds.

Seats are relative: "seat 0" is the observer, then the seats after it in turn order, so
the same numbers mean the same thing whichever seat a learner plays. The layout, in order:

- the observer's absolute seat (one-hot), the seat to play (relative, one-hot), whether
  the observer must decide now, turns completed, rounds completed, the phase (one-hot over
  the pack's phases and "setup"; a phase the pack does not declare counts as the last);
- each per-player counter for each relative seat, then each shared counter;
- each zone (a per-player zone once per relative seat): its number of cards, how many of
  them the observer cannot identify (hidden zones, face-down backs), then the identified
  cards by type (one count per card type), the tokens on its cards by kind, and the cards
  tucked under its cards;
- whether the game is over, each relative seat's score and whether it won.

Values are clipped to +-BOUND (an observation space must be bounded).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rules_dsl.effects.primitives import PutToken
from rules_dsl.rules import Rules

BOUND = 1024.0


class Features:
    def __init__(self, rules: Rules, players: int) -> None:
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
        self.size = self.header + self.counter_size + zone_keys * self.block + 1 + 2 * n
        self.low = np.full(self.size, -BOUND, np.float32)
        self.high = np.full(self.size, BOUND, np.float32)

    def vector(self, obs: dict[str, Any]) -> np.ndarray:
        """`obs` is `Engine.observe(state, seat)`."""
        n = self.players
        me = obs["player"]
        v = np.zeros(self.size, np.float32)
        v[me] = 1
        if obs["waiting_for"] is not None:
            v[n + (obs["waiting_for"] - me) % n] = 1
        v[2 * n] = 1.0 if obs["decision"] is not None else 0.0
        v[2 * n + 1] = obs["turn"]
        v[2 * n + 2] = obs["round"]
        v[2 * n + 3 + self.phases.get(obs["phase"], len(self.phases))] = 1
        i = self.header
        counters = obs["counters"]
        for name in self.counters:
            values = counters.get(name, [0] * n)
            for r in range(n):
                v[i] = values[(me + r) % n]
                i += 1
        for name in self.shared:
            v[i] = obs["shared"].get(name, 0)
            i += 1
        zones = obs["zones"]
        for name, per in self.zone_names:
            for r in range(n) if per else (0,):
                key = f"{name}.{(me + r) % n}" if per else name
                self._zone(v, i, zones.get(key, []))
                i += self.block
        v[i] = 1.0 if obs["over"] else 0.0
        i += 1
        scores, winners = obs["scores"], obs["winners"]
        for r in range(n):
            p = (me + r) % n
            v[i + r] = scores[p] if p < len(scores) else 0
            v[i + n + r] = 1.0 if p in winners else 0.0
        np.clip(v, -BOUND, BOUND, out=v)
        return v

    def _zone(self, v: np.ndarray, i: int, view: Any) -> None:
        t0 = i + 2
        k0 = t0 + len(self.types)
        if isinstance(view, dict):  # a zone the observer may not see: its size and the cards it knows
            v[i] = view["count"]
            known = view.get("known", [])
            v[i + 1] = view["count"] - len(known)
            for k in known:
                v[t0 + self.types[k["card"]]] += 1
            return
        v[i] = len(view)
        for card in view:
            if "card" in card:
                v[t0 + self.types[card["card"]]] += 1
            else:
                v[i + 1] += 1
            for kind in card.get("tokens", ()):
                j = self.kinds.get(kind)
                if j is not None:
                    v[k0 + j] += 1
            v[k0 + len(self.kinds)] += len(card.get("under", ()))
