"""The terminal player drives a game through the decision API, seeing only its own view."""

from __future__ import annotations

import io

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
