"""Step functions of choices (rules_dsl/effects/choices.py): the options worked out with
the generated query; the answer (`resume`) and a watched game are the interpreter's."""

from __future__ import annotations

from rules_dsl.codegen.generator import Generator, steps
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
