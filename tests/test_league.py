"""rules-dsl league: line-ups, placings, ratings (openskill), the pairwise table, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import Capsys, run

from rules_dsl.league import lineups, pairwise, placing, rate, standings


def game(bots: list[str], scores: list[int], winners: list[int]) -> dict[str, object]:
    return {"players": len(bots), "bots": bots, "scores": scores, "winners": winners}


def test_lineups_seat_each_bot_once_or_every_bot() -> None:
    assert lineups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert lineups(["a", "b", "c"], 3) == [("a", "b", "c")]
    # fewer bots than seats: every line-up in which each bot plays
    assert lineups(["a", "b"], 4) == [("a", "a", "a", "b"), ("a", "a", "b", "b"), ("a", "b", "b", "b")]
    assert lineups(["a", "b", "c"], 4) == [("a", "a", "b", "c"), ("a", "b", "b", "c"), ("a", "b", "c", "c")]


def test_placing_puts_winners_first_then_scores() -> None:
    assert placing(game(["a", "b", "c"], [10, 12, 7], [1])) == [1, 0, 2]
    # a shared win and a tie below it
    assert placing(game(["a", "b", "c", "d"], [9, 9, 5, 5], [0, 1])) == [0, 0, 1, 1]
    # the winner on a tiebreak ranks above an equal score
    assert placing(game(["a", "b"], [8, 8], [1])) == [1, 0]


def test_pairwise_counts_who_finished_ahead() -> None:
    games = [
        game(["a", "b"], [5, 3], [0]),
        game(["b", "a"], [5, 3], [0]),
        game(["a", "b"], [4, 4], [0, 1]),
        game(["a", "a", "b"], [1, 2, 3], [2]),  # b ahead of both a seats; a vs a is not counted
    ]
    rows = {(r["bot"], r["opponent"]): r for r in pairwise(games, ["a", "b", "c"])}
    assert (rows["a", "b"]["meetings"], rows["a", "b"]["ahead"]) == (5, 1.5)
    assert (rows["b", "a"]["meetings"], rows["b", "a"]["ahead"]) == (5, 3.5)
    assert rows["a", "b"]["low"] <= rows["a", "b"]["rate"] == 0.3 <= rows["a", "b"]["high"]
    assert rows["a", "c"]["meetings"] == 0 and rows["a", "c"]["rate"] is None


def test_ratings_follow_the_results() -> None:
    won = [game(["a", "b"], [5, 3], [0]), game(["b", "a"], [3, 5], [1])]
    r = rate(won, ["a", "b"])
    assert r["a"]["mu"] > 25 > r["b"]["mu"]
    assert r["a"]["sigma"] < 25 / 3 and r["a"]["ordinal"] == pytest.approx(r["a"]["mu"] - 3 * r["a"]["sigma"])
    # mirrored results give mirrored ratings; a shared win moves no one
    assert r["a"]["mu"] - 25 == pytest.approx(25 - r["b"]["mu"])
    tie = rate([game(["a", "b"], [4, 4], [0, 1])], ["a", "b"])
    assert tie["a"]["mu"] == pytest.approx(25) and tie["b"]["mu"] == pytest.approx(25)
    table = standings(won, ["b", "a"])
    assert [row["bot"] for row in table] == ["a", "b"]
    assert (table[0]["seats"], table[0]["wins"], table[0]["win_rate"]) == (2, 1.0 * 2, 1.0)
    assert table[0]["low"] < table[0]["mu"] < table[0]["high"]


def test_a_league_on_microcosm(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "league.jsonl"
    argv = ["league", "random", "greedy", "--pack", "microcosm", "--games", "3", "--quiet"]
    code, text, err = run(capsys, *argv, "--json", "--out", str(out))
    assert code == 0, err
    data = json.loads(text)
    # 3 games rounded up to 2 whole rotations of the one line-up's 2 seat orders
    assert data["lineups"] == [{"bots": ["random", "greedy"], "seat_orders": 2, "games": 4}]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert data["games"] == len(records) == 4
    assert sorted(tuple(r["bots"]) for r in records) == [("greedy", "random")] * 2 + [("random", "greedy")] * 2
    # the figures are those of the games written, in seed order
    assert data["ratings"] == standings(records, ["random", "greedy"])
    assert data["pairwise"] == pairwise(records, ["random", "greedy"])
    ahead = {(p["bot"], p["opponent"]): p["ahead"] for p in data["pairwise"]}
    assert ahead["random", "greedy"] + ahead["greedy", "random"] == 4
    # the same league as text: the ratings and the pairwise table
    code, text, _ = run(capsys, *argv)
    assert code == 0
    assert "league of random, greedy, 2 players, 1 line-up, 4 games (seats rotated, seeds from 1)" in text
    assert "rank  bot     rating  sigma  95% interval  mu-3sigma  seats  win rate" in text
    assert "finished ahead of (row ahead of column" in text
    g = {p["opponent"]: p for p in data["pairwise"] if p["bot"] == "greedy"}["random"]
    assert f"{100 * g['rate']:.0f}% ({g['ahead']:g}/4, " in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["greedy", "randon"], "unknown bot 'randon' (known: random, greedy, ismcts, ismcts-ucb) "
                               "(did you mean 'random'?)"),
        (["greedy"], "a league needs two or more bots to play each other (got only greedy): e.g. rules-dsl league"),
        (["greedy", "greedy"], "bot 'greedy' is named 2 times: name each bot once"),
        (["greedy", "random", "--games", "0"], "argument --games: 0 is too small: give at least 1"),
        (["greedy", "random", "--games", "many"], "argument --games: 'many' is not a whole number"),
        (["greedy", "random", "--players", "1"], "argument --players: 1 is too small: give at least 2"),
        (["greedy", "random", "--players", "5"], "--players 5: Eminent Domain: Microcosm is for exactly 2 players"),
        (["ismcts", "random", "--budget", "lots"], "--budget 'lots': give iterations per decision"),
        (["ismcts-ucb", "random", "--budget", "lots"], "--budget 'lots': give iterations per decision"),
        (["greedy", "random", "--games", "1000001"], "--games 1000001: 1 line-up would play 1000002 games; the mo"),
    ],
)  # fmt: skip
def test_bad_league_input_is_a_clear_usage_error(argv: list[str], message: str, capsys: Capsys) -> None:
    try:
        code, out, err = run(capsys, "league", "--pack", "microcosm", "--quiet", *argv)
    except SystemExit as exc:  # argparse's own checks of a value's type
        (code, (out, err)) = exc.code, capsys.readouterr()
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert err.startswith("rules-dsl: error:") or err.startswith("usage:")
