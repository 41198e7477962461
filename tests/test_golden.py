"""Golden playthroughs: recorded random-bot games must replay to the same transcript.

Regenerate after an intended rules change with `rules-dsl golden` and review the diff.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules_dsl.engine import Engine
from rules_dsl.golden import check_golden, golden_games, golden_name, replay_transcript, write_golden
from rules_dsl.trace import choices_of

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_GAMES = golden_games(GOLDEN)  # listed in tests/golden/games.yaml
FIRST = GOLDEN_GAMES[0]
FIRST_NAME = golden_name(*FIRST)


def test_golden_playthroughs_replay_identically() -> None:
    problems = check_golden(GOLDEN)
    assert not problems, (
        "\n".join(problems) + "\n(if the change is intended, run 'rules-dsl golden' and review the diff)"
    )


def test_the_golden_games_cover_several_packs_counts_and_variants() -> None:
    assert len(GOLDEN_GAMES) >= 5
    assert {players for _, players, _, _ in GOLDEN_GAMES} >= {2, 3, 4}
    assert any(variants for _, _, _, variants in GOLDEN_GAMES)


def test_every_golden_game_has_a_transcript_and_no_file_is_stale() -> None:
    expected = {golden_name(*g) for g in GOLDEN_GAMES}
    assert {p.name for p in GOLDEN.glob("*.txt")} == expected


def test_writing_the_golden_games_again_gives_the_same_files(tmp_path: Path) -> None:
    written = write_golden(tmp_path, GOLDEN_GAMES)
    assert [p.name for p in written] == [golden_name(*g) for g in GOLDEN_GAMES]
    for path in written:
        assert path.read_bytes() == (GOLDEN / path.name).read_bytes(), path.name


# ---- the check is not vacuous: every kind of tampering is reported --------------------


@pytest.fixture
def golden_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "golden"
    shutil.copytree(GOLDEN, folder)
    return folder


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_changed_options_line_is_reported_at_that_line(golden_copy: Path) -> None:
    path = golden_copy / FIRST_NAME
    lines = _lines(path)
    n = next(i for i, line in enumerate(lines) if line.startswith("    options: ") and " | " in line)
    original = lines[n]
    changed = original.rsplit(" | ", 1)[0]  # one option fewer
    lines[n] = changed
    _write(path, lines)
    assert check_golden(golden_copy) == [
        f"{path}:{n + 1}: differs from the replay\n  recorded: {changed}\n  replayed: {original}"
    ]


def test_a_changed_choice_is_detected(golden_copy: Path) -> None:
    path = golden_copy / FIRST_NAME
    lines = _lines(path)
    # the first action-phase decision: play another card than the one recorded
    n = next(i for i, line in enumerate(lines) if line.startswith("    -> ") and "[action]" in lines[i - 2])
    options = lines[n - 1].removeprefix("    options: ").split(" | ")
    chosen = lines[n].removeprefix("    -> ")
    other = next(o for o in options if o not in (chosen, "pass"))
    lines[n] = f"    -> {other}"
    _write(path, lines)
    problems = check_golden(golden_copy)
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:")
    assert "differs from the replay" in problems[0] or "replay failed" in problems[0]


def test_an_illegal_choice_makes_the_replay_fail(golden_copy: Path) -> None:
    path = golden_copy / FIRST_NAME
    text = path.read_text(encoding="utf-8")
    first_choice = choices_of(text)[0]
    path.write_text(text.replace(f"    -> {first_choice}\n", "    -> no-such-card\n", 1), encoding="utf-8")
    (problem,) = check_golden(golden_copy)
    assert problem.startswith(f"{path}: replay failed: 'no-such-card' is not a legal option now.")


def test_a_changed_result_is_detected(golden_copy: Path) -> None:
    path = golden_copy / FIRST_NAME
    lines = _lines(path)
    assert lines[-1].startswith("winners: ")
    lines[-1] = "winners: player 1, player 2, player 3"
    _write(path, lines)
    (problem,) = check_golden(golden_copy)
    assert problem.startswith(f"{path}:{len(lines)}: differs from the replay\n  recorded: winners: player 1, player 2")


def test_a_truncated_transcript_is_detected(golden_copy: Path) -> None:
    path = golden_copy / FIRST_NAME
    lines = _lines(path)
    last_choice = max(i for i, line in enumerate(lines) if line.startswith("    -> "))
    _write(path, lines[:last_choice])
    assert check_golden(golden_copy) == [
        f"{path}: replay failed: the game asks for more decisions than the transcript holds"
    ]


def test_a_missing_transcript_is_reported(golden_copy: Path) -> None:
    path = golden_copy / FIRST_NAME
    path.unlink()
    assert check_golden(golden_copy) == [f"{path}: missing (run 'rules-dsl golden')"]


def test_replaying_an_edited_transcript_in_memory_differs(engine: Engine) -> None:
    pack, players, seed, variants = FIRST
    engine = engine if pack == "base" else Engine.for_pack(pack)
    recorded = (GOLDEN / FIRST_NAME).read_text(encoding="utf-8")
    assert replay_transcript(engine, players, seed, variants, recorded) == recorded
    choices = choices_of(recorded)
    assert len(choices) > 10
    edited = recorded.replace("game over after", "game over at", 1)
    assert edited != recorded
    assert replay_transcript(engine, players, seed, variants, edited) == recorded


def test_golden_works_from_any_folder_on_a_given_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rules_dsl.cli import main

    folder = tmp_path / "kept"
    folder.mkdir()
    (folder / "games.yaml").write_text(
        f"- {{pack: {FIRST[0]}, players: {FIRST[1]}, seed: {FIRST[2]}, variants: {FIRST[3] or []}}}\n", encoding="utf-8"
    )
    shutil.copy(GOLDEN / FIRST_NAME, folder / FIRST_NAME)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["golden", "--check", "--dir", str(folder)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    # outside a checkout, without --dir: a clear error, no traceback
    assert main(["golden", "--check"]) == 1
    err = capsys.readouterr().err
    assert "tests/golden/games.yaml is missing" in err and "give --dir a folder that holds games.yaml" in err
