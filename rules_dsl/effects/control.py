"""Effects that order other effects: blocks, options, conditions, loops, scopes.

Failure: a statement that cannot be done (nothing to choose, not enough to pay) sets
`st.failed`. A block stops at a failed statement and passes the failure up; optional
statements, alternatives, loops, sections and phases absorb it. So "remove a token; gain 1
gold" gains nothing when there is no token, as the card text means.
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.base import MAX_PROBE_DEPTH, Effect, ask, bind, check_depth, push
from rules_dsl.effects.values import Cond, NumExpr
from rules_dsl.errors import RulesLoopError
from rules_dsl.state import Frame, GameState

_new = object.__new__

# How a parent starts a child effect, worked out once when the rules are compiled
# (compiler/link.py) rather than at every step of play:
RUN = 0  # atomic: executed on the spot, in the parent's frame
CALL = 1  # a procedure call: its frame is pushed and turned into the body's at once
TEST = 2  # an `if`: its condition tested on the spot, then the branch started by its own kind
PUSH = 3  # a frame of its own, stepped by the interpreter (a block: blocks would nest in Python)
STEP = 4  # a frame of its own, stepped at once, as the interpreter would next; when that
# finishes it (nothing to ask, or a choice with one option), the block goes on
COUNT = 5  # a loop of N rounds without a condition: N worked out first, in the block's frame
# (as the loop's first step would); zero rounds need no frame, else as STEP with N given
# With the rules' end triggers tested after every changing step (`Rules.watch_every`), every
# child that is not atomic gets PUSH, so the triggers are tested exactly where they were.


@attrs.frozen(eq=False)
class Block(Effect):
    changes = True  # it runs its atomic statements itself
    eid: int
    text: str
    children: tuple[Effect, ...]
    kinds: tuple[int, ...] = ()  # how each child starts (RUN, CALL, TEST, PUSH, STEP, COUNT): set by link
    plan: tuple[tuple[Effect, int], ...] = ()  # (child, kind) pairs (set by link): one read per child
    always: bool = False  # can_start is True whatever the state (set by link)
    # what can_start asks (set by link): the leading `only if` children, then the child
    # whose own can_start answers (None: yes)
    guards: tuple[OnlyIf, ...] = ()
    asks: Effect | None = None

    def step(self, st: GameState, fr: Frame) -> None:
        # Every way through is the one the interpreter would take step by step (an `if`
        # frame that becomes its branch, a call frame that becomes the procedure's body),
        # without the frames and steps that change nothing
        frames = st.frames
        if st.failed:
            frames.pop()
            return
        plan = self.plan
        n = len(plan)
        i = fr.pc  # kept in a local; fr.pc is set before anything else can see it
        while i < n:
            child, kind = plan[i]
            i += 1
            if not kind:  # RUN (0), tested without a name looked up: most children are atomic
                if not child.execute(st, fr):
                    fr.pc = i
                    st.failed = True
                    frames.pop()
                    return
                continue
            fr.pc = i
            if kind == TEST:
                assert isinstance(child, If)
                if child.cond.test(st, fr):
                    kind = child.then_kind
                    branch: Effect | None = child.then
                else:
                    kind = child.else_kind
                    branch = child.otherwise
                if branch is None:
                    continue
                child = branch
                if not kind:  # RUN
                    if not child.execute(st, fr):
                        st.failed = True
                        frames.pop()
                        return
                    continue
            if kind == COUNT:
                assert isinstance(child, Loop) and child.count is not None
                rounds = child.count.num(st, fr)
                if rounds == 0:
                    continue
                data: list[Any] | None = [rounds]
            else:
                data = None
            # the frame made with its slots set directly, as `base.push` does: a hot path
            top = _new(Frame)
            top.eid = child.eid
            top.player = fr.player
            top.src = fr.src
            top.pc = 0
            top.vars = None
            top.data = data
            frames.append(top)
            if kind == PUSH:
                return
            child.step(st, top)  # CALL or STEP: no other effect's step steps another
            if kind == CALL or frames[-1] is not fr or st.pending is not None:
                return
            if st.failed:
                frames.pop()
                return
        fr.pc = i
        frames.pop()

    def can_start(self, st: GameState, fr: Frame) -> bool:
        if self.always:
            return True
        # "only if" checks change nothing, so look past them; past anything else we cannot
        # look: which children to ask is worked out once (link.probe_plan)
        for guard in self.guards:
            if not guard.cond.test(st, fr):
                return False
        asks = self.asks
        return asks is None or asks.can_start(st, fr)


@attrs.frozen(eq=False)
class StepByStep(Effect):
    """A text of several steps (its top-level statements: a phase's, a deal's set-up or
    scoring, a procedure's) as a scenario watching the game runs it: the game loop (or the
    call) enters it instead of the text's block only while `st.trace` is set (never in
    play). It runs the block one step at a time and tells the watch "after step N of NAME"
    as each step finishes (docs/scenarios.md), so an `at:` step can look at the game
    between two steps."""

    eid: int
    text: str
    body: int  # the block
    phase: str  # the name of the phase, deal part (deal-setup, deal-end) or procedure
    # per step, the twin of the loop that step is (EachIteration; -1: none)
    loops: tuple[int, ...] = ()
    changes = True  # as the block: it runs atomic statements itself

    def step(self, st: GameState, fr: Frame) -> None:
        block = st.rules.effects[self.body]
        assert isinstance(block, Block)
        trace = st.trace
        if trace is None:  # a game watched no more (a scenario's random games go on from it)
            block.step(st, fr)
            return
        frames = st.frames
        plan = block.plan
        while True:
            done = fr.pc
            # the step `done` finished since the last look (fr.data: [the last step told])
            if done and fr.data != [done] and not st.failed:
                fr.data = [done]
                trace.reached(st, f"after step {done} of {self.phase}")
            if st.failed or done >= len(plan):
                block.step(st, fr)  # passes the failure up, or ends the phase
                return
            depth = len(frames)
            # a block of this one step: it runs it as the whole block would, then ends (a
            # loop: its twin, in a frame of its own, which tells each iteration's end)
            steps = plan[: done + 1]
            if self.loops and self.loops[done] >= 0:
                steps = (*plan[:done], (st.rules.effects[self.loops[done]], PUSH))
            Block.step(Block(block.eid, block.text, block.children, block.kinds, steps), st, fr)
            if len(frames) != depth - 1 or st.failed or st.pending is not None:
                return  # the step goes on in its own frame (or asks, or failed)
            frames.append(fr)  # the step ran on the spot: the phase goes on

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return st.rules.effects[self.body].can_start(st, fr)


@attrs.frozen(eq=False)
class EachIteration(Effect):
    """A loop that is a step of a text StepByStep runs (`repeat`, `while`, `any number of
    times`, `for each player`, `for each card`), as a scenario watching the game runs it:
    the loop's own step, telling the watch "after iteration N of step K of NAME" as each
    iteration ends (not one that failed or was declined, which ends the loop). Its frame's
    pc counts the iterations begun (the loops leave pc alone)."""

    eid: int
    text: str
    loop: int  # the loop effect
    name: str  # "step K of NAME"
    # `changes` False, as the loops': their step only starts an iteration (where end
    # triggers are tested between steps, link lets no loop step its body at once)

    def step(self, st: GameState, fr: Frame) -> None:
        loop = st.rules.effects[self.loop]
        trace = st.trace
        if trace is not None and fr.pc and not st.failed:
            trace.reached(st, f"after iteration {fr.pc} of {self.name}")
        frames = st.frames
        depth = len(frames)
        loop.step(st, fr)
        if len(frames) >= depth and frames[depth - 1] is fr:  # the loop goes on: an iteration began
            fr.pc += 1

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return st.rules.effects[self.loop].can_start(st, fr)


class Guard(Effect):
    """An atomic effect that may fail, so its feasibility is worth checking."""


@attrs.frozen(eq=False)
class Scope(Effect):
    """A body with its own names: a card's section, a phase, a procedure, the set-up.

    Only the set-up runs as a Scope frame. Sections, phases and procedures are entered by
    their callers (DoSection, the game loop, Call), which push or become the body's frame
    directly: one frame fewer on the hot path.
    """

    eid: int
    text: str
    body: Effect
    absorbs_failure: bool

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 0:
            fr.pc = 1
            push(st, self.body.eid, fr.player, fr.src)
            return
        if self.absorbs_failure:
            st.failed = False
        st.frames.pop()

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return self.body.can_start(st, fr)


@attrs.frozen(eq=False)
class Call(Effect):
    """A pack procedure: `build 1 house`, `harvest X`. The argument is bound as N."""

    eid: int
    text: str
    proc: Scope
    arg: NumExpr | None
    body_eid: int = -1  # the procedure's body (set by link: procedures are compiled after their calls)
    always: bool = False  # can_start is True whatever the state (set by link)

    def step(self, st: GameState, fr: Frame) -> None:
        # a tail call: this frame becomes the procedure's body, with the procedure's
        # names (N) as its scope; a procedure neither absorbs nor adds a failure
        if len(st.frames) > st.rules.frame_limit:  # the check inline: a hot path
            check_depth(st, "the procedure", self.text)
        names = {} if fr.vars is None else dict(fr.vars)  # keep names a loop bound here
        if self.arg is not None:
            names["N"] = self.arg.num(st, fr)
        fr.vars = names
        # while a scenario watches, the body's twin that runs it step by step
        fr.eid = self.body_eid if st.trace is None else st.rules.step_twins.get(self.body_eid, self.body_eid)
        fr.pc = 0
        fr.data = None

    def can_start(self, st: GameState, fr: Frame) -> bool:
        if self.always:
            return True
        # a procedure whose first step is to call itself would ask itself for ever
        st.probe_depth += 1
        try:
            if st.probe_depth > MAX_PROBE_DEPTH:
                raise RulesLoopError(
                    f"the procedure {self.text!r} calls itself before it does anything: it never starts"
                )
            if self.arg is not None:
                # the procedure's body reads N: give it a scope for the check
                probe = push(st, self.proc.eid, fr.player, fr.src, scope=True)
                assert probe.vars is not None
                probe.vars["N"] = self.arg.num(st, fr)
                try:
                    return self.proc.body.can_start(st, probe)
                finally:
                    st.frames.pop()
            return self.proc.body.can_start(st, fr)
        finally:
            st.probe_depth -= 1


@attrs.frozen(eq=False)
class Alternatives(Effect):
    """`gain 1 gold OR build 1 house`: the player picks one that can be done."""

    eid: int
    text: str
    options: tuple[Effect, ...]
    labels: tuple[str, ...]
    always: tuple[bool, ...] = ()  # per option: it can start whatever the state (set by link)
    at_once: tuple[bool, ...] = ()  # per option: its frame is stepped at once (set by link)

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 1:
            st.failed = False
            st.frames.pop()
            return
        always = self.always
        doable: list[int] = []
        for i, option in enumerate(self.options):  # loops, not comprehensions: each is a call
            if always[i] or option.can_start(st, fr):
                doable.append(i)
        if not doable:
            st.failed = True
            st.frames.pop()
            return
        if len(doable) == 1:
            if st.trace is not None:  # a scenario watches (`forced:`)
                st.trace.forced(st, fr.player, "choose: " + self.labels[doable[0]], self.labels[doable[0]])
            self.resume(st, fr, doable[0])
            return
        all_labels = self.labels
        labels: list[str] = []
        for i in doable:
            labels.append(all_labels[i])
        ask(st, fr, fr.player, "choose: " + " OR ".join(labels), labels, doable)

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        fr.pc = 1
        option = self.options[value]
        enter(st, option, fr.player, fr.src, None, self.at_once[value])

    def can_start(self, st: GameState, fr: Frame) -> bool:
        for option in self.options:  # noqa: SIM110 (a loop, not a generator: that is a call)
            if option.can_start(st, fr):
                return True
        return False


@attrs.frozen(eq=False)
class Ask(Guard):
    """A yes/no question in front of a body that does not start with a choice."""

    eid: int
    text: str
    yes: str
    no: str
    body: Effect

    def step(self, st: GameState, fr: Frame) -> None:
        if not self.body.can_start(st, fr):
            st.failed = True
            st.frames.pop()
            return
        ask(st, fr, fr.player, self.text, [self.yes, self.no], [True, False])

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        if not value:
            st.failed = True
        st.frames.pop()

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return self.body.can_start(st, fr)


@attrs.frozen(eq=False)
class Optional(Effect):
    """`you may ...`: the body's first choice carries the 'pass' option."""

    eid: int
    text: str
    body: Effect
    at_once: bool = False  # the body's frame is stepped at once (set by link)

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 0:
            fr.pc = 1
            body = self.body
            enter(st, body, fr.player, fr.src, None, self.at_once)
            return
        st.failed = False
        st.frames.pop()


@attrs.frozen(eq=False)
class If(Effect):
    eid: int
    text: str
    cond: Cond
    then: Effect
    otherwise: Effect | None
    then_kind: int = PUSH  # how a block starts each branch (set by link)
    else_kind: int = PUSH

    def step(self, st: GameState, fr: Frame) -> None:
        branch = self.then if self.cond.test(st, fr) else self.otherwise
        if branch is None:
            st.frames.pop()
            return
        # a tail call: this frame becomes the branch (an "if" passes failures through)
        fr.eid = branch.eid
        fr.pc = 0

    def can_start(self, st: GameState, fr: Frame) -> bool:
        branch = self.then if self.cond.test(st, fr) else self.otherwise
        return branch is None or branch.can_start(st, fr)


@attrs.frozen(eq=False)
class Loop(Effect):
    """`repeat N times:`, `up to N times:`, `any number of times:`, `while C:`.

    A failed or declined iteration ends the loop.
    """

    eid: int
    text: str
    body: Effect
    count: NumExpr | None
    cond: Cond | None
    at_most: bool = False  # "up to N times" / "any number of times": zero rounds is fine
    at_once: bool = False  # the body's frame is stepped at once (set by link)

    def step(self, st: GameState, fr: Frame) -> None:
        if st.failed:
            st.failed = False
            st.frames.pop()
            return
        if fr.data is None:
            fr.data = [self.count.num(st, fr) if self.count is not None else -1]
        left = fr.data[0]
        if left == 0 or (self.cond is not None and not self.cond.test(st, fr)):
            st.frames.pop()
            return
        if left > 0:
            fr.data[0] = left - 1
        body = self.body
        enter(st, body, fr.player, fr.src, None, self.at_once)

    def can_start(self, st: GameState, fr: Frame) -> bool:
        if self.at_most:
            return True
        if self.count is not None and self.count.num(st, fr) <= 0:
            return False
        if self.cond is not None and not self.cond.test(st, fr):
            return False
        return self.body.can_start(st, fr)


@attrs.frozen(eq=False)
class ForPlayers(Effect):
    """`for each player:` / `for each opponent in turn order:` — 'you' becomes each."""

    eid: int
    text: str
    body: Effect
    opponents_only: bool
    at_once: bool = False  # the body's frame is stepped at once (set by link)
    whole: bool = False  # the body can neither ask nor push a frame: every player in one step (set by link)

    def step(self, st: GameState, fr: Frame) -> None:
        st.failed = False
        n = st.players
        start = 1 if self.opponents_only else 0
        if fr.data is None:
            # players from the one after "you" (or "you" first), clockwise
            fr.data = [start]
        i = fr.data[0]
        if self.whole:
            # what the steps below do player by player, in one step: the body's frame
            # pushed and stepped (its block runs every child in that frame and pops it),
            # its failure absorbed, the next player
            frames = st.frames
            body = self.body
            while i < n:
                fr.data[0] = i + 1
                top = _new(Frame)
                top.eid = body.eid
                top.player = (fr.player + i) % n if self.opponents_only else (st.active + i) % n
                top.src = fr.src
                top.pc = 0
                top.vars = {}
                top.data = None
                frames.append(top)
                body.step(st, top)
                st.failed = False
                i += 1
            frames.pop()
            return
        if i >= n:
            st.frames.pop()
            return
        fr.data[0] = i + 1
        player = (fr.player + i) % n if self.opponents_only else (st.active + i) % n
        body = self.body
        enter(st, body, player, fr.src, {}, self.at_once)


@attrs.frozen(eq=False)
class ForCards(Effect):
    """`for each card in ... as the guest:` over the cards as they were at the start."""

    eid: int
    text: str
    body: Effect
    query: Any
    name: str

    def step(self, st: GameState, fr: Frame) -> None:
        st.failed = False
        if fr.data is None:
            fr.data = [0, *self.query.cards(st, fr)]
        i = fr.data[0] + 1
        if i >= len(fr.data):
            st.frames.pop()
            return
        fr.data[0] = i
        child = push(st, self.body.eid, fr.player, fr.src, scope=True)
        assert child.vars is not None
        child.vars[self.name] = fr.data[i]


@attrs.frozen(eq=False)
class OnlyIf(Guard):
    """`only if C`: the rest of the block happens only when C holds."""

    eid: int
    text: str
    cond: Cond
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        return self.cond.test(st, fr)

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return self.cond.test(st, fr)


@attrs.frozen(eq=False)
class Let(Effect):
    eid: int
    text: str
    name: str
    value: NumExpr
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        bind(st, self.name, self.value.num(st, fr))
        return True


@attrs.frozen(eq=False)
class SetVar(Effect):
    """`set X to EXPR`: the nearest scope that has X gets the new value, so a value found in
    a loop's body or a nested block flows out of it; with no X bound yet, as `let`."""

    eid: int
    text: str
    name: str
    value: NumExpr
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        value = self.value.num(st, fr)
        name = self.name
        for f in reversed(st.frames):
            if f.vars is not None and name in f.vars:
                f.vars[name] = value
                return True
        bind(st, name, value)
        return True


# Effects whose step only turns their own frame into another effect's (a procedure's body,
# an `if`'s branch) or drops it: a parent that pushes one steps it at once, as the
# interpreter would next. Neither has `changes`, so no end trigger is tested in between.
# A loop, a `for each player`, a `you may` and an option also step a block body at once
# (their `at_once`, set by link unless the end triggers are tested between steps): its
# statements nest no deeper in Python than the pack's text nests them.
REWRITES = (Call, If)


def enter(st: GameState, body: Effect, player: int, src: int, scope: dict[str, Any] | None, at_once: bool) -> None:
    """Push `body`'s frame (slots set directly, as `base.push` does) and step it at once
    where that step only turns the frame into something else (a call, an if) or where link
    found it safe (`at_once`): the interpreter would step it next anyway."""
    top = _new(Frame)
    top.eid = body.eid
    top.player = player
    top.src = src
    top.pc = 0
    top.vars = scope
    top.data = None
    st.frames.append(top)
    if at_once or type(body) in REWRITES:
        body.step(st, top)


LOOPS = (Loop, ForPlayers, ForCards)  # the loop effects an EachIteration runs
