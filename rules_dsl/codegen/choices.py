"""Step functions of choices (rules_dsl/effects/choices.py): the options worked out with
the generated query; the answer (`resume`) and a watched game are the interpreter's."""

from __future__ import annotations

from rules_dsl.codegen.generator import Generator, resumes, starts, steps
from rules_dsl.effects import choices


@steps(choices.ChooseCard)
def _choose_card(g: Generator, eff: choices.ChooseCard) -> None:
    out = g.out
    me = g.bind(eff, "_e")
    with out.block("if st.trace is not None:"):  # a scenario watches (`forced:`)
        out.add(f"{me}.step(st, fr)", "return")
    out.add(f"cards = {g.card_list(eff.query)}")
    with out.block("if not cards:"):
        out.add("st.failed = True", "st.frames.pop()", "return")
    if not eff.optional:
        with out.block("if len(cards) == 1:"):  # forced: no option ids needed
            out.add(f"{me}.resume(st, fr, cards[0])", "return")
    out.add(f"ids, values = _card_options(st, cards, fr.player, {'True' if eff.blind else 'False'})")
    if eff.optional:
        out.add(f"ids.append({g.bind(eff.pass_label)})", "values.append(-1)")
    else:
        with out.block("if len(values) == 1:"):
            out.add(f"{me}.resume(st, fr, values[0])", "return")
    out.add(f"_ask(st, fr, fr.player, {g.bind(eff.text)}, ids, values)")


@steps(choices.DoSection)
def _do_section(g: Generator, eff: choices.DoSection) -> None:
    # `DoSection.step`, and then the section's body stepped at once and this frame's last
    # step (absorbing the body's failure) done in line when the body ends without asking:
    # the steps the interpreter would take next. A watched game is the interpreter's.
    out = g.out
    me = g.bind(eff, "_e")
    if g.rules.watch_every:
        out.add(f"{me}.step(st, fr)")
        return
    with out.block("if fr.pc == 1 or st.trace is not None:"):
        out.add(f"{me}.step(st, fr)", "return")
    out.add("fr.pc = 1", "frames = st.frames")
    with out.block("if len(frames) > st.rules.frame_limit:"):
        out.add(f"_check_depth(st, 'the section', {g.bind(eff.section)})")
    out.add(f"c = {g.card(eff.card_expr)}")
    out.add(f"n = st.rules.cards[st.cards[c].type].sections.get({g.bind(eff.section)})")
    with out.block("if n is not None:"):
        out.add("body = st.rules.effects[n].body.eid")
        g.push(out, "body", vars="{}", src="c")
        with out.block("if len(frames) > _DEEP:"):
            out.add("return")
        out.add("_steps[body](st, top)")
        with out.block("if frames[-1] is not fr or st.pending is not None:"):
            out.add("return")
    out.add("st.failed = False", "frames.pop()")


@resumes(choices.ChooseCard)
def _choose_card_resume(g: Generator, eff: choices.ChooseCard) -> None:
    # `ChooseCard.resume`: the card bound as "it" and by its name in the nearest scope
    out = g.out
    out.add("frames = st.frames")
    with out.block("if value < 0:"):
        out.add("st.failed = True")
    with out.block("else:"), out.block("for top in reversed(frames):"):
        out.add("names = top.vars")
        with out.block("if names is not None:"):
            out.add("names['it'] = value", f"names[{g.bind(eff.name)}] = value", "break")
    out.add("frames.pop()")


@starts(choices.ChooseCard)
def _choose_card_starts(g: Generator, eff: choices.ChooseCard) -> None:
    # `ChooseCard.can_start`: any card, by the generated query
    g.out.add(f"return len({g.card_list(eff.query)}) > 0")
