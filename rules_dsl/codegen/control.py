"""Step functions of the effects that order other effects (rules_dsl/effects/control.py):
each does what the class's `step` does, with the effect's plan written out."""

from __future__ import annotations

from rules_dsl.codegen.generator import Generator, Lines, resumes, starts, steps
from rules_dsl.effects import control
from rules_dsl.effects.base import Effect


@steps(control.Block)
def _block(g: Generator, eff: control.Block) -> None:
    # `Block.step` with its loop unrolled: a block is resumed (fr.pc) only after a child
    # that did not run in its frame, so the children are cut into runs that start there
    out = g.out
    plan = eff.plan
    n = len(plan)
    out.add("frames = st.frames")
    with out.block("if st.failed:"):
        out.add("frames.pop()", "return")
    # (resumed after its last child, it runs none: so `n` counts as a start too)
    starts = sorted({0} | {k + 1 for k, (child, kind) in enumerate(plan) if _resumes(g, child, kind)})
    guarded = len(starts) > 1
    if guarded:
        out.add("i = fr.pc")
    for s, start in enumerate(starts):
        if start >= n:
            break
        end = starts[s + 1] if s + 1 < len(starts) else n
        if guarded:
            out.add(f"if i <= {g.lit(start)}:")
            out.depth += 1
        for k in range(start, end):
            _child(g, out, plan[k][0], plan[k][1], k + 1)
        if guarded:
            out.depth -= 1
    out.add(f"fr.pc = {g.lit(n)}", "frames.pop()")


def _inline(g: Generator, eff: Effect | None) -> bool:
    """Whether a block's child (or an `if`'s branch) started with a frame of its own runs in
    the parent's frame instead: a block (no names of its own, the parent's player and
    card) whose children all run in its frame, so it can neither ask nor leave a frame
    behind; what it does, its failure included, is the same in the parent's frame.
    Not while the end triggers are tested between the steps (`watch_every`)."""
    if type(eff) is not control.Block or g.rules.watch_every:
        return False
    for child, kind in eff.plan:
        if kind == control.TEST:
            assert isinstance(child, control.If)
            if not _runs_here(g, child.then, child.then_kind) or not _runs_here(g, child.otherwise, child.else_kind):
                return False
        elif not _runs_here(g, child, kind):
            return False
    return True


def _runs_here(g: Generator, eff: Effect | None, kind: int) -> bool:
    return eff is None or kind == control.RUN or (kind == control.PUSH and _inline(g, eff))


def _resumes(g: Generator, child: Effect, kind: int) -> bool:
    """Whether the block may be resumed after this child (a frame of its own that may stay)."""
    if kind == control.TEST:
        assert isinstance(child, control.If)
        return not (_runs_here(g, child.then, child.then_kind) and _runs_here(g, child.otherwise, child.else_kind))
    return not _runs_here(g, child, kind)


def _child(g: Generator, out: Lines, child: Effect, kind: int, after: int) -> None:
    """One child of a block, `after` the index of the next: as `Block.step`'s loop body."""
    if kind == control.RUN:
        g.run_atomic(child, out, [f"fr.pc = {g.lit(after)}", "st.failed = True", "frames.pop()", "return"])
        return
    out.add(f"fr.pc = {g.lit(after)}")
    if kind != control.TEST:
        _start(g, out, child, kind)
        return
    assert isinstance(child, control.If)
    with out.block(f"if {g.test(child.cond)}:"):
        _branch(g, out, child.then, child.then_kind)
    if child.otherwise is not None:
        with out.block("else:"):
            _branch(g, out, child.otherwise, child.else_kind)


def _branch(g: Generator, out: Lines, branch: Effect, kind: int) -> None:
    if kind == control.RUN:
        g.run_atomic(branch, out, ["st.failed = True", "frames.pop()", "return"])
        return
    _start(g, out, branch, kind)


def _inlined(g: Generator, out: Lines, block: control.Block) -> None:
    """A block that runs in its parent's frame (`_inline`): its children written out there;
    its failure is the parent's (the parent's `fr.pc` is already past it)."""
    fail = ["st.failed = True", "frames.pop()", "return"]
    out.add("pass")  # (a block of no children)
    for child, kind in block.plan:
        if kind == control.TEST:
            assert isinstance(child, control.If)
            with out.block(f"if {g.test(child.cond)}:"):
                _here(g, out, child.then, child.then_kind, fail)
            if child.otherwise is not None:
                with out.block("else:"):
                    _here(g, out, child.otherwise, child.else_kind, fail)
        else:
            _here(g, out, child, kind, fail)


def _here(g: Generator, out: Lines, eff: Effect, kind: int, fail: list[str]) -> None:
    if kind == control.RUN:
        g.run_atomic(eff, out, fail)
    else:
        assert isinstance(eff, control.Block)
        _inlined(g, out, eff)


def _start(g: Generator, out: Lines, child: Effect, kind: int) -> None:
    """A child with a frame of its own: pushed, and stepped at once unless PUSH."""
    if kind == control.COUNT:
        assert isinstance(child, control.Loop) and child.count is not None
        out.add(f"rounds = {g.num(child.count)}")
        with out.block("if rounds != 0:"):
            g.push(out, child.eid, data="[rounds]")
            _stepped(g, out, child, kind)
        return
    if kind == control.PUSH and _inline(g, child):
        assert isinstance(child, control.Block)
        _inlined(g, out, child)
        return
    g.push(out, child.eid)
    if kind == control.PUSH and (g.rules.watch_every or type(child) is not control.Block):
        out.add("return")
        return
    # a block the interpreter would step next: stepped at once (blocks nest in Python
    # only as deep as the pack's text nests them)
    _stepped(g, out, child, kind)


def _stepped(g: Generator, out: Lines, child: Effect, kind: int) -> None:
    out.add(f"{g.step_name(child.eid)}(st, top)")
    if kind == control.CALL:
        out.add("return")
        return
    with out.block("if frames[-1] is not fr or st.pending is not None:"):
        out.add("return")
    with out.block("if st.failed:"):
        out.add("frames.pop()", "return")


@steps(control.Call)
def _call(g: Generator, eff: control.Call) -> None:
    # a tail call, as `Call.step`: this frame becomes the procedure's body
    out = g.out
    with out.block("if len(st.frames) > st.rules.frame_limit:"):
        out.add(f"_check_depth(st, 'the procedure', {g.bind(eff.text)})")
    out.add("names = {} if fr.vars is None else dict(fr.vars)")
    if eff.arg is not None:
        out.add(f"names['N'] = {g.num(eff.arg)}")
    twin = g.rules.step_twins.get(eff.body_eid)
    if twin is None:
        out.add("fr.vars = names", f"fr.eid = {g.lit(eff.body_eid)}", "fr.pc = 0", "fr.data = None")
    else:  # while a scenario watches, the body's twin that runs it step by step
        out.add("fr.vars = names", f"fr.eid = {g.lit(eff.body_eid)} if st.trace is None else {g.lit(twin)}")
        out.add("fr.pc = 0", "fr.data = None")


@steps(control.If)
def _if(g: Generator, eff: control.If) -> None:
    out = g.out
    with out.block(f"if {g.test(eff.cond)}:"):
        out.add(f"fr.eid = {g.lit(eff.then.eid)}", "fr.pc = 0")
    with out.block("else:"):
        if eff.otherwise is None:
            out.add("st.frames.pop()")
        else:
            out.add(f"fr.eid = {g.lit(eff.otherwise.eid)}", "fr.pc = 0")


@steps(control.Loop)
def _loop(g: Generator, eff: control.Loop) -> None:
    out = g.out
    with out.block("if st.failed:"):
        out.add("st.failed = False", "st.frames.pop()", "return")
    out.add("data = fr.data")
    with out.block("if data is None:"):
        count = g.num(eff.count) if eff.count is not None else "-1"
        out.add(f"data = fr.data = [{count}]")
    out.add("left = data[0]")
    stop = "left == 0" if eff.cond is None else f"left == 0 or not {g.test(eff.cond)}"
    with out.block(f"if {stop}:"):
        out.add("st.frames.pop()", "return")
    with out.block("if left > 0:"):
        out.add("data[0] = left - 1")
    out.add("frames = st.frames")
    g.push(out, eff.body.eid)
    g.step_at_once(out, eff.body, eff.at_once)


def _finish_at_once(g: Generator, out: Lines) -> None:
    """After a body stepped at once: if it ended without asking, this frame's next step
    (`st.failed = False`, popped: a `you may`'s or a chosen option's) done now, as the
    interpreter would do it next."""
    if g.rules.watch_every:
        return
    with out.block("if frames[-1] is fr and st.pending is None:"):
        out.add("st.failed = False", "frames.pop()")


@steps(control.Optional)
def _optional(g: Generator, eff: control.Optional) -> None:
    out = g.out
    with out.block("if fr.pc == 0:"):
        out.add("fr.pc = 1", "frames = st.frames")
        g.push(out, eff.body.eid)
        g.step_at_once(out, eff.body, eff.at_once)
        _finish_at_once(g, out)
        out.add("return")
    out.add("st.failed = False", "st.frames.pop()")


@steps(control.ForPlayers)
def _for_players(g: Generator, eff: control.ForPlayers) -> None:
    out = g.out
    out.add("st.failed = False", "n = st.players", "data = fr.data")
    with out.block("if data is None:"):
        out.add(f"data = fr.data = [{g.lit(1 if eff.opponents_only else 0)}]")
    out.add("i = data[0]", "frames = st.frames")
    player = "(fr.player + i) % n" if eff.opponents_only else "(st.active + i) % n"
    if eff.whole or (eff.body.atomic and not g.rules.watch_every):
        # every player in one step, as `ForPlayers.step` does for a body that cannot ask
        # (an atomic body too: the steps the interpreter would take next, one by one)
        with out.block("while i < n:"):
            out.add("data[0] = i + 1")
            g.push(out, eff.body.eid, player=player, vars="{}")
            out.add(f"{g.step_name(eff.body.eid)}(st, top)", "st.failed = False", "i += 1")
        out.add("frames.pop()")
        return
    if not _continues(g, eff.body, eff.at_once):
        with out.block("if i >= n:"):
            out.add("frames.pop()", "return")
        out.add("data[0] = i + 1")
        g.push(out, eff.body.eid, player=player, vars="{}")
        g.step_at_once(out, eff.body, eff.at_once)
        return
    # a body stepped at once that ends without asking: the next player's round at once,
    # as this frame's next step would do it (at most one round per player)
    with out.block("while True:"):
        with out.block("if i >= n:"):
            out.add("frames.pop()", "return")
        out.add("data[0] = i + 1")
        g.push(out, eff.body.eid, player=player, vars="{}")
        g.step_at_once(out, eff.body, eff.at_once)
        with out.block("if frames[-1] is not fr or st.pending is not None:"):
            out.add("return")
        out.add("st.failed = False", "i = data[0]")


def _continues(g: Generator, body: Effect, at_once: bool) -> bool:
    """Whether a loop over a bounded list (players, cards) goes on to its next round in
    the same step when the body, stepped at once, ends without asking: a block body
    (a call or an `if` only turns the body's frame into another), not while the end
    triggers are tested between the steps."""
    return at_once and type(body) is control.Block and not g.rules.watch_every


@steps(control.ForCards)
def _for_cards(g: Generator, eff: control.ForCards) -> None:
    # `ForCards.step`: the cards found at the start, one round each, the card bound by its name
    out = g.out
    out.add("frames = st.frames", "data = fr.data")
    with out.block("if data is None:"):
        out.add(f"data = fr.data = [0] + {g.card_list(eff.query)}")
    at_once = _continues(g, eff.body, True)
    with out.block("while True:"):
        out.add("st.failed = False", "i = data[0] + 1")
        with out.block("if i >= len(data):"):
            out.add("frames.pop()", "return")
        out.add("data[0] = i")
        g.push(out, eff.body.eid, vars=f"{{{g.bind(eff.name)}: data[i]}}")
        if not at_once:
            out.add("return")
            return
        out.add(f"{g.step_name(eff.body.eid)}(st, top)")
        with out.block("if frames[-1] is not fr or st.pending is not None:"):
            out.add("return")


@steps(control.Alternatives)
def _alternatives(g: Generator, eff: control.Alternatives) -> None:
    # `Alternatives.step` with the options that can always start listed once; the rest
    # (a scenario watching, the answer) is the interpreter's
    out = g.out
    me = g.bind(eff, "_e")
    with out.block("if fr.pc == 1:"):  # after the chosen option
        out.add("st.failed = False", "st.frames.pop()", "return")
    with out.block("if st.trace is not None:"):
        out.add(f"{me}.step(st, fr)", "return")
    if all(eff.always):
        out.add(f"doable = [{', '.join(g.lit(i) for i in range(len(eff.options)))}]")
    else:
        out.add("doable = []")
        for i, option in enumerate(eff.options):
            if eff.always[i]:
                out.add(f"doable.append({g.lit(i)})")
            else:
                with out.block(f"if {g.can_start(option)}:"):
                    out.add(f"doable.append({g.lit(i)})")
        with out.block("if not doable:"):
            out.add("st.failed = True", "st.frames.pop()", "return")
    with out.block("if len(doable) == 1:"):
        out.add(f"{g.resume_name(eff.eid)}(st, fr, doable[0])", "return")
    out.add("labels = []")
    with out.block("for i in doable:"):
        out.add(f"labels.append({g.bind(eff.labels)}[i])")
    out.add("_ask(st, fr, fr.player, 'choose: ' + ' OR '.join(labels), labels, doable)")


@resumes(control.Alternatives)
def _alternatives_resume(g: Generator, eff: control.Alternatives) -> None:
    # `Alternatives.resume`: the chosen option entered (`control.enter`), written out per option
    out = g.out
    out.add("fr.pc = 1", "frames = st.frames")
    for i, option in enumerate(eff.options):
        with out.block(f"if value == {g.lit(i)}:"):
            g.push(out, option.eid)
            g.step_at_once(out, option, eff.at_once[i])
            _finish_at_once(g, out)
            out.add("return")
    out.add(f"{g.bind(eff, '_e')}.resume(st, fr, value)")  # (no such option: the interpreter's error)


# ---- can-start functions: each as the class's `can_start`, its parts written out ----


@starts(control.Block)
def _block_starts(g: Generator, eff: control.Block) -> None:
    out = g.out
    if eff.always:
        out.add("return True")
        return
    for guard in eff.guards:
        with out.block(f"if not {g.test(guard.cond)}:"):
            out.add("return False")
    out.add("return True" if eff.asks is None else f"return {g.can_start(eff.asks)}")


@starts(control.Call)
def _call_starts(g: Generator, eff: control.Call) -> None:
    out = g.out
    if eff.always:
        out.add("return True")
        return
    body = eff.proc.body
    out.add("st.probe_depth += 1")
    with out.block("try:"):
        with out.block("if st.probe_depth > _PD:"):
            out.add(f"_np({g.bind(eff.text)})")
        if eff.arg is None:
            out.add(f"return {g.can_start(body)}")
        else:  # the procedure's body reads N: a scope for the check
            out.add("frames = st.frames")
            g.push(out, eff.proc.eid, vars="{}")
            out.add(f"top.vars['N'] = {g.num(eff.arg)}")
            with out.block("try:"):
                out.add(f"return {g.can_start(body, 'top')}")
            with out.block("finally:"):
                out.add("frames.pop()")
    with out.block("finally:"):
        out.add("st.probe_depth -= 1")


@starts(control.Alternatives)
def _alternatives_starts(g: Generator, eff: control.Alternatives) -> None:
    out = g.out
    for option in eff.options:
        with out.block(f"if {g.can_start(option)}:"):
            out.add("return True")
    out.add("return False")


@starts(control.If)
def _if_starts(g: Generator, eff: control.If) -> None:
    out = g.out
    with out.block(f"if {g.test(eff.cond)}:"):
        out.add(f"return {g.can_start(eff.then)}")
    out.add("return True" if eff.otherwise is None else f"return {g.can_start(eff.otherwise)}")


@starts(control.Loop)
def _loop_starts(g: Generator, eff: control.Loop) -> None:
    out = g.out
    if eff.at_most:
        out.add("return True")
        return
    if eff.count is not None:
        with out.block(f"if {g.num(eff.count)} <= 0:"):
            out.add("return False")
    if eff.cond is not None:
        with out.block(f"if not {g.test(eff.cond)}:"):
            out.add("return False")
    out.add(f"return {g.can_start(eff.body)}")


@starts(control.Scope)
def _scope_starts(g: Generator, eff: control.Scope) -> None:
    g.out.add(f"return {g.can_start(eff.body)}")


@starts(control.Ask)
def _ask_starts(g: Generator, eff: control.Ask) -> None:
    g.out.add(f"return {g.can_start(eff.body)}")


@steps(control.Ask)
def _ask(g: Generator, eff: control.Ask) -> None:
    # `Ask.step`: yes or no, asked only when the body can start
    out = g.out
    with out.block(f"if not {g.can_start(eff.body)}:"):
        out.add("st.failed = True", "st.frames.pop()", "return")
    out.add(f"_ask(st, fr, fr.player, {g.bind(eff.text)}, [{g.bind(eff.yes)}, {g.bind(eff.no)}], [True, False])")


@resumes(control.Ask)
def _ask_resume(g: Generator, eff: control.Ask) -> None:
    out = g.out
    with out.block("if not value:"):
        out.add("st.failed = True")
    out.add("st.frames.pop()")
