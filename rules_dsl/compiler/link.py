"""The last pass of compiling: what the interpreter's hot path would otherwise work out at
every step, now that every effect exists (procedures are compiled after the calls that
name them, and which moments have listeners is known only once every card is compiled).

The effects are frozen; this pass fills their derived fields (`kinds`, `then_kind`,
`else_kind`, `body_eid`, `always`, `at_once`, `guards`, `asks`, `whole`) once, before the
rules are handed out, so nothing changes them while games are played.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_dsl.effects import control
from rules_dsl.effects.base import Effect


def start_kind(eff: Effect, watch_every: bool) -> int:
    """How a block starts `eff` (control.RUN, CALL, TEST, PUSH, STEP or COUNT)."""
    if eff.atomic:
        return control.RUN
    if watch_every:  # the end triggers are tested between the steps: keep every step
        return control.PUSH
    if type(eff) is control.Call:
        return control.CALL
    if type(eff) is control.If:
        return control.TEST
    if isinstance(eff, control.Block):
        return control.PUSH
    if type(eff) is control.Loop and eff.count is not None and eff.cond is None:
        return control.COUNT
    return control.STEP


def branch_kind(eff: Effect | None, watch_every: bool) -> int:
    """How a block starts an `if`'s branch: as a child, but an `if` in it gets a frame."""
    if eff is None:
        return control.PUSH
    kind = start_kind(eff, watch_every)
    if kind == control.RUN and watch_every:
        return control.PUSH
    return control.PUSH if kind == control.TEST else kind


def probe_plan(block: control.Block) -> tuple[tuple[control.OnlyIf, ...], Effect | None]:
    """What `Block.can_start` asks: the leading `only if` children, then the first child
    that is not atomic or is a guard (None: yes, a change or a name bound by `let` we
    cannot see past, or nothing left)."""
    guards: list[control.OnlyIf] = []
    for child in block.children:
        if isinstance(child, control.OnlyIf):
            guards.append(child)
            continue
        if not child.atomic or isinstance(child, control.Guard):
            return tuple(guards), child
        break
    return tuple(guards), None


def steps_at_once(body: Effect, watch_every: bool) -> bool:
    """Whether a loop, a `for each player`, a `you may` or an option steps its body's new
    frame at once, as the interpreter would next: a block, unless the end triggers are
    tested between the steps (the parent does not change the game, the block may)."""
    return not watch_every and type(body) is control.Block


def runs_whole(body: Effect, watch_every: bool) -> bool:
    """Whether a `for each player` runs its body for every player in one step: a block
    whose children all run in its frame (atomic, or an `if` whose branches are), so it can
    neither ask nor push a frame, and nothing is tested between the steps (`watch_every`).
    Needs the block's `kinds`."""
    if watch_every or type(body) is not control.Block:
        return False
    for child, kind in zip(body.children, body.kinds, strict=True):
        if kind == control.TEST:
            assert isinstance(child, control.If)
            if child.then_kind != control.RUN or (child.otherwise is not None and child.else_kind != control.RUN):
                return False
        elif kind != control.RUN:
            return False
    return True


def always_starts(eff: Effect, memo: dict[int, tuple[Effect, bool]]) -> bool:
    """Whether `eff.can_start` answers True whatever the state, without asking anything
    that could fail: then the answer is known now and the question need not be asked in play.
    It follows `can_start` of each kind exactly; a kind it does not know is asked."""
    # by id (some effects are not hashable); the memo keeps each effect, so no id is reused
    if id(eff) in memo:
        return memo[id(eff)][1]
    memo[id(eff)] = (eff, False)  # a procedure that reaches itself is asked (and reported) in play
    if type(eff).can_start is Effect.can_start:
        answer = True
    elif isinstance(eff, control.Block):
        answer = True  # no children: nothing stops it
        for child in eff.children:
            if isinstance(child, control.OnlyIf):
                answer = False  # a condition on the state
            elif not child.atomic or isinstance(child, control.Guard):
                answer = always_starts(child, memo)
            break
    elif isinstance(eff, control.Call):
        answer = eff.arg is None and always_starts(eff.proc.body, memo)
    elif isinstance(eff, control.Scope | control.Ask):
        answer = always_starts(eff.body, memo)
    elif isinstance(eff, control.Loop):
        answer = eff.at_most
    elif isinstance(eff, control.Alternatives):
        answer = bool(eff.options) and always_starts(eff.options[0], memo)
    else:
        answer = False
    memo[id(eff)] = (eff, answer)
    return answer


def link(effects: Sequence[Effect], watch_every: bool) -> None:
    memo: dict[int, tuple[Effect, bool]] = {}
    for eff in effects:
        if isinstance(eff, control.Call):
            object.__setattr__(eff, "body_eid", eff.proc.body.eid)
    for eff in effects:
        if isinstance(eff, control.Block | control.Call):
            object.__setattr__(eff, "always", always_starts(eff, memo))
        if isinstance(eff, control.Block):
            guards, asks = probe_plan(eff)
            object.__setattr__(eff, "guards", guards)
            object.__setattr__(eff, "asks", asks)
        elif isinstance(eff, control.Alternatives):
            object.__setattr__(eff, "always", tuple(always_starts(o, memo) for o in eff.options))
    for eff in effects:
        if isinstance(eff, control.Block):
            object.__setattr__(eff, "kinds", tuple(start_kind(c, watch_every) for c in eff.children))
            object.__setattr__(eff, "plan", tuple(zip(eff.children, eff.kinds)))
        elif isinstance(eff, control.Loop | control.ForPlayers | control.Optional):
            object.__setattr__(eff, "at_once", steps_at_once(eff.body, watch_every))
        elif isinstance(eff, control.Alternatives):
            object.__setattr__(eff, "at_once", tuple(steps_at_once(o, watch_every) for o in eff.options))
        elif isinstance(eff, control.If):
            object.__setattr__(eff, "then_kind", branch_kind(eff.then, watch_every))
            object.__setattr__(eff, "else_kind", branch_kind(eff.otherwise, watch_every))
    for eff in effects:  # once every block's kinds are known
        if isinstance(eff, control.ForPlayers):
            object.__setattr__(eff, "whole", runs_whole(eff.body, watch_every))
