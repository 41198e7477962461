"""rules_dsl.envs: every pack as a PettingZoo environment and an OpenSpiel game, checked by
those projects' own test functions, against the Engine, and for bad input.

Needs the `ai` extra (scripts/test.sh installs it); without it these tests skip, except
under CI, where they must run."""

from __future__ import annotations

import importlib.util
import os
import random
import warnings
from pathlib import Path

import pytest

from rules_dsl.engine import Engine
from rules_dsl.errors import IllegalOption, RulesError

_MISSING = [m for m in ("pettingzoo", "gymnasium", "pyspiel", "numpy") if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(
    bool(_MISSING) and not os.environ.get("CI"), reason=f"needs the ai extra ({', '.join(_MISSING)})"
)

ROOT = Path(__file__).resolve().parent.parent
MOD = str(ROOT / "examples" / "mods" / "veteran-survey")
# base 2 and 4 players, Microcosm, Escalation with 5, an example mod
GAMES = [("base", 2), ("base", 4), ("microcosm", 2), ("escalation", 5), (MOD, 2)]
IDS = ["base-2p", "base-4p", "microcosm", "escalation-5p", "mod-veteran-survey"]


@pytest.fixture(scope="module")
def pz():  # type: ignore[no-untyped-def]
    from rules_dsl.envs import pettingzoo

    return pettingzoo


@pytest.fixture(scope="module")
def ospiel():  # type: ignore[no-untyped-def]
    from rules_dsl.envs import openspiel

    return openspiel


# ---------------------------------------------------------------- the action catalogue


def test_catalogue_is_every_option_of_the_rules_in_a_fixed_order() -> None:
    from rules_dsl.envs.catalogue import Catalogue

    rules = Engine.for_pack("microcosm").rules
    cat = Catalogue(rules, 2, rules.default_variants)
    # Microcosm: 34 single-copy cards, then the labels of its OR choices and questions and
    # the pass labels of its optional choices; no tokens, no copies to tell apart; and the
    # places of cards chosen blind (7 zones, 34 places each): the piles' face-down planets,
    # a hand or colonies of the opponent
    assert len(cat) == 47 + 7 * 34
    assert {"cost-0-planets#1", "cost-3-planets#34", "hand.p2#1", "colonies.p1#5"} <= set(cat.ids)
    assert set(cat.ids) >= {c.id for c in rules.cards} | {"done", "pass", "take-a-tech", "draw-from-the-deck"}
    assert cat.actions(["draw-from-the-deck", "take-a-tech"]) == sorted(
        [cat.ids.index("draw-from-the-deck"), cat.ids.index("take-a-tech")]
    )
    with pytest.raises(LookupError, match="'no-such-option' is not in the action catalogue"):
        cat.index("no-such-option")


def test_catalogue_names_copies_apart_and_tokens() -> None:
    from rules_dsl.envs.catalogue import Catalogue

    rules = Engine.for_pack("base").rules
    two, four = Catalogue(rules, 2, ()), Catalogue(rules, 4, ())
    # the forms choices.distinct_ids and token_options give
    assert {"research@hand", "research@action-area", "research@hand.p2", "chrispen:iron"} <= set(two.ids)
    assert "research@hand.p4" in four.ids and "research@hand.p4" not in two.ids
    # a single-copy planet is never told apart from another copy
    assert not any(i.startswith("chrispen@") for i in two.ids)


@pytest.mark.parametrize("pack,players", GAMES, ids=IDS)
def test_every_option_of_random_games_is_in_the_catalogue(pack: str, players: int) -> None:
    from rules_dsl.envs.spec import load_spec

    spec = load_spec(pack, players)
    for seed in range(3):
        st = spec.new_game(seed)
        rnd = random.Random(seed)
        while st.pending is not None:
            spec.catalogue.actions(st.pending.options)  # raises LookupError for an unknown option
            spec.engine.apply_fast(st, rnd.choice(st.pending.options))


# the example games' own constructs: `choose a player` (`player N`), `choose a PROPERTY
# value`, an event a card may replace (`pass`)
EXAMPLES = [
    (str(ROOT / "examples" / "games" / "love-letter"), 3),
    (str(ROOT / "examples" / "games" / "dominion-first-game"), 2),
    (str(ROOT / "examples" / "games" / "polignac"), 4),
    (str(ROOT / "examples" / "games" / "sushi-go"), 3),  # simultaneous decisions, asked one seat at a time
]


@pytest.mark.parametrize(
    "pack,players", EXAMPLES, ids=["love-letter-3p", "dominion-first-game", "polignac", "sushi-go-3p"]
)
def test_every_option_of_the_example_games_is_in_the_catalogue(pack: str, players: int) -> None:
    test_every_option_of_random_games_is_in_the_catalogue(pack, players)


# ---------------------------------------------------------------- observations and rewards


def test_features_show_only_what_the_seat_may_see() -> None:
    from rules_dsl.determinize import determinize
    from rules_dsl.envs.spec import load_spec

    spec = load_spec("base", 3)
    st = spec.new_game(5)
    rnd = random.Random(1)
    for _ in range(60):
        assert st.pending is not None
        spec.engine.apply(st, rnd.choice(st.pending.options))
    redealt = 0
    for seat in range(3):
        mine = spec.features.vector(st, seat)
        for k in range(3):
            # a state the seat cannot tell from this one (hidden cards redealt) looks the same
            other = determinize(spec.engine.rules, st, seat, random.Random(k))
            redealt += [c.type for c in other.cards] != [c.type for c in st.cards]
            assert (spec.features.vector(other, seat) == mine).all()
    assert redealt == 9  # every redeal changed some hidden card
    # and the seats' views differ (a hand is not the same as another's)
    views = [spec.features.vector(st, seat) for seat in (0, 1)]
    assert not (views[0] == views[1]).all()


ALL = [*GAMES, *EXAMPLES, (str(ROOT / "examples" / "games" / "spice-market"), 2)]


@pytest.mark.parametrize(
    "pack,players", ALL, ids=[*IDS, "love-letter-3p", "dominion", "polignac", "sushi-go-3p", "spice-market"]
)
def test_features_filled_from_the_state_are_the_observations(pack: str, players: int) -> None:
    """Every seat's array, filled straight from the state with its zones kept between
    calls, is the one laid out from the seat's observation, at every decision of random
    games; also for states filled out of order (a clone played on, then the original)."""
    from rules_dsl.envs.spec import load_spec

    spec = load_spec(pack, players)
    f, engine = spec.features, spec.engine
    for seed in range(2):
        st = spec.new_game(seed)
        rnd = random.Random(seed)
        while st.pending is not None:
            seats = [st.pending.player, rnd.randrange(players)]
            for seat in seats:
                assert (f.vector(st, seat) == f.from_observation(engine.observe(st, seat))).all()
            if rnd.random() < 0.1:  # a branch played on, then the trunk again
                branch = st.clone()
                for _ in range(3):
                    if branch.pending is None:
                        break
                    engine.apply_fast(branch, rnd.choice(branch.pending.options))
                    assert (f.vector(branch, 0) == f.from_observation(engine.observe(branch, 0))).all()
            engine.apply_fast(st, rnd.choice(st.pending.options))
        for seat in range(players):
            assert (f.vector(st, seat) == f.from_observation(engine.observe(st, seat))).all()


def test_feature_names_and_layout() -> None:
    from rules_dsl.envs.spec import load_spec

    f = load_spec("microcosm", 2).features
    names = f.feature_names()
    assert len(names) == f.size == len(set(names))
    blocks = f.layout()
    assert [b.name for b in blocks[:3]] == ["seat", "to_play", "deciding"]
    hand = next(b for b in blocks if b.name == "zone:hand[rel0]")
    assert names[hand.start : hand.stop] == list(hand.names)
    assert hand.names[:2] == ("zone:hand[rel0].count", "zone:hand[rel0].unknown")
    st = load_spec("microcosm", 2).new_game(3)
    v = f.vector(st, 0)
    assert v[hand.start] == len(st.zones["hand.0"])  # the seat's own hand, by name
    assert v[names.index("zone:hand[rel1].unknown")] == len(st.zones["hand.1"])  # the other's: unknown


def test_returns_from_the_winners() -> None:
    from rules_dsl.envs.spec import returns

    st = Engine.for_pack("base").new_game(4, 1)
    assert returns(st) == [0.0] * 4
    st.over, st.winners = True, [2]
    assert returns(st) == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    st.winners = [0, 2]
    assert returns(st) == pytest.approx([1 / 3, -1 / 3, 1 / 3, -1 / 3])
    assert sum(returns(st)) == pytest.approx(0.0)


# ---------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("pack,players", GAMES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(pz, pack: str, players: int) -> None:  # type: ignore[no-untyped-def]
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        # PettingZoo's advice for dict observations (its own masked classic games get it too)
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(pz.env(pack, players), num_cycles=300)
    seed_test(lambda: pz.env(pack, players), num_cycles=300)


def test_pettingzoo_game_is_the_engines_game(pz) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    e = pz.env("base", 3, seed=9)
    e.reset(seed=123)
    rnd = np.random.default_rng(4)
    chosen: list[str] = []
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        rewards[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(info["options"]) == sorted(e.unwrapped.option_id(a) for a in legal)
        a = int(rnd.choice(legal))
        chosen.append(e.unwrapped.option_id(a))
        e.step(a)
    engine = Engine.for_pack("base")
    st = engine.new_game(3, 123)
    for option in chosen:
        engine.apply(st, option)
    assert st.over and engine.to_json(st) == engine.to_json(e.unwrapped.game)
    winners = {f"player_{w}" for w in st.winners}
    assert all((rewards[a] > 0) == (a in winners) for a in e.possible_agents)


def test_pettingzoo_builds_observations_only_when_asked(pz, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from rules_dsl import observation
    from rules_dsl.envs.features import Features

    built: list[int] = []
    real_fill, real_observe = Features.fill, observation.observe
    monkeypatch.setattr(
        Features, "fill", lambda self, st, seat, out: built.append(seat) or real_fill(self, st, seat, out)
    )
    monkeypatch.setattr(
        observation, "observe", lambda rules, st, seat: built.append(-1) or real_observe(rules, st, seat)
    )
    e = pz.env("base", 3)
    e.reset(seed=2)
    for _ in range(30):  # stepping builds nothing
        e.step(int(e.unwrapped.spec_.catalogue.index(e.infos[e.agent_selection]["options"][0])))
    assert built == []
    obs, *_ = e.last()  # the acting agent's array only
    assert built == [int(e.agent_selection[-1])] and obs["action_mask"].sum() > 0
    assert e.unwrapped.engine_observation("player_1")["player"] == 1


def test_pettingzoo_reset_is_reproducible(pz) -> None:  # type: ignore[no-untyped-def]
    e = pz.env("microcosm", 2, seed=5)
    e.reset()
    first = e.unwrapped.game.seed
    e.reset(seed=77)
    assert e.unwrapped.game.seed == 77
    again = pz.env("microcosm", 2, seed=5)
    again.reset()
    assert again.unwrapped.game.seed == first


def test_pettingzoo_render_text(pz) -> None:  # type: ignore[no-untyped-def]
    e = pz.env("microcosm", 2, seed=1, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text.startswith("turn 1, round 1, draw phase; player 1 to play\n")
    cat = e.unwrapped.spec_.catalogue
    a, b = cat.index("draw-from-the-supply"), cat.index("draw-from-the-deck")
    assert text.endswith(
        "player_0: choose: draw-from-the-supply OR draw-from-the-deck\n"
        f"  actions: {a}=draw-from-the-supply, {b}=draw-from-the-deck"
    )
    with pytest.raises(ValueError, match="render_mode 'rgb' is not one of: ansi, human"):
        pz.env("microcosm", 2, render_mode="rgb")


def test_pettingzoo_bad_input(pz) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    with pytest.raises(RulesError, match=r"no pack 'nope': give an installed pack \(base, .*microcosm"):
        pz.env("nope")
    with pytest.raises(RulesError, match="Microcosm .* is for exactly 2 players, not 3"):
        pz.env("microcosm", 3)
    with pytest.raises(RulesError, match="is for 2 to 4 players, not 7"):
        pz.env("base", 7)
    with pytest.raises(RulesError, match=r"unknown variant 'zzz' \(known: .*learning"):
        pz.env("base", 2, variants=["zzz"])
    e = pz.env("microcosm", 2)
    e.reset(seed=3)
    obs, *_ = e.last()
    legal = set(np.flatnonzero(obs["action_mask"]))
    n = int(e.action_space(e.agent_selection).n)  # 285: Microcosm's catalogue
    with pytest.raises(ValueError, match=f"a whole number from 0 to {n - 1}, not {n}"):
        e.step(n)
    bad = next(a for a in range(n) if a not in legal)
    agent = e.agent_selection
    with pytest.warns(pz.IllegalActionWarning, match=rf"illegal action {bad} .* the legal actions now are .*draw-from"):
        e.step(bad)
    # PettingZoo's convention: the game ends, the agent that moved gets -1, the others 0
    assert all(e.terminations.values())
    assert e._cumulative_rewards[agent] == -1.0
    assert sum(e._cumulative_rewards.values()) == -1.0


# ---------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize("pack,players", GAMES, ids=IDS)
def test_openspiel_random_sim_test(ospiel, pack: str, players: int) -> None:  # type: ignore[no-untyped-def]
    import pyspiel

    pyspiel.random_sim_test(ospiel.load(pack, players, chance="explicit"), num_sims=3, serialize=True, verbose=False)


def test_openspiel_sampled_chance(ospiel) -> None:  # type: ignore[no-untyped-def]
    import pyspiel

    game = ospiel.load("microcosm", 2, rng_seed=4)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    # OpenSpiel itself cannot serialize a sampled-stochastic Python game
    with pytest.raises(pyspiel.SpielError, match="GetRNGState unimplemented"):
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # a state of it still serializes, through the engine's JSON
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(25):
        state.apply_action(state.legal_actions()[-1])
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.engine_json() == state.engine_json()
    assert back.information_state_string(1) == state.information_state_string(1)
    # the game the drawn seed and the decisions make through Engine
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    st = state.engine_state()
    engine = Engine.for_pack("microcosm")
    assert engine.to_json(engine.replay(2, st.seed, st.variants, st.log)) == state.engine_json()
    # two games of one rng_seed draw the same seeds
    seeds = []
    for _ in range(2):
        s = ospiel.load("microcosm", 2, rng_seed=4).new_initial_state()
        s.apply_action(0)
        seeds.append(s.engine_state().seed)
    assert seeds[0] == seeds[1]


def test_openspiel_game_is_the_engines_game(ospiel) -> None:  # type: ignore[no-untyped-def]
    game = ospiel.load("base", 2, chance="explicit")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(321)
    rnd = random.Random(2)
    chosen: list[str] = []
    while not state.is_terminal():
        a = rnd.choice(state.legal_actions())
        chosen.append(state.action_to_string(state.current_player(), a))
        state.apply_action(a)
    engine = Engine.for_pack("base")
    st = engine.new_game(2, 321)
    for option in chosen:
        engine.apply(st, option)
    assert st.over and engine.to_json(st) == state.engine_json()
    winner = st.winners[0]
    assert state.returns()[winner] > 0 > state.returns()[1 - winner]


def test_openspiel_observations(ospiel) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    game = ospiel.load("microcosm", 2, chance="explicit")
    state = game.new_initial_state()
    state.apply_action(7)
    a = state.legal_actions()[0]
    state.apply_action(a)
    p = 0
    assert len(state.observation_tensor(p)) == game.observation_tensor_size()
    info = np.array(state.information_state_tensor(p))
    actions = game.num_distinct_actions()
    assert len(info) == game.information_state_tensor_size() == game.observation_tensor_size() + actions
    assert info[game.observation_tensor_size() + a] == 1  # seat 0 took action a once
    assert state.information_state_string(0).endswith(state.action_to_string(0, a))
    assert '"player": 1' in state.observation_string(1)


def test_openspiel_bad_input(ospiel) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError, match="no pack 'nope'"):
        ospiel.load("nope")
    with pytest.raises(RulesError, match="is for exactly 2 players, not 4"):
        ospiel.load("microcosm", 4)
    with pytest.raises(ValueError, match="chance is 'sampled' or 'explicit', not 'dice'"):
        ospiel.load("microcosm", 2, chance="dice")
    state = ospiel.load("microcosm", 2, chance="explicit").new_initial_state()
    state.apply_action(3)
    before = str(state)
    bad = next(a for a in range(47) if a not in state.legal_actions())
    with pytest.raises(IllegalOption, match="is not a legal option now.*legal options:"):
        state.apply_action(bad)
    assert str(state) == before and state.history() == [3]


def test_the_examples_in_docs_ai_md_run(tmp_path: Path) -> None:
    import re
    import subprocess
    import sys

    text = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) == 6  # PettingZoo, its parallel API, OpenSpiel, ISMCTS, Gymnasium, the feature layout
    for i, code in enumerate(blocks):
        assert len(code.strip().splitlines()) <= 10  # "in ten lines"
        script = tmp_path / f"example{i}.py"
        script.write_text(code, encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip()


def test_the_training_module_trains_saves_and_its_agent_plays(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = tmp_path / "run"
    args = [
        "--pack",
        "microcosm",
        "--minutes",
        "0.05",
        "--eval",
        "4",
        "--opponent",
        "random",
        "--out",
        str(out),
        "--plot",
        str(tmp_path / "c.png"),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "rules_dsl.envs.train", *args], capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "training on microcosm (2 players) against random for 0.05 CPU minutes"
    assert lines[-1].startswith("after training: wins ") and lines[-1].endswith(
        "of 4 games against random, likeliest action"
    )
    assert (out / "curve.csv").read_text().startswith("games,win_rate\n") and (tmp_path / "c.png").stat().st_size
    # the saved weights load, as an agent of the league
    done = subprocess.run(
        [sys.executable, "-m", "rules_dsl", "league", f"{out / 'agent.py'}:agent", "random", "--pack", "microcosm",
         "--games", "2", "--quiet", "--json"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"forfeited_games": []' in done.stdout


def test_a_saved_policy_for_another_catalogue_is_refused(tmp_path: Path) -> None:
    import numpy as np

    from rules_dsl.envs.policy import LinearPolicy
    from rules_dsl.envs.spec import load_spec

    policy = LinearPolicy(load_spec("microcosm", 2))
    policy.save(tmp_path / "w.npz")
    assert LinearPolicy.load(tmp_path / "w.npz").w.shape == policy.w.shape
    with np.load(tmp_path / "w.npz") as data:
        fields = dict(data)
    fields["catalogue"] = np.array(["done", *fields["catalogue"][1:-1]])
    np.savez(tmp_path / "old.npz", **fields)
    with pytest.raises(RulesError, match="learned for another catalogue of pack 'microcosm'.*train again"):
        LinearPolicy.load(tmp_path / "old.npz")
    with pytest.raises(RulesError, match="cannot read the policy weights"):
        LinearPolicy.load(tmp_path / "none.npz")


# ---------------------------------------------------------------- gymnasium


@pytest.mark.parametrize("pack,players,opponents", [("microcosm", 2, "random"), ("base", 3, ["greedy", "random"])])
def test_gymnasium_check_env(pack: str, players: int, opponents: object) -> None:
    from gymnasium.utils.env_checker import check_env

    from rules_dsl.envs.gymnasium import SeatEnv

    check_env(SeatEnv(pack, players, seat=None, opponents=opponents), skip_render_check=True)  # type: ignore[arg-type]


def test_gymnasium_plays_the_engines_game_against_the_bots() -> None:
    import numpy as np

    from rules_dsl.envs.gymnasium import SeatEnv

    e = SeatEnv("microcosm", 2, seat=1, opponents=lambda obs, options: options[-1])
    obs, info = e.reset(seed=11)
    assert obs.shape == e.observation_space.shape and e.game is not None
    chosen = list(e.game.log)  # the opponent's decisions before the learner's first
    rnd = np.random.default_rng(0)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert (
            sorted(info["options"]) == sorted(e.option_id(a) for a in legal)
            and (e.action_masks() == (info["action_mask"] == 1)).all()
        )
        obs, reward, term, trunc, info = e.step(int(rnd.choice(legal)))
        done = term or trunc
    engine = Engine.for_pack("microcosm")
    st = engine.new_game(2, 11)
    for option in e.game.log:
        assert st.pending is not None
        if st.pending.player == 0:  # the opponent took the last option each time
            assert option == st.pending.options[-1]
        engine.apply(st, option)
    assert st.over and chosen == e.game.log[: len(chosen)] and e.decisions == len(st.log)
    assert reward == (1.0 if 1 in st.winners else -1.0)
    # an illegal action ends the episode with -1, naming the legal ones
    e.reset(seed=3)
    bad = int(np.flatnonzero(~e.action_masks())[0])
    _, reward, term, trunc, info = e.step(bad)
    assert (reward, term, trunc) == (-1.0, True, False) and "the legal actions were" in info["illegal"]
    with pytest.raises(RuntimeError, match="the episode is over"):
        e.step(bad)
    with pytest.raises(ValueError, match="an action is a whole number from 0 to 284, not 285"):
        e.reset(seed=3)
        e.step(285)
    with pytest.raises(ValueError, match="opponents: give one for all the other seats or one per other seat"):
        SeatEnv("base", 4, opponents=["random", "greedy"])
    with pytest.raises(RulesError, match="unknown bot 'gredy'"):
        SeatEnv("microcosm", 2, opponents="gredy")


def test_gymnasium_vector_env() -> None:
    import numpy as np

    from rules_dsl.envs.gymnasium import vector_env

    envs = vector_env(3, "microcosm", 2, opponents="random")
    obs, info = envs.reset(seed=5)
    assert obs.shape == (3, envs.single_observation_space.shape[0]) and info["action_mask"].shape == (3, 285)
    finished = 0
    rnd = np.random.default_rng(1)
    for _ in range(400):
        actions = [int(rnd.choice(np.flatnonzero(m))) if m.any() else 0 for m in info["action_mask"]]
        obs, reward, term, trunc, info = envs.step(np.array(actions))
        finished += int(term.sum())
    assert finished >= 3  # games ended and started again (next-step autoreset)
    envs.close()


def test_a_default_openspiel_game_pickles_and_deep_copies(ospiel) -> None:  # type: ignore[no-untyped-def]
    import copy
    import pickle

    game = ospiel.load()  # base, 2 players, sampled chance: OpenSpiel's own serialization needs GetRNGState
    for back in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert str(back) == str(game) and back.num_distinct_actions() == game.num_distinct_actions()
    state = game.new_initial_state()
    state.apply_action(0)
    assert copy.deepcopy(state).engine_json() == state.engine_json()


def test_openspiel_variants_in_the_game_string(ospiel) -> None:  # type: ignore[no-untyped-def]
    import pyspiel

    game = ospiel.load("escalation", 2, ["scenario=warmonger"], chance="explicit")
    assert "variants=scenario:warmonger" in str(game)
    again = pyspiel.load_game(str(game))  # what OpenSpiel does when it deserializes
    state = again.new_initial_state()
    state.apply_action(1)
    assert state.engine_state().variants == ["scenario=warmonger"]
    assert "learning" in ospiel.load("base", 2, "learning").get_parameters()["variants"]


def test_openspiel_bounds_a_games_length(ospiel) -> None:  # type: ignore[no-untyped-def]
    import pyspiel

    game = ospiel.load("microcosm", 2, chance="explicit", max_decisions=5)
    assert game.max_game_length() == 5
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(5):
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])
    # cut short: terminal with returns 0, though the engine's game goes on
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.engine_state().pending is not None


def test_both_wrappers_share_one_action_space(pz, ospiel) -> None:  # type: ignore[no-untyped-def]
    e = pz.env("base", 4)
    game = ospiel.load("base", 4)
    assert e.action_space("player_0").n == game.num_distinct_actions() == 2072
    assert e.observation_space("player_0")["observation"].shape == (game.observation_tensor_size(),) == (3959,)


@pytest.mark.parametrize("module,missing", [("pettingzoo", "gymnasium"), ("openspiel", "pyspiel")])
def test_without_the_extra_the_import_says_what_to_install(module: str, missing: str) -> None:
    import subprocess
    import sys

    code = f"import sys; sys.modules[{missing!r}] = None; import rules_dsl.envs.{module}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].endswith(f"({missing} is missing): pip install 'rules-dsl[ai]'")
