"""Any pack as a PettingZoo AEC environment (docs/ai.md).

    from rules_dsl.envs.pettingzoo import env
    e = env(pack="base", players=2, seed=1)

Agents are `player_0` .. `player_{n-1}` (the engine's seats). The agent to act is the
seat the engine's pending decision belongs to, so one agent may act several times in a
row. Each agent's action space is one `Discrete` of the pack's action catalogue
(rules_dsl/envs/catalogue.py; `option_id(action)` names an action), its observation a dict
of `observation` (rules_dsl/envs/features.py) and `action_mask` (1 for the legal actions
of the agent to act, all 0 for the others), built when asked (`observe`, `last`) for that
agent only, straight from the state. `infos[agent]` holds, for the agent to act, the legal
option ids (`options`); the engine's observation dict of a seat is
`engine_observation(agent)`, on request.

Rewards come only at the end of the game, from the pack's scoring (rules_dsl/envs/spec.py:
a sole winner 1, the others -1/(players-1), tied winners share). An action outside the
mask follows PettingZoo's convention for illegal moves (its TerminateIllegalWrapper): a
warning naming the legal actions, the game ends, the agent that moved gets -1 and the
others 0. An action that is not a number of the action space raises ValueError. A legal
action the rules fail on part-way (a bound of the pack's rules) truncates the game with a
GameFailedWarning.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterable
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as exc:  # the optional extra is not installed
    raise ImportError(
        f"rules_dsl.envs.pettingzoo needs pettingzoo, gymnasium and numpy ({exc.name} is missing): "
        "pip install 'rules-dsl[ai]'"
    ) from exc

from rules_dsl.envs.spec import GameSpec, load_spec, returns
from rules_dsl.errors import GameRuntimeError
from rules_dsl.play import render_observation
from rules_dsl.state import GameState

ILLEGAL_REWARD = -1.0
MAX_SEED = 2**64 - 1  # a game's seed is saved with the game: at most 20 digits (rules_dsl/numbers.py)


class IllegalActionWarning(UserWarning):
    pass


class GameFailedWarning(UserWarning):
    """The rules failed part-way through a legal option: the game was truncated."""


def env(
    pack: str = "base",
    players: int = 2,
    variants: Iterable[str] = (),
    seed: int | None = None,
    render_mode: str | None = None,
) -> AECEnv:
    """The environment, with PettingZoo's order checks (reset before step, ...)."""
    return _Ordered(raw_env(pack, players, variants, seed, render_mode))


class _Ordered(OrderEnforcingWrapper):
    """PettingZoo's order checks, with `last` going straight to the environment (the
    wrapper's `__getattr__` would otherwise check each of the five attributes it reads)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        last: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return last


def _seed(seed: Any) -> int | None:
    """A seed given to `env` or `reset`: None or a whole number from 0 to MAX_SEED (a bool
    is not one); TypeError or ValueError naming the argument otherwise."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be None or a whole number from 0 to {MAX_SEED}, not {seed!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be None or a whole number from 0 to {MAX_SEED}, not {seed!r}")
    return int(seed)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    metadata = {"render_modes": ["ansi", "human"], "name": "rules_dsl_v0", "is_parallelizable": False}

    def __init__(
        self,
        pack: str = "base",
        players: int = 2,
        variants: Iterable[str] = (),
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r} is not one of: ansi, human (or None)")
        self.spec_: GameSpec = load_spec(pack, players, variants)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        actions = len(self.spec_.catalogue)
        f = self.spec_.features
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(f.low, f.high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._seeds = random.Random(_seed(seed))
        self.game: GameState | None = None
        self._acting: str | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def option_id(self, action: int) -> str:
        """The engine's option id that an action number stands for."""
        return self.spec_.catalogue.ids[action]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with `seed`, the engine's game of that seed (and later resets without
        one continue a stream of seeds drawn from it); without, the next seed of the stream
        started by the constructor's `seed`."""
        seed = _seed(seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**31)
        self.game = self.spec_.new_game(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._acting = None
        self._after_move()

    def _after_move(self) -> None:
        st = self.game
        assert st is not None
        d = st.pending
        if d is not None:
            # only the agent to act gets its options; nothing is built for the others
            agent = self.possible_agents[d.player]
            if self._acting is not None and self._acting != agent and self._acting in self.infos:
                self.infos[self._acting] = {}
            if agent in self.infos:
                self.infos[agent] = {"options": list(d.options)}
            self._acting = agent
            self.agent_selection = agent
            return
        if self._acting is not None and self._acting in self.infos:
            self.infos[self._acting] = {}
        self._acting = None
        # the game is over: everybody's reward, then each agent steps out with None
        for a, r in zip(self.possible_agents, returns(st)):
            if a in self.rewards:
                self.rewards[a] = r
        self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation array (rules_dsl/envs/features.py), built now from the
        state for this agent only, and its action mask."""
        st = self.game
        assert st is not None, "reset() first"
        seat = self._seat[agent]
        spec = self.spec_
        mask = np.zeros(len(spec.catalogue), np.int8)
        d = st.pending
        if d is not None and d.player == seat and not self.terminations.get(agent, True):
            mask[spec.catalogue.actions(d.options)] = 1
        return {"observation": spec.features.vector(st, seat), "action_mask": mask}

    def engine_observation(self, agent: str) -> dict[str, Any]:
        """The engine's observation of the agent's seat (`Engine.observe`: only what the
        seat may see), built on request."""
        assert self.game is not None, "reset() first"
        return self.spec_.engine.observe(self.game, self._seat[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.game
        assert st is not None and st.pending is not None
        size = len(self.spec_.catalogue)
        whole = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
        if not whole or not 0 <= int(action) < size:
            raise ValueError(f"an action of {agent} is a whole number from 0 to {size - 1}, not {action!r}")
        option = self.spec_.catalogue.ids[int(action)]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if option not in st.pending.options:
            self._illegal(agent, int(action), option)
            return
        try:
            # legal (checked above): no undo needed, unless the rules fail part-way
            self.spec_.engine.apply_fast(st, option)
        except GameRuntimeError as exc:
            self._failed(exc)
            return
        self._after_move()
        self._accumulate_rewards()

    def _illegal(self, agent: str, action: int, option: str) -> None:
        d = self.game.pending if self.game is not None else None
        assert d is not None
        cat = self.spec_.catalogue
        legal = ", ".join(f"{cat.index(o)} ({o!r})" for o in d.options)
        warnings.warn(
            f"illegal action {action} ({option!r}) by {agent}: the legal actions now are {legal}; "
            f"the game ends, {agent} gets {ILLEGAL_REWARD} and the others 0",
            IllegalActionWarning,
            stacklevel=3,
        )
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards[agent] = ILLEGAL_REWARD
        self._accumulate_rewards()

    def _failed(self, exc: GameRuntimeError) -> None:
        """The rules failed part-way through a legal option (a bound of the pack's rules):
        the game cannot go on, so it is cut short (truncated, rewards 0) with a warning."""
        warnings.warn(f"the game was cut short: {exc}", GameFailedWarning, stacklevel=3)
        self.truncations = dict.fromkeys(self.agents, True)
        self._acting = None

    def render(self) -> str | None:
        """The seat to act's view of the game and its options with their action numbers
        (the last seat to act's view when the game is over)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        st = self.game
        assert st is not None, "reset() first"
        seat = st.pending.player if st.pending is not None else st.active
        text = render_observation(self.spec_.engine.observe(st, seat), seat, self.spec_.engine.rules.rotation_word)
        if st.pending is not None:
            cat = self.spec_.catalogue
            opts = ", ".join(f"{cat.index(o)}={o}" for o in st.pending.options)
            text += f"\nplayer_{seat}: {st.pending.prompt}\n  actions: {opts}"
        else:
            text += f"\ngame over: scores {st.scores}, winners {[f'player_{w}' for w in st.winners]}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
