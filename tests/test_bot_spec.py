"""Bot specs (`NAME:key=value,...`): one parser for simulate, league, experiment and the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import Capsys, run

from rules_dsl.bots import make_bot, parse_bot, parse_bots
from rules_dsl.bots.greedy import GreedyBot
from rules_dsl.bots.ismcts import ISMCTSBot
from rules_dsl.bots.spec import is_builtin, split_lineup
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError


def test_a_spec_names_a_bot_and_its_options() -> None:
    spec = parse_bot("ismcts:budget=200,opponents=12")
    assert spec.name == "ismcts" and spec.options == (("budget", "200"), ("opponents", "12"))
    assert spec.text == "ismcts:budget=200,opponents=12" and spec.values() == {"opponents": 12}
    # the older form: a bare value after the colon is the budget
    assert parse_bot("ismcts:0.5s").options == (("budget", "0.5s"),)
    assert parse_bot(" greedy ").text == "greedy"


def test_a_line_up_splits_bots_from_their_options() -> None:
    assert split_lineup("ismcts:budget=200,opponents=12,greedy") == ["ismcts:budget=200,opponents=12", "greedy"]
    assert split_lineup("ismcts:3s,greedy,random") == ["ismcts:3s", "greedy", "random"]
    assert parse_bots("ismcts:budget=5,prior=2", 3) == ["ismcts:budget=5,prior=2"] * 3
    with pytest.raises(RulesError, match="'opponents=2' is an option of no bot"):
        parse_bots("opponents=2,greedy", 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("grredy", "unknown bot 'grredy' (known: random, greedy, ismcts, ismcts-ucb) (did you mean 'greedy'?)"),
        ("ismcts:budgte=20", "ismcts has no option 'budgte' (its options: budget, rollout"),
        ("ismcts:budgte=20", "(did you mean 'budget'?)"),
        ("ismcts:budget=lots", "budget='lots': give iterations per decision (1 to 10000000"),
        ("ismcts:opponents=-1", "opponents='-1': give a whole number 0 to 10000"),
        ("ismcts:exploration=nan", "exploration='nan': give a number 0 to 100"),
        ("ismcts:reward=best", "reward='best': give logistic, tanh or pairwise"),
        ("ismcts:unit=seconds", "unit='seconds': give work or judged"),
        ("ismcts:stop=-1", "stop='-1': give a number 0 to 1"),
        ("ismcts:stop=2", "stop='2': give a number 0 to 1"),
        ("ismcts:bank=x", "bank='x': give a whole number 0 to 1000"),
        ("ismcts:prior=1,prior=2", "option 'prior' is given twice"),
        ("greedy:3s", "greedy has no budget (its options: follow_ups)"),
        ("random:budget=3", "random takes no options"),
        ("ismcts:", "nothing after ':'"),
    ],
)
def test_a_bad_spec_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_bot(text)
    assert message in str(caught.value)


def test_only_a_built_in_name_before_the_colon_is_a_built_in_bot() -> None:
    # other kinds of seat (an agent `module:callable`) are told apart by this rule alone
    assert is_builtin("ismcts:budget=3") and is_builtin("random")
    assert not is_builtin("my_agents:play") and not is_builtin("human")


def test_the_options_reach_the_bot(engine: Engine) -> None:
    bot = make_bot("ismcts:budget=0.25s,opponents=12,exploration=0.2", engine, 1)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.seconds) == (0, 0.25)
    assert bot.config.opponents == 12 and bot.config.exploration == 0.2
    assert bot.config.unit == "work" and make_bot("ismcts:unit=judged", engine, 1).config.unit == "judged"  # type: ignore[attr-defined]
    assert bot.config.stop == 0.05 and bot.config.bank == 0
    assert make_bot("ismcts:stop=0.2,bank=1", engine, 1).config.stop == 0.2  # type: ignore[attr-defined]
    assert make_bot("ismcts:stop=0,bank=4", engine, 1).config.bank == 4  # type: ignore[attr-defined]
    # the command's --budget is used only when the spec gives none
    assert make_bot("ismcts:opponents=3", engine, 1, "7").iterations == 7  # type: ignore[attr-defined]
    assert make_bot("ismcts:9", engine, 1, "7").iterations == 9  # type: ignore[attr-defined]
    greedy = make_bot("greedy:follow_ups=2", engine, 1)
    assert isinstance(greedy, GreedyBot) and greedy.follow_ups == 2


def test_simulate_takes_specs_and_refuses_a_bad_one_before_any_game(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "r.jsonl"
    code, _, err = run(
        capsys, "simulate", "--pack", "microcosm", "--games", "1", "--quiet", "--bots",
        "ismcts:budget=3,opponents=2,greedy", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    record = json.loads(out.read_text())
    assert record["bots"] == ["ismcts:budget=3,opponents=2", "greedy"]
    bad = tmp_path / "bad.jsonl"
    code, _, err = run(
        capsys, "simulate", "--pack", "microcosm", "--games", "1", "--quiet", "--bots", "ismcts:oponents=2",
        "--out", str(bad),
    )  # fmt: skip
    assert code == 1 and "(did you mean 'opponents'?)" in err and not bad.exists()


def test_league_takes_specs(capsys: Capsys) -> None:
    code, out, err = run(
        capsys, "league", "--pack", "microcosm", "--quiet", "--games", "2", "random", "ismcts:budget=3,prior=2"
    )
    assert code == 0, err
    assert "ismcts:budget=3,prior=2" in out
    code, _, err = run(capsys, "league", "--pack", "microcosm", "--quiet", "random", "ismcts:prior=x")
    assert code == 2 and "prior='x': give a whole number" in err


def test_the_table_seats_a_bot_with_options() -> None:
    from rules_dsl.serve.table import BudgetCap, Refused, _seat

    cap = BudgetCap(seconds=1.0, iterations=100)
    seat = _seat("ismcts:budget=50,opponents=12", cap)
    assert (seat.kind, seat.budget) == ("ismcts", "budget=50,opponents=12")
    assert parse_bot(f"{seat.kind}:{seat.budget}").values() == {"opponents": 12}
    assert _seat("ismcts:50", cap).budget == "budget=50"
    with pytest.raises(Refused, match="caps a bot's budget"):
        _seat("ismcts:budget=500,opponents=1", cap)
    with pytest.raises(Refused, match="did you mean 'opponents'"):
        _seat("ismcts:oponents=1", cap)
