"""Atomic effects run inline in a generated block (rules_dsl/effects/primitives.py,
control.py): each emitter writes what the class's `execute` does in the frame `fr`, and
the lines `fail` where `execute` would answer False."""

from __future__ import annotations

from rules_dsl.codegen.generator import Generator, Lines, runs
from rules_dsl.effects import control, primitives
from rules_dsl.effects.values import OneCard


@runs(primitives.MoveCards)
def _move_cards(g: Generator, e: primitives.MoveCards, out: Lines, fail: list[str]) -> None:
    out.add(f"dest = {g.zone_key(e.dest_keys, e.dest)}")
    if e.cset.__class__ is not OneCard:  # a set of cards: moving none is no failure
        with out.block(f"for c in {g.card_list(e.cset)}:"):
            out.add(f"_move_card(st, c, dest, {g.bind(e.facing)}, {'True' if e.bottom else 'False'})")
        return
    assert isinstance(e.cset, OneCard)
    out.add(f"c = {g.card(e.cset.card_expr)}")
    with out.block("if c < 0:"):
        out.add(*fail)
    out.add(f"_move_card(st, c, dest, {g.bind(e.facing)}, {'True' if e.bottom else 'False'})")


@runs(primitives.MoveAll)
def _move_all(g: Generator, e: primitives.MoveAll, out: Lines, fail: list[str]) -> None:
    out.add(f"src = {g.zone_key(e.source_keys, e.source)}", f"dest = {g.zone_key(e.dest_keys, e.dest)}")
    with out.block("for c in list(st.zones[src]):"):
        out.add(f"_move_card(st, c, dest, {g.bind(e.facing)})")


@runs(primitives.Draw)
def _draw(g: Generator, e: primitives.Draw, out: Lines, fail: list[str]) -> None:
    out.add(f"n = {g.num(e.count)}")
    out.add(f"src = {g.zone_key(e.source_keys, e.source)}", f"dest = {g.zone_key(e.dest_keys, e.dest)}")
    with out.block("for c in range(n):"), out.block("if not _take_top(st, src, dest):"):
        out.add("break")


@runs(primitives.Gain)
def _gain(g: Generator, e: primitives.Gain, out: Lines, fail: list[str]) -> None:
    out.add(f"n = {g.num(e.amount)}")
    with out.block("if n > 0:"):
        out.add(
            f"values = st.counters[{g.bind(e.counter)}]",
            "total = values[fr.player] + n",
            f"values[fr.player] = total if total <= _MAX_VALUE else _bounded(total, {g.bind(e.text)})",
        )
        if e.supply:
            supply = g.bind(e.supply)
            out.add(f"st.shared[{supply}] = max(0, st.shared[{supply}] - n)")
        watched = g.rules.watch_counters
        if watched and (e.counter in watched or e.supply in watched):
            out.add("_watch(st)")


@runs(control.Let)
def _let(g: Generator, e: control.Let, out: Lines, fail: list[str]) -> None:
    out.add(f"_bind(st, {g.bind(e.name)}, {g.num(e.value)})")


@runs(control.OnlyIf)
def _only_if(g: Generator, e: control.OnlyIf, out: Lines, fail: list[str]) -> None:
    with out.block(f"if not {g.test(e.cond)}:"):
        out.add(*fail)


@runs(primitives.MoveTop)
def _move_top(g: Generator, e: primitives.MoveTop, out: Lines, fail: list[str]) -> None:
    # `MoveTop.execute`: fails only when a move was due and none was made
    out.add(f"n = {'(1)' if e.count is None else g.num(e.count)}")
    with out.block("if n > 0:"):
        out.add(f"src = {g.zkey(e.source)}", f"dest = {g.zkey(e.dest)}", "total = 0")
        with out.block("for c in range(n):"):
            with out.block(f"if not _take_top(st, src, dest, {g.bind(e.facing)}):"):
                out.add("break")
            out.add("total += 1")
        with out.block("if total == 0:"):
            out.add(*fail)
