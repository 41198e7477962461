"""The fuzzer on a small budget: texts written from the grammar and mutated real texts,
each put on a card of the base pack, compiled and, when accepted, played. Any exception
other than the project's own errors, or a text that runs past its time, fails the test.
`benchmarks/fuzz.py` runs the same on 100,000 texts."""

from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_dsl.parser import parse
from rules_dsl.testing import card_texts, mutated_texts, words_of
from rules_dsl.testing.card_text import mutate, tokens
from rules_dsl.testing.fuzz import CardTextFuzzer


@functools.cache
def fuzzer() -> CardTextFuzzer:
    return CardTextFuzzer(games=1, max_decisions=60, timeout=20.0)


@functools.cache
def texts() -> st.SearchStrategy[str]:
    f = fuzzer()
    return st.one_of(card_texts(words_of(f.rules, f.texts)), mutated_texts(f.texts))


def assert_clean(text: str) -> str:
    result = fuzzer().run(text)
    assert result.outcome in ("accepted", "rejected"), f"{result.outcome} on {text!r}:\n{result.detail}"
    return result.outcome


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_card_text_crashes_or_hangs_the_engine(data: st.DataObject) -> None:
    assert_clean(data.draw(texts()))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_grammar_texts_always_parse(data: st.DataObject) -> None:
    # written rule by rule from the grammar, so the parser accepts every one (the compiler
    # may still refuse a name or a nesting too deep)
    f = fuzzer()
    text = data.draw(card_texts(words_of(f.rules, f.texts), depth=2))
    parse(text)


def test_every_real_text_is_accepted_unchanged() -> None:
    # the mutation's baseline: a real text with no edit compiles and plays
    f = fuzzer()
    survey = next(t for t in f.texts if t.strip() == "ACTION: draw 2 cards")
    assert assert_clean(mutate(survey, [])) == "accepted"


def test_mutations_edit_tokens() -> None:
    text = "ACTION: draw 2 cards"
    assert tokens(text) == ["ACTION:", "draw", "2", "cards"]
    assert mutate(text, [("delete", 1, "")]) == "ACTION: 2 cards"
    assert mutate(text, [("swap", 1, "")]) == "ACTION: 2 draw cards"
    assert mutate(text, [("replace", 3, "fighters")]) == "ACTION: draw 2 fighters"
    assert mutate(text, [("insert", 0, "(")]) == "( ACTION: draw 2 cards"
    assert mutate(text, [("number", 0, "-1")]) == "ACTION: draw -1 cards"


def test_the_crashes_the_fuzzer_found_stay_fixed() -> None:
    # a card text without a section label crashed the compiler (TypeError)
    assert assert_clean("draw 1 card") == "rejected"
    assert assert_clean("ACTION: draw " + " plus ".join(["1"] * 500) + " cards") == "rejected"
