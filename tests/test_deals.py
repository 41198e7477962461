"""Deals (rounds, hands) above the turns (issue 26): a pack's `deal:` part gives each
deal's set-up, its end (tested after every turn) and its scoring; the game goes on from
deal to deal until its own end. A small game of chips: a turn gains 1 coin, a deal ends
when someone has 2 coins, and its scoring gives them a win."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError
from rules_dsl.scenario import run_scenario_file

RULES = """
vocabulary:
  kinds: {chip: chips}
  counters:
    coin: {per: player, plural: coins}
    win: {per: player, plural: wins}
    deal: {per: player, plural: deals}   # the deals each player has been dealt
  zones:
    deck: {visibility: hidden, facing: down}
    hand: {per: player, visibility: owner, facing: up}
setup: |
  gain 0 deals
deal:
  setup: |
    for each player: (move all cards in your hand to the deck; lose 5 coins; gain 1 deal);
    shuffle the deck;
    for each player: move the top card of the deck to your hand
  end: any player where their coins is at least 2
  scoring: |
{scoring}
turn:
  - phase: main
    text: |
      gain 1 coin
game-end:
  triggers:
    - {name: two wins, when: "any player where their wins is at least 2"}
  ends: after-turn
  turn-limit: 60
scoring:
  score: your wins
"""
CARDS = """
cards:
  - {id: chip, kind: chip, zone: deck, count: 6}
"""
SEAT_2_STARTS = "  gain 0 deals;\n  for each player where their seat is 2: take the next turn\n"
WINNER_STARTS = "for each player where their coins is at least 2: (gain 1 win; take the next turn)"


def pack(tmp_path: Path, scoring: str = WINNER_STARTS, rules: str = RULES) -> Path:
    folder = tmp_path / "chips"
    folder.mkdir(exist_ok=True)
    (folder / "pack.yaml").write_text(
        "id: chips\nname: Chips\nversion: 0.0.0\nplayers: [2, 3]\nfiles: [rules.yaml, cards.yaml]\n", encoding="utf-8"
    )
    text = rules.replace("{scoring}", "\n".join("    " + line for line in scoring.splitlines()))
    (folder / "rules.yaml").write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def test_the_first_deal_is_set_up_with_the_game(tmp_path: Path) -> None:
    engine = Engine.load([str(pack(tmp_path))])
    st = engine.set_up(2, 1)
    assert st.counters["deal"][0] == 1 and [len(st.zones[f"hand.{p}"]) for p in range(2)] == [1, 1]
    assert st.turn == 0


def test_the_winner_of_a_deal_starts_the_next_and_the_game_ends_after_the_scoring(tmp_path: Path) -> None:
    engine = Engine.load([str(pack(tmp_path))])
    st = engine.new_game(2, 1)
    # deal 1: player 1, 2, 1 (2 coins: a win); deal 2 starts with player 1 again: 1, 2, 1
    assert st.over and st.turn == 6 and st.counters["deal"][0] == 2
    assert st.counters["win"] == [2, 0] and st.winners == [0] and st.end_trigger == "two wins"
    assert st.counters["coin"] == [2, 1]  # no set-up after the last deal: its coins stay


def test_without_a_queued_turn_the_next_deal_goes_on_in_seat_order(tmp_path: Path) -> None:
    engine = Engine.load([str(pack(tmp_path, "for each player where their coins is at least 2: gain 1 win"))])
    st = engine.new_game(2, 1)
    # deal 1: 1, 2, 1 wins; deal 2: 2, 1, 2 wins; deal 3: 1, 2, 1 wins (2 wins)
    assert st.over and st.turn == 9 and st.counters["deal"][0] == 3 and st.counters["win"] == [2, 1]


def test_a_decision_in_the_scoring_is_in_the_deal_end_phase_and_saves(tmp_path: Path) -> None:
    engine = Engine.load([str(pack(tmp_path, WINNER_STARTS + ";\nyou may gain 1 coin"))])
    st = engine.new_game(2, 1)
    decision = engine.decision(st)
    assert decision is not None and st.phase == "deal-end" and decision.source == "deal-end phase"
    assert decision.player == 0 and st.turn == 3
    again = engine.from_json(engine.to_json(st))  # the phase is one a saved game may be in
    assert again.phase == "deal-end"
    engine.apply(st, decision.options[0])
    # the next deal was set up (coins back to 0) and played to its scoring: 1, 2, 1 again
    assert st.counters["deal"][0] == 2 and st.counters["coin"] == [2, 1] and st.turn == 6
    assert st.phase == "deal-end" and st.counters["win"] == [2, 0]


def test_a_deal_without_an_end_is_a_clear_error(tmp_path: Path) -> None:
    folder = pack(tmp_path, rules=RULES.replace("  end: any player", "  ending: any player"))
    with pytest.raises(PackError) as exc:
        compile_packs([str(folder)])
    text = str(exc.value)
    assert "rules.yaml:13:1: deal needs end:" in text
    assert "rules.yaml:18:3: unknown key 'ending' in deal" in text and "did you mean 'end'?" in text


def test_a_mistake_in_a_deal_text_is_reported_where_it_is(tmp_path: Path) -> None:
    folder = pack(tmp_path, rules=RULES.replace("their coins is at least 2\n", "their coinz is at least 2\n"))
    with pytest.raises(PackError) as exc:
        compile_packs([str(folder)])
    assert "rules.yaml:18:31: unknown" in str(exc.value) and "coinz" in str(exc.value)


def test_the_game_set_up_may_be_left_out_in_a_game_of_deals(tmp_path: Path) -> None:
    engine = Engine.load([str(pack(tmp_path, rules=RULES.replace("setup: |\n  gain 0 deals\n", "")))])
    st = engine.set_up(2, 1)
    assert st.counters["deal"][0] == 1 and len(st.zones["hand.0"]) == 1


def test_an_at_once_end_trigger_is_not_watched_while_a_deal_is_set_up(tmp_path: Path) -> None:
    # the deal's set-up gathers every card into the deck: "a hand is empty" holds for a moment
    rules = RULES.replace(
        '    - {name: two wins, when: "any player where their wins is at least 2"}',
        '    - {name: two wins, when: "any player where their wins is at least 2"}\n'
        '    - {name: empty hand, when: "any player where their hand is empty", checked: at-once}',
    )
    engine = Engine.load([str(pack(tmp_path, rules=rules))])
    st = engine.new_game(2, 1)
    assert st.over and st.end_trigger == "two wins" and st.turn == 6


def test_take_the_next_turn_in_the_set_up_gives_the_first_turn(tmp_path: Path) -> None:
    # queued before any turn, 'take the next turn' names who starts: that player takes the
    # first turn once (not a first turn and then the queued one), and the rounds count from them
    rules = RULES.replace("  gain 0 deals\n", SEAT_2_STARTS)
    engine = Engine.load([str(pack(tmp_path, rules=rules))])
    st = engine.set_up(2, 1)
    assert st.next_turns == [1]  # the set-up has run; no turn yet
    st = engine.new_game(2, 1)
    # deal 1: player 2, 1, 2 (2 coins: a win); deal 2 starts with player 2 again: 2, 1, 2
    assert st.over and st.turn == 6
    assert st.counters["win"] == [0, 2] and st.winners == [1]


def test_a_scenario_position_sets_the_queued_turns(tmp_path: Path) -> None:
    rules = RULES.replace("  gain 0 deals\n", SEAT_2_STARTS)
    rules = rules.replace("      gain 1 coin\n", "      (gain 1 coin) OR (lose 1 coin)\n")  # a decision to stop at
    folder = pack(tmp_path, rules=rules)
    scenario = tmp_path / "queued.yaml"
    body = (
        f"name: queued turns\npack: [{folder}]\nplayers: 3\nposition:\n  active: 1\n{{queued}}"
        "expect:\n  active: 1\n  decision: {player: 1}\n  next-turns: {expected}\n"
    )
    # without next-turns the set-up's queued first turn (player 2's) gives way to the active player
    scenario.write_text(body.replace("{queued}", "").replace("{expected}", "[]"), encoding="utf-8")
    assert run_scenario_file(scenario).ok
    scenario.write_text(body.replace("{queued}", "  next-turns: [3]\n").replace("{expected}", "[3]"), encoding="utf-8")
    assert run_scenario_file(scenario).ok
    scenario.write_text(body.replace("{queued}", "  next-turns: 3\n").replace("{expected}", "[3]"), encoding="utf-8")
    assert "next-turns is a list" in run_scenario_file(scenario).render()


NEVER_ENDS = RULES.replace("      gain 1 coin\n", "      you may lose 1 coin\n").replace("  turn-limit: 60\n", "")


def test_a_deal_that_never_ends_stops_simulate_with_the_game_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: a deal whose end never holds (coins only go down), with a decision every
    turn, made `simulate` run for ever; a game's decisions are bounded (limits:
    decisions-per-game, 100000 unless a pack says)."""
    from rules_dsl.cli import main

    monkeypatch.chdir(tmp_path)  # where simulate writes the failed game's replay
    folder = pack(tmp_path, rules=NEVER_ENDS + "limits:\n  decisions-per-game: 300\n")
    engine = Engine.load([str(folder)])
    assert engine.rules.game_decision_limit == 300
    assert main(["simulate", "--pack", str(folder), "--games", "1", "--seed", "7", "--players", "2"]) == 1
    err = capsys.readouterr().err
    assert "game seed 7 failed after 301 decisions" in err
    assert "the game is not over after 300 decisions: it never ends" in err
    (tmp_path / "default").mkdir()
    assert Engine.load([str(pack(tmp_path / "default", rules=NEVER_ENDS))]).rules.game_decision_limit == 100_000
