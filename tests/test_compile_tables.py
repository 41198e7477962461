"""Every syntax node the grammar can make has exactly one compile function in its table."""

import typing

import pytest

from rules_dsl import ast
from rules_dsl.compiler import statements
from rules_dsl.compiler.statements import CONDITIONS, NUMBERS, STATEMENTS, StatementCompiler


@pytest.mark.parametrize(
    ("union", "table"),
    [(ast.Stmt, STATEMENTS), (ast.Expr, NUMBERS), (ast.Cond, CONDITIONS)],
    ids=["statements", "numbers", "conditions"],
)
def test_every_node_of_a_category_has_a_compile_function(union: object, table: dict[type, object]) -> None:
    missing = [t.__name__ for t in typing.get_args(union) if t not in table]
    assert missing == []


def test_every_statement_method_is_in_the_table() -> None:
    methods = {name[2:] for name in vars(StatementCompiler) if name.startswith("s_")}
    assert methods == {t.__name__ for t in STATEMENTS}


def test_a_statement_without_a_table_entry_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statements, "STATEMENTS", {})
    compiler = StatementCompiler.__new__(StatementCompiler)
    with pytest.raises(TypeError, match="internal error: no compile function for statement Nothing"):
        compiler.stmt(ast.Nothing(pos=ast.Pos(1, 1)))
