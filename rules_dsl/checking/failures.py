"""What a check finds: a broken invariant, or an invariant that cannot be worked out."""

from __future__ import annotations

from typing import Any


class Broken(Exception):
    """The game breaks an invariant. `expected` is what a scenario should expect, if known."""

    of_invariant = False  # True: a problem of the invariant, not of the game

    def __init__(self, invariant: str, detail: str, expected: Any = None) -> None:
        super().__init__(f"{invariant}: {detail}")
        self.invariant = invariant
        self.detail = detail
        self.expected = expected


class InvariantUnusable(Broken):
    """A pack invariant cannot be worked out in some position: the invariant is wrong."""

    of_invariant = True
