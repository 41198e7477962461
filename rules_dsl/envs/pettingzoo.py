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
`engine_observation(agent)`, on request. `infos[agent]["action_mask"]` is the same mask
(read-only): a loop that needs only the legal actions can call `last(observe=False)` and
build no observation at all.

`parallel_env(...)` is the same game under PettingZoo's parallel API (`ParallelRulesEnv`):
the seats that decide at once (`Engine.decisions`) act in one step.

Rewards come only at the end of the game, from the pack's scoring (rules_dsl/envs/spec.py:
a sole winner 1, the others -1/(players-1), tied winners share; in a co-operative pack
every seat gets the table's shared result, 1 won or -1 lost). An action outside the
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
    from pettingzoo import AECEnv, ParallelEnv
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
MASKS_KEPT = 4096  # action masks kept by their options (then the cache starts again)
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

    # The attributes a loop reads at every step, read straight from the environment (the
    # base wrapper's `__getattr__` costs a check and two lookups each time), with the same
    # check before reset as OrderEnforcingWrapper's.
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        agent: str = self.env.agent_selection
        return agent

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


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


class _Spaces:
    """What both environments (AEC and parallel) answer the same way from their spaces and
    their game's catalogue."""

    observation_spaces: dict[str, spaces.Space]
    action_spaces: dict[str, spaces.Space]
    spec_: GameSpec

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def option_id(self, action: int) -> str:
        """The engine's option id that an action number stands for."""
        return self.spec_.catalogue.ids[action]


class raw_env(_Spaces, AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
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
        self._masks: dict[tuple[str, ...], np.ndarray] = {}  # read-only, by the options they allow
        self._seeds = random.Random(_seed(seed))
        self.game: GameState | None = None
        self._acting: str | None = None

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
                self.infos[agent] = {"options": list(d.options), "action_mask": self._mask(d.options)}
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

    def _mask(self, options: list[str]) -> np.ndarray:
        """The action mask of these legal options: one read-only array per set of options
        (a game meets the same few again and again), so a step builds none."""
        key = tuple(options)
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= MASKS_KEPT:
                self._masks.clear()
            mask = np.zeros(len(self.spec_.catalogue), np.int8)
            mask[self.spec_.catalogue.actions(options)] = 1
            mask.flags.writeable = False
            self._masks[key] = mask
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation array (rules_dsl/envs/features.py), built now from the
        state for this agent only, and its action mask."""
        st = self.game
        assert st is not None, "reset() first"
        seat = self._seat[agent]
        spec = self.spec_
        d = st.pending
        if d is not None and d.player == seat and not self.terminations.get(agent, True):
            mask = self._mask(d.options).copy()
        else:
            mask = np.zeros(len(spec.catalogue), np.int8)
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


def parallel_env(
    pack: str = "base",
    players: int = 2,
    variants: Iterable[str] = (),
    seed: int | None = None,
    render_mode: str | None = None,
) -> ParallelRulesEnv:
    """The pack as a PettingZoo ParallelEnv: every seat that must decide now acts in one step."""
    return ParallelRulesEnv(pack, players, variants, seed, render_mode)


class ParallelRulesEnv(_Spaces, ParallelEnv):
    """PettingZoo's parallel API over the engine's pending decisions (`Engine.decisions`):
    where a pack lets several seats decide at once (`for each player ... at once:`) they all
    act in the same step; elsewhere the step has one seat deciding. `step(actions)` takes an
    action for each deciding agent (`infos[agent]["deciding"]`; the actions of the other
    agents are not used, so an action for every agent, as PettingZoo's test gives, is fine)
    and applies them in seat order (`Engine.apply_fast(st, option, player)`).

    Every agent gets its own observation (features of only what its seat may know, and its
    action mask: all 0 when it has nothing to decide) at each step, and its info: `deciding`,
    and for a deciding agent the legal option ids (`options`). Rewards, the illegal-action
    and failed-rules conventions are the AEC environment's (`raw_env`); a missing action of
    a deciding agent, or one that is not a number of the action space, raises ValueError
    before anything is applied."""

    metadata = {"render_modes": ["ansi", "human"], "name": "rules_dsl_parallel_v0"}

    def __init__(
        self,
        pack: str = "base",
        players: int = 2,
        variants: Iterable[str] = (),
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        # the AEC environment holds the spaces, seeds, masks and rendering this one shares
        self._aec = raw_env(pack, players, variants, seed, render_mode)
        self.spec_: GameSpec = self._aec.spec_
        self.render_mode = render_mode
        self.possible_agents = self._aec.possible_agents
        self.observation_spaces = self._aec.observation_spaces
        self.action_spaces = self._aec.action_spaces
        self.agents: list[str] = []
        self.game: GameState | None = None

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """A new game, seeded as `raw_env.reset` is."""
        self._aec.reset(seed=seed)
        self.game = self._aec.game
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def _deciding(self) -> dict[int, Any]:
        assert self.game is not None
        return {d.player: d for d in self.spec_.engine.decisions(self.game)}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        st = self.game
        assert st is not None
        deciding = self._deciding()
        size = len(self.spec_.catalogue)
        obs = {}
        for agent in self.agents:
            seat = self._aec._seat[agent]
            d = deciding.get(seat)
            mask = self._aec._mask(d.options).copy() if d is not None else np.zeros(size, np.int8)
            obs[agent] = {"observation": self.spec_.features.vector(st, seat), "action_mask": mask}
        return obs

    def _infos(self) -> dict[str, dict[str, Any]]:
        deciding = self._deciding()
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.agents:
            d = deciding.get(self._aec._seat[agent])
            infos[agent] = {"deciding": d is not None} | ({"options": list(d.options)} if d is not None else {})
        return infos

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        st = self.game
        if st is None:
            raise RuntimeError("reset() first")
        if not self.agents:
            raise RuntimeError("the game is over: reset() first")
        cat = self.spec_.catalogue
        deciding = self._deciding()
        chosen: list[tuple[str, int, int, str]] = []  # agent, seat, action, option
        for seat in sorted(deciding):
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} must decide now ({deciding[seat].prompt}): give its action")
            action = actions[agent]
            whole = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
            if not whole or not 0 <= int(action) < len(cat):
                raise ValueError(f"an action of {agent} is a whole number from 0 to {len(cat) - 1}, not {action!r}")
            chosen.append((agent, seat, int(action), cat.ids[int(action)]))
        rewards = dict.fromkeys(self.agents, 0.0)
        for agent, seat, action, option in chosen:
            if option not in deciding[seat].options:
                legal = ", ".join(f"{cat.index(o)} ({o!r})" for o in deciding[seat].options)
                warnings.warn(
                    f"illegal action {action} ({option!r}) by {agent}: the legal actions now are {legal}; "
                    f"the game ends, {agent} gets {ILLEGAL_REWARD} and the others 0",
                    IllegalActionWarning,
                    stacklevel=2,
                )
                rewards[agent] = ILLEGAL_REWARD
                return self._end(rewards, terminated=True)
        try:
            for _agent, seat, _action, option in chosen:
                # several seats deciding at once: each answers its own decision
                self.spec_.engine.apply_fast(st, option, seat if len(deciding) > 1 else None)
        except GameRuntimeError as exc:
            warnings.warn(f"the game was cut short: {exc}", GameFailedWarning, stacklevel=2)
            return self._end(rewards, terminated=False)
        if st.pending is None:
            rewards = dict(zip(self.possible_agents, returns(st)))
            return self._end({a: rewards[a] for a in self.agents}, terminated=True)
        flags = dict.fromkeys(self.agents, False)
        return self._observations(), rewards, flags, flags.copy(), self._infos()

    def _end(
        self, rewards: dict[str, float], terminated: bool
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """The last step: every agent's last observation (no action legal), then none is left."""
        st = self.game
        assert st is not None
        size = len(self.spec_.catalogue)
        obs = {
            a: {
                "observation": self.spec_.features.vector(st, self._aec._seat[a]),
                "action_mask": np.zeros(size, np.int8),
            }
            for a in self.agents
        }
        infos: dict[str, dict[str, Any]] = {a: {"deciding": False} for a in self.agents}
        terms = dict.fromkeys(self.agents, terminated)
        truncs = dict.fromkeys(self.agents, not terminated)
        self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        """The AEC environment's rendering: the first seat to decide's view."""
        return self._aec.render()

    def engine_observation(self, agent: str) -> dict[str, Any]:
        """The engine's observation of the agent's seat, on request."""
        return self._aec.engine_observation(agent)

    def close(self) -> None:
        pass
