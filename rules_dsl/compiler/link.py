"""The last pass of compiling: what the interpreter's hot path would otherwise work out at
every step, now that every effect exists (procedures are compiled after the calls that
name them, and which moments have listeners is known only once every card is compiled).

The effects are frozen; this pass fills their derived fields (`kinds`, `then_kind`,
`else_kind`, `body_eid`) once, before the rules are handed out, so nothing changes them
while games are played.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_dsl.effects import control
from rules_dsl.effects.base import Effect


def start_kind(eff: Effect, watch_every: bool) -> int:
    """How a block starts `eff` (control.RUN, CALL, TEST or PUSH)."""
    if eff.atomic:
        return control.RUN
    if watch_every:  # the end triggers are tested between the steps: keep every step
        return control.PUSH
    if type(eff) is control.Call:
        return control.CALL
    if type(eff) is control.If:
        return control.TEST
    return control.PUSH


def branch_kind(eff: Effect | None, watch_every: bool) -> int:
    """How a block starts an `if`'s branch: as a child, but an `if` in it gets a frame."""
    if eff is None:
        return control.PUSH
    kind = start_kind(eff, watch_every)
    if kind == control.RUN and watch_every:
        return control.PUSH
    return control.PUSH if kind == control.TEST else kind


def link(effects: Sequence[Effect], watch_every: bool) -> None:
    for eff in effects:
        if isinstance(eff, control.Call):
            object.__setattr__(eff, "body_eid", eff.proc.body.eid)
    for eff in effects:
        if isinstance(eff, control.Block):
            object.__setattr__(eff, "kinds", tuple(start_kind(c, watch_every) for c in eff.children))
        elif isinstance(eff, control.If):
            object.__setattr__(eff, "then_kind", branch_kind(eff.then, watch_every))
            object.__setattr__(eff, "else_kind", branch_kind(eff.otherwise, watch_every))
