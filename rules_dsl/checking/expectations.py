"""Invariants checked in one position, by name: what a scenario's `invariants:` expects.

A scenario written by `rules-dsl check` ends with `expect: {invariants: {NAME: WANTED}}`,
so it fails while the pack (or engine) still breaks that invariant there. NAME is a pack
invariant's name or one of the engine's invariants below; WANTED is `true`, a number (the
value a pack's `constant` must have) or `{at-least: N}` / `{at-most: N}`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules_dsl.checking import properties
from rules_dsl.checking.failures import Broken
from rules_dsl.checking.pack_invariants import scenario_check
from rules_dsl.engine import Engine
from rules_dsl.errors import suggest
from rules_dsl.state import GameState


def _final(engine: Engine, st: GameState) -> None:
    if st.over:
        properties.check_final(engine, st)


ENGINE_CHECKS: dict[str, Callable[[Engine, GameState], None]] = {
    properties.CONSISTENT: lambda e, s: properties.check_position(e, s) if e.check(s) else None,
    properties.DECISION: properties.check_position,
    properties.HIDDEN: lambda e, s: properties.check_observations(e, s, random.Random(0), 8) and None,
    properties.ROUND_TRIP: properties.check_round_trip,
    properties.REPLAY: properties.check_replay,
    properties.RESULT: _final,
}


def check_named(engine: Engine, st: GameState, name: str, wanted: Any) -> tuple[bool, str]:
    """(holds, detail) for one `invariants:` expectation."""
    check = ENGINE_CHECKS.get(name)
    if check is None:
        if not any(i.name == name for i in engine.rules.invariants):
            known = sorted(ENGINE_CHECKS) + [i.name for i in engine.rules.invariants]
            hint = suggest(name, known)
            return False, f"no invariant {name!r}" + (f" ({hint})" if hint else f"; known: {', '.join(known)}")
        return scenario_check(engine.rules, st, name, wanted)
    if wanted is not True:
        return False, f"an engine invariant is expected to hold: write {name!r}: true"
    try:
        check(engine, st)
    except Broken as exc:
        return False, exc.detail
    return True, ""
