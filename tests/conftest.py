"""Shared fixtures: the compiled base pack (once per session) and a random-game player."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

from rules_dsl.engine import Engine
from rules_dsl.state import GameState
from rules_dsl.testing import play, seeded_chooser

# The compiled-rules cache (rules_dsl/cache.py) of this test run: a fresh folder, removed
# at exit, so tests neither read entries another run left nor leave any (set before any
# pack is loaded, which reads it; subprocesses of the CLI tests inherit it).
os.environ["RULES_DSL_CACHE_DIR"] = _CACHE = tempfile.mkdtemp(prefix="rules-dsl-test-cache-")
os.environ.pop("RULES_DSL_NO_CACHE", None)
atexit.register(shutil.rmtree, _CACHE, True)

# In CI the property tests draw the same examples every run, so a landing never depends on
# luck; locally they explore new ones each run (and keep failures in .hypothesis/).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"

# Random games of the base pack take at most ~820 decisions and ~90 turns (measured over
# 180 games with random variant mixes); these bounds leave room while still catching a
# game that never ends.
MAX_DECISIONS = 4000
MAX_TURNS = 250


@functools.cache
def base_engine() -> Engine:
    """The base pack, compiled once per process (hypothesis tests call this directly)."""
    return Engine.for_pack("base")


BASE_VARIANTS = tuple(sorted(base_engine().rules.variants))


@pytest.fixture(scope="session")
def engine() -> Engine:
    return base_engine()


Chooser = Callable[[GameState], str]


def play_random(
    engine: Engine,
    players: int,
    seed: int,
    variants: list[str] | None = None,
    choose: Chooser | None = None,
    on_step: Callable[[GameState, int], None] | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> tuple[GameState, list[str]]:
    """Play one game with legal options only, step by step, to its end (rules_dsl.testing.play).

    `choose` picks an option (default: a random bot seeded with `seed`); `on_step(st, i)`
    is called after set-up (i = 0) and after the i-th decision. Returns the final state
    and the options chosen. Fails if the game takes more than `max_decisions` decisions.
    """
    st = engine.new_game(players, seed, variants)
    log = play(engine, st, choose or seeded_chooser(seed), on_step, max_decisions)
    assert st.over, f"game {players}p seed {seed} {variants} did not end in {max_decisions} decisions"
    return st, log


@pytest.fixture(scope="session", name="play")
def play_fixture() -> Callable[..., tuple[GameState, list[str]]]:
    """`play(engine, players, seed, variants=None, choose=None, on_step=None)`."""
    return play_random


@pytest.fixture
def pack_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of the base pack in tmp_path, with text edits: `pack_copy((file, old, new), ...)`.

    Each `old` must occur in the file exactly once, so an edit can never silently miss.
    """
    import shutil

    def make(*edits: tuple[str, str, str]) -> Path:
        folder = tmp_path / "cards"
        if not folder.exists():
            shutil.copytree(CARDS, folder)
        for file, old, new in edits:
            path = folder / file
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
            path.write_text(text.replace(old, new), encoding="utf-8")
        return folder

    return make
