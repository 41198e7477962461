"""What a bot is given at each of its decisions: its seat's view, never the state."""

from __future__ import annotations

import random
from typing import Any, Protocol

from rules_dsl.determinize import Pool, determinize, unknown_pools
from rules_dsl.engine import Engine
from rules_dsl.interpreter import pending_decisions
from rules_dsl.state import GameState


class Turn:
    """One decision of one seat: the legal options, the seat's observation (built when
    asked for), and states sampled consistently with that observation.

    The real state stays private: `sample` returns a fresh determinized copy each time.
    """

    __slots__ = ("engine", "player", "players", "options", "prompt", "decided", "_state", "_observation", "_unseen")

    def __init__(self, engine: Engine, st: GameState, player: int | None = None) -> None:
        """`player`: whose decision, when several seats decide at once (default: the first
        pending one, `GameState.pending`)."""
        d = st.pending
        if player is not None:
            d = next((x for x in pending_decisions(st) if x.player == player), None)
        assert d is not None
        self.engine = engine
        self.player = d.player
        self.players = st.players  # how many seats the game has (public)
        self.options = list(d.options)
        self.prompt = d.prompt
        self.decided = len(st.log)  # decisions made so far in the game (public: the log's length)
        self._state = st
        self._observation: dict[str, Any] | None = None
        self._unseen: list[Pool] | None = None  # what `sample` deals again: the same every time

    @property
    def observation(self) -> dict[str, Any]:
        if self._observation is None:
            self._observation = self.engine.observe(self._state, self.player)
        return self._observation

    def sample(self, rnd: random.Random) -> GameState:
        """A state this seat could be in, given what it sees (`determinize.determinize`).

        A search samples once per iteration: which cards are unseen is worked out at the
        first sample only (the state does not change while its seat decides)."""
        rules = self.engine.rules
        if self._unseen is None:
            self._unseen = unknown_pools(rules, self._state, self.player)
        return determinize(rules, self._state, self.player, rnd, self._unseen)


class Bot(Protocol):
    def choose(self, turn: Turn) -> str: ...
