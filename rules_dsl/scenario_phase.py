"""Scenario positions inside a phase (docs/scenarios.md): `step: N` starts the phase's
text at its Nth step, and what this turn's earlier steps did to counters must be stated.
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.base import Effect
from rules_dsl.effects.control import Block, Call, ForPlayers, Scope
from rules_dsl.effects.primitives import ChangeShared, Gain, Lose
from rules_dsl.effects.turns import GameLoop
from rules_dsl.effects.values import Num, PlayerCounter, SharedCounter
from rules_dsl.engine import Engine
from rules_dsl.scenario_expect import ScenarioError, mapping, where
from rules_dsl.state import Frame, GameState


def start_inside(engine: Engine, st: GameState, pos: dict[str, Any], phase: str, step: int, path: str) -> None:
    """Start the turn at `step` of `phase` (the game loop's frame already stands at the
    phase), and refuse a position that leaves out a counter the turn's earlier steps change."""
    active = st.active
    if step > 1:  # inside the phase: its body goes on from that step, as if the earlier ones ran
        loop, body = st.frames[0], engine.rules.effects[_phase_body(engine, phase)]
        loop.pc += 1
        eid = body.eid
        if st.trace is not None:
            st.trace.running = phase  # its end is a point an `at:` step may name
            eid = engine.rules.step_twins.get(eid, eid)  # and the ends of its steps
        st.frames.append(Frame(eid, active, -1, step - 1, {}, None))
    skipped = earlier_changes(engine, st, phase, step)
    stated = {
        *mapping(pos.get("counters"), "position: counters", ""),
        *mapping(pos.get("shared"), "position: shared", ""),
    }
    unstated = [c for c in skipped if c not in stated]
    if unstated:
        said = "; ".join(f"{c}: {', '.join(texts)}" for c, texts in skipped.items() if c in unstated)
        raise ScenarioError(
            f"{where(path, pos, 'step' if step > 1 else 'phase')}position: it starts at {phase}"
            + (f" step {step}" if step > 1 else "")
            + f", so this turn's earlier steps have run; they change {', '.join(unstated)} ({said}): "
            "state their values now under counters: (or shared:)"
        )


def _phase_body(engine: Engine, phase: str) -> int:
    loop = engine.rules.effects[engine.rules.game_loop]
    assert isinstance(loop, GameLoop)
    return loop.bodies[[name for name, _ in engine.rules.phases].index(phase)]


def phase_steps(engine: Engine, phase: str) -> tuple[Effect, ...]:
    """The steps of a phase's text, in order (statements separated by `;`)."""
    return steps_of(engine.rules.effects[_phase_body(engine, phase)])


def steps_of(body: Effect) -> tuple[Effect, ...]:
    """The steps of a text (a phase's, a procedure's): its statements separated by `;`."""
    return body.children if isinstance(body, Block) else (body,)


def start_step(engine: Engine, pos: dict[str, Any], phase: str, path: str) -> int:
    """`step: N`: the position starts at the Nth step of its phase (1, its beginning)."""
    if "step" not in pos:
        return 1
    step = pos["step"]
    steps = phase_steps(engine, phase)
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= len(steps):
        listed = steps_listed(steps)
        raise ScenarioError(
            f"{where(path, pos, 'step')}position: step is the number of a step of phase {phase} "
            f"(1 to {len(steps)}), not {step!r}; its steps: {listed}"
        )
    return step


def steps_listed(steps: tuple[Effect, ...]) -> str:
    """`1: TEXT | 2: TEXT`: a phase's steps, for a message that asks for one."""
    return " | ".join(f"{n}: {_short(e.text)}" for n, e in enumerate(steps, 1))


def _short(text: str, most: int = 60) -> str:
    words = " ".join(text.split())
    return words if len(words) <= most else words[: most - 3] + "..."


def earlier_changes(engine: Engine, st: GameState, phase: str, step: int) -> dict[str, list[str]]:
    """The counters this turn's steps before `phase` (and before its `step`) may have left
    other than the position has them, each with the texts that change them: a position
    starting there must state them (docs/scenarios.md#a-position-inside-a-phase).

    A change written in those steps counts wherever it is (in a loop, a branch, an
    option). A procedure they call counts for what it does on every way through it, added
    up: a counter it gains and loses again, or empties where the position has it at 0,
    is back where it was; a call in a branch, a loop or an option may not have run."""
    names = [name for name, _ in engine.rules.phases]
    skipped: list[Effect] = []
    for name in names[: names.index(phase)]:
        skipped.extend(phase_steps(engine, name))
    skipped.extend(phase_steps(engine, phase)[: step - 1])
    found: dict[str, list[str]] = {}

    def note(counter: str, text: str) -> None:
        if text not in found.setdefault(counter, []):
            found[counter].append(text)

    net = _Net()
    for top in skipped:
        for effect in within(top):
            if isinstance(effect, Gain | Lose | ChangeShared):
                note(effect.counter, " ".join(effect.text.split()))
        for effect, via, each in surely_called(engine, top):
            if isinstance(effect, Gain | Lose | ChangeShared):
                net.add(effect, via, each)
    for counter, texts in net.texts.items():
        if counter not in found and not net.back(counter, _now(st, counter)):
            for text in texts:
                note(counter, text)
    return found


def _now(st: GameState, counter: str) -> int | None:
    """The counter's value as the position has it (the active player's), None if unknown."""
    if counter in st.shared:
        return st.shared[counter]
    values = st.counters.get(counter)
    return None if values is None else values[st.active]


@attrs.define
class _Net:
    """What the statements a turn's earlier steps surely ran (in the procedures they
    call) did to each counter, added up in order: ("by", N) moves it by N from where it
    was, ("to", N) leaves it at N, ("?", 0) somewhere not known."""

    sums: dict[str, tuple[str, int]] = attrs.Factory(dict)
    texts: dict[str, list[str]] = attrs.Factory(dict)

    def add(self, effect: Gain | Lose | ChangeShared, via: str, each: bool) -> None:
        counter = effect.counter
        self.texts.setdefault(counter, []).append(" ".join(effect.text.split()) + f" (in {via})")
        kind, n = self.sums.get(counter, ("by", 0))
        amount = effect.amount
        own = PlayerCounter if isinstance(effect, Gain | Lose) else SharedCounter
        gains = isinstance(effect, Gain) or (isinstance(effect, ChangeShared) and effect.verb == "gain")
        if each or kind == "?":  # for each player: every player's own count, not added up here
            self.sums[counter] = ("?", 0)
        elif isinstance(amount, Num):
            self.sums[counter] = (kind, n + amount.value if gains else n - amount.value)
        elif not gains and isinstance(amount, own) and amount.counter == counter:
            self.sums[counter] = ("to", 0)  # `lose your X Xs`: emptied
        else:
            self.sums[counter] = ("?", 0)

    def back(self, counter: str, now: int | None) -> bool:
        """Whether the counter stands where it was (or, emptied, at the position's value)."""
        kind, n = self.sums.get(counter, ("by", 0))
        return (kind == "by" and n == 0) or (kind == "to" and now == n)


def surely_called(engine: Engine, top: Effect) -> list[tuple[Effect, str, bool]]:
    """The statements of the procedures `top` calls on every way through it, in order,
    each with its procedure's name and whether it runs for each player: a call in sequence
    (in a block, for each player) is followed into the procedure, and so on; a call in a
    branch, a loop or an option is not, as it may not have run (each procedure once)."""
    out: list[tuple[Effect, str, bool]] = []
    seen: set[int] = set()
    todo: list[tuple[Effect, str, bool]] = [(top, "", False)]
    while todo and len(out) < MAX_WALK:
        e, via, each = todo.pop()
        if isinstance(e, Call):
            if e.proc.eid not in seen:
                seen.add(e.proc.eid)
                todo.append((e.proc.body, engine.rules.effects[e.proc.eid].text, each))
            continue
        if via:
            out.append((e, via, each))
        if isinstance(e, Block):
            todo.extend((child, via, each) for child in reversed(e.children))
        elif isinstance(e, Scope):
            todo.append((e.body, via, each))
        elif isinstance(e, ForPlayers):
            todo.append((e.body, via, True))
    return out


MAX_WALK = 10_000  # effects looked at under one step: far beyond any phase's text


def within(top: Effect) -> list[Effect]:
    """`top` and the effects written inside it (a loop's body, an if's branches), not the
    procedures it calls."""
    out: list[Effect] = []
    todo = [top]
    while todo and len(out) < MAX_WALK:
        e = todo.pop()
        out.append(e)
        for field in attrs.fields(type(e)):  # type: ignore[arg-type]  # every effect is an attrs class
            value = getattr(e, field.name)
            items = value if isinstance(value, tuple) else (value,)
            todo.extend(v for v in items if isinstance(v, Effect))
    return out
