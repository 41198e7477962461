"""Information-set Monte Carlo tree search (single observer, with determinization).

Each iteration samples a state consistent with the bot's observation (`Turn.sample`),
walks one shared tree of option ids from the root (UCB among the options legal in that
sample, counting how often each was available), adds one node, plays on with random
options for at most `rollout` decisions and scores the end: a finished game by its
winners, an unfinished one by the pack's evaluation (`tanh` of each seat's lead over the
best other seat, over `scale`). Every node keeps the rewards of the seat that chose it.
The budget is a number of iterations (reproducible for a seed) or seconds per decision.
"""

from __future__ import annotations

import math
import random
import time

from rules_dsl.bots.base import Turn
from rules_dsl.bots.evaluate import evaluator
from rules_dsl.engine import Engine
from rules_dsl.state import GameState


class _Node:
    __slots__ = ("children", "visits", "available", "reward")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed, for the seat whose option led here


class ISMCTSBot:
    def __init__(
        self,
        engine: Engine,
        seed: int,
        iterations: int = 200,
        seconds: float = 0.0,
        rollout: int = 20,
        exploration: float = 0.7,
        scale: float = 4.0,
    ) -> None:
        self.engine = engine
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.exploration = exploration
        self.scale = scale
        self.leads = evaluator(engine.rules, "ismcts")

    def choose(self, turn: Turn) -> str:
        if len(turn.options) == 1:
            return turn.options[0]
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else 0.0
        done = 0
        while (done < self.iterations) if deadline == 0.0 else (done == 0 or time.perf_counter() < deadline):
            self._iterate(root, turn.sample(self.rng))
            done += 1
        # the most visited option (ties: the first in option order, which is stable)
        return max(turn.options, key=lambda o: root.children[o].visits if o in root.children else -1)

    def _iterate(self, root: _Node, st: GameState) -> None:
        apply = self.engine.apply_fast  # on a throw-away copy: no undo needed
        rng = self.rng
        path: list[tuple[_Node, int]] = []  # node, seat that chose the option leading to it
        node = root
        while st.pending is not None:
            d = st.pending
            options = d.options
            untried = [o for o in options if o not in node.children]
            if untried:
                option = untried[rng.randrange(len(untried))]
                child = node.children[option] = _Node()
                for o in options:
                    if o in node.children:
                        node.children[o].available += 1
                apply(st, option)
                path.append((child, d.player))
                break
            children = [node.children[o] for o in options]
            c_explore = self.exploration
            best, best_score = options[0], -math.inf
            for o, c in zip(options, children):
                c.available += 1
                score = c.reward / c.visits + c_explore * math.sqrt(math.log(c.available) / c.visits)
                if score > best_score:
                    best, best_score = o, score
            node = node.children[best]
            apply(st, best)
            path.append((node, d.player))
        for _ in range(self.rollout):
            pending = st.pending
            if pending is None:
                break
            apply(st, pending.options[rng.randrange(len(pending.options))])
        rewards = self._rewards(st)
        root.visits += 1
        for n, seat in path:
            n.visits += 1
            n.reward += rewards[seat]

    def _rewards(self, st: GameState) -> list[float]:
        if st.over:
            return [1.0 / len(st.winners) if p in st.winners else 0.0 for p in range(st.players)]
        return [0.5 + 0.5 * math.tanh(lead / self.scale) for lead in self.leads(st)]
