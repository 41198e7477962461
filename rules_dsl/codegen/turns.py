"""The game loop's step (rules_dsl/effects/turns.py): entering the turn's next phase,
written out phase by phase; the end of a turn, deals and a watched game are the
interpreter's (`GameLoop.end_turn`, `GameLoop.step`)."""

from __future__ import annotations

from rules_dsl.codegen.generator import Generator, steps
from rules_dsl.effects import control
from rules_dsl.effects.turns import GameLoop


@steps(GameLoop)
def _game_loop(g: Generator, eff: GameLoop) -> None:
    out = g.out
    me = g.bind(eff, "_e")
    out.add("st.failed = False", "fr.player = st.active")
    # (the interpreter's step begins with the same two lines: running them twice changes nothing)
    with out.block("if st.trace is not None or fr.data is not None:"):
        out.add(f"{me}.step(st, fr)", "return")
    out.add("i = fr.pc")
    with out.block(f"if i >= {g.lit(len(eff.phases))}:"):
        out.add(f"{me}.end_turn(st, fr)", "return")
    with out.block("if st.phase == 'setup' and st.next_turns:"):
        out.add(f"{me}.step(st, fr)", "return")
    out.add("frames = st.frames")
    for i, ((name, _), body_eid) in enumerate(zip(eff.phases, eff.bodies, strict=True)):
        body = g.rules.effects[body_eid]
        with out.block(f"if i == {g.lit(i)}:"):
            out.add(f"fr.pc = {g.lit(i + 1)}", f"st.phase = {g.bind(name)}")
            g.push(out, body_eid, player="st.active", vars="{}", src="-1")
            if type(body) in control.REWRITES:
                out.add(f"{g.step_name(body_eid)}(st, top)")
            out.add("return")
