"""Arithmetic in expressions: `A times B`, `A divided by B` (rounded down, or up), binding
tighter than plus and minus; the `times` of `repeat N times:` stays a loop's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from rules_dsl import ast
from rules_dsl.engine import Engine
from rules_dsl.errors import DslSyntaxError, RulesError
from rules_dsl.parser import parse
from rules_dsl.printer import show

SPICE = str(ROOT / "examples" / "games" / "spice-market")


def strip(node: object) -> object:
    """A syntax tree without positions and source text."""
    if isinstance(node, tuple):
        return tuple(strip(n) for n in node)
    if hasattr(node, "__attrs_attrs__"):
        fields = [a.name for a in node.__attrs_attrs__ if a.name not in ("pos", "text")]  # type: ignore[attr-defined]
        return (type(node).__name__, *(strip(getattr(node, f)) for f in fields))
    return node


@pytest.mark.parametrize(
    ("text", "grouped"),
    [
        ("3 times X plus 2", "(3 times X) plus 2"),
        ("2 plus 3 times X", "2 plus (3 times X)"),
        ("X minus Y divided by 2", "X minus (Y divided by 2)"),
        ("X times Y divided by 2 rounded up", "(X times Y) divided by 2 rounded up"),
        ("X divided by 2 rounded down", "X divided by 2"),
    ],
)
def test_products_bind_tighter_than_sums(text: str, grouped: str) -> None:
    assert strip(parse(text, "expression")) == strip(parse(grouped, "expression"))


def test_the_times_of_a_loop_is_the_one_before_the_colon() -> None:
    block = parse("repeat 2 times X times: draw 1 card; up to N minus 1 times: draw 1 card", "start")
    assert isinstance(block, ast.Block)
    first, second = block.stmts
    assert isinstance(first, ast.Repeat) and isinstance(first.count, ast.Multiply)
    assert isinstance(second, ast.Repeat) and isinstance(second.count, ast.Arith)


@pytest.mark.parametrize(
    "text",
    [
        "3 times your coins plus 2",
        "your coins plus (3 times your coins)",
        "X divided by 2 rounded up",
        "(X plus 1) times 2 divided by 3",
        "the smaller of (X times 2) and 3",
        "X times (Y divided by 2)",
    ],
)
def test_products_print_back_to_the_same_tree(text: str) -> None:
    tree = parse(text, "expression")
    printed = show(tree)
    assert strip(parse(printed, "expression")) == strip(tree)


def test_a_product_where_a_term_is_expected_is_a_syntax_error() -> None:
    with pytest.raises(DslSyntaxError):
        parse("the smaller of X times 2 and 3", "expression")


def _game(tmp_path: Path, expression: str) -> tuple[Engine, int]:
    """A copy of the spice-market example whose set-up gives player 1 `expression` coins."""
    folder = tmp_path / "spice"
    shutil.copytree(SPICE, folder)
    rules = next(p for p in folder.glob("*.yaml") if "setup:" in p.read_text(encoding="utf-8"))
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("setup: |\n", f"setup: |\n  gain ({expression}) coins;\n", 1), encoding="utf-8")
    engine = Engine.load([str(folder)])
    return engine, 0


@pytest.mark.parametrize(
    ("expression", "coins"),
    [
        ("3 times 4 plus 1", 13),
        ("7 divided by 2", 3),
        ("7 divided by 2 rounded up", 4),
        ("8 divided by 2 rounded up", 4),
        ("10 plus (0 minus 7) divided by 2", 6),  # rounded down: towards minus infinity
        ("10 plus ((0 minus 7) divided by 2 rounded up)", 7),
        ("2 times 3 times 2 divided by 4", 3),
    ],
)
def test_values(tmp_path: Path, expression: str, coins: int) -> None:
    engine, _ = _game(tmp_path, expression)
    base, _ = _game(tmp_path / "b", "0")
    st, st0 = engine.new_game(2, 1), base.new_game(2, 1)
    counter = "coin"
    assert st.counters[counter][0] - st0.counters[counter][0] == coins


def test_dividing_by_zero_is_an_error_naming_the_text(tmp_path: Path) -> None:
    engine, _ = _game(tmp_path, "3 divided by (1 minus 1)")
    with pytest.raises(RulesError, match=r"3 divided by \(1 minus 1\): divided by 0"):
        engine.new_game(2, 1)


def test_a_product_too_big_is_an_error_not_all_the_memory(tmp_path: Path) -> None:
    # squaring in a loop doubles the digits each time: unbounded, 40 rounds need 2**40 digits
    engine, _ = _game(tmp_path, "2) coins; repeat 40 times: gain (your coins times your coins")
    with pytest.raises(RulesError, match=r"your coins times your coins: gives a number of \d+ digits"):
        engine.new_game(2, 1)


def test_a_counter_gained_past_the_bound_is_an_error(tmp_path: Path) -> None:
    # doubling by gains alone: each gain is bounded too
    engine, _ = _game(tmp_path, "1) coins; repeat 100 times: gain (your coins")
    with pytest.raises(RulesError, match=r"gives a number of 19 digits; the rules compute numbers of at most 18"):
        engine.new_game(2, 1)
