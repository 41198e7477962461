"""A bot that picks uniformly among the legal options, with its own random stream."""

from __future__ import annotations

import random
from typing import Protocol


class _HasOptions(Protocol):
    options: list[str]


class RandomBot:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, turn: _HasOptions) -> str:
        """Any object with the legal `options` (a `bots.base.Turn`, or a `Decision`)."""
        # choice(s) draws as s[randrange(len(s))] does (one _randbelow), in one call fewer
        return self._rng.choice(turn.options)
