"""What an end trigger's condition reads, so one checked at once is re-tested only after a
step that changed it (a watched condition is cheap to keep, not to test at every step)."""

from __future__ import annotations

import attrs

from rules_dsl.effects.values import (
    MAX_SEATS,
    YOURS,
    AllOf,
    AnyOf,
    Arith,
    Compare,
    CountEmpty,
    Divide,
    IsZero,
    Multiply,
    NotCond,
    Num,
    PlayerCounter,
    PlayerZone,
    SharedCounter,
    SharedZone,
    VarNum,
    ZoneSize,
)

Zoned = SharedZone | PlayerZone


@attrs.frozen
class Reads:
    counters: frozenset[str]  # per-player or shared counters
    zones: frozenset[str]  # zone keys ("supply", "hand.0")
    # the zones of `zones` whose size is read beyond whether they are empty: a step that
    # leaves a zone of the others neither empty nor newly filled changes nothing read
    sizes: frozenset[str] = frozenset()


def reads(expr: object) -> Reads | None:
    """The counters and zone sizes `expr` depends on, or None when it reads anything else
    (cards, tokens, marks...): it is then re-tested after every step that changes the game."""
    counters: set[str] = set()
    zones: set[str] = set()
    sizes: set[str] = set()
    todo = [expr]
    while todo:
        e = todo.pop()
        if isinstance(e, Num | VarNum):  # parameters never change during a game
            continue
        if isinstance(e, PlayerCounter | SharedCounter):
            counters.add(e.counter)
        elif isinstance(e, IsZero) and isinstance(e.value, ZoneSize) and isinstance(e.value.zone, Zoned):
            read = e.value.zone  # only whether it is empty
            zones.update([read.name] if isinstance(read, SharedZone) else read.by_seat)
        elif isinstance(e, ZoneSize) and isinstance(e.zone, SharedZone):
            zones.add(e.zone.name)
            sizes.add(e.zone.name)
        elif isinstance(e, ZoneSize) and isinstance(e.zone, PlayerZone):
            zones.update(e.zone.by_seat)
            sizes.update(e.zone.by_seat)
        elif isinstance(e, CountEmpty):
            for z, _ in e.zones:  # a per-player member (`hand*`): every player's
                zones.update([z] if z[-1] != YOURS else [f"{z[:-1]}.{i}" for i in range(MAX_SEATS)])
        elif isinstance(e, Arith | Compare | Multiply | Divide):
            todo += [e.left, e.right]
        elif isinstance(e, IsZero):
            todo.append(e.value)
        elif isinstance(e, NotCond):
            todo.append(e.cond)
        elif isinstance(e, AnyOf | AllOf):
            todo += list(e.conds)
        else:
            return None
    return Reads(frozenset(counters), frozenset(zones), frozenset(sizes))
