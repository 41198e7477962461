"""The terminal player drives a game through the decision API, seeing only its own view."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rules_dsl.engine import Engine
from rules_dsl.play import play


def test_a_human_plays_a_whole_game_by_numbers_and_ids(engine: Engine) -> None:
    answers = iter(["9", "nonsense"] + ["1"] * 5000)
    out = io.StringIO()
    play(engine, 2, 4, ["learning"], {0}, read=lambda: next(answers), out=out)
    text = out.getvalue()
    assert "not an option: type 1 to" in text  # "9" and "nonsense" were refused
    assert "game over (" in text
    assert "hand (yours): " in text
    assert "hand (player 2): 5 cards" in text  # the opponent's hand is only a count


def test_quitting_and_end_of_input_stop_quietly(engine: Engine) -> None:
    out = io.StringIO()
    play(engine, 2, 1, None, {0}, read=lambda: "q", out=out)
    assert "game over" not in out.getvalue()

    def no_more() -> str:
        raise EOFError

    out = io.StringIO()
    play(engine, 2, 1, None, {0}, read=no_more, out=out)
    assert out.getvalue().endswith("bye\n")


def test_options_in_words_lookup_undo_save_and_load(tmp_path: Path) -> None:
    engine = Engine.for_pack("microcosm")
    saved = tmp_path / "game.json"
    answers = iter(
        ["?", "card Survey Sweep", "card nosuch", "u", "1", "u", "1", "1", f"save {saved}", "u", "q", "n", "q", "y"]
    )
    out = io.StringIO()
    play(engine, 2, 6, None, {0}, read=lambda: next(answers), out=out)
    text = out.getvalue()
    assert text.startswith("The game begins: 2 players, microcosm\nTurn 1 (round 1): Player 1\n")
    assert "  1. Draw from the supply\n  2. Draw from the deck\n" in text  # words, not ids
    assert "undo (or u): take back your last decision" in text  # the help
    assert "Survey Sweep (survey-sweep), domain, starts in domain-deck" in text
    assert "canonical:\n    ACTION: you may peek-at-a-planet;" in text and "compiled" not in text
    assert "no card 'nosuch' in Eminent Domain: Microcosm" in text
    assert "cannot undo: nothing has been decided yet" in text
    assert "Player 1 (draw phase): draw from the supply\n" in text
    assert text.count("took back your last decision") == 1
    # a card taken from the supply comes out of the deck's place: chance, no undo
    assert "cannot undo: your last decision showed something hidden or drew on chance" in text
    assert "game over" not in text

    st = engine.from_json(saved.read_text())
    assert st.log == ["draw-from-the-supply", st.log[1]] and len(st.log) == 2
    out = io.StringIO()
    play(engine, 2, 0, None, {0}, read=lambda: "1", out=out, start=st)
    assert "game over (" in out.getvalue()


def test_play_loads_a_saved_game_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rules_dsl.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text("garbage")
    assert main(["play", "--pack", "microcosm", "--load", str(bad)]) == 1
    assert f"error: {bad}: not valid JSON" in capsys.readouterr().err
    assert main(["play", "--pack", "microcosm", "--load", str(tmp_path / "missing.json")]) == 1
    assert "cannot read the saved game" in capsys.readouterr().err
    # read as every user's file is: a special file is refused, never read whole
    assert main(["play", "--pack", "microcosm", "--load", "/dev/zero"]) == 1
    assert "cannot read the saved game /dev/zero: it is a device, not a regular file" in capsys.readouterr().err


def test_playthrough_tells_the_game_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    from rules_dsl.cli import main

    assert main(["playthrough", "--pack", "microcosm", "--seed", "2", "--narrate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["The game begins: 2 players, microcosm", "Turn 1 (round 1): Player 1"]
    assert lines[-1].startswith("Game over (") and "winner: Player" in lines[-1]
