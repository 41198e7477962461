"""Errors a user can cause, each with everything needed to fix it. Never a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import attrs


def suggest(word: str, known: Iterable[str]) -> str:
    """`did you mean 'house'?` or an empty string."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else ""


class RulesError(Exception):
    """Base of every error that is the user's to fix, not the engine's."""


class DslSyntaxError(RulesError):
    def __init__(self, message: str, line: int, column: int, expected: list[str] | None = None, width: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.expected = expected or []
        self.width = width


@attrs.define
class PackProblem:
    """One problem in a pack file: where, which card, what, what was expected, a hint."""

    file: str
    line: int
    column: int
    message: str
    card: str = ""
    source_line: str = ""
    width: int = 1
    expected: list[str] = attrs.Factory(list)
    suggestion: str = ""

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: "
        who = f"card {self.card!r}: " if self.card else ""
        out = [f"{where}{who}{self.message}"]
        if self.source_line:
            out.append("    " + self.source_line.rstrip())
            out.append("    " + " " * (self.column - 1) + "^" * max(1, self.width))
        hint = []
        if self.expected:
            shown = ", ".join(self.expected[:12]) + (", ..." if len(self.expected) > 12 else "")
            hint.append(f"expected one of: {shown}")
        if self.suggestion:
            hint.append(f"({self.suggestion})" if hint else self.suggestion)
        if hint:
            out.append("  " + "   ".join(hint))
        return "\n".join(out)


class PackError(RulesError):
    """All problems found while loading one or more packs."""

    def __init__(self, problems: list[PackProblem]) -> None:
        self.problems = problems
        super().__init__(self.render())

    def render(self) -> str:
        n = len(self.problems)
        lines = [p.render() for p in self.problems]
        lines.append(f"{n} problem{'s' if n != 1 else ''} found")
        return "\n".join(lines)


class IllegalOption(RulesError):
    """An option that is not legal now. The state is unchanged."""


class RulesLoopError(RulesError):
    """A card's effects did not reach a decision within the step limit."""


class StateFormatError(RulesError):
    """A saved state or scenario file that does not describe a valid game."""
