"""rules-dsl experiment: a seat made to take a card against the same seat made to leave it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_cli import Capsys, run

from rules_dsl import experiment, report
from rules_dsl.engine import pack_paths
from rules_dsl.report.figures import diff_interval, paired_diff_interval

ARGS = ["experiment", "--pack", "microcosm", "--bots", "greedy", "--quiet"]
CARD = "research-globe"


def _records(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_steered_seat_takes_or_leaves_the_card_and_rotates(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "e.jsonl"
    code, text, err = run(capsys, *ARGS, CARD, "--games", "2", "--out", str(out), "--json")
    assert code == 0, err
    records = _records(out)
    assert [(r["experiment"]["arm"], r["seed"]) for r in records] == [
        ("plain", 1), ("plain", 2), ("take", 1), ("take", 2), ("leave", 1), ("leave", 2),
    ]  # fmt: skip
    assert records[0]["experiment"]["kind"] == "baseline"  # each seed unsteered first
    records = records[2:]
    for r in records:
        seat = r["experiment"]["seat"]
        assert seat == r["seed"] % 2
        offered = r["choices"]["offered"][seat].get(CARD, 0)
        taken = r["choices"]["taken"][seat].get(CARD, 0)
        if r["experiment"]["arm"] == "take":
            assert taken == offered  # every decision that offered it took it
        else:
            assert taken == 0 or taken < offered  # left whenever another option remained
    take_offers = sum(r["choices"]["offered"][r["experiment"]["seat"]].get(CARD, 0) for r in records[:2])
    assert take_offers > 0
    data = json.loads(text)
    (row,) = data["subjects"]
    assert row["subject"] == CARD and row["take"]["games"] == 2 and row["leave"]["games"] == 2
    assert row["take"]["offered"] == take_offers and row["never_offered"] is False
    wins = sum(1 / len(r["winners"]) for r in records[:2] if r["experiment"]["seat"] in r["winners"])
    assert row["take"]["wins"] == wins
    score = [r["scores"][r["experiment"]["seat"]] for r in records]
    diffs = [score[0] - score[2], score[1] - score[3]]
    assert row["score_difference"]["diff"] == sum(diffs) / 2
    # the report reads the same figures
    figs = report.build([str(out)], tmp_path / "report")
    assert figs["impact"][0]["take"] == row["take"] and figs["impact"][0]["score_difference"] == row["score_difference"]
    assert "Card impact (experiments)" in (tmp_path / "report" / "index.html").read_text()
    assert (tmp_path / "report" / "card-impact.png").exists()
    # its natural statistics count each seed's unsteered game once, not the 4 arm games
    assert figs["games"] == 2 and figs["arm_games"] == 4
    assert figs["turns"] == [r["turns"] for r in _records(out)[:2]]
    assert "Besides these, 4 games are arms" in (tmp_path / "report" / "index.html").read_text()


def test_an_arm_never_offered_its_card_is_the_unsteered_game(tmp_path: Path, capsys: Capsys) -> None:
    """Both arms of a seed whose unsteered game never offered the card to the steered seat
    are recorded as that game, not played: playing them gives the same game."""
    from rules_dsl.experiment import Arm, play_arm
    from rules_dsl.simulate import Batch

    out = tmp_path / "e.jsonl"
    # greedy never researches in the base game: a technology is never offered to it
    assert run(capsys, *ARGS, "improved-survey-st", "--pack", "base", "--games", "2", "--out", str(out))[0] == 0
    copies = [r for r in _records(out) if r["experiment"].get("unsteered")]
    assert len(copies) == 4
    batch = Batch(tuple(pack_paths("base")), "base", 2, None, ("greedy", "greedy"))
    for r in copies:
        e = r["experiment"]
        played = play_arm(Arm(batch, "card", e["subject"], e["arm"]), r["seed"])
        assert {**played, "experiment": None} == {**r, "experiment": None}
    # the report's table says so; its plot draws no bar for a card never offered
    report.build([str(out)], tmp_path / "report")
    assert "never offered to the steered seat" in (tmp_path / "report" / "index.html").read_text()
    assert not (tmp_path / "report" / "card-impact.png").exists()


def test_an_arm_goes_on_from_the_decision_that_first_offered_its_card(tmp_path: Path, capsys: Capsys) -> None:
    """The unsteered game of a seed records its log and where each card was first offered to
    the steered seat; both arms of a card replay that game up to there and play on."""
    from rules_dsl.bots.base import Turn
    from rules_dsl.engine import Engine
    from rules_dsl.experiment import Arm, branch_of, play_arm
    from rules_dsl.simulate import Batch
    from rules_dsl.statistics import ChoiceCounter

    out = tmp_path / "e.jsonl"
    assert run(capsys, *ARGS, CARD, "--games", "2", "--out", str(out))[0] == 0
    records = _records(out)
    engine = Engine.load(pack_paths("microcosm"))
    names = ChoiceCounter(engine.rules, 1)
    branched = 0
    for base in (r for r in records if r["experiment"]["kind"] == "baseline"):
        seat, at = base["experiment"]["seat"], base["experiment"]["first_offered"][CARD]
        st = engine.new_game(2, base["seed"], None)
        for i, option in enumerate(base["log"]):
            d = st.pending
            assert d is not None
            offers = d.player == seat and any(names.card_of(o) == CARD for o in d.options)
            assert offers == (i == at) or i > at  # first offered at decision `at`, never before
            if i == at:
                assert Turn(engine, st).decided == at
            engine.apply_fast(st, option)
        for arm in (r for r in records if r["seed"] == base["seed"] and r["experiment"]["kind"] == "card"):
            assert arm["experiment"]["branch"] == at > 0 and "log" not in arm
            branched += 1
            prefix = branch_of(base, CARD)
            assert prefix == tuple(base["log"][:at])
            batch = Batch(tuple(pack_paths("microcosm")), "microcosm", 2, None, ("greedy", "greedy"))
            again = play_arm(Arm(batch, "card", CARD, arm["experiment"]["arm"]), base["seed"], prefix)
            assert again == arm  # the same game from the same branch
    assert branched == 4


def test_a_bad_prefix_is_a_failed_game_not_a_traceback() -> None:
    from rules_dsl.engine import Engine
    from rules_dsl.simulate import Batch, play_game

    batch = Batch(tuple(pack_paths("microcosm")), "microcosm", 2, None, ("random", "random"))
    record = play_game(Engine.load(batch.paths), batch, 1, prefix=("no-such-option",))
    assert record["error"] == "RulesError: decision 1 of the game's prefix, 'no-such-option', is not an option"


def test_with_a_policy_the_seed_is_played_once_without_the_card_rule(tmp_path: Path, capsys: Capsys) -> None:
    """With a policy the steered seat follows it in the unsteered game too; an arm whose card
    that game never offered is that game, the same as playing the arm."""
    from rules_dsl.experiment import Arm, play_arm
    from rules_dsl.simulate import Batch

    out = tmp_path / "e.jsonl"
    policy = ("hand", "the number of cards in your hand")
    argv = ["improved-survey-st", "--pack", "base", "--games", "2", "--out", str(out), "--policy", "=".join(policy)]
    code, text, _ = run(capsys, *ARGS, *argv)
    assert code == 0 and "the steered seat playing the policy 'hand'" in text
    assert "the number of cards in your hand" not in text  # the table's title names the policy only
    records = _records(out)
    assert [r["experiment"]["kind"] for r in records] == ["baseline"] * 2 + ["card"] * 4
    assert {r["experiment"]["policy"] for r in records} == {"hand=the number of cards in your hand"}
    batch = Batch(tuple(pack_paths("base")), "base", 2, None, ("greedy", "greedy"))
    for r in records[2:]:
        assert r["experiment"]["unsteered"] is True  # the policy does not research: never offered
        e = r["experiment"]
        played = play_arm(Arm(batch, "card", e["subject"], e["arm"], policy), r["seed"])
        assert {**played, "experiment": None} == {**r, "experiment": None}
    # a resumed run keeps the unsteered games of the same policy, and only those
    assert run(capsys, *ARGS, *argv, "--resume")[0] == 0
    assert _records(out) == records
    other = run(capsys, *ARGS, *argv[:-1], "hand=the number of cards in your discard", "--resume")
    assert other[0] == 0 and "resuming" in other[2] and "0 games there" in other[2]


def test_an_interrupted_run_resumes_to_the_same_file(tmp_path: Path, capsys: Capsys) -> None:
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    assert run(capsys, *ARGS, CARD, "--games", "3", "--out", str(whole))[0] == 0
    assert run(capsys, *ARGS, CARD, "--games", "2", "--out", str(part))[0] == 0
    lines = part.read_text().splitlines()
    part.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])  # a line cut in the middle of writing
    code, _, err = run(capsys, *ARGS, CARD, "--games", "3", "--out", str(part), "--resume")
    assert code == 0, err
    assert "resuming" in err and "3 games there" in err and f"{part}:4: skipped" in err
    assert part.read_bytes() == whole.read_bytes()


def test_a_policy_in_the_packs_words(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "p.jsonl"
    code, text, err = run(
        capsys, *ARGS, "--games", "2", "--out", str(out), "--json",
        "--policy", "colonies=the number of cards in your colonies",
    )  # fmt: skip
    assert code == 0, err
    arms = [(r["experiment"]["arm"], r["experiment"]["policy"]) for r in _records(out)]
    assert arms == [("policy", "colonies=the number of cards in your colonies")] * 2 + [("plain", None)] * 2
    (row,) = json.loads(text)["subjects"]
    assert row["kind"] == "policy" and row["policy"]["games"] == 2
    # the report's natural statistics are the bot alone's games, the plain arm
    figs = report.build([str(out)], tmp_path / "report")
    assert (figs["games"], figs["arm_games"]) == (2, 2)
    assert figs["turns"] == [r["turns"] for r in _records(out)[2:]]


def test_bad_input_is_an_error_before_any_game(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "never.jsonl"
    cases = [
        ([CARD.replace("globe", "glob")], "has no card 'research-glob' (did you mean 'research-globe'?)"),
        (["--policy", "x=the numbr of cards"], "--policy x:1:"),
        (["--policy", "nothing"], "--policy 'nothing': give NAME=EXPR"),
        ([CARD, "--bots", "ismcts:oponents=3"], "(did you mean 'opponents'?)"),
        ([], "name cards to test"),
    ]
    for argv, message in cases:
        code, _, err = run(capsys, *ARGS, "--games", "1", "--out", str(out), *argv)
        assert code != 0 and message in err, (argv, err)
        assert not out.exists()


def _arm_record(seed: int, arm: str, won: bool) -> dict[str, Any]:
    return {
        "seed": seed,
        "players": 2,
        "winners": [0] if won else [1],
        "scores": [10 if won else 5, 7],
        "experiment": {"kind": "card", "subject": "x", "arm": arm, "seat": 0},
    }


def test_the_win_difference_pairs_each_seeds_two_arms() -> None:
    # 200 seeds: 30 won in both arms, 5 won only when taking, 165 lost in both. The arms
    # are the same game until the card is offered, so the interval is the paired one
    # (Newcombe's method 10: Wilson intervals of 35/200 and 30/200 joined through the
    # pairs' correlation), not the independent one the arms' rates alone would give.
    games = []
    for seed in range(1, 201):
        games += [_arm_record(seed, "take", seed <= 35), _arm_record(seed, "leave", seed <= 30)]
    wd = experiment.impact(games, "card", "x")["win_difference"]
    assert wd["pairs"] == 200
    assert wd["diff"] == pytest.approx(0.025)
    # 5 discordant pairs against 0 is just short of significant (exact McNemar p = 0.0625)
    assert wd["low"] == pytest.approx(-0.00042, abs=1e-5) and wd["high"] == pytest.approx(0.05299, abs=1e-5)
    _, independent_low, independent_high = diff_interval(35, 200, 30, 200)
    assert independent_low is not None and independent_high is not None
    assert independent_high - independent_low > 2.5 * (wd["high"] - wd["low"])
    # no seed changed: an interval around 0 of the width 200 pairs allow, never [0, 0]
    same = [_arm_record(s, arm, s <= 30) for s in range(1, 201) for arm in ("take", "leave")]
    wd = experiment.impact(same, "card", "x")["win_difference"]
    assert wd["diff"] == 0 and wd["low"] == pytest.approx(-wd["high"]) and 0.01 < wd["high"] < 0.03


def test_the_paired_interval_is_newcombes_worked_example() -> None:
    # Altman et al., Statistics with Confidence (2000), table 6.2: 14 pairs both yes,
    # 5 only the first, 0 only the second, 22 neither: 0.122 (0.011 to 0.226)
    pairs = [(1.0, 1.0)] * 14 + [(1.0, 0.0)] * 5 + [(0.0, 0.0)] * 22
    d, low, high = paired_diff_interval(pairs)
    assert (round(d, 3), round(low, 3), round(high, 3)) == (0.122, 0.011, 0.226)
    assert paired_diff_interval([]) == (None, None, None)


def test_the_shipped_policies_are_accepted_for_their_pack() -> None:
    """benchmarks/policies/*.txt, as `--policy NAME=$(cat FILE)` passes them: within the
    length a policy may have, and compiled for the base pack's words (docs/balance.md
    runs them). A longer text is still refused before any game (the case above)."""
    from rules_dsl.compiler.build import compile_with_expressions
    from rules_dsl.errors import RulesError
    from rules_dsl.experiment import MAX_POLICY, parse_policy
    from rules_dsl.packs.installed import with_requirements

    files = sorted((Path(__file__).parent.parent / "benchmarks" / "policies").glob("base-*.txt"))
    assert [f.name for f in files] == ["base-research-advanced.txt", "base-research-level3.txt", "base-research.txt"]
    texts = dict(parse_policy(f"{f.stem}={f.read_text(encoding='utf-8')}") for f in files)
    _, compiled = compile_with_expressions(with_requirements(pack_paths("base")), texts)
    assert sorted(compiled) == sorted(texts)
    try:
        parse_policy("long=" + "1 plus " * (MAX_POLICY // 7 + 1) + "1")
    except RulesError as exc:
        assert f"at most 100 characters of name and {MAX_POLICY} of expression" in str(exc)
    else:
        raise AssertionError("a policy longer than MAX_POLICY was accepted")


# ---- --follow-ups: how far the steered seat looks ahead through its own decisions ----------
HAND = "hand=the number of cards in your hand"


def _looks(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """Per decision the policy judged: for each option (by its state), how many of the seat's
    own follow-up decisions were answered after it before the option was judged."""
    from rules_dsl.bots.steer import SteeredBot

    looks: list[list[int]] = []
    now: dict[int, tuple[Any, int]] = {}  # the option's state (held, so its id stays its own), answers
    best, one_ahead = SteeredBot._best, SteeredBot._one_ahead

    def counting_best(self: SteeredBot, turn: Any, options: list[str]) -> list[str]:
        now.clear()
        kept = best(self, turn, options)
        looks.append([n for _, n in now.values()])
        return kept

    def counting_one_ahead(self: SteeredBot, world: Any, options: list[str], me: int) -> str:
        now[id(world)] = (world, now.get(id(world), (world, 0))[1] + 1)
        return one_ahead(self, world, options, me)

    monkeypatch.setattr(SteeredBot, "_best", counting_best)
    monkeypatch.setattr(SteeredBot, "_one_ahead", counting_one_ahead)
    return looks


@pytest.mark.parametrize("follow_ups", [0, 1, 3])
def test_the_steered_seat_looks_as_many_follow_ups_ahead_as_told(
    follow_ups: int, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    looks = _looks(monkeypatch)
    code, text, err = run(
        capsys, *ARGS, "--games", "2", "--policy", HAND, "--follow-ups", str(follow_ups), "--json"
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(text)["follow_ups"] == follow_ups
    judged = [n for per_option in looks for n in per_option]
    assert len(looks) > 20  # the policy judged the seat's decisions in both games
    # never more than told, and exactly as many wherever the seat's own questions go on
    assert max(judged, default=0) == follow_ups and all(n <= follow_ups for n in judged)


def test_follow_ups_are_recorded_only_when_not_the_default(tmp_path: Path, capsys: Capsys) -> None:
    default, six, two = tmp_path / "default.jsonl", tmp_path / "six.jsonl", tmp_path / "two.jsonl"
    argv = [*ARGS, CARD, "--games", "2", "--policy", HAND]
    code, text, _ = run(capsys, *argv, "--out", str(default), "--json")
    assert code == 0 and json.loads(text)["follow_ups"] == 6
    assert run(capsys, *argv, "--out", str(six), "--follow-ups", "6")[0] == 0
    assert six.read_bytes() == default.read_bytes()  # files of before the option are unchanged
    assert all("follow_ups" not in r["experiment"] for r in _records(default))
    assert run(capsys, *argv, "--out", str(two), "--follow-ups", "2")[0] == 0
    assert [r["experiment"]["follow_ups"] for r in _records(two)] == [2] * 6  # the unsteered games too
    # without a policy nobody looks ahead: the key says so
    code, text, _ = run(capsys, *ARGS, CARD, "--games", "1", "--json")
    assert code == 0 and json.loads(text)["follow_ups"] is None
    # a policy's plain arm (the bot alone) does not look ahead: recorded without it
    plain = tmp_path / "plain.jsonl"
    assert run(capsys, *ARGS, "--games", "1", "--policy", HAND, "--follow-ups", "2", "--out", str(plain))[0] == 0
    assert [r["experiment"].get("follow_ups") for r in _records(plain)] == [2, None]


def test_a_resumed_run_keeps_its_follow_ups(tmp_path: Path, capsys: Capsys) -> None:
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    argv = [*ARGS, CARD, "--policy", HAND, "--follow-ups", "2"]
    assert run(capsys, *argv, "--games", "3", "--out", str(whole))[0] == 0
    assert run(capsys, *argv, "--games", "2", "--out", str(part))[0] == 0
    before = part.read_bytes()
    for other in (["--follow-ups", "3"], []):  # another N, or the default 6
        again = [*ARGS, CARD, "--policy", HAND, *other, "--games", "3", "--out", str(part), "--resume"]
        code, _, err = run(capsys, *again)
        assert code == 1 and part.read_bytes() == before
        n = other[1] if other else "6"
        assert err == (
            f"error: {part} holds games whose steered seat looked 2 follow-ups ahead (--follow-ups 2), not {n}: "
            "resume with --follow-ups 2, or write to another --out\n"
        )
    code, _, err = run(capsys, *argv, "--games", "3", "--out", str(part), "--resume")
    assert code == 0 and "6 games there" in err
    assert part.read_bytes() == whole.read_bytes()
    # a file whose follow_ups is no number of follow-ups: an error, not a traceback
    broken = tmp_path / "broken.jsonl"
    broken.write_text(whole.read_text().replace('"follow_ups":2', '"follow_ups":"2"', 1))
    code, _, err = run(capsys, *argv, "--games", "3", "--out", str(broken), "--resume")
    assert code == 1 and "whose follow_ups is not a number from 0 to 100" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--follow-ups", "101"], "argument --follow-ups: 101 is too big: give at most 100"),
        (["--follow-ups", "-1"], "argument --follow-ups: -1 is too small: give at least 0"),
        (["--follow-ups", "2.5"], "argument --follow-ups: '2.5' is not a whole number"),
        (["--follow-ups", "ten"], "argument --follow-ups: 'ten' is not a whole number"),
    ],
)
def test_bad_follow_ups_are_usage_errors(argv: list[str], message: str, capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as info:
        run(capsys, *ARGS, CARD, "--policy", HAND, "--games", "1", *argv)
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_follow_ups_without_a_policy_is_an_error(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "never.jsonl"
    code, _, err = run(capsys, *ARGS, CARD, "--games", "1", "--follow-ups", "3", "--out", str(out))
    assert code == 1 and not out.exists()
    assert err == "error: --follow-ups 3 is for --policy: only a seat following a policy looks ahead\n"
