"""Simultaneous decisions (`for each player at once: CHOICE then: BODY`): every seat of a set
is asked at once, answers in any order, hidden from the others, then all are revealed.

The decision API lists every pending seat (`Engine.decisions`), an option is applied for a
seat (`Engine.apply(st, option, player)`, logged `@N:option`), a state with answers kept
round-trips to JSON and replays, and no surface of another seat (observation, options,
labels, narration, the samples its bots search, so its bots' choices) depends on an answer
kept: tested on the Sushi Go! example pack and on a small game of chips.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_any_game import mini_pack

from rules_dsl import narrate
from rules_dsl.bots import make_bot
from rules_dsl.bots.base import Turn
from rules_dsl.engine import Engine
from rules_dsl.errors import IllegalOption, PackError
from rules_dsl.scenario import run_scenario_file
from rules_dsl.state import GameState

ROOT = Path(__file__).resolve().parent.parent
SUSHI = ROOT / "examples" / "games" / "sushi-go"

PICK = (
    "shuffle the deck;\n"
    "for each player: move the top card of the deck to your hand;\n"
    "for each player at once: choose a card in your hand as the pick\n"
    "  then: (move the pick to your pile; gain the pick's rank coins)"
)


@pytest.fixture(scope="module")
def sushi() -> Engine:
    return Engine.load([str(SUSHI)])


def chips(tmp_path: Path) -> Engine:
    return mini_pack(tmp_path, PICK, end="any player where their coins is at least 20")


def seats_of(engine: Engine, st: GameState) -> list[int]:
    return [d.player for d in engine.decisions(st)]


def test_every_seat_is_asked_at_once_and_answers_in_any_order(tmp_path: Path) -> None:
    engine = chips(tmp_path)
    # a deal where every hand holds two different chips (one chip, or two alike, is taken
    # without asking)
    st = next(s for s in (engine.new_game(3, seed) for seed in range(1, 50)) if len(engine.decisions(s)) == 3)
    assert seats_of(engine, st) == [0, 1, 2]  # from "you" (the active player), all pending
    options = {d.player: d.options for d in engine.decisions(st)}
    # the last seat answers first: nothing is revealed, the others still decide
    before = {p: list(st.zones[f"pile.{p}"]) for p in range(3)}
    engine.apply(st, options[2][0], player=2)
    assert st.log == [f"@3:{options[2][0]}"]
    assert seats_of(engine, st) == [0, 1]
    assert {p: st.zones[f"pile.{p}"] for p in range(3)} == before and st.counters["coin"] == [0, 0, 0]
    engine.apply(st, options[0][-1])  # a plain option answers the first pending seat
    engine.apply(st, f"@2:{options[1][0]}")  # as written in the log
    assert st.log == [f"@3:{options[2][0]}", options[0][-1], options[1][0]]
    # every answer revealed and acted on, each seat in order; the next turn asks again
    assert all(len(st.zones[f"pile.{p}"]) == 1 for p in range(3))
    ranks = {"one": 1, "three": 3, "seven": 7}
    assert st.counters["coin"] == [ranks[options[0][-1]], ranks[options[1][0]], ranks[options[2][0]]]
    assert st.turn == 1 and st.active == 1


def test_the_order_of_answers_changes_nothing_but_the_log(tmp_path: Path) -> None:
    engine = chips(tmp_path)
    a = next(s for s in (engine.new_game(2, seed) for seed in range(1, 50)) if len(engine.decisions(s)) == 2)
    b = a.clone()
    first, second = engine.decisions(a)
    engine.apply(a, first.options[0], first.player)
    engine.apply(a, second.options[-1], second.player)
    engine.apply(b, second.options[-1], second.player)
    engine.apply(b, first.options[0], first.player)
    assert a.log != b.log
    a.log = b.log = []
    assert a == b


def test_a_game_with_answers_kept_round_trips_and_replays(tmp_path: Path) -> None:
    engine = chips(tmp_path)
    rnd = random.Random(5)
    saved = addressed = 0
    for seed in range(1, 9):
        st = engine.new_game(3, seed)
        while not st.over:
            d = rnd.choice(engine.decisions(st))
            engine.apply(st, rnd.choice(d.options), d.player)
            if st.also:  # saved while some seats have answered and others not
                assert engine.from_json(engine.to_json(st)) == st
                saved += 1
        addressed += sum(entry.startswith("@") for entry in st.log)
        assert engine.replay(3, seed, None, st.log) == st
        assert engine.check(st) == []
    assert saved > 5 and addressed > 5


def test_a_save_from_before_simultaneous_decisions_still_loads(tmp_path: Path) -> None:
    """Saves written before `also` existed have no such key."""
    engine = Engine.for_pack("microcosm")
    st = engine.new_game(2, 3)
    for _ in range(5):
        engine.apply(st, st.pending.options[0])  # type: ignore[union-attr]
    data = json.loads(engine.to_json(st))
    state = data.get("state", data)
    assert state.pop("also") == []
    assert engine.from_json(json.dumps(data)) == st


def test_answers_for_a_seat_that_is_not_deciding_are_refused_and_change_nothing(tmp_path: Path) -> None:
    engine = chips(tmp_path)
    st = next(s for s in (engine.new_game(2, seed) for seed in range(1, 50)) if len(engine.decisions(s)) == 2)
    engine.apply(st, engine.decisions(st)[1].options[0], player=1)
    saved = engine.to_json(st)
    for option, player in [("one", 1), ("@2:one", None), ("@9:one", None), ("@x:one", None), ("nope", 0)]:
        with pytest.raises(IllegalOption) as err:
            engine.apply(st, option, player)
        assert "player" in str(err.value) or "legal" in str(err.value)
        assert engine.to_json(st) == saved


def test_an_answer_given_on_a_clone_leaves_the_state_it_was_cloned_from_as_it_was(sushi: Engine) -> None:
    # a bot tries each option on a clone: the clone's frame shares the lists its data holds
    st = sushi.new_game(3, 5)
    before = sushi.to_json(st)
    for d in sushi.decisions(st):
        trial = st.clone()
        sushi.apply(trial, d.options[0], d.player)
        assert sushi.to_json(st) == before
    sample = st.clone()
    sushi.apply(sample, sushi.decisions(st)[1].options[0], 1)
    for frame in sample.frames:
        effect = sushi.rules.effects[frame.eid]
        if effect.simultaneous:
            effect.forget(sample, frame, 0)  # type: ignore[attr-defined]
    assert sushi.to_json(st) == before


def test_a_seat_sees_no_other_seat_s_answer_on_any_surface(sushi: Engine) -> None:
    """Sushi Go!, 3 players, at the first pick: whatever player 1 picked, player 2 gets the
    same observation, options, labels, narrated lines and decision of every bot."""
    checked = 0
    for seed in range(1, 4):
        st = sushi.new_game(3, seed)
        first = sushi.decisions(st)[0]
        assert seats_of(sushi, st) == [0, 1, 2] and first.player == 0
        worlds = []
        for option in first.options[:3]:  # three different picks of player 1
            world = st.clone()
            sushi.apply(world, option, 0)
            worlds.append(world)
        seen = [surfaces(sushi, w, 1, seed) for w in worlds]
        assert all(s == seen[0] for s in seen), seed
        checked += len(worlds)
    assert checked == 9


def surfaces(engine: Engine, st: GameState, seat: int, seed: int) -> dict[str, Any]:
    d = engine.decision(st, seat)
    assert d is not None
    narrator = narrate.Narrator(engine.rules, st, seat)
    before = st.clone()
    view = narrator.snapshot(before)
    after = st.clone()
    engine.apply(after, d.options[0], seat)
    bots = {
        name: make_bot(name, engine, seed, budget).choose(Turn(engine, st.clone(), seat))
        for name, budget in (("random", "1"), ("greedy", "1"), ("ismcts", "16"))
    }
    return {
        "observation": engine.observe(st, seat),
        "options": d.options,
        "labels": narrate.option_labels(engine.rules, st, d),
        "told": narrator.step(before, view, after, d.options[0]),
        "public": narrate.Narrator(engine.rules, st).step(before, view, after, d.options[0]),
        "bots": bots,
    }


def test_a_sample_for_a_seat_holds_no_other_seat_s_answer(sushi: Engine) -> None:
    st = sushi.new_game(2, 7)
    first = sushi.decisions(st)[0]
    sushi.apply(st, first.options[0], first.player)
    assert [d.player for d in sushi.decisions(st)] == [1]
    turn = Turn(sushi, st, 1)
    for i in range(5):
        world = turn.sample(random.Random(i))
        # in the sample nobody has answered: player 1 is asked again, on the sample's cards
        assert sorted(d.player for d in sushi.decisions(world)) == [0, 1]
        assert world.pending is not None and world.pending.player == 1
        data = world.frames[-1].data
        assert data is not None and data[2] == [None, None]
        hand = [sushi.rules.cards[world.cards[c].type].id for c in world.zones["hand.0"]]
        asked = next(d for d in sushi.decisions(world) if d.player == 0)
        assert set(asked.options) == set(hand)


def test_other_seats_are_told_only_that_a_seat_has_chosen(sushi: Engine) -> None:
    st = sushi.new_game(2, 2)
    narrator = narrate.Narrator(sushi.rules, st)
    d = sushi.decisions(st)[1]
    told = narrate.apply_told(sushi, narrator, st, f"@{d.player + 1}:{d.options[0]}")
    name = next(c.name for c in sushi.rules.cards if c.id == d.options[0].partition("@")[0])
    assert told.lines == ["Player 2 (pick phase): has chosen"]
    assert told.to(0) == ["Player 2 (pick phase): has chosen"]
    assert told.to(1) == [f"Player 2 (pick phase): chooses {name}"]
    assert told.player == 1


def test_random_games_of_sushi_go_end_and_score_every_round(sushi: Engine) -> None:
    for players in (2, 3, 5):
        st = sushi.new_game(players, players)
        rnd = random.Random(players)
        while not st.over:
            d = rnd.choice(sushi.decisions(st))
            sushi.apply_fast(st, rnd.choice(d.options), d.player)
        hand = {2: 10, 3: 9, 5: 7}[players]
        assert st.turn == 3 * hand and st.counters["course"] == [3] * players
        assert sushi.check(st) == []


def test_a_statement_that_is_not_one_choice_cannot_be_asked_at_once(tmp_path: Path) -> None:
    with pytest.raises(PackError) as err:
        mini_pack(tmp_path, "for each player at once: gain 1 coin then: gain 1 coin")
    text = str(err.value)
    assert "rules.yaml:" in text and "'gain 1 coin' is not one" in text and "then:" in text
    with pytest.raises(PackError) as err:
        mini_pack(tmp_path, "for each player at once: choose a card in your hand as the pick")
    assert "then" in str(err.value)


def test_the_table_takes_answers_from_every_deciding_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the playtest table each person answers their own question, in any order, and a
    bot seat answers its own: nobody waits for another seat of the same decision."""
    from rules_dsl.packs.installed import InstalledPack
    from rules_dsl.serve import table as table_module
    from rules_dsl.serve.store import Store

    pack = InstalledPack("sushi-go", str(SUSHI), "0.1.0", (), (2, 5), "", "test", "sushi-go = test")
    monkeypatch.setattr(table_module, "installed_packs", lambda: {"sushi-go": pack})
    table = table_module.Table(Store(tmp_path / "games.sqlite"))
    table.engines["sushi-go"] = Engine.load([str(SUSHI)])
    with table.lock:  # as the server calls it
        game_id, tokens = table.create({"pack": "sushi-go", "seed": 3, "seats": ["human", "human", "random"]})
        game = table.load(game_id)
        assert sorted(tokens) == [0, 1]
        # the bot answers its own question though the people have not answered theirs
        while table.due:
            job = table.bot_job()
            if job is not None:
                table.bot_finish(job, *table_module.think(job))
        assert [d.player for d in game.engine.decisions(game.state)] == [0, 1]
        views = {seat: table.view(game, seat) for seat in (0, 1)}
        assert all(v["options"] for v in views.values())
        assert views[0]["view"]["waiting"] == [0, 1]
        table.decide(game, 1, views[1]["options"][0])  # the second seat first
        assert [d.player for d in game.engine.decisions(game.state)] == [0]
        table.decide(game, 0, views[0]["options"][0])
        assert game.state.turn == 1
        # the decisions stored replay to the same game
    table.store.close()
    again = table_module.Table(Store(tmp_path / "games.sqlite"))
    again.engines["sushi-go"] = table.engines["sushi-go"]
    with again.lock:
        assert again.load(game_id).state == game.state


SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "sushi-go").glob("*.yaml"))


def test_there_is_a_scenario_for_each_tricky_rule() -> None:
    assert len(SCENARIOS) >= 3  # the three tricky rules, and more scenarios of the pack


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    report = run_scenario_file(path)
    assert report.ok, report.render()
