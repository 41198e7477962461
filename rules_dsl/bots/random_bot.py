"""A bot that picks uniformly among the legal options, with its own random stream."""

from __future__ import annotations

import random

from rules_dsl.state import Decision


class RandomBot:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, decision: Decision) -> str:
        return decision.options[self._rng.randrange(len(decision.options))]
