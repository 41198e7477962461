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

from rules_dsl.engine import Engine
from rules_dsl.state import GameState

SETTINGS = settings(deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow])

players_st = st.integers(min_value=2, max_value=4)
seeds_st = st.integers(min_value=0, max_value=2**31 - 1)
variants_st = st.one_of(st.none(), st.lists(st.sampled_from(BASE_VARIANTS), unique=True, max_size=len(BASE_VARIANTS)))
SPICE_MARKET = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "spice-market")
# (pack, players, variants): the base game in every variant mix, Microcosm, and the example game
games_st = st.one_of(
    st.tuples(st.just("base"), players_st, variants_st),
    st.tuples(st.just("microcosm"), st.just(2), st.none()),
    st.tuples(st.just(SPICE_MARKET), players_st, st.sampled_from([None, ["wide-market"], ["no-bonus"]])),
)


@functools.cache
def engine_for(pack: str) -> Engine:
    return base_engine() if pack == "base" else Engine.for_pack(pack)


def check_decision(st_: GameState) -> None:
    """The pending decision is well formed."""
    d = st_.pending
    assert d is not None
    assert not st_.over
    assert 0 <= d.player < st_.players
    assert d.options, "a decision with no options"
    assert len(set(d.options)) == len(d.options), f"duplicate option ids: {d.options}"
    assert len(d.values) == len(d.options)


def check_final(engine: Engine, st_: GameState) -> None:
    assert st_.over
    assert st_.pending is None
    assert st_.phase == "over"
    assert st_.turn <= MAX_TURNS
    assert st_.end_trigger in {t.name for t in engine.rules.end_triggers}
    assert len(st_.scores) == len(st_.tiebreaks) == st_.players
    best = max(zip(st_.scores, st_.tiebreaks))
    assert st_.winners == [p for p in range(st_.players) if (st_.scores[p], st_.tiebreaks[p]) == best]


# ---- consistency at every step, and termination ------------------------------------


# Hypothesis picks the first HYPOTHESIS_CHOICES decisions, then a seeded random bot plays
# on. Termination is a property of random play only: a legal but degenerate strategy
# (always the first option, in a 4-player game, leads Survey forever) never empties the
# second role stack, and the rules, like the printed game, have no turn limit.
HYPOTHESIS_CHOICES = 150


@SETTINGS
@given(game=games_st, seed=seeds_st, bot=seeds_st, data=st.data())
def test_every_step_is_consistent_and_the_game_ends(game: Any, seed: int, bot: int, data: Any) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    random_bot = seeded_chooser(bot)

    def choose(s: GameState) -> str:
        assert s.pending is not None
        if len(s.log) < HYPOTHESIS_CHOICES:
            return data.draw(st.sampled_from(s.pending.options))  # type: ignore[no-any-return]
        return random_bot(s)

    def on_step(s: GameState, i: int) -> None:
        problems = engine.check(s)
        assert problems == [], f"after decision {i}: {problems}"
        if s.pending is not None:
            check_decision(s)

    final, log = play_random(engine, players, seed, variants, choose=choose, on_step=on_step)
    check_final(engine, final)
    assert final.log == log
    assert len(log) <= MAX_DECISIONS
    assert final.variants == list(variants if variants is not None else engine.rules.default_variants)


@settings(deadline=None, max_examples=30)
@given(game=games_st, seed=seeds_st)
def test_random_bot_games_end_consistently(game: Any, seed: int) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    final, log = play_random(engine, players, seed, variants)
    check_final(engine, final)
    assert engine.check(final) == []
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
    for ca, cb in zip(a.cards, b.cards):
        assert ca is not cb
        assert ca.under is not cb.under
        assert ca.tokens is not cb.tokens
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


def hidden_from(engine: Engine, st_: GameState, player: int) -> dict[int, Any]:
    """Cards whose identity `player` may not know, per the zones' declared visibility.

    Value None: the card is not shown at all (a hidden zone, or another player's private
    zone). Otherwise the card is face down and not the player's own, so only its back
    shows: the value is (kind, public properties), which a swap must keep.
    """
    rules = engine.rules
    out: dict[int, Any] = {}

    def unseen(c: int) -> None:
        if player not in st_.cards[c].seen:  # a card the player peeked at is known to them
            out[c] = None
        for u in st_.cards[c].under:
            unseen(u)

    def shown(c: int, mine: bool) -> None:
        cs = st_.cards[c]
        if not cs.up and not mine and player not in cs.seen:
            out[c] = back_of(engine, cs.type)
        for u in cs.under:
            shown(u, mine)

    for key, cards in st_.zones.items():
        name, _, seat = key.partition(".")
        zt = rules.zones[name]
        owner = int(seat) if seat else -1
        if zt.visibility == "hidden" or (zt.visibility == "owner" and owner != player):
            for c in cards:
                unseen(c)
        else:
            for c in cards:
                shown(c, owner == player)
    return out


def back_of(engine: Engine, card_type: int) -> tuple[str, tuple[Any, ...]]:
    ct = engine.rules.cards[card_type]
    return (ct.kind, tuple((p, ct.props[p]) for p in ct.public_props))


def swappable(engine: Engine, st_: GameState, hidden: dict[int, Any], a: int, b: int) -> bool:
    ca, cb = st_.cards[a], st_.cards[b]
    if a == b or ca.type == cb.type:
        return False
    if ca.tokens or ca.under or cb.tokens or cb.under:
        return False
    # a face-down card shown by its back must keep the same back
    if hidden[a] is not None and back_of(engine, cb.type) != hidden[a]:
        return False
    return hidden[b] is None or back_of(engine, ca.type) == hidden[b]


def pick_swaps(engine: Engine, st_: GameState, player: int, rnd: random.Random, n: int) -> list[tuple[int, int]]:
    hidden = hidden_from(engine, st_, player)
    cards = sorted(hidden)
    pairs: list[tuple[int, int]] = []
    # every card shown only by its back, with a partner if one exists
    for a in cards:
        if hidden[a] is not None:
            partners = [b for b in cards if swappable(engine, st_, hidden, a, b)]
            if partners:
                pairs.append((a, rnd.choice(partners)))
    for _ in range(20 * n):
        if len(pairs) >= n + 1 or len(cards) < 2:
            break
        a, b = rnd.sample(cards, 2)
        if swappable(engine, st_, hidden, a, b):
            pairs.append((a, b))
    return pairs


def swap_types(st_: GameState, a: int, b: int) -> None:
    st_.cards[a].type, st_.cards[b].type = st_.cards[b].type, st_.cards[a].type


def observation_text(engine: Engine, st_: GameState, player: int) -> str:
    return json.dumps(engine.observe(st_, player), sort_keys=True)


def check_observations(engine: Engine, st_: GameState, rnd: random.Random, swaps_per_player: int) -> tuple[int, int]:
    """Checks every player's observation; returns (swaps done, swaps of face-down backs)."""
    done = backs = 0
    before = engine.to_json(st_)
    for p in range(st_.players):
        obs = engine.observe(st_, p)
        text = json.dumps(obs, sort_keys=True)
        assert json.loads(text) == obs, "the observation is not plain JSON data"
        assert obs["player"] == p
        d = st_.pending
        if d is not None and d.player == p:
            assert obs["decision"] == {"prompt": d.prompt, "source": d.source, "options": d.options}
        else:
            assert obs["decision"] is None
        hidden = hidden_from(engine, st_, p)
        for a, b in pick_swaps(engine, st_, p, rnd, swaps_per_player):
            swap_types(st_, a, b)
            try:
                changed = observation_text(engine, st_, p)
            finally:
                swap_types(st_, a, b)
            assert changed == text, (
                f"player {p + 1}'s observation changes when hidden cards {a} ({st_.cards[a].loc}) "
                f"and {b} ({st_.cards[b].loc}) swap types"
            )
            done += 1
            backs += hidden[a] is not None or hidden[b] is not None
    assert engine.to_json(st_) == before
    return done, backs


@settings(deadline=None, max_examples=6)
@given(game=games_st, seed=seeds_st, bot=seeds_st)
def test_observations_never_depend_on_hidden_cards(game: Any, seed: int, bot: int) -> None:
    pack, players, variants = game
    engine = engine_for(pack)
    rnd = random.Random(bot)
    totals = [0, 0]

    def on_step(s: GameState, _i: int) -> None:
        done, backs = check_observations(engine, s, rnd, 2)
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
