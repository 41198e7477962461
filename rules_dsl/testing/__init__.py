"""Hypothesis strategies for testing packs: games, decision sequences, positions and card
texts (written rule by rule from the grammar, or mutated from a pack's real texts).

Hypothesis is a dependency of rules-dsl, so a pack's own test suite can use these
directly; see docs/checking.md.
"""

from rules_dsl.testing.card_text import Words, card_texts, mutated_texts, words_of
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
    "Words",
    "card_texts",
    "decision_sequences",
    "drawing_chooser",
    "game_specs",
    "mutated_texts",
    "options",
    "play",
    "playthroughs",
    "positions",
    "seeded_chooser",
    "words_of",
]
