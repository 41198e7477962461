"""The one error a compile step raises: a message at a place in a text, with what was
expected there and a suggestion (the pack loader turns it into file:line:col)."""

from __future__ import annotations

from rules_dsl import ast


class CompileError(Exception):
    def __init__(self, message: str, pos: ast.Pos, expected: list[str] | None = None, suggestion: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.expected = expected or []
        self.suggestion = suggestion
