"""Properties of every game of every pack (base in all variant mixes, Microcosm, the example
game Spice Market), over random
seeds, player counts and legal choices.

- every step: every card in exactly one place, no negative counter (`engine.check`);
- every game ends within a bound of decisions, with consistent scores and winners;
- seed + decision log replays to a byte-identical state;
- JSON round trips and clones are equal, independent, and continue identically;
- observations are JSON data and never depend on what the player cannot see.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

from conftest import BASE_VARIANTS, MAX_DECISIONS, MAX_TURNS, base_engine, play_random, seeded_chooser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_dsl.checking.properties import (
    check_final,
    check_observations,
    check_position,
    hidden_from,
    observation_text,
    swap_types,
    swappable,
)
from rules_dsl.checking.runner import CheckOptions, GameChecker, Stats
from rules_dsl.engine import Engine
from rules_dsl.state import GameState
from rules_dsl.testing import drawing_chooser

SETTINGS = settings(deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow])

players_st = st.integers(min_value=2, max_value=4)
seeds_st = st.integers(min_value=0, max_value=2**31 - 1)
variants_st = st.one_of(st.none(), st.lists(st.sampled_from(BASE_VARIANTS), unique=True, max_size=len(BASE_VARIANTS)))
SPICE_MARKET = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "spice-market")
LOVE_LETTER = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "love-letter")
HANABI = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "hanabi")
# (pack, players, variants): the base game in every variant mix, Microcosm, Escalation with
# 2-5 players with and without scenarios, the base game with scenarios, and the example games
games_st = st.one_of(
    st.tuples(st.just("base"), players_st, variants_st),
    st.tuples(st.just("microcosm"), st.just(2), st.none()),
    st.tuples(
        st.just("escalation"),
        st.integers(min_value=2, max_value=5),
        st.sampled_from(
            [
                None,
                ["scenarios"],
                ["scenario=battlecruiser", "no-final-round"],
                ["promo-scenarios", "scenario=war-path"],
            ]
        ),
    ),
    # the base game with scenario cards: dealt at random (the promotional ones too), or chosen
    st.tuples(
        st.just("base-scenarios"),
        players_st,
        st.sampled_from([None, ["scenario=network-admin"], ["box-scenarios-only", "scenario=explorer"]]),
    ),
    st.tuples(st.just(SPICE_MARKET), players_st, st.sampled_from([None, ["wide-market"], ["no-bonus"]])),
    st.tuples(st.just(LOVE_LETTER), players_st, st.none()),
    st.tuples(st.just(HANABI), st.integers(min_value=2, max_value=5), st.none()),
)


@functools.cache
def engine_for(pack: str) -> Engine:
    return base_engine() if pack == "base" else Engine.for_pack(pack)


def check_end(engine: Engine, st_: GameState) -> None:
    check_final(engine, st_)
    assert st_.turn <= MAX_TURNS


# ---- every invariant at every position: what `rules-dsl check` runs --------------------


@SETTINGS
@given(game=games_st, data=st.data())
def test_every_position_keeps_every_invariant(game: Any, data: Any) -> None:
    """The product's checker, under pytest: engine and pack invariants at every position,
    observations, JSON round trips at drawn positions, the end, replay."""
    from rules_dsl.testing import GameSpec

    pack, players, variants = game
    engine = engine_for(pack)
    spec = GameSpec(players, data.draw(seeds_st), None if variants is None else tuple(variants))
    stats = Stats()
    trips = set(data.draw(st.lists(st.integers(0, 300), max_size=3)))
    looks = set(data.draw(st.lists(st.integers(0, 300), max_size=6)))
    GameChecker(engine, CheckOptions(max_decisions=MAX_DECISIONS), stats).run(
        spec, drawing_chooser(data), trips, looks, data.draw(seeds_st)
    )
    assert stats.checks > 0


@settings(deadline=None, max_examples=30)
@given(game=games_st, seed=seeds_st)
def test_random_bot_games_end_consistently(game: Any, seed: int) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    final, log = play_random(engine, players, seed, variants)
    check_end(engine, final)
    assert final.log == log
    assert final.variants == list(variants if variants is not None else engine.rules.default_variants)
    check_position(engine, final)
    assert engine.legal_options(final) == []
    assert engine.decision(final) is None


# ---- replay -------------------------------------------------------------------------


@settings(deadline=None, max_examples=20)
@given(game=games_st, seed=seeds_st, bot=seeds_st)
def test_replaying_the_log_gives_an_identical_state(game: Any, seed: int, bot: int) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    final, log = play_random(engine, players, seed, variants, choose=seeded_chooser(bot))
    again = engine.replay(players, seed, variants, log)
    assert engine.to_json(again) == engine.to_json(final)
    assert again == final


@settings(deadline=None, max_examples=8)
@given(game=games_st, seed=seeds_st, bot=seeds_st, cut=st.floats(0, 1))
def test_replaying_a_prefix_gives_the_state_at_that_point(game: Any, seed: int, bot: int, cut: float) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    snapshots: dict[int, str] = {}
    _, log = play_random(
        engine,
        players,
        seed,
        variants,
        choose=seeded_chooser(bot),
        on_step=lambda s, i: snapshots.__setitem__(i, engine.to_json(s)),
    )
    i = int(cut * len(log))
    assert engine.to_json(engine.replay(players, seed, variants, log[:i])) == snapshots[i]


# ---- JSON round trip ----------------------------------------------------------------


def _continue_in_lockstep(engine: Engine, a: GameState, b: GameState, options: list[str]) -> None:
    for k, option in enumerate(options):
        engine.apply(a, option)
        engine.apply(b, option)
        ja, jb = engine.to_json(a), engine.to_json(b)
        assert ja == jb, f"copies differ {k + 1} decisions after the copy"
    assert a.over and b.over
    assert a == b


@settings(deadline=None, max_examples=12)
@given(
    game=games_st,
    seed=seeds_st,
    bot=seeds_st,
    cuts=st.lists(st.floats(0, 1), min_size=1, max_size=3),
)
def test_json_round_trip_at_random_points(game: Any, seed: int, bot: int, cuts: list[float]) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    _, log = play_random(engine, players, seed, variants, choose=seeded_chooser(bot))
    for cut in cuts:
        i = int(cut * len(log))
        original = engine.replay(players, seed, variants, log[:i])
        text = engine.to_json(original)
        json.loads(text)  # plain JSON
        loaded = engine.from_json(text)
        assert loaded == original
        assert engine.to_json(loaded) == text
        assert engine.check(loaded) == []
        _continue_in_lockstep(engine, original, loaded, log[i:])


def test_json_round_trip_of_a_finished_game(engine: Engine) -> None:
    final, _ = play_random(engine, 3, 11, ["extra-round"])
    text = engine.to_json(final)
    loaded = engine.from_json(text)
    assert loaded == final
    assert engine.to_json(loaded) == text
    assert loaded.over and loaded.pending is None


# ---- clone ----------------------------------------------------------------------------


def _assert_no_shared_mutables(a: GameState, b: GameState) -> None:
    """Everything play mutates is a separate object in the clone."""
    assert a is not b
    for name in ("cards", "zones", "counters", "shared", "frames", "scores", "tiebreaks", "winners", "log"):
        assert getattr(a, name) is not getattr(b, name), name
    # cards are shared until one side changes one (copy on write), so neither owns any
    assert not a.own and not b.own
    for ca in a.cards:
        # what a card holds is immutable (tuples), so the clone may share it
        for held in (ca.under, ca.tokens, ca.marks, ca.seen):
            assert type(held) is tuple
    for key in a.zones:
        assert a.zones[key] is not b.zones[key], key
    for key in a.counters:
        assert a.counters[key] is not b.counters[key], key
    for fa, fb in zip(a.frames, b.frames):
        assert fa is not fb
        assert fa.vars is None or fa.vars is not fb.vars
        assert fa.data is None or fa.data is not fb.data
    if a.pending is not None:
        assert b.pending is not None
        assert a.pending is not b.pending
        assert a.pending.options is not b.pending.options
        assert a.pending.values is not b.pending.values


@settings(deadline=None, max_examples=12)
@given(game=games_st, seed=seeds_st, bot=seeds_st, cut=st.floats(0, 1))
def test_clone_is_equal_and_independent(game: Any, seed: int, bot: int, cut: float) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    _, log = play_random(engine, players, seed, variants, choose=seeded_chooser(bot))
    i = int(cut * len(log))
    original = engine.replay(players, seed, variants, log[:i])
    text = engine.to_json(original)
    copy = original.clone()
    assert copy == original
    assert engine.to_json(copy) == text
    _assert_no_shared_mutables(original, copy)

    # playing the clone to the end leaves the original untouched ...
    for option in log[i:]:
        engine.apply(copy, option)
    assert copy.over
    assert engine.to_json(original) == text
    # ... and the original, played the same way, ends in the same state
    for option in log[i:]:
        engine.apply(original, option)
    assert original == copy
    assert engine.to_json(original) == engine.to_json(copy)


@settings(deadline=None, max_examples=8)
@given(game=games_st, seed=seeds_st, bot=seeds_st)
def test_no_decision_changes_a_card_a_clone_shares(game: Any, seed: int, bot: int) -> None:
    """Cards are copied on write (`GameState.card_to_change`): a clone taken before any
    decision of a whole game still reads as it did, whatever that decision changed."""
    pack, players, variants = game
    engine = engine_for(pack)
    _, log = play_random(engine, players, seed, variants, choose=seeded_chooser(bot))
    st_ = engine.new_game(players, seed, variants)
    for option in log:
        before = st_.clone()
        text = engine.to_json(before)
        engine.apply(st_, option)
        assert engine.to_json(before) == text, option


def test_clone_does_not_see_changes_to_the_original(engine: Engine) -> None:
    final_log = play_random(engine, 2, 5)[1]
    st_ = engine.replay(2, 5, None, final_log[:40])
    copy = st_.clone()
    text = engine.to_json(copy)
    for option in final_log[40:]:
        engine.apply(st_, option)
    assert st_.over
    assert engine.to_json(copy) == text
    assert not copy.over


# ---- observations ---------------------------------------------------------------------


@settings(deadline=None, max_examples=6)
@given(game=games_st, seed=seeds_st, bot=seeds_st)
def test_observations_never_depend_on_hidden_cards(game: Any, seed: int, bot: int) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    rnd = random.Random(bot)
    totals = [0, 0]

    def on_step(s: GameState, _i: int) -> None:
        before = engine.to_json(s)
        done, backs = check_observations(engine, s, rnd, 2)
        assert engine.to_json(s) == before  # the swaps are undone
        totals[0] += done
        totals[1] += backs

    play_random(engine, players, seed, variants, choose=seeded_chooser(bot), on_step=on_step)
    # the planet deck alone always holds differing hidden cards at set-up
    assert totals[0] > 0


def test_observation_hides_an_opponents_face_down_planet(engine: Engine) -> None:
    """Deterministic coverage of face-down cards: an opponent's planet shows only its back.

    Swapping it with a hidden planet of the same back leaves the other player's view alone,
    while its owner, who knows it, does see the change (so the swap is not a no-op).
    """
    checked = 0
    for seed in range(1, 4):
        st_ = engine.new_game(2, seed)
        choose = seeded_chooser(seed)
        while st_.pending is not None:
            for p in range(2):
                owner = 1 - p
                hidden = hidden_from(engine, st_, p)
                for a in st_.zones[f"empire.{owner}"]:
                    if hidden.get(a) is None:
                        continue
                    partners = [b for b in sorted(hidden) if swappable(engine, st_, hidden, a, b)]
                    if not partners:
                        continue
                    b = partners[0]
                    seen_by_p, seen_by_owner = observation_text(engine, st_, p), observation_text(engine, st_, owner)
                    swap_types(st_, a, b)
                    try:
                        after_p, after_owner = observation_text(engine, st_, p), observation_text(engine, st_, owner)
                    finally:
                        swap_types(st_, a, b)
                    assert after_p == seen_by_p
                    assert after_owner != seen_by_owner
                    checked += 1
            engine.apply(st_, choose(st_))
    assert checked >= 20


def test_observation_shows_hidden_zones_as_counts(engine: Engine) -> None:
    st_ = engine.new_game(3, 7)
    obs = engine.observe(st_, 1)
    assert obs["zones"]["hand.0"] == {"count": len(st_.zones["hand.0"])}
    assert obs["zones"]["hand.2"] == {"count": len(st_.zones["hand.2"])}
    assert obs["zones"]["deck.1"] == {"count": len(st_.zones["deck.1"])}
    assert obs["zones"]["planet-deck"] == {"count": len(st_.zones["planet-deck"])}
    own = obs["zones"]["hand.1"]
    assert [c["id"] for c in own] == st_.zones["hand.1"]
    assert [c["card"] for c in own] == [engine.rules.cards[st_.cards[c].type].id for c in st_.zones["hand.1"]]
    # the opponents' start planets are face down: kind and back only
    for seat in (0, 2):
        (planet,) = obs["zones"][f"empire.{seat}"]
        assert set(planet) == {"hidden", "kind", "back"}
        assert planet["kind"] == "planet"
        assert set(planet["back"]) == {"type", "warfare-cost", "colonize-cost"}
