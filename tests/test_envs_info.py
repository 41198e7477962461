"""rules_dsl.envs: a search through the OpenSpiel game sees only what its seat may know
(`resample_from_infostate`, issue 32), states pickle and deep-copy, and both environments
check their inputs' types and ranges (issue 33).

Needs the `ai` extra, as tests/test_envs.py."""

from __future__ import annotations

import copy
import importlib.util
import os
import pickle
from collections import Counter

import pytest

_MISSING = [m for m in ("pettingzoo", "gymnasium", "pyspiel", "numpy") if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(
    bool(_MISSING) and not os.environ.get("CI"), reason=f"needs the ai extra ({', '.join(_MISSING)})"
)

DECK = "domain-deck"  # Microcosm's deck: 15 different cards, face down, none seen at the start


@pytest.fixture(scope="module")
def ospiel():  # type: ignore[no-untyped-def]
    from rules_dsl.envs import openspiel

    return openspiel


@pytest.fixture(scope="module")
def pz():  # type: ignore[no-untyped-def]
    from rules_dsl.envs import pettingzoo

    return pettingzoo


def _sampler(seed: int):  # type: ignore[no-untyped-def]
    import pyspiel

    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def _played(ospiel, pack: str, players: int, seed: int, moves: int):  # type: ignore[no-untyped-def]
    """The explicit-chance game of engine seed `seed` after `moves` random decisions."""
    import numpy as np

    state = ospiel.load(pack, players, chance="explicit").new_initial_state()
    state.apply_action(seed)
    rnd = np.random.RandomState(seed)
    for _ in range(moves):
        state.apply_action(int(rnd.choice(state.legal_actions())))
    return state


# ---------------------------------------------------------------- issue 32: honest search


class _Zero:
    """An ISMCTS evaluator that plays nothing out (keeps the base game's test quick)."""

    def evaluate(self, state):  # type: ignore[no-untyped-def]
        return [0.0] * state.num_players()

    def prior(self, state):  # type: ignore[no-untyped-def]
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("pack,players,sims,rollouts", [("microcosm", 2, 4, True), ("base", 2, 3, False)])
def test_ismcts_plays_to_the_end_against_random(ospiel, pack: str, players: int, sims: int, rollouts: bool) -> None:  # type: ignore[no-untyped-def]
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = ospiel.load(pack, players, rng_seed=3)
    rnd = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(5)) if rollouts else _Zero()
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))  # resamples the state `sims` times
            searched += 1
        else:
            state.apply_action(int(rnd.choice(state.legal_actions())))
    assert searched > 10
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert state.engine_state().over


def test_a_resample_keeps_the_seats_information_and_nothing_else(ospiel) -> None:  # type: ignore[no-untyped-def]
    real = _played(ospiel, "base", 2, 11, 40)
    p = real.current_player()
    st = real.engine_state()
    sample = real.resample_from_infostate(p, _sampler(7))
    # the seat cannot tell the sample from the real state (ISMCTS asserts this)
    assert sample.current_player() == p
    assert sample.information_state_string(p) == real.information_state_string(p)
    assert sample.observation_string(p) == real.observation_string(p)
    assert sample.information_state_tensor(p) == real.information_state_tensor(p)
    assert sample.legal_actions() == real.legal_actions()
    # ... which is all it carries: not the real seed, log, generator, other seats' decisions or history
    s = sample.engine_state()
    assert s.seed != st.seed and s.rng != st.rng
    assert len(s.log) == len(st.log) and set(s.log) == {"?"}
    assert not real.information_state_string(1 - p).endswith("my decisions: ")
    assert sample.information_state_string(1 - p).endswith("my decisions: ")
    assert sample.history() == [] and not str(sample).startswith(f"seed {st.seed},")
    # hidden cards are dealt again
    hidden = st.zones[f"hand.{1 - p}"] + st.zones[f"deck.{1 - p}"]
    assert [s.cards[c].type for c in hidden] != [st.cards[c].type for c in hidden]
    # a seeded sampler gives the same sample; another seed another one
    again = real.resample_from_infostate(p, _sampler(7))
    assert again.engine_json() == sample.engine_json()
    assert real.resample_from_infostate(p, _sampler(8)).engine_json() != sample.engine_json()
    # a search plays on from the sample, and the sample pickles and copies
    sample.apply_action(sample.legal_actions()[0])
    for back in (pickle.loads(pickle.dumps(sample)), copy.deepcopy(sample), sample.clone()):
        assert str(back) == str(sample) and back.engine_json() == sample.engine_json()
        assert back.information_state_string(p) == sample.information_state_string(p)


def _next_draws(ospiel, state, p: int, seeds: range) -> Counter[str]:  # type: ignore[no-untyped-def]
    """The card `p` would draw from the deck in the resample of each sampler seed, the way a
    search on it (MCTSBot clones its root and applies actions) would find out."""
    drawn: Counter[str] = Counter()
    draw = state.get_game().spec_.catalogue.index("draw-from-the-deck")
    rules = state.get_game().spec_.engine.rules
    for seed in seeds:
        sample = state.resample_from_infostate(p, _sampler(seed))
        search = sample.clone()
        search.apply_action(draw)
        st = search.engine_state()
        (card,) = st.zones[f"hand.{p}"]
        drawn[rules.cards[st.cards[card].type].id] += 1
    return drawn


def test_two_states_that_differ_only_in_a_hidden_deck_order_give_a_search_the_same_draws(ospiel) -> None:  # type: ignore[no-untyped-def]
    a = _played(ospiel, "microcosm", 2, 5, 0)
    p = a.current_player()
    b = a.clone()
    b.engine_state().zones[DECK].reverse()  # the same game, the deck in another order
    rules = a.get_game().spec_.engine.rules
    top = {s: rules.cards[s.engine_state().cards[s.engine_state().zones[DECK][-1]].type].id for s in (a, b)}
    assert top[a] != top[b]
    assert a.information_state_string(p) == b.information_state_string(p)
    seeds = range(150)
    from_a, from_b = _next_draws(ospiel, a, p, seeds), _next_draws(ospiel, b, p, seeds)
    # 15 cards: each is the next draw of about 10 samples in 150, whichever the real deck order;
    # a search that read the real deck would draw top[a] 150 times from a and never from b
    for drawn in (from_a, from_b):
        assert len(drawn) >= 10
        assert drawn[top[a]] <= 30 and drawn[top[b]] <= 30
    # and, the sampler being canonical, the same sampler draws give the same deck from each:
    # which real order the seat cannot see makes no difference at all
    for k in range(5):
        decks = []
        for s in (a, b):
            st = s.resample_from_infostate(p, _sampler(k)).engine_state()
            decks.append([st.cards[c].type for c in st.zones[DECK]])
        assert decks[0] == decks[1]
    # OpenSpiel's MCTSBot searches a resample as it is given it, and its move is one of the real state's
    import numpy as np
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(a.get_game(), 2.0, 5, evaluator, random_state=np.random.RandomState(1))
    assert bot.step(a.resample_from_infostate(p, _sampler(3))) in a.legal_actions()


def test_resample_bad_input(ospiel) -> None:  # type: ignore[no-untyped-def]
    real = _played(ospiel, "microcosm", 2, 5, 3)
    p = real.current_player()
    with pytest.raises(ValueError, match=r"player_id must be a whole number from 0 to 1, not 2"):
        real.resample_from_infostate(2, _sampler(1))
    with pytest.raises(TypeError, match=r"player_id must be a whole number from 0 to 1, not True"):
        real.resample_from_infostate(True, _sampler(1))
    with pytest.raises(ValueError, match=rf"player_id {1 - p} is not the seat to decide \(player {p}\)"):
        real.resample_from_infostate(1 - p, _sampler(1))
    with pytest.raises(TypeError, match="probability_sampler must be callable"):
        real.resample_from_infostate(p, 0.5)
    with pytest.raises(ValueError, match="probability_sampler must give numbers from 0 to 1, it gave 2.0"):
        real.resample_from_infostate(p, lambda: 2.0)


def test_a_sampled_chance_state_pickles_and_deep_copies(ospiel) -> None:  # type: ignore[no-untyped-def]
    game = ospiel.load("microcosm", 2, rng_seed=4)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(12):
        state.apply_action(state.legal_actions()[-1])
    for back in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert back.history() == state.history() and str(back) == str(state)
        assert back.engine_json() == state.engine_json()
        back.apply_action(back.legal_actions()[0])  # plays on
        assert back.history() != state.history()


# ---------------------------------------------------------------- issue 33: inputs checked


def test_openspiel_actions_and_chance_outcomes_are_checked(ospiel) -> None:  # type: ignore[no-untyped-def]
    game = ospiel.load("microcosm", 2, chance="explicit", seeds=5)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=r"the chance outcome at the root is from 0 to 4, not 99"):
        state.apply_action(99)
    with pytest.raises(ValueError, match=r"from 0 to 4, not -2"):
        state.apply_action(-2)  # (-1 is OpenSpiel's invalid action: it refuses that one itself)
    assert state.history() == [] and state.is_chance_node()
    state.apply_action(2)
    with pytest.raises(ValueError, match=r"a whole number from 0 to 284 \(the pack.s catalogue\), not -35"):
        state.apply_action(-35)
    with pytest.raises(ValueError, match=r"from 0 to 284 .*not 285"):
        state.apply_action(285)
    with pytest.raises(ValueError, match=r"from 0 to 284 .*not -1"):
        state.action_to_string(0, -1)
    assert state.history() == [2]
    sampled = ospiel.load("microcosm", 2, rng_seed=1).new_initial_state()
    with pytest.raises(ValueError, match=r"the root is 0 \(the game draws its seed itself\), not 1"):
        sampled.apply_action(1)
    # a finished game takes no action
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="the game is over: no action can be applied"):
        state.apply_action(0)


def test_openspiel_game_parameters_are_checked(ospiel) -> None:  # type: ignore[no-untyped-def]
    import pyspiel

    with pytest.raises(ValueError, match=r"seeds must be a whole number from 1 to 100000, not 1000000000"):
        ospiel.load("microcosm", 2, chance="explicit", seeds=10**9)
    with pytest.raises(ValueError, match=r"seeds must be a whole number from 1 to 100000, not 0"):
        ospiel.load("microcosm", 2, chance="explicit", seeds=0)
    with pytest.raises(TypeError, match=r"seeds must be a whole number from 1 to 100000, not 2.5"):
        ospiel.load("microcosm", 2, chance="explicit", seeds=2.5)
    with pytest.raises(ValueError, match=r"max_decisions must be a whole number from 1 to"):
        ospiel.load("microcosm", 2, max_decisions=0)
    with pytest.raises(TypeError, match=r"rng_seed must be a whole number from -1 to .*, not True"):
        ospiel.load("microcosm", 2, rng_seed=True)
    with pytest.raises(ValueError, match=r"rng_seed must be a whole number from -1 to .*, not -2"):
        ospiel.load("microcosm", 2, rng_seed=-2)
    # the game string is checked the same way
    with pytest.raises(ValueError, match=r"seeds must be a whole number from 1 to 100000, not 1000000000"):
        pyspiel.load_game("python_rules_dsl_explicit(pack=microcosm,players=2,seeds=1000000000)")


def test_pettingzoo_seeds_and_actions_are_checked(pz) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    e = pz.env("microcosm", 2)
    allowed = "seed must be None or a whole number from 0 to 18446744073709551615"
    with pytest.raises(TypeError, match=rf"{allowed}, not True"):
        e.reset(seed=True)
    with pytest.raises(ValueError, match=rf"{allowed}, not 1267"):
        e.reset(seed=2**100)
    with pytest.raises(ValueError, match=r"seed must be .*, not -1"):
        e.reset(seed=-1)
    with pytest.raises(TypeError, match=r"seed must be .*, not '3'"):
        pz.env("microcosm", 2, seed="3")
    e.reset(seed=np.uint64(2**64 - 1))  # the largest seed: its game saves and loads
    engine = e.unwrapped.spec_.engine
    assert engine.to_json(engine.from_json(engine.to_json(e.unwrapped.game))) == engine.to_json(e.unwrapped.game)
    e.reset(seed=3)
    legal = np.flatnonzero(e.last()[0]["action_mask"])
    with pytest.raises(ValueError, match=r"a whole number from 0 to 284, not True"):
        e.step(True)
    with pytest.raises(ValueError, match=r"a whole number from 0 to 284, not np.False_|not False"):
        e.step(np.bool_(False))
    e.step(int(legal[0]))  # the checks changed nothing: the game goes on
