"""Warnings for what can never happen: validate shows them at file:line:col and exits 0;
--strict makes them errors. The shipped packs have none."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest
from conftest import ROOT

from rules_dsl.cli import main
from rules_dsl.compiler import compile_packs
from rules_dsl.errors import PackProblem
from rules_dsl.packs.installed import resolve

PackCopy = Callable[..., Path]
SHIPPED = sorted({m.parent for place in ("cards", "expansions", "examples") for m in (ROOT / place).rglob("pack.yaml")})


def at(path: Path, line_text: str, word: str) -> tuple[str, int, int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    (i,) = [i for i, line in enumerate(lines) if line == line_text]
    return str(path), i + 1, lines[i].index(word) + 1


def where(w: PackProblem) -> tuple[str, int, int]:
    return w.file, w.line, w.column


@pytest.mark.parametrize("folder", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_shipped_packs_have_no_warnings(folder: Path) -> None:
    assert [w.render() for w in compile_packs(resolve([str(folder)])).warnings] == []


def test_a_permanent_technology_without_sides_2_never_reaches_the_empire(
    pack_copy: PackCopy, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rules take a technology into the empire only if its sides is 2 (else to the
    hand), so without `sides: 2` its 'in your empire' ability can never work."""
    old = (
        "    sides: 2\n    pair: logistics\n    text: |\n"
        "      WHILE face-up in your empire: add 1 to your extra-actions"
    )
    folder = pack_copy(("techs.yaml", old, old.replace("    sides: 2\n", "", 1)))
    (w,) = compile_packs([str(folder)]).warnings
    techs = folder / "techs.yaml"
    assert where(w) == at(techs, "      WHILE face-up in your empire: add 1 to your extra-actions", "empire")
    assert w.card == "productivity" and w.severity == "warning"
    assert w.message.startswith("this ability works in your empire, where this card never goes")
    assert "empire" not in w.message.split("it can be in: ")[1]
    assert main(["validate", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert f"{techs}:{w.line}:{w.column}: warning: card 'productivity': this ability works" in err
    assert "ok with 1 warning: " in out
    assert main(["validate", "--strict", str(folder)]) == 1
    _, err = capsys.readouterr()
    assert "1 warning found (--strict makes them errors)" in err
    assert main(["validate", "--json", "--strict", str(folder)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["warnings"][0]["card"] == "productivity"


MOD_VOCABULARY = """\
vocabulary:
  zones:
    vault: {visibility: public, facing: up}
  moments:
    nap: you have napped
  windows:
    siesta: after lunch
  quantities:
    naps: how many naps you take
    yawns: how wide you yawn
"""
MOD_CARDS = """\
cards:
  - id: sleeper
    name: Sleeper
    kind: technology
    zone: vault
    text: |
      WHEN you nap: gain 1 influence
      ONCE PER TURN, during your siesta: draw 1 card
      WHILE face-up in your empire: add 1 to your naps
  - id: dreamer
    name: Dreamer
    kind: technology
    zone: technologies
    sides: 2
    pair: dreamer
    research-cost: 3
    text: |
      WHILE face-up in your empire: add 1 to your yawns
"""
MOD_RULES = """\
extend:
  procedures:
    dissent:
      after: |
        if your yawns is at least 3 then gain 1 influence
"""


def test_the_five_things_that_can_never_happen(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mod = tmp_path / "sleepy"
    mod.mkdir()
    (mod / "pack.yaml").write_text("id: sleepy\nrequires: [base]\nfiles: [vocabulary.yaml, cards.yaml, rules.yaml]\n")
    (mod / "vocabulary.yaml").write_text(MOD_VOCABULARY, encoding="utf-8")
    (mod / "cards.yaml").write_text(MOD_CARDS, encoding="utf-8")
    (mod / "rules.yaml").write_text(MOD_RULES, encoding="utf-8")
    warnings = compile_packs(resolve([str(mod)])).warnings
    cards, voc = mod / "cards.yaml", mod / "vocabulary.yaml"
    got = {(w.file, w.line, w.column, w.card, w.message.split(":")[0]) for w in warnings}
    never_there = "abilities work while their card is in its owner's empire, where this card never goes"
    assert got == {
        (*at(cards, "      WHEN you nap: gain 1 influence", "WHEN"), "sleeper", never_there),
        (*at(cards, "      WHEN you nap: gain 1 influence", "nap"), "sleeper", "no rule announces 'nap'"),
        (*at(cards, "      ONCE PER TURN, during your siesta: draw 1 card", "ONCE"), "sleeper", never_there),
        (
            *at(cards, "      ONCE PER TURN, during your siesta: draw 1 card", "siesta"),
            "sleeper",
            "no rule opens the window 'siesta' (use siesta abilities)",
        ),
        (
            *at(cards, "      WHILE face-up in your empire: add 1 to your naps", "empire"),
            "sleeper",
            "this ability works in your empire, where this card never goes",
        ),
        (
            *at(voc, "    naps: how many naps you take", "naps"),
            "",
            "nothing reads the quantity 'naps' (no text says 'your naps')",
        ),
        (
            *at(cards, "  - id: sleeper", "id"),
            "sleeper",
            "nothing ever moves this card out of 'vault', where it starts, and no text looks at 'vault'",
        ),
    }
    # dreamer: researched into the empire (sides: 2), and its quantity is read: no warning
    assert main(["validate", str(mod)]) == 0
    assert "ok with 7 warnings: " in capsys.readouterr().out


def test_the_analysis_knows_every_syntax_node() -> None:
    """A construct added to the grammar must be classified in compiler/never.py (moves
    cards or not); until it is, it counts as moving any card anywhere (no false warning)."""
    import attrs

    from rules_dsl import ast
    from rules_dsl.compiler import never

    nodes = {n for n, c in vars(ast).items() if isinstance(c, type) and attrs.has(c) and c.__module__ == ast.__name__}
    assert nodes == never.UNDERSTOOD, f"classify in compiler/never.py: {sorted(nodes ^ never.UNDERSTOOD)}"


def test_an_unknown_construct_counts_as_moving_anything() -> None:
    from rules_dsl.compiler import never
    from rules_dsl.compiler.vocabulary import Vocabulary

    @attrs.frozen
    class Teleport:  # a construct the analysis has never heard of
        pos: object = None

    edges: list[never.Edge] = []
    never._Moves(Vocabulary(), "", edges, {}, set(), {}).visit((Teleport(),))
    assert edges == [never.Edge(never.ANY, None)]
