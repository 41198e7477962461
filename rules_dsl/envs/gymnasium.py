"""Any pack as a single-agent Gymnasium environment: the learner plays one seat, built-in
bots or your own agents play the others (docs/ai.md).

    from rules_dsl.envs.gymnasium import SeatEnv, vector_env
    env = SeatEnv(PACK, 2, opponents="greedy")
    envs = vector_env(8, PACK, 2, opponents="random")   # gymnasium.vector.SyncVectorEnv

The observation is the learner's seat's array (rules_dsl/envs/features.py: a `Box`), the
action one number of the pack's action catalogue (rules_dsl/envs/catalogue.py: a
`Discrete`, the same numbers as the PettingZoo and OpenSpiel wrappers). The legal actions
are `info["action_mask"]` (int8, 1 for legal) and `action_masks()` (what sb3-contrib's
MaskablePPO asks for). Between two of the learner's decisions the other seats play theirs;
`decisions` counts every decision of the game so far.

Opponents: a built-in bot's name (`random`, `greedy`, `ismcts`, ...), a `MODULE:CALLABLE`
agent, or a callable `agent(observation, options) -> option` (rules_dsl/bots/agents.py),
one for all the other seats or a list of one per other seat, in seat order.

The learner's seat is `seat` (default 0), or drawn at each reset when `seat=None`.
`reset(seed=s)` plays the engine's game of seed `s`; later resets without a seed draw the
next seeds from the environment's random generator (`np_random`), as do the bots' seeds.

Rewards come at the end, from the pack's scoring (rules_dsl/envs/spec.py: a sole winner 1,
the others -1/(players-1)). An illegal action (outside the mask) ends the episode with
reward -1 and `info["illegal"]` naming it, as PettingZoo's convention does; an action that
is not a number of the action space raises ValueError. A legal action the rules fail on
part-way (a bound of the pack) truncates the episode (reward 0, `info["error"]`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # the optional extra is not installed
    raise ImportError(
        f"rules_dsl.envs.gymnasium needs gymnasium and numpy ({exc.name} is missing): pip install 'rules-dsl[ai]'"
    ) from exc

from rules_dsl.bots import Bot, Turn, make_bot
from rules_dsl.bots.agents import AgentBot
from rules_dsl.envs.spec import GameSpec, load_spec, returns
from rules_dsl.errors import GameRuntimeError, RulesError
from rules_dsl.play import render_observation
from rules_dsl.state import GameState

Opponent = str | Callable[[dict[str, Any], list[str]], str]
ILLEGAL_REWARD = -1.0
MAX_SEED = 2**63 - 1


class SeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        pack: str = "base",
        players: int = 2,
        variants: Iterable[str] = (),
        *,
        seat: int | None = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        budget: str = "200",
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode {render_mode!r} is not one of: ansi (or None)")
        self.spec_: GameSpec = load_spec(pack, players, list(variants))
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be None (drawn at each reset) or a seat from 0 to {players - 1}, not {seat!r}")
        self.fixed_seat = seat
        others = [opponents] if isinstance(opponents, str) or callable(opponents) else list(opponents)
        if len(others) == 1:
            others = others * (players - 1)
        if len(others) != players - 1:
            raise ValueError(f"opponents: give one for all the other seats or one per other seat ({players - 1})")
        self.opponents: list[Opponent] = others
        self.budget = budget
        for o in others:  # an unknown bot name or an agent that does not load: a clear error now
            self._bot(o, 0)
        self.render_mode = render_mode
        f = self.spec_.features
        self.observation_space = spaces.Box(f.low, f.high, dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.spec_.catalogue))
        self.game: GameState | None = None
        self.seat = 0 if seat is None else seat
        self.decisions = 0
        self._bots: dict[int, Bot] = {}
        self._mask = np.zeros(len(self.spec_.catalogue), np.int8)

    def _bot(self, opponent: Opponent, seed: int) -> Bot:
        if isinstance(opponent, str):
            return make_bot(opponent, self.spec_.engine, seed, self.budget)
        if callable(opponent):
            return AgentBot(getattr(opponent, "__name__", repr(opponent)), opponent)
        raise RulesError(f"an opponent is a bot name, an agent spec MODULE:CALLABLE or a callable, not {opponent!r}")

    def option_id(self, action: int) -> str:
        """The engine's option id that an action number stands for."""
        return self.spec_.catalogue.ids[action]

    def action_masks(self) -> np.ndarray:
        """The legal actions now (1 legal, 0 not), as a bool array."""
        return self._mask.astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None and not 0 <= int(seed) <= MAX_SEED:
            raise ValueError(f"seed must be None or a whole number from 0 to {MAX_SEED}, not {seed!r}")
        rnd = self.np_random
        game_seed = int(seed) if seed is not None else int(rnd.integers(2**31))
        n = self.spec_.players
        self.seat = int(rnd.integers(n)) if self.fixed_seat is None else self.fixed_seat
        others = [p for p in range(n) if p != self.seat]
        self._bots = {p: self._bot(o, int(rnd.integers(2**31))) for p, o in zip(others, self.opponents)}
        self.game = self.spec_.new_game(game_seed)
        self.decisions = 0
        info: dict[str, Any] = {}
        self._others_play(info)
        return self._observation(), self._info(info)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        st = self.game
        if st is None:
            raise RuntimeError("reset() first")
        if st.pending is None or st.pending.player != self.seat:
            raise RuntimeError("the episode is over: reset() first")
        size = len(self.spec_.catalogue)
        whole = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
        if not whole or not 0 <= int(action) < size:
            raise ValueError(f"an action is a whole number from 0 to {size - 1}, not {action!r}")
        option = self.spec_.catalogue.ids[int(action)]
        info: dict[str, Any] = {}
        if option not in st.pending.options:
            legal = ", ".join(f"{self.spec_.catalogue.index(o)} ({o!r})" for o in st.pending.options)
            info["illegal"] = f"illegal action {int(action)} ({option!r}): the legal actions were {legal}"
            self._mask[:] = 0
            st.pending = None  # the episode ends here
            return self._observation(), ILLEGAL_REWARD, True, False, info
        try:
            self.spec_.engine.apply_fast(st, option)
            self.decisions += 1
            self._others_play(info)
        except GameRuntimeError as exc:
            info["error"] = str(exc)
            st.pending = None
            self._mask[:] = 0
            return self._observation(), 0.0, False, True, info
        over = st.pending is None
        reward = returns(st)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info(info)

    def _others_play(self, info: dict[str, Any]) -> None:
        """The other seats' decisions, until the learner's turn or the end."""
        st = self.game
        assert st is not None
        engine = self.spec_.engine
        while st.pending is not None and st.pending.player != self.seat:
            option = self._bots[st.pending.player].choose(Turn(engine, st))
            engine.apply_fast(st, option)
            self.decisions += 1

    def _observation(self) -> np.ndarray:
        assert self.game is not None
        return self.spec_.features.vector(self.game, self.seat)

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        st = self.game
        assert st is not None
        self._mask[:] = 0
        if st.pending is not None:
            self._mask[self.spec_.catalogue.actions(st.pending.options)] = 1
            info["options"] = list(st.pending.options)
        info["action_mask"] = self._mask.copy()
        return info

    def engine_observation(self) -> dict[str, Any]:
        """The engine's observation of the learner's seat (`Engine.observe`), on request."""
        assert self.game is not None, "reset() first"
        return self.spec_.engine.observe(self.game, self.seat)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        st = self.game
        assert st is not None, "reset() first"
        text = render_observation(self.spec_.engine.observe(st, self.seat), self.seat)
        if st.pending is not None:
            cat = self.spec_.catalogue
            text += f"\nyou (player {self.seat + 1}): {st.pending.prompt}\n  actions: " + ", ".join(
                f"{cat.index(o)}={o}" for o in st.pending.options
            )
        return text


def vector_env(
    n: int,
    pack: str = "base",
    players: int = 2,
    variants: Iterable[str] = (),
    *,
    asynchronous: bool = False,
    **kwargs: Any,
) -> gymnasium.vector.VectorEnv:
    """`n` games stepping together through gymnasium's vector API (`SyncVectorEnv`, or
    `AsyncVectorEnv` with `asynchronous=True`: a process per game). Finished games reset
    on their next step (gymnasium's next-step autoreset); `infos["action_mask"]` is the
    masks stacked."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4096:
        raise ValueError(f"n must be a whole number of games from 1 to 4096, not {n!r}")
    variants = list(variants)

    def make() -> SeatEnv:
        return SeatEnv(pack, players, variants, **kwargs)

    makers = [make] * n
    if asynchronous:
        return gymnasium.vector.AsyncVectorEnv(makers)
    return gymnasium.vector.SyncVectorEnv(makers)
