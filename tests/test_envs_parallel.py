"""The environments where several seats decide at once (PettingZoo's parallel API), for
co-operative packs (shared rewards), and the cheap paths of the AEC and OpenSpiel
wrappers (the mask in `infos`, decisions kept without clones)."""

from __future__ import annotations

import hashlib
import json
import random
import warnings
from pathlib import Path

import pytest

from rules_dsl.engine import Engine
from rules_dsl.observation import observe

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from rules_dsl.envs import pettingzoo as pz  # noqa: E402
from rules_dsl.envs.spec import load_spec, returns  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SUSHI = str(ROOT / "examples" / "games" / "sushi-go")
HANABI = str(ROOT / "examples" / "games" / "hanabi")


def _quiet() -> warnings.catch_warnings:  # type: ignore[type-arg]
    w = warnings.catch_warnings()
    w.__enter__()
    # PettingZoo's advice for dict observations (its own masked classic games get it too)
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
    warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
    return w


@pytest.mark.parametrize("pack,players", [(SUSHI, 3), (SUSHI, 2), ("microcosm", 2)], ids=["sushi-3p", "sushi-2p", "mc"])
def test_parallel_api_test(pack: str, players: int) -> None:
    from pettingzoo.test import parallel_api_test

    parallel_api_test(pz.parallel_env(pack, players, seed=1), num_cycles=2000)


def test_the_aec_env_of_a_simultaneous_pack_passes_api_test() -> None:
    from pettingzoo.test import api_test

    w = _quiet()
    try:
        api_test(pz.env(SUSHI, 3, seed=1), num_cycles=1000)
    finally:
        w.__exit__(None, None, None)


def test_parallel_steps_are_the_engines_simultaneous_decisions_each_seat_seeing_its_own() -> None:
    """Several seats act in one step; each agent's observation is what its seat may know
    (the features of its own `Engine.observe`), its mask its own legal options; the game is
    the engine's game of the same seed and choices."""
    e = pz.parallel_env(SUSHI, 3)
    spec = e.spec_
    engine = spec.engine
    obs, infos = e.reset(seed=5)
    rnd = random.Random(3)
    chosen: list[tuple[int, str]] = []
    together = 0
    while e.agents:
        st = e.game
        assert st is not None
        deciding = {d.player: d for d in engine.decisions(st)}
        assert {a for a in e.agents if infos[a]["deciding"]} == {f"player_{p}" for p in deciding}
        for agent in e.agents:
            seat = int(agent[-1])
            mine = spec.features.from_observation(engine.observe(st, seat))
            assert np.array_equal(obs[agent]["observation"], mine)
            legal = {spec.catalogue.ids[a] for a in np.flatnonzero(obs[agent]["action_mask"])}
            assert legal == set(deciding[seat].options if seat in deciding else ())
        together += len(deciding) > 1
        actions = {}
        for p in sorted(deciding):
            option = rnd.choice(deciding[p].options)
            actions[f"player_{p}"] = spec.catalogue.index(option)
            chosen.append((p, option))
        obs, rewards, terms, truncs, infos = e.step(actions)
    assert together > 5  # the picks are made at once
    assert all(terms.values()) and not any(truncs.values())
    st = engine.new_game(3, 5)
    for p, option in chosen:
        engine.apply(st, option, p)
    assert st.over and engine.to_json(st) == engine.to_json(e.game)
    assert rewards == dict(zip(e.possible_agents, returns(st)))


def test_parallel_bad_input() -> None:
    e = pz.parallel_env(SUSHI, 2)
    obs, infos = e.reset(seed=1)
    with pytest.raises(ValueError, match="player_1 must decide now"):
        e.step({"player_0": int(np.flatnonzero(obs["player_0"]["action_mask"])[0])})
    with pytest.raises(ValueError, match="whole number"):
        e.step({"player_0": True, "player_1": 0})
    before = Engine.to_json(e.spec_.engine, e.game)  # nothing was applied
    assert before == e.spec_.engine.to_json(e.spec_.new_game(1))
    illegal = {a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0]) for a in e.agents}
    with pytest.warns(pz.IllegalActionWarning, match="illegal action"):
        _, rewards, terms, _, _ = e.step(illegal)
    assert rewards["player_0"] == pz.ILLEGAL_REWARD and all(terms.values()) and e.agents == []


# ---------------------------------------------------------------- co-operative packs


def test_a_cooperative_pack_shares_its_result() -> None:
    spec = load_spec(HANABI, 3)
    assert spec.cooperative
    st = spec.new_game(1)
    assert returns(st) == [0.0] * 3
    st.over, st.winners = True, [0, 1, 2]
    assert returns(st) == [1.0, 1.0, 1.0]
    st.winners = []
    assert returns(st) == [-1.0, -1.0, -1.0]


@pytest.mark.parametrize("seed", [1, 2])
def test_cooperative_rewards_in_the_pettingzoo_envs(seed: int) -> None:
    e = pz.env(HANABI, 2)
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rnd = random.Random(seed)
    for agent in e.agent_iter():
        _, reward, term, trunc, info = e.last(observe=False)
        total[agent] += reward
        e.step(None if term or trunc else int(rnd.choice(np.flatnonzero(info["action_mask"]))))
    st = e.unwrapped.game
    shared = 1.0 if st.winners else -1.0
    assert st.over and total == dict.fromkeys(e.possible_agents, shared)

    p = pz.parallel_env(HANABI, 3)
    obs, infos = p.reset(seed=seed)
    while p.agents:
        acts = {a: int(rnd.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in p.agents if infos[a]["deciding"]}
        obs, rewards, *_, infos = p.step(acts)
    assert len(set(rewards.values())) == 1 and abs(rewards["player_0"]) == 1.0


def test_cooperative_rewards_in_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from rules_dsl.envs import openspiel

    game = openspiel.load(HANABI, 2, chance="explicit")
    assert game.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    assert openspiel.load("microcosm", 2).get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(3)
    rnd = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rnd.choice(state.legal_actions()))
    r = state.returns()
    assert r[0] == r[1] and abs(r[0]) == 1.0


# ---------------------------------------------------------------- cheap paths


def test_the_aec_info_holds_the_action_mask_of_the_agent_to_act() -> None:
    e = pz.env("base", 3)
    e.reset(seed=4)
    rnd = random.Random(2)
    for n, agent in enumerate(e.agent_iter()):
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert not info["action_mask"].flags.writeable  # shared between steps: read-only
        assert all(not i for a, i in e.infos.items() if a != agent)
        e.step(int(rnd.choice(np.flatnonzero(info["action_mask"]))))
        if n > 200:
            break


def test_openspiel_information_state_is_each_seats_view_when_it_decided() -> None:
    """The seat's decisions, each with the digest of its observation then: kept without a
    clone per step, worked out by replaying the game when asked."""
    pytest.importorskip("pyspiel")
    from rules_dsl.envs import openspiel

    game = openspiel.load("base", 2, chance="explicit")
    spec = load_spec("base", 2)
    state = game.new_initial_state()
    state.apply_action(7)
    rnd = random.Random(7)
    mine: list[list[str]] = [[], []]
    st = spec.new_game(7)
    for _ in range(60):
        seat = state.current_player()
        action = rnd.choice(state.legal_actions())
        option = spec.catalogue.ids[action]
        seen = json.dumps(observe(spec.engine.rules, st, seat), sort_keys=True)
        mine[seat].append(f"{hashlib.sha1(seen.encode()).hexdigest()[:12]}:{option}")
        state.apply_action(action)
        spec.engine.apply_fast(st, option)
    for seat in (0, 1):
        text = state.information_state_string(seat)
        assert text.endswith("my decisions: " + " ".join(mine[seat]))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])  # a clone's own decisions do not reach the original
    assert state.information_state_string(0).endswith(" ".join(mine[0]))
