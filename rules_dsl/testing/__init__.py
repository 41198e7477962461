"""Hypothesis strategies for testing packs: games, decision sequences, positions.

Hypothesis is a dependency of rules-dsl, so a pack's own test suite can use these
directly; see docs/checking.md.
"""

from rules_dsl.testing.games import (
    GameSpec,
    Playthrough,
    decision_sequences,
    drawing_chooser,
    game_specs,
    options,
    play,
    playthroughs,
    positions,
    seeded_chooser,
)

__all__ = [
    "GameSpec",
    "Playthrough",
    "decision_sequences",
    "drawing_chooser",
    "game_specs",
    "options",
    "play",
    "playthroughs",
    "positions",
    "seeded_chooser",
]
