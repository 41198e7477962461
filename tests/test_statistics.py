"""Pack statistics (counted card moves): exact counts, only for the game being recorded."""

from __future__ import annotations

from collections import Counter

from conftest import play_random

from rules_dsl.engine import Engine, pack_paths
from rules_dsl.simulate import Batch, play_game
from rules_dsl.statistics import Recorder

MICROCOSM = Engine.for_pack("microcosm")


def test_start_planets_are_counted_once_per_player(engine: Engine) -> None:
    rec = Recorder(engine.rules, 3)
    st = engine.new_game(3, 11, recorder=rec)
    for seat in range(3):
        (planet,) = [engine.rules.cards[st.cards[c].type].id for c in st.zones[f"empire.{seat}"]]
        assert rec.counts["start planet"][seat] == {planet: 1}
    assert rec.counts["played"] == [{}, {}, {}]


def test_played_counts_every_card_chosen_to_play() -> None:
    engine = MICROCOSM
    rec = Recorder(engine.rules, 2)
    _, log = play_random(engine, 2, 7)
    st = engine.new_game(2, 7, recorder=rec)
    for option in log:
        engine.apply(st, option)
    # replay to see who chose which card to play (the only way into the action-area); a forced
    # choice (one card to play) is taken without a decision, so these are a lower bound
    expected = [Counter[str](), Counter[str]()]
    replay = engine.new_game(2, 7)
    for option in log:
        d = replay.pending
        assert d is not None
        if d.prompt == "choose a card in your hand with ACTION":
            expected[d.player][option] += 1
        engine.apply(replay, option)
    for seat in range(2):
        recorded = Counter(rec.counts["played"][seat])
        assert expected[seat] <= recorded
        assert set(recorded) <= set(engine.rules.card_index)
    assert sum(sum(c.values()) for c in expected) > 0


def test_a_search_bot_lookahead_is_not_counted() -> None:
    batch = Batch(tuple(pack_paths("microcosm")), "microcosm", 2, None, ("greedy", "greedy"))
    record = play_game(MICROCOSM, batch, 4)
    engine = MICROCOSM
    rec = Recorder(engine.rules, 2)
    st = engine.new_game(2, 4, recorder=rec)
    # the same game replayed from its log, without any bot thinking
    for option in _log_of(batch, 4):
        engine.apply(st, option)
    assert record["counts"] == rec.counts


def _log_of(batch: Batch, seed: int) -> list[str]:
    from rules_dsl.bots import Turn, make_bot

    engine = MICROCOSM
    bots = [make_bot(name, engine, seed * 1009 + seat) for seat, name in enumerate(batch.bots)]
    st = engine.new_game(2, seed)
    while st.pending is not None:
        engine.apply(st, bots[st.pending.player].choose(Turn(engine, st)))
    return st.log


def test_only_the_recorded_game_is_counted(engine: Engine) -> None:
    rec = Recorder(engine.rules, 2)
    st = engine.new_game(2, 5, recorder=rec)
    assert st.recorder is rec
    assert engine.new_game(2, 5).recorder is None
    before = repr(rec.counts)
    lookahead = st.clone()  # a search bot's copy
    assert lookahead.recorder is None
    while lookahead.pending is not None:
        engine.apply_fast(lookahead, lookahead.pending.options[0])
    assert repr(rec.counts) == before
