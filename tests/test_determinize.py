"""Determinization: a state the player cannot tell from the real one, hidden cards resampled."""

from __future__ import annotations

import random
from collections import Counter

from conftest import base_engine, play_random
from hypothesis import given, settings
from hypothesis import strategies as st_

from rules_dsl.determinize import determinize, unknown_pools
from rules_dsl.engine import Engine
from rules_dsl.state import GameState

MICROCOSM = Engine.for_pack("microcosm")


def states(engine: Engine, players: int, seed: int, every: int) -> list[GameState]:
    found: list[GameState] = []
    play_random(engine, players, seed, on_step=lambda s, i: found.append(s.clone()) if i % every == 0 else None)
    return [s for s in found if s.pending is not None]


@settings(max_examples=8, deadline=None)
@given(seed=st_.integers(0, 10_000), players=st_.integers(2, 4), pack=st_.sampled_from(["base", "microcosm"]))
def test_the_player_sees_the_same_game(seed: int, players: int, pack: str) -> None:
    engine = base_engine() if pack == "base" else MICROCOSM
    players = 2 if pack == "microcosm" else players
    rnd = random.Random(seed)
    for st in states(engine, players, seed, every=37):
        for p in range(players):
            det = determinize(engine.rules, st, p, rnd)
            assert engine.observe(det, p) == engine.observe(st, p)
            assert engine.check(det) == []
            # the same cards, only their places among the unseen ones change
            assert Counter(c.type for c in det.cards) == Counter(c.type for c in st.cards)
            assert det.rng != st.rng
            assert det.log == st.log and det.pending == st.pending


def test_hidden_cards_are_resampled_not_read(engine: Engine) -> None:
    st = states(engine, 2, 5, every=50)[1]
    me = st.pending.player if st.pending else 0
    other = 1 - me
    hand = f"hand.{other}"
    real = sorted(st.cards[c].type for c in st.zones[hand])
    pooled = [c for pool in unknown_pools(engine.rules, st, me) for c in pool.cards()]
    assert all(c in pooled for c in st.zones[hand])
    assert not any(c in pooled for c in st.zones[f"hand.{me}"])
    rnd = random.Random(1)
    samples = [determinize(engine.rules, st, me, rnd) for _ in range(20)]
    dealt = {tuple(sorted(s.cards[c].type for c in st.zones[hand])) for s in samples}
    assert len(dealt) > 1  # the opponent's hand is dealt again from their hand and deck
    # the owner's own view of their hand stays exactly the real one
    det = determinize(engine.rules, st, other, rnd)
    assert sorted(det.cards[c].type for c in st.zones[hand]) == real


def test_a_turn_samples_as_determinize_does() -> None:
    """`Turn.sample` works out the unseen cards once per decision: every sample is still
    the one `determinize` gives for the same random draws."""
    from rules_dsl.bots.base import Turn

    engine = base_engine()
    for st in states(engine, 3, 5, 40)[:6]:
        assert st.pending is not None
        turn = Turn(engine, st)
        a, b = random.Random(9), random.Random(9)
        for _ in range(3):
            assert turn.sample(a) == determinize(engine.rules, st, st.pending.player, b)
