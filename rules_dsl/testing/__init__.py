"""Hypothesis strategies for testing packs and the engine (needs hypothesis at run time)."""

from rules_dsl.testing.card_text import Words, card_texts, mutated_texts, words_of

__all__ = ["Words", "card_texts", "mutated_texts", "words_of"]
