"""Abilities written as Python (rules_dsl/effects/abilities.py): a quantity (`your
hand-limit`) with the places its modifiers can lie in written out, and an announced
moment's abilities run one after the other in one step."""

from __future__ import annotations

from rules_dsl.codegen.generator import RUNTIME, Generator, Lines, numbers, steps
from rules_dsl.effects.abilities import Announce, Quantity, lasting_total, modifiers_total

RUNTIME.update(_ms=modifiers_total, _lasting=lasting_total)


@numbers(Quantity)
def _quantity(g: Generator, e: Quantity, cand: str, fr: str) -> str:
    """`Quantity.num`: the start, then the spots where this quantity's modifiers can lie
    (known once the rules are compiled), then the lasting abilities."""

    def write(name: str, out: Lines) -> None:
        with out.block(f"def {name}(st, fr, cand):"):
            out.add("n = (fr.player + 1) % st.players" if e.opponent else "n = fr.player")
            out.add(f"total = {g.num(e.start, 'cand', 'fr')}")
            spots = g.rules.quantity_spots.get(e.name)
            if spots:
                out.add("types = st.rules.cards", "cards = st.cards", "zones = st.zones", "key = _zs(n)")
                for zone, _facing in spots:
                    with out.block(f"for c in zones[{g.bind(zone)} + key]:"):
                        out.add("cs = cards[c]", f"values = types[cs.type].mods.get({g.bind(e.name)})")
                        with out.block("if values:"):
                            out.add(f"total += _ms(st, values, {g.bind(zone)}, c, cs, n)")
            with out.block("if st.lasting:"):
                out.add(f"total += _lasting(st, n, {g.bind(e.name)})")
            out.add("return total")

    return f"{g.helper(e, '_qqty', write)}(st, {fr}, {cand})"


@steps(Announce)
def _announce(g: Generator, eff: Announce) -> None:
    # `Announce.step`, and each ability it pushes stepped at once, the next one pushed
    # when that one ends without asking: the steps the interpreter takes one by one.
    # A moment nobody hears, a scenario watching, end triggers tested between the steps:
    # the interpreter's.
    out = g.out
    me = g.bind(eff, "_e")
    if eff.atomic or g.rules.watch_every:
        out.add(f"{me}.step(st, fr)")
        return
    with out.block("if st.trace is not None:"):
        out.add(f"{me}.step(st, fr)", "return")
    out.add("frames = st.frames", "data = fr.data")
    with out.block("if data is None:"):
        out.add(f"data = fr.data = {me}.collect(st, fr)")
    with out.block("while True:"):
        out.add("st.failed = False")  # the previous ability's failure is its own
        with out.block("if not data:"):
            out.add("frames.pop()", "return")
        out.add("n, i, c, names = data.pop(0)")
        g.push(out, "n", player="i", vars="dict(names)", src="c")
        with out.block("if len(frames) > _DEEP:"):
            out.add("return")
        out.add("_steps[n](st, top)")
        with out.block("if frames[-1] is not fr or st.pending is not None:"):
            out.add("return")
