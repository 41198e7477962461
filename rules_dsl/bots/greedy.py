"""One-ply lookahead: the option whose result the pack's evaluation likes best.

Each decision samples one state consistent with the bot's observation, applies every
option to a copy of it and keeps the best (ties broken by the bot's own random stream).
A ply is the bot's whole move: when applying an option leaves the bot to decide again
(a card's text asks a follow-up question), the follow-ups are answered the same way,
each looking one option ahead, up to `follow_ups` decisions, and the position after them
is the one evaluated. Without that the bot could not tell roles or cards apart, since
most of what they do happens after the questions they ask.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules_dsl.bots.base import Turn
from rules_dsl.bots.evaluate import evaluator
from rules_dsl.engine import Engine
from rules_dsl.state import GameState


class GreedyBot:
    def __init__(self, engine: Engine, seed: int, follow_ups: int = 6, weights: Sequence[float] | None = None) -> None:
        self.engine = engine
        self.follow_ups = follow_ups
        self.rng = random.Random(seed)
        self.leads = evaluator(engine.rules, "greedy", weights)  # weights: the pack's unless given

    def choose(self, turn: Turn) -> str:
        if len(turn.options) == 1:
            return turn.options[0]
        world = turn.sample(self.rng)
        me = turn.player
        best: list[str] = []
        best_value = 0.0
        for option in turn.options:
            st = world.clone()
            self.engine.apply_fast(st, option)
            for _ in range(self.follow_ups):
                d = st.pending
                if d is None or d.player != me:
                    break
                self.engine.apply_fast(st, self._best(st, d.options, me)[0])
            v = self.leads(st)[me]
            if not best or v > best_value:
                best, best_value = [option], v
            elif v == best_value:
                best.append(option)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    def _best(self, world: GameState, options: list[str], me: int) -> tuple[str, float]:
        """The option one step ahead likes best (the first of equals: follow-ups stay cheap)."""
        best, best_value = options[0], 0.0
        for i, option in enumerate(options):
            st = world.clone()
            self.engine.apply_fast(st, option)
            v = self.leads(st)[me]
            if i == 0 or v > best_value:
                best, best_value = option, v
        return best, best_value
