"""The rules-dsl command line, called in-process through `main([...])`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules_dsl.cli import main
from rules_dsl.engine import Engine
from rules_dsl.trace import random_chooser, transcript

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_SCENARIO = ROOT / "tests" / "scenarios" / "base" / "warfare_leader_attacks.yaml"
Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# ---- simulate ------------------------------------------------------------------------------


def test_simulate_unknown_variant_is_a_clear_error(engine: Engine, capsys: Capsys) -> None:
    code, out, err = run(capsys, "simulate", "--games", "1", "--quiet", "--variant", "nope")
    assert code == 1
    assert out == ""
    assert err == f"error: unknown variant 'nope' (known: {', '.join(sorted(engine.rules.variants))})\n"
    assert "extra-round" in err


def test_simulate_unknown_pack_is_a_clear_error(tmp_path: Path, capsys: Capsys) -> None:
    missing = str(tmp_path / "nope")
    code, out, err = run(capsys, "simulate", "--games", "1", "--quiet", "--pack", missing)
    assert code == 1
    assert out == ""
    assert err.startswith(f"{missing}:1:1: not a pack folder: pack.yaml is missing\n")
    assert err.endswith("1 problem found\n")


def test_simulate_bad_player_count_is_a_clear_error(capsys: Capsys) -> None:
    code, out, err = run(capsys, "simulate", "--games", "1", "--quiet", "--players", "7")
    assert code == 2
    assert out == ""
    assert err == "rules-dsl: error: --players 7: Eminent Domain is for 2 to 4 players\n"


# ---- cards --------------------------------------------------------------------------------------


def test_cards_lists_every_card(engine: Engine, capsys: Capsys) -> None:
    code, out, err = run(capsys, "cards")
    assert code == 0
    assert err == ""
    header, *lines = out.splitlines()
    assert header == "Eminent Domain: 2 players, variants: none"
    assert len(lines) == len(engine.rules.cards)
    for line, ct in zip(lines, engine.rules.cards):
        assert line.split()[:2] == [ct.id, ct.kind]
        assert line.endswith(ct.name)


def test_cards_shows_one_card_with_its_compiled_tree(capsys: Capsys) -> None:
    code, out, err = run(capsys, "cards", "warfare")
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert lines[:3] == [
        "Eminent Domain: 2 players, variants: none",
        "Warfare (warfare), role-card, starts in warfare-stack",
        "  copies: 16 (WARFARE_CARDS)",
    ]
    assert "  symbols: warfare" in lines
    source = lines.index("  source:")
    assert lines[source : source + 4] == [
        "  source:",
        "    ACTION: gain 1 fighter OR attack 1 planet",
        "  canonical:",
        "    ACTION: gain 1 fighter OR attack 1 planet",
    ]
    tree = lines[lines.index("  compiled ACTION:") + 1 :]
    assert tree, "no compiled tree"
    assert all(line.startswith("    ") for line in tree)
    assert any("labels=('gain 1 fighter', 'attack 1 planet')" in line for line in tree)
    assert any("counter='fighter'" in line for line in tree)


def test_cards_shows_each_card_without_the_effect_table_it_links_to(capsys: Capsys) -> None:
    # a derived field that reprs linked effects prints the whole table, in an order that
    # changed with the hash seed (Block.plan once did)
    code, out, _ = run(capsys, "cards", "--pack", "escalation", "survey", "colonize", "warfare", "research")
    assert code == 0
    assert "table=[" not in out
    assert max(len(line) for line in out.splitlines()) < 400


def test_cards_prints_the_same_whatever_the_hash_seed() -> None:
    def cards(seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        argv = [sys.executable, "-m", "rules_dsl", "cards", "--pack", "escalation", "scientific-discovery"]
        return subprocess.run(argv, capture_output=True, text=True, env=env, check=True).stdout

    first = cards("1")
    assert "moments={" in first
    assert all(cards(seed) == first for seed in ("2", "3"))


def test_cards_shows_every_section_of_a_role(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "cards", "warfare-role", "survey")
    assert code == 0
    assert "  compiled LEAD:" in out and "  compiled FOLLOW:" in out
    assert "Survey (survey), role-card" in out


def test_cards_unknown_card_suggests_one(capsys: Capsys) -> None:
    code, out, err = run(capsys, "cards", "warfre")
    assert code == 1
    assert out == ""
    assert err == "no card 'warfre' in Eminent Domain (did you mean 'warfare'?)\n"


def test_cards_unknown_pack_is_a_clear_error(tmp_path: Path, capsys: Capsys) -> None:
    missing = str(tmp_path / "nope")
    code, out, err = run(capsys, "cards", "--pack", missing)
    assert code == 1
    assert out == ""
    assert "not a pack folder" in err and missing in err


# ---- scenario ---------------------------------------------------------------------------------

SCENARIO = """\
name: the Warfare leader attacks instead of collecting fighters
pack: base
players: 2
unused: box
position:
  active: 1
  phase: role
  counters: {fighter: [3, 0]}
  players:
    1:
      hand: [warfare, survey, colonize]
      empire:
        - {card: drawde, face: down, under: [colonize]}
        - {card: styku, face: down}
    2:
      hand: [warfare, warfare]
      empire: [{card: piedra-seca, face: down}]
decisions:
  - warfare-role
  - done
  - attack 1 planet
  - follow
  - warfare
  - warfare
expect:
  counters: {fighter: [1, 2]}
  phase: cleanup
"""


def test_scenario_example_passes(capsys: Capsys) -> None:
    code, out, err = run(capsys, "scenario", str(EXAMPLE_SCENARIO))
    assert code == 0, out + err
    assert out.splitlines()[0].startswith(f"PASS {EXAMPLE_SCENARIO}: ")
    assert out.endswith("1 passed, 0 failed\n")


def test_scenario_pass_and_fail(tmp_path: Path, capsys: Capsys) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(SCENARIO, encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(SCENARIO.replace("{fighter: [1, 2]}", "{fighter: [1, 3]}"), encoding="utf-8")
    code, out, _ = run(capsys, "scenario", str(good), "-v")
    assert code == 0
    assert out.startswith(f"PASS {good}: the Warfare leader attacks instead of collecting fighters\n")
    assert "  ok   " in out
    assert out.endswith("1 passed, 0 failed\n")
    code, out, _ = run(capsys, "scenario", str(good), str(bad))
    assert code == 1
    assert f"FAIL {bad}: " in out
    assert "  FAIL " in out
    assert out.endswith("1 passed, 1 failed\n")


# ---- help, playthrough, golden ----------------------------------------------------------------


def test_help(capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: rules-dsl")
    for command in ("simulate", "cards", "validate", "scenario", "playthrough", "golden"):
        assert command in out


def test_no_command_prints_help(capsys: Capsys) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    assert out.startswith("usage: rules-dsl")


def test_subcommand_help(capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--pack", "--players", "--games", "--seed", "--variant", "--processes", "--quiet"):
        assert option in out


def test_unknown_command_exits_2(capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulat"])
    assert info.value.code == 2
    assert "invalid choice: 'simulat'" in capsys.readouterr().err


def test_module_entry_point() -> None:
    done = subprocess.run([sys.executable, "-m", "rules_dsl", "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: rules-dsl")


def test_playthrough_prints_the_transcript(engine: Engine, capsys: Capsys) -> None:
    code, out, _ = run(capsys, "playthrough", "--players", "2", "--seed", "9")
    assert code == 0
    assert out == transcript(engine, 2, 9, None, random_chooser(9), "random playthrough", shared_zones=True)
    # the shared zones too, not only each player's (the planet deck only as a count)
    after_setup = out.split("after set-up:\n")[1].split("turn 1")[0]
    assert "  shared: planet-deck 27; role-display: survey-role warfare-role" in after_setup, after_setup
    assert "; survey-stack: survey x16;" in after_setup, after_setup


def test_golden_check_passes(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "golden", "--check", "--dir", str(ROOT / "tests" / "golden"))
    assert code == 0
    assert out.endswith(" passed, 0 failed\n")
