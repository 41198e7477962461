"""Games other than Eminent Domain: the defects a designer met writing new packs, and the
generic constructs for them (issue 26). The packs here are copies of the Spice Market
example with text edits, so each test names exactly what it changes."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from rules_dsl.engine import Engine
from rules_dsl.scenario import Report, run_scenario

ROOT = Path(__file__).resolve().parent.parent
SPICE = ROOT / "examples" / "games" / "spice-market"


@pytest.fixture
def spice_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of Spice Market with text edits: `spice_copy((file, old, new), ...)`; each
    `old` occurs exactly once in its file, so an edit never silently misses."""

    def make(*edits: tuple[str, str, str]) -> Path:
        folder = tmp_path / "spice-market"
        if not folder.exists():
            shutil.copytree(SPICE, folder)
        for file, old, new in edits:
            path = folder / file
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
            path.write_text(text.replace(old, new), encoding="utf-8")
        return folder

    return make


def scenario(folder: Path, data: dict) -> Report:
    data = {"pack": [folder.name], "players": 2, "unused": "box", **data}
    return run_scenario(data, folder.parent, Report("test", "test"))


# ---- defects ------------------------------------------------------------------------


def test_a_printed_zero_is_a_number_the_total_adds(spice_copy: Callable[..., Path]) -> None:
    """`value: 0` is read by ruamel.yaml as its own int subclass; `the total value of ...`
    once took that for an expression property and crashed (AttributeError)."""
    folder = spice_copy(
        ("cards.yaml", "name: Clove (4), spice: clove, value: 4", "name: Clove (4), spice: clove, value: 0")
    )
    engine = Engine.load([str(folder)])
    assert type(engine.rules.cards[engine.rules.card_index["clove-4"]].props["value"]) is int
    report = scenario(
        folder,
        {
            "position": {
                "active": 1,
                "phase": "trade",
                "players": {1: {"hand": ["clove-4", "clove-1"], "sold": []}, 2: {"hand": [], "sold": []}},
            },
            "decisions": ["sell-goods", "clove-4"],
            "expect": {"players": {1: {"hand": [], "sold": ["clove-1", "clove-4"]}}, "counters": {"coin": [1, 0]}},
        },
    )
    assert report.ok, report.render()


def test_a_scenario_position_is_laid_out_before_the_game_runs(spice_copy: Callable[..., Path]) -> None:
    """The game is set up, the position laid out, and only then does the first turn start:
    a phase that runs without a decision runs once, for the position's active player."""
    folder = spice_copy(("rules.yaml", "turn:\n", "turn:\n  - phase: income\n    text: gain 1 coin\n"))
    report = scenario(
        folder,
        {
            "position": {"active": 2, "phase": "income"},
            "expect": {"counters": {"coin": [0, 1]}, "active": 2, "turn": 0},
        },
    )
    assert report.ok, report.render()
