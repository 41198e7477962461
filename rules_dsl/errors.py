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
    def __init__(
        self,
        message: str,
        line: int,
        column: int,
        expected: list[str] | None = None,
        width: int = 1,
        suggestion: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.expected = expected or []
        self.width = width
        self.suggestion = suggestion


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
    severity: str = "error"  # or "warning": something that can never happen, but the packs load

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: " + ("warning: " if self.severity == "warning" else "")
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


@attrs.frozen
class GameRecord:
    """What reproduces a game exactly: packs, players, seed, variants and the decisions
    applied (the last one is the one that failed, when a decision failed)."""

    packs: tuple[str, ...]
    players: int
    seed: int
    variants: tuple[str, ...]
    decisions: tuple[str, ...]

    def describe(self) -> str:
        shown = ", ".join(repr(d) for d in self.decisions[-3:])
        recent = f" (the last: {shown})" if self.decisions else ""
        return (
            f"in a game of {'+'.join(self.packs)} for {self.players} players, seed {self.seed}, "
            f"variants [{', '.join(self.variants)}], after {len(self.decisions)} decisions{recent}; "
            "replaying these reproduces it"
        )

    def as_data(self) -> dict[str, object]:
        """Plain data (for a replay file): the decisions in order."""
        return {
            "packs": list(self.packs),
            "players": self.players,
            "seed": self.seed,
            "variants": list(self.variants),
            "decisions": list(self.decisions),
        }


class GameRuntimeError(RulesError):
    """The rules failed while a game ran (a limit, a name bound nowhere at run time).

    `message` says what and, when known, `card` which card's text was running; `game`
    (set by the interpreter) holds what reproduces it: `Engine.replay` with its players,
    seed, variants and decisions raises the same error. `str()` says all of it.
    """

    def __init__(self, message: str, card: str = "", game: GameRecord | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.card = card
        self.game = game

    def __str__(self) -> str:
        return self.message if self.game is None else f"{self.message}\n  {self.game.describe()}"


class RulesLoopError(GameRuntimeError):
    """The rules ran past a limit: steps without a decision, decisions in one turn, or
    frames on the stack (a procedure or section that keeps calling itself)."""


class StateFormatError(RulesError):
    """A saved state or scenario file that does not describe a valid game."""
