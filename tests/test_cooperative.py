"""Co-operative results (issue 34): a pack's `scoring: co-operative: {win: COND}` makes the
players win or lose together with one shared score. Before, everyone tied (a "shared win"
for all), `simulate` counted them as shared wins and `greedy` hurried to end the game by
misplaying, since any end was a win. Hanabi (examples/games/hanabi) is the example."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from rules_dsl import results, simulate
from rules_dsl.bots import Turn, make_bot
from rules_dsl.bots.evaluate import WIN, evaluator, value_of
from rules_dsl.engine import Engine
from rules_dsl.league import lineups, pairwise, placing, rate, standings
from rules_dsl.report.figures import compute, win_share
from rules_dsl.scenario import set_position
from rules_dsl.state import GameState

HANABI = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "hanabi")
COLOURS = ("red", "yellow", "green", "blue")


@functools.cache
def engine() -> Engine:
    return Engine.for_pack(HANABI)


def last_fuse_position(fuses: int = 1) -> GameState:
    """Player 1 to play with no information token: every firework is complete but the white
    one, whose 5 is in player 2's hand, so no card player 1 may hold fits anywhere."""
    e = engine()
    st = e.set_up(2, 7)
    fireworks = [f"{c}-{r}" for c in COLOURS for r in (5, 4, 3, 2, 1)] + ["white-4", "white-3", "white-2", "white-1"]
    pos = {
        "active": 1,
        "shared": {"info": 0, "fuse": fuses},
        "zones": {"fireworks": fireworks, "discard": [], "deck": ["white-1", "red-3", "blue-1"]},
        "players": {
            1: {"hand": ["red-1", "red-2", "white-1", "yellow-1", "blue-2"]},
            2: {"hand": ["white-5", "green-1", "green-2", "yellow-3", "white-2"]},
        },
    }
    set_position(e, st, pos, "box")
    assert st.pending is not None and st.pending.options == ["play-a-card", "discard-a-card"]
    return st


def finished(fuses: int) -> GameState:
    """The position above after player 1 plays its top card: the last fuse when `fuses` is 1."""
    e = engine()
    st = last_fuse_position(fuses)
    e.apply(st, "play-a-card")
    e.apply(st, st.pending.options[0])
    return st


def test_a_lost_co_operative_game_has_no_winner_and_one_shared_score() -> None:
    st = finished(fuses=1)
    assert st.over and st.end_trigger == "the last fuse"
    assert st.winners == [] and st.scores == [24, 24]


@pytest.mark.parametrize("bot", ["greedy", "ismcts"])
def test_a_search_bot_does_not_burn_the_last_fuse_to_end_the_game(bot: str) -> None:
    # every card player 1 may hold misfits: playing one ends the game, lost together; a
    # shared end used to count as a (shared) win, so greedy played
    e = engine()
    for seed in range(3):
        st = last_fuse_position()
        choice = make_bot(bot, e, seed, "60").choose(Turn(e, st))
        assert choice == "discard-a-card", f"seed {seed}: {bot} chose {choice}"


def test_the_evaluation_of_a_co_operative_game_is_shared_not_a_lead() -> None:
    e = engine()
    leads = evaluator(e.rules, "greedy")
    plain = value_of(e.rules, "greedy")
    st = last_fuse_position()
    # a lead over the best other seat would be 0 for every seat of a shared score
    assert leads(st) == plain(st) == [10 * 24 + 4 * 1 + 0] * 2
    lost = finished(fuses=1)
    assert all(v < -WIN / 2 for v in leads(lost))
    won = finished(fuses=2)  # the misplay burns a fuse but one is left: the game goes on
    assert not won.over


def test_simulate_summarises_a_co_operative_game_as_the_tables_result(capsys: pytest.CaptureFixture[str]) -> None:
    from rules_dsl.cli import main

    assert main(["simulate", "--pack", HANABI, "--players", "3", "--games", "6", "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cooperative"] is True and "shared_wins" not in data and "win_share_by_seat" not in data
    assert data["won_together"] == round(data["win_rate"] * 6)
    assert main(["simulate", "--pack", HANABI, "--players", "3", "--games", "6", "--quiet"]) == 0
    table = capsys.readouterr().out
    assert "won together" in table and "mean shared score" in table
    assert "shared wins" not in table and "win share seat" not in table


def record(seed: int, bots: list[str], won: bool, score: int) -> dict[str, object]:
    n = len(bots)
    return {
        "seed": seed, "pack": "hanabi", "variants": [], "scenario": None, "players": n, "bots": bots,
        "scores": [score] * n, "breakdown": {}, "winners": list(range(n)) if won else [], "end_trigger": "x",
        "turns": 10, "decisions": 10, "counts": {}, "cooperative": True,
    }  # fmt: skip


def test_results_files_check_that_a_co_operative_game_is_won_by_all_or_none() -> None:
    good = record(1, ["greedy", "random"], True, 20)
    assert results.problem(good) == ""
    assert results.problem({**good, "winners": [0]}) == "'winners' of a co-operative game must be every seat or none"
    assert results.problem({**good, "cooperative": 1}) == "'cooperative' is int"


def test_the_report_counts_a_game_won_together_as_a_whole_win_for_every_seat() -> None:
    games = [record(1, ["greedy", "random"], True, 20), record(2, ["random", "greedy"], False, 3)]
    assert win_share(games[0]) == 1.0 and win_share(games[1]) == 0.0
    figs = compute(games)
    assert figs["cooperative"] is True
    assert {r["label"]: r["rate"] for r in figs["by_bot"]} == {"greedy": 0.5, "random": 0.5}
    assert {r["label"]: r["rate"] for r in figs["by_seat"]} == {"seat 1 of 2": 0.5, "seat 2 of 2": 0.5}


def test_a_co_operative_league_compares_teams_on_the_same_deal() -> None:
    # every team is played, one bot's own team too (else two bots make one team: nothing to compare)
    assert lineups(["greedy", "random"], 2, cooperative=True) == [
        ("greedy", "greedy"),
        ("greedy", "random"),
        ("random", "random"),
    ]
    games = []
    for seed in range(1, 9):  # the greedy team always does better on the same deal
        games.append(record(seed, ["greedy", "greedy"], True, 20))
        games.append(record(seed, ["greedy", "random"], True, 12))
        games.append(record(seed, ["random", "random"], False, 2))
    assert placing(games[0]) == [0, 0]  # seats of one team are never ranked apart
    ratings = rate(games, ["greedy", "random"])
    assert ratings["greedy"]["mu"] > 25 > ratings["random"]["mu"]
    ahead = {(p["bot"], p["opponent"]): p["rate"] for p in pairwise(games, ["greedy", "random"])}
    assert ahead == {("greedy", "random"): 1.0, ("random", "greedy"): 0.0}
    table = {r["bot"]: r for r in standings(games, ["greedy", "random"])}
    assert table["greedy"]["win_rate"] == 1.0  # a whole win per seat, not a half
    assert table["random"]["win_rate"] == pytest.approx(8 / 24)


def test_the_game_over_line_says_the_players_won_or_lost_together() -> None:
    assert results.winners_text([], True) == "nobody (lost together)"
    assert results.winners_text([0, 1], True) == "everyone (won together)"
    assert results.winners_text([1], False) == "player 2"
    assert simulate.summary_rows({"games": 0}) == [("games", "0")]
