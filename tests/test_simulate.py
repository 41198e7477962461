"""simulate: bots per seat, results files (byte-identical, resumable), summaries, failures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_cli import Capsys, run

from rules_dsl import results
from rules_dsl.bots import Turn, make_bot
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.scenario import run_scenario_file
from rules_dsl.simulate import Batch, play_game, summary, summary_rows

ROOT = Path(__file__).resolve().parent.parent


def test_json_summary_matches_the_games(engine: Engine, capsys: Capsys) -> None:
    code, out, err = run(capsys, "simulate", "--games", "4", "--players", "3", "--seed", "5", "--json")
    assert code == 0, err
    data = json.loads(out)
    batch = Batch(tuple(pack_paths("base")), "base", 3, None, ("random",) * 3)
    games = [play_game(engine, batch, seed) for seed in range(5, 9)]
    assert data["games"] == 4
    assert data["mean_turns"] == sum(g["turns"] for g in games) / 4
    assert data["mean_decisions"] == sum(g["decisions"] for g in games) / 4
    assert data["max_score"] == max(s for g in games for s in g["scores"])
    for seat in range(3):
        wins = sum(1 / len(g["winners"]) for g in games if seat in g["winners"])
        assert data["win_share_by_seat"][seat] == wins / 4
    assert data["failed_games"] == []


def test_score_shares_never_pass_100_percent_when_no_points_are_scored() -> None:
    game = {"players": 2, "winners": [0, 1], "bots": ["random", "random"], "scores": [0, 0], "turns": 3}
    game |= {"decisions": 9, "end_trigger": None, "breakdown": {"cards": [20, 20], "penalty": [-20, -20]}}
    rows = dict(summary_rows(summary([game, game], 1.0)))
    assert rows["score from cards"] == "20.00 per player" and rows["score from penalty"] == "-20.00 per player"
    scored = dict(game, scores=[3, 1], breakdown={"cards": [2, 1], "tiles": [1, 0]})
    rows = dict(summary_rows(summary([scored], 1.0)))
    assert rows["score from cards"] == "1.50 per player (75.0%)" and rows["score from tiles"].endswith("(25.0%)")


def test_table_summary_names_the_bots_and_variants(capsys: Capsys) -> None:
    code, out, _ = run(
        capsys, "simulate", "--games", "2", "--quiet", "--variant", "extra-round", "--bots", "random,random"
    )
    assert code == 0
    assert "bots random,random" in out and "variants: extra-round" in out
    assert "win share seat 2" in out and "games per second" in out


def test_results_are_byte_identical_whatever_the_workers(tmp_path: Path, capsys: Capsys) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    args = ["simulate", "--pack", "microcosm", "--games", "6", "--quiet", "--bots", "greedy,random"]
    assert run(capsys, *args, "--out", str(one))[0] == 0
    assert run(capsys, *args, "--out", str(two), "--processes", "2")[0] == 0
    assert one.read_bytes() == two.read_bytes()
    lines = one.read_text().splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [1, 2, 3, 4, 5, 6]
    record = json.loads(lines[0])
    assert results.problem(record) == ""
    assert record["bots"] == ["greedy", "random"] and record["pack"] == "microcosm"
    assert set(record["counts"]) == {"played", "bought", "acquired"}
    # each card played is a card that was in the game
    engine = Engine.for_pack("microcosm")
    assert all(c in engine.rules.card_index for seat in record["counts"]["played"] for c in seat)


def test_resume_plays_only_the_missing_games(tmp_path: Path, capsys: Capsys) -> None:
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    args = ["simulate", "--pack", "microcosm", "--games", "5", "--quiet"]
    assert run(capsys, *args, "--out", str(full))[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    # games 2 and 4 finished, then a worker died in the middle of writing a line
    part.write_text(lines[1] + lines[3] + lines[0][:30])
    code, _, err = run(capsys, *args, "--out", str(part), "--resume")
    assert code == 0
    assert f"{part}:3: skipped: not JSON" in err
    assert "2 games there, 3 to play" in err
    assert part.read_bytes() == full.read_bytes()


def test_resume_refuses_other_settings(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "r.jsonl"
    assert run(capsys, "simulate", "--pack", "microcosm", "--games", "1", "--quiet", "--out", str(out))[0] == 0
    code, _, err = run(
        capsys, "simulate", "--pack", "microcosm", "--games", "2", "--quiet", "--out", str(out), "--resume",
        "--bots", "greedy",
    )  # fmt: skip
    assert code == 1
    assert "holds games of other settings" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy,randon"], "error: unknown bot 'randon' (known: random, greedy, ismcts, ismcts-ucb) "
                                      "(did you mean"),
        (["--bots", "random,random,random"], "error: --bots names 3 bots for 2 players: give one bot per seat"),
        (["--bots", "ismcts", "--budget", "lots"], "error: --budget 'lots': give iterations per decision"),
        (["--bots", "ismcts-ucb", "--budget", "lots"], "error: --budget 'lots': give iterations per decision"),
        (["--games", "20000000"], "error: --games 20000000: give 1 to 10000000 games"),
        (["--resume"], "error: --resume needs --out FILE"),
        (["--scheduler", "tcp://127.0.0.1:1"], "error: --scheduler is for --backend dask"),
    ],
)  # fmt: skip
def test_bad_simulate_options_are_clear_errors(argv: list[str], message: str, capsys: Capsys) -> None:
    code, out, err = run(capsys, "simulate", "--games", "1", "--quiet", *argv)
    assert code == 1
    assert out == ""
    assert err.startswith(message)


def test_a_pack_without_an_evaluation_names_the_key(tmp_path: Path, capsys: Capsys) -> None:
    pack = tmp_path / "micro"
    shutil.copytree(ROOT / "expansions" / "microcosm", pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace(", evaluation.yaml]", "]"))
    code, out, err = run(capsys, "simulate", "--pack", str(pack), "--games", "1", "--quiet", "--bots", "greedy")
    assert code == 1
    assert err.startswith("error: bot 'greedy' needs the pack key 'evaluation:'")
    assert "has none" in err
    # random bots need no evaluation
    assert run(capsys, "simulate", "--pack", str(pack), "--games", "1", "--quiet")[0] == 0


def test_a_game_that_fails_names_its_seed_and_writes_a_replay(tmp_path: Path, capsys: Capsys) -> None:
    pack = tmp_path / "broken"
    shutil.copytree(ROOT / "expansions" / "microcosm", pack)
    rules = pack / "rules.yaml"
    text = rules.read_text()
    # drawing from the deck now runs forever: the engine stops it with a RulesLoopError
    old = "    you deck-draw: move the top card of the domain-deck to your hand\n  take-an-action:"
    assert old in text
    rules.write_text(text.replace(old, "    you deck-draw: (repeat 100000 times: nothing)\n  take-an-action:"))
    out = tmp_path / "r.jsonl"
    code, _, err = run(capsys, "simulate", "--pack", str(pack), "--games", "3", "--quiet", "--out", str(out))
    assert code == 1
    assert "game seed 1 failed after" in err and "RulesLoopError" in err
    replay = tmp_path / "failed-game-seed-1.yaml"
    assert f"replay it: rules-dsl scenario {replay}" in err
    report = run_scenario_file(replay)
    assert not report.ok
    # every logged decision replays; the failure is reproduced on the step after the last
    assert all(c.ok for c in report.checks[:-1])
    assert "ran 20000 steps without a decision" in report.checks[-1].detail


@pytest.mark.parametrize("bot", ["greedy", "ismcts"])
def test_bots_play_legal_reproducible_games(bot: str) -> None:
    engine = Engine.for_pack("microcosm")

    def game(seed: int) -> list[str]:
        bots = [make_bot(bot, engine, seed * 10 + seat, "8") for seat in range(2)]
        st = engine.new_game(2, seed)
        while st.pending is not None:
            option = bots[st.pending.player].choose(Turn(engine, st))
            assert option in st.pending.options
            engine.apply(st, option)
        assert st.over
        return st.log

    assert game(3) == game(3)
    assert game(3) != game(4)


# ---- rotated seats and the decisions counted ----------------------------------------------
def test_rotate_seats_plays_every_seat_order_equally_often(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["simulate", "--pack", "microcosm", "--games", "4", "--quiet", "--bots", "greedy,random"]
    code, text, err = run(capsys, *argv, "--rotate-seats", "--out", str(out))
    assert code == 0, err
    assert "bots greedy,random (seats rotated)" in text
    assert "seats rotated                     2 seat orders, 2 games each" in text
    records = [json.loads(line) for line in out.read_text().splitlines()]
    # the order depends on the seed alone: odd seeds swap the line-up
    assert [r["bots"] for r in records] == [["random", "greedy"], ["greedy", "random"]] * 2
    assert [r["seat_order"] for r in records] == [[1, 0], [0, 1]] * 2
    assert all(r["lineup"] == ["greedy", "random"] and r["rotate_seats"] is True for r in records)
    assert all(results.problem(r) == "" for r in records)
    # the game of seed 2 is the game of the fixed line-up with seed 2, and seed 1 that of the swapped one
    engine = Engine.for_pack("microcosm")
    paths = tuple(pack_paths("microcosm"))
    fixed = play_game(engine, Batch(paths, "microcosm", 2, None, ("greedy", "random")), 2)
    swapped = play_game(engine, Batch(paths, "microcosm", 2, None, ("random", "greedy")), 1)
    seating = {"lineup", "seat_order", "rotate_seats"}

    def game(record: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in record.items() if k not in seating}

    assert game(fixed) == game(records[1]) and game(swapped) == game(records[0])
    # a fixed line-up says its seats and bots are confounded; --json counts the seat orders
    code, text, _ = run(capsys, *argv)
    assert "seats fixed                       each bot always in the same seat" in text
    data = json.loads(run(capsys, *argv, "--rotate-seats", "--json")[1])
    assert data["rotated"] is True and data["seat_orders"] == {"greedy,random": 2, "random,greedy": 2}
    # resuming the rotated batch plays nothing more; resuming it without rotation is refused
    code, _, err = run(capsys, *argv, "--rotate-seats", "--out", str(out), "--resume")
    assert code == 0 and "4 games there, 0 to play" in err
    code, _, err = run(capsys, *argv, "--out", str(out), "--resume")
    assert code == 1 and "holds games of other settings" in err


def test_rotate_seats_needs_a_whole_number_of_rotations(capsys: Capsys) -> None:
    code, out, err = run(
        capsys, "simulate", "--games", "5", "--quiet", "--bots", "greedy,random,random",
        "--players", "3", "--rotate-seats",
    )  # fmt: skip
    assert code == 2 and out == ""
    # greedy,random,random has 3 distinct seat orders, not 6
    assert "in each of its 3 seat orders equally often: give --games 6 or 3" in err


def test_the_choices_counted_name_cards_offered_and_taken() -> None:
    from rules_dsl.state import Decision
    from rules_dsl.statistics import ChoiceCounter

    engine = Engine.for_pack("base")
    counter = ChoiceCounter(engine.rules, 2)
    ask = Decision(1, "choose a card", ["research@hand", "research@action-area", "survey#12", "warfare", "done"], [])
    counter.decided(ask, "research@action-area")
    counter.decided(Decision(1, "choose", ["survey", "pass"], []), "pass")
    counter.decided(Decision(0, "choose: follow OR dissent", ["follow", "dissent"], []), "follow")
    counter.decided(Decision(0, "take a token", ["survey:iron", "warfare:iron"], []), "survey:iron")
    assert counter.counts == {
        "offered": [{}, {"research": 1, "survey": 2, "warfare": 1}],
        "taken": [{}, {"research": 1}],
    }


def test_every_card_taken_was_offered_in_a_real_game(engine: Engine) -> None:
    batch = Batch(tuple(pack_paths("base")), "base", 2, None, ("random", "random"))
    record = play_game(engine, batch, 3)
    offered, taken = record["choices"]["offered"], record["choices"]["taken"]
    assert sum(sum(seat.values()) for seat in taken) > 10
    for seat in range(2):
        assert all(0 < n <= offered[seat][card] for card, n in taken[seat].items())
    # no more takes than decisions
    assert sum(sum(seat.values()) for seat in taken) <= record["decisions"]
