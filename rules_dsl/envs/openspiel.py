"""Any pack as an OpenSpiel game, registered as a Python game (docs/ai.md).

    from rules_dsl.envs.openspiel import load
    game = load(pack="base", players=2)

Two registered games share one implementation:

- `python_rules_dsl`: chance mode SAMPLED_STOCHASTIC. The root is a chance node with one
  outcome; applying it draws the engine's seed from the game's random stream (parameter
  `rng_seed`, -1 for a fresh one), and every later shuffle is the engine's own seeded one,
  inside the decisions that cause it.
- `python_rules_dsl_explicit`: the same with EXPLICIT_STOCHASTIC chance: the root chance
  node has `seeds` equally likely outcomes, outcome i being the engine's seed i. OpenSpiel
  cannot serialize a sampled-stochastic Python game (its Game::Serialize needs
  GetRNGState, which Python games cannot provide), so `random_sim_test(serialize=True)`
  needs this one; a state of either serializes through the engine's JSON, and pickles and
  deep-copies (`RulesState.__reduce__`: the game's string and the state's serialization).

A state is the whole game (decks in order, hands, the engine's random generator), and a
clone is the same state: a search on it has perfect information. `resample_from_infostate`
(what OpenSpiel's ISMCTSBot calls) gives a state one seat cannot tell from it, with
everything that seat cannot know dealt again or dropped: search from that to be honest.

Parameters (game strings cannot hold `,` or `=` in a value, so several packs or variants
are joined with `+` and a variant's `OPTION=NAME` is written `OPTION:NAME`): `pack`,
`players`, `variants`, `max_decisions` (a game still running after that many decisions
ends with returns 0: OpenSpiel needs a bound on a game's length), and `rng_seed` or
`seeds`.

Actions are the pack's action catalogue (rules_dsl/envs/catalogue.py), the same numbers as
the PettingZoo environment's. Returns come at the end from the pack's scoring
(rules_dsl/envs/spec.py). The observation is the seat's view (rules_dsl/observation.py) as
JSON (string) and rules_dsl/envs/features.py (tensor). The information state adds the
seat's own decisions, each with a digest of what it saw when it took it (string: perfect
recall); its tensor is the observation tensor plus how often the seat took each action
(a fixed-length summary, not a perfect-recall encoding).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable
from typing import Any, cast

import attrs

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # the optional extra is not installed
    raise ImportError(
        f"rules_dsl.envs.openspiel needs open_spiel and numpy ({exc.name} is missing): pip install 'rules-dsl[ai]'"
    ) from exc

from rules_dsl.determinize import determinize
from rules_dsl.envs.spec import GameSpec, load_spec, returns
from rules_dsl.errors import GameRuntimeError
from rules_dsl.observation import observe
from rules_dsl.serialize import to_json
from rules_dsl.state import GameState

SAMPLED = "python_rules_dsl"
EXPLICIT = "python_rules_dsl_explicit"
MAX_PLAYERS = 16
MAX_SEEDS = 100_000  # chance outcomes of the explicit game's root: OpenSpiel lists them all
MAX_DECISIONS = 10**9
SAMPLER_DRAWS = 4  # draws of an OpenSpiel probability sampler that seed one resample (4 x 32 bits)
HIDDEN = "?"  # a decision of the real game that a resampled state does not show


def load(
    pack: str = "base",
    players: int = 2,
    variants: Iterable[str] | str = (),
    *,
    chance: str = "sampled",
    rng_seed: int = -1,
    seeds: int = 1000,
    max_decisions: int = 20000,
) -> pyspiel.Game:
    """The game of `pack` (installed pack ids or folders, separated by commas) for
    `players` seats; `chance` is "sampled" or "explicit" (see the module's text)."""
    if chance not in ("sampled", "explicit"):
        raise ValueError(f"chance is 'sampled' or 'explicit', not {chance!r}")
    max_decisions = _whole("max_decisions", max_decisions, 1, MAX_DECISIONS)
    rng_seed = _whole("rng_seed", rng_seed, -1, 2**63 - 1)
    seeds = _whole("seeds", seeds, 1, MAX_SEEDS)
    if isinstance(variants, str):
        variants = [variants] if variants else []
    variants = list(variants)
    load_spec(pack, players, variants)  # a clear error for a wrong pack, player count or variant
    params: dict[str, Any] = {
        "pack": pack.replace(",", "+"),
        "players": players,
        "variants": "+".join(v.replace("=", ":") for v in variants),
        "max_decisions": max_decisions,
    }
    if chance == "sampled":
        params["rng_seed"] = rng_seed
        return pyspiel.load_game(SAMPLED, params)
    params["seeds"] = seeds
    return pyspiel.load_game(EXPLICIT, params)


def _whole(name: str, value: Any, low: int, high: int) -> int:
    """`value` as an int from `low` to `high`: TypeError for a value that is not a whole
    number (a bool is not one), ValueError for one out of range, each naming `name`."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return int(value)


def _game_type(short_name: str, chance: Any, extra: dict[str, Any], utility: Any = None) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"rules_dsl pack ({short_name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility or pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"pack": "base", "players": 2, "variants": "", "max_decisions": 20000} | extra,
    )


_SAMPLED_TYPE = _game_type(SAMPLED, pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC, {"rng_seed": -1})
_EXPLICIT_TYPE = _game_type(EXPLICIT, pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, {"seeds": 1000})
# a co-operative pack's game: every seat gets the same return (the table's shared result)
_COOPERATIVE = {
    SAMPLED: _game_type(
        SAMPLED, pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC, {"rng_seed": -1}, pyspiel.GameType.Utility.IDENTICAL
    ),
    EXPLICIT: _game_type(
        EXPLICIT, pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, {"seeds": 1000}, pyspiel.GameType.Utility.IDENTICAL
    ),
}


class RulesGame(pyspiel.Game):
    game_type = _SAMPLED_TYPE

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = self.game_type.parameter_specification | (params or {})
        variants = [v.replace(":", "=") for v in str(p["variants"]).split("+") if v]
        self.spec_: GameSpec = load_spec(str(p["pack"]).replace("+", ","), int(p["players"]), variants)
        n = self.spec_.players
        self.max_decisions = _whole("max_decisions", p["max_decisions"], 1, MAX_DECISIONS)
        self.seeds = _whole("seeds", p.get("seeds", 1), 1, MAX_SEEDS)
        seed = _whole("rng_seed", p.get("rng_seed", -1), -1, 2**63 - 1)
        coop = self.spec_.cooperative  # the seats share one result: IDENTICAL, not ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.spec_.catalogue),
            max_chance_outcomes=self.seeds,
            num_players=n,
            min_utility=-1.0 if coop else -1.0 / (n - 1) if n > 1 else 0.0,
            max_utility=1.0,
            utility_sum=0.0 if n > 1 and not coop else None,
            max_game_length=self.max_decisions,
        )
        super().__init__(_COOPERATIVE[self.game_type.short_name] if coop else self.game_type, info, p)
        self._rng = random.Random(None if seed < 0 else seed)

    def draw_seed(self) -> int:
        return self._rng.randrange(2**31)

    def new_initial_state(self) -> RulesState:
        return RulesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RulesObserver:
        return RulesObserver(self, iig_obs_type, params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as its game string, without OpenSpiel's game
        serialization, which needs GetRNGState for a sampled-stochastic game: the copy's
        stream of seeds starts again from `rng_seed`."""
        return (pyspiel.load_game, (self.to_string(),))


class ExplicitRulesGame(RulesGame):
    game_type = _EXPLICIT_TYPE


class _Held:
    """The engine's state inside an OpenSpiel state, with each seat's decisions: cloned with
    `GameState.clone` (OpenSpiel deep-copies a Python state's attributes), pickled as the
    engine's JSON (OpenSpiel serializes a Python state by pickling them), and loaded back
    (checked, and replayed unless `replay` is False) by `Engine.from_json` when first used
    after that. `views` keeps what each seat sees of the state until the next decision
    changes it. `replay` is False for a resampled state (`resample_from_infostate`): its
    cards and random generator are not the ones its seed gives, so it loads unreplayed.

    A seat's decision in `trail` is kept as the state it was taken in (a clone: cheap,
    its cards are shared) and the option, until the information state is asked for or the
    state pickled: then it becomes "digest:option", the digest of what the seat saw."""

    __slots__ = ("st", "text", "trail", "taken", "views", "replay", "replays")

    def __init__(
        self,
        st: GameState | None,
        text: str,
        trail: list[list[str | tuple[GameState, str] | Replayable]],
        taken: list[list[int]],
        replay: bool = True,
    ) -> None:
        self.st = st
        self.text = text
        self.trail = trail  # per seat: each of its decisions, "digest:option", (state before, option) or Replayable
        self.taken = taken  # per seat: the action of each of its decisions
        self.views: dict[tuple[str, int], Any] = {}
        self.replay = replay
        # (seed, id of a game's log) -> (that log, the game replayed so far, decisions applied):
        # digests asked at every step go on from where the last ones stopped, not from the
        # seed each time (the log is held, so its id names no other list)
        self.replays: dict[tuple[int, int], tuple[list[str], GameState, int]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        st = self.st.clone() if self.st is not None else None
        return _Held(st, self.text, [t.copy() for t in self.trail], [t.copy() for t in self.taken], self.replay)

    def __reduce__(self) -> tuple[Any, ...]:
        text = self.text if self.st is None else to_json(self.st)
        trail = [self.digests(p) for p in range(len(self.trail))]
        return (_Held, (None, text, trail, self.taken, self.replay))

    def digests(self, seat: int) -> list[str]:
        """The seat's decisions, each "digest:option", the digest of what the seat saw
        when it took it (its observation as JSON). A decision kept as `Replayable` is seen
        again by replaying its game from the seed (one replay for all of them)."""
        trail = self.trail[seat]
        replays = self.replays
        for i, entry in enumerate(trail):
            if isinstance(entry, str):
                continue
            if isinstance(entry, Replayable):
                key = (entry.seed, id(entry.log))
                _, st, done = replays.get(key) or (entry.log, entry.spec.new_game(entry.seed), 0)
                if done > entry.at:  # asked of a decision before the replay's place: again
                    st, done = entry.spec.new_game(entry.seed), 0
                for option in entry.log[done : entry.at]:
                    entry.spec.engine.apply_fast(st, option)
                replays[key] = (entry.log, st, entry.at)
                before, option = st, entry.option
            else:
                before, option = entry
            assert before.rules is not None
            seen = json.dumps(observe(before.rules, before, seat), sort_keys=True)
            trail[i] = f"{hashlib.sha1(seen.encode()).hexdigest()[:12]}:{option}"
        return cast(list[str], trail)


@attrs.frozen
class Replayable:
    """A seat's decision, kept as where it was taken in a game its seed and decision log
    replay exactly (`at` decisions of `log` applied from `seed`: the log is the game's own
    list, which only grows), instead of a clone of the state at each step."""

    spec: GameSpec = attrs.field(eq=False, repr=False)
    seed: int
    log: list[str] = attrs.field(eq=False, repr=False)
    at: int
    option: str


def _load_state(game: str, state: str) -> RulesState:
    """A pickled state back (see `RulesState.__reduce__`)."""
    loaded: RulesState = pyspiel.load_game(game).deserialize_state(state)
    return loaded


def _sampler_random(sampler: Any) -> random.Random:
    """A random generator seeded by SAMPLER_DRAWS draws of an OpenSpiel probability sampler
    (`pyspiel.UniformProbabilitySampler`: a callable giving numbers in [0, 1)), so a seeded
    sampler gives the same resample every time."""
    if not callable(sampler):
        raise TypeError(
            f"probability_sampler must be callable, giving numbers from 0 to 1 "
            f"(pyspiel.UniformProbabilitySampler), not {sampler!r}"
        )
    bits = 0
    for _ in range(SAMPLER_DRAWS):
        u = sampler()
        if isinstance(u, bool) or not isinstance(u, (int, float, np.integer, np.floating)) or not 0 <= u <= 1:
            raise ValueError(f"probability_sampler must give numbers from 0 to 1, it gave {u!r}")
        bits = (bits << 32) | min(int(u * 2**32), 2**32 - 1)
    return random.Random(bits)


_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class RulesState(pyspiel.State):
    def __init__(self, game: RulesGame) -> None:
        super().__init__(game)
        self._held: _Held | None = None  # None until the chance node at the root is applied
        self._decisions = 0
        self._max_decisions: int = game.max_decisions  # asked several times a step

    def _spec(self) -> GameSpec:
        game: RulesGame = self.get_game()
        return game.spec_

    def engine_state(self) -> GameState | None:
        """The engine's state (None before the root's chance outcome)."""
        h = self._held
        if h is None:
            return None
        if h.st is None:
            h.st = self._spec().engine.from_json(h.text, replay=h.replay)
            h.text = ""
        return h.st

    def view(self, what: str, player: int) -> Any:
        """What `player` sees now: the engine's observation ("obs"), as JSON ("json"), as
        numbers ("vector"); made once per position."""
        st = self.engine_state()
        h = self._held
        assert st is not None and h is not None
        key = (what, player)
        v = h.views.get(key)
        if v is None:
            spec = self._spec()
            if what == "obs":
                v = spec.engine.observe(st, player)
            elif what == "json":
                v = json.dumps(self.view("obs", player), sort_keys=True)
            else:
                v = spec.features.vector(st, player)
            h.views[key] = v
        return v

    def current_player(self) -> int:
        # OpenSpiel asks this several times a step: the loaded state straight from `_held`
        h = self._held
        st = h.st if h is not None and h.st is not None else self.engine_state()
        if st is None:
            return _CHANCE
        if st.pending is None or self._decisions >= self._max_decisions:
            return _TERMINAL
        return st.pending.player

    def _legal_actions(self, player: int) -> list[int]:
        st = self.engine_state()
        assert st is not None and st.pending is not None and st.pending.player == player
        return self._spec().catalogue.actions(st.pending.options)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        k = self.get_game().seeds
        return [(i, 1.0 / k) for i in range(k)]

    def _apply_action(self, action: int) -> None:
        spec = self._spec()
        st = self.engine_state()
        if st is None:
            game: RulesGame = self.get_game()
            sampled = game.game_type is _SAMPLED_TYPE
            if not 0 <= action < game.seeds:
                allowed = "0 (the game draws its seed itself)" if sampled else f"from 0 to {game.seeds - 1}"
                raise ValueError(f"the chance outcome at the root is {allowed}, not {action}")
            seed = game.draw_seed() if sampled else int(action)
            n = spec.players
            self._held = _Held(spec.new_game(seed), "", [[] for _ in range(n)], [[] for _ in range(n)])
            return
        h = self._held
        assert h is not None
        if self.is_terminal():
            raise ValueError(f"the game is over: no action can be applied (got {action})")
        assert st.pending is not None
        size = len(spec.catalogue)
        if not 0 <= action < size:
            raise ValueError(f"an action is a whole number from 0 to {size - 1} (the pack's catalogue), not {action}")
        seat = st.pending.player
        option = spec.catalogue.ids[action]
        if h.replay:
            # what the seat saw, for its information state, and the undo, both from the
            # seed and decision log (which replay the game exactly): no clone each step
            at = len(st.log)
            entry: tuple[GameState, str] | Replayable = Replayable(spec, st.seed, st.log, at, option)
            try:
                spec.engine.apply_fast(st, option)  # an illegal option raises IllegalOption naming the legal ones
            except GameRuntimeError:
                # a legal option the rules fail on part-way: all or nothing
                st.restore(spec.engine.replay(spec.players, st.seed, list(spec.variants), st.log[:at]))
                raise
        else:
            before = st.clone()  # a resampled state does not replay from its seed
            try:
                spec.engine.apply_fast(st, option)
            except GameRuntimeError:
                st.restore(before)
                raise
            entry = (before, option)
        h.views.clear()
        h.trail[seat].append(entry)
        h.taken[seat].append(action)
        self._decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "seed" if self.get_game().game_type is _SAMPLED_TYPE else f"seed {action}"
        size = len(self._spec().catalogue)
        if not 0 <= action < size:
            raise ValueError(f"an action is a whole number from 0 to {size - 1} (the pack's catalogue), not {action}")
        return self._spec().catalogue.ids[action]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RulesState:
        """A state `player_id` cannot tell from this one, drawn at random: what ISMCTS
        (open_spiel/python/algorithms/ismcts.py) searches from, and what makes any search
        on the returned state (MCTSBot included) honest.

        The engine's state is `rules_dsl.determinize.determinize`d for the seat: every card
        it cannot identify is dealt again and the random generator is reseeded, so the
        draws and shuffles to come are the sample's, not the real game's. The seat's own
        decisions (its information state) are kept; what it does not know is not carried
        over: the other seats' decisions and their digests, the real seed, the engine's
        log of who chose what (each entry is "?"), and the OpenSpiel history (empty: the
        returned state's `history()` holds only the actions applied to it afterwards).

        `probability_sampler` is called SAMPLER_DRAWS times (numbers in [0, 1), as from
        `pyspiel.UniformProbabilitySampler`); a seeded sampler gives the same sample. Only
        the seat to decide (or any seat once the game is over, or before the deal) can be
        resampled for: the pending decision of another seat lists that seat's own options."""
        spec = self._spec()
        n = spec.players
        player = _whole("player_id", player_id, 0, n - 1)
        rnd = _sampler_random(probability_sampler)
        st = self.engine_state()
        h = self._held
        if st is None or h is None:
            root: RulesState = self.clone()  # nothing is dealt before the root's chance outcome
            return root
        if st.pending is not None and st.pending.player != player:
            raise ValueError(
                f"player_id {player} is not the seat to decide (player {st.pending.player}): "
                "only that seat's information state can be resampled now"
            )
        sample = determinize(spec.engine.rules, st, player, rnd)
        sample.seed = rnd.randrange(2**31)
        sample.log = [HIDDEN] * len(st.log)
        trail: list[list[str | tuple[GameState, str] | Replayable]] = [
            h.trail[p].copy() if p == player else [] for p in range(n)
        ]
        taken = [h.taken[p].copy() if p == player else [] for p in range(n)]
        state = RulesState(self.get_game())
        state._held = _Held(sample, "", trail, taken, replay=False)
        state._decisions = self._decisions
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> RulesState:
        clone: RulesState = self.clone()
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the game's string and the state's `serialize()` (history and the engine's
        JSON), without OpenSpiel's game serialization: for a sampled-stochastic Python game
        that needs GetRNGState, which a Python game cannot provide. An unpickled state's game
        is loaded again from its string, so its random stream starts again from `rng_seed`."""
        return (_load_state, (self.get_game().to_string(), self.serialize()))

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        st = self.engine_state()
        if st is None:
            return [0.0] * self._spec().players
        return returns(st)

    def engine_json(self) -> str:
        """The engine's saved game (`Engine.to_json`), for any tool of rules_dsl."""
        st = self.engine_state()
        assert st is not None, "the root chance node has not been applied yet"
        return self._spec().engine.to_json(st)

    def __str__(self) -> str:
        st = self.engine_state()
        if st is None:
            return "chance: the seed"
        return f"seed {st.seed}, {len(st.log)} decisions: " + " | ".join(st.log)


class RulesObserver:
    """OpenSpiel's Python observer: the observation (`perfect_recall` False) or the
    information state (True) of one seat, as a tensor and a string."""

    def __init__(self, game: RulesGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own observation or information state is supported (public and private)")
        self.perfect_recall = bool(kind.perfect_recall)
        self.spec = game.spec_
        features = self.spec.features.size
        actions = len(self.spec.catalogue) if self.perfect_recall else 0
        self.tensor = np.zeros(features + actions, np.float32)
        self.dict = {"observation": self.tensor[:features]}
        if actions:
            self.dict["actions_taken"] = self.tensor[features:]

    def set_from(self, state: RulesState, player: int) -> None:
        self.tensor.fill(0)
        h = state._held
        if h is None:
            return
        self.dict["observation"][:] = state.view("vector", player)
        if self.perfect_recall:
            np.add.at(self.dict["actions_taken"], h.taken[player], 1)

    def string_from(self, state: RulesState, player: int) -> str:
        h = state._held
        if h is None:
            return "before the seed"
        text: str = state.view("json", player)
        if self.perfect_recall:
            text += "\nmy decisions: " + " ".join(h.digests(player))
        return text


pyspiel.register_game(_SAMPLED_TYPE, RulesGame)
pyspiel.register_game(_EXPLICIT_TYPE, ExplicitRulesGame)
