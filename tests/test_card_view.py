"""`rules-dsl cards`: facts worked out for a player count and variants, the source text,
the canonical text printed back from the syntax tree, and the compiled tree."""

from __future__ import annotations

import pytest

from rules_dsl.card_view import Fact, find, setting, view
from rules_dsl.cli import main
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError
from rules_dsl.parser import parse

Capsys = pytest.CaptureFixture[str]


def facts(engine: Engine, card: str, players: int | None = None, variants: list[str] | None = None) -> dict[str, Fact]:
    rules = engine.rules
    return {f.name: f for f in view(rules, find(rules, card), setting(rules, players, variants)).facts}


def test_copies_are_worked_out_for_players_and_variants(engine: Engine) -> None:
    # Escalation's 2-player stacks have 2 fewer Warfare cards; the variant leaves 3 players alone
    assert facts(engine, "warfare")["copies"] == Fact("copies", 16, "WARFARE_CARDS")
    assert facts(engine, "warfare", 2, ["two-player-reductions"])["copies"] == Fact("copies", 14, "WARFARE_CARDS")
    assert facts(engine, "warfare", 3, ["two-player-reductions"])["copies"] == Fact("copies", 16, "WARFARE_CARDS")
    # the longer 3-player game (docs/modding.md quotes this one): 18 Survey cards, 20 otherwise
    assert facts(engine, "survey", 3, ["extended"])["copies"] == Fact("copies", 18, "SURVEY_CARDS")
    assert facts(engine, "survey", 2, ["extended"])["copies"] == Fact("copies", 20, "SURVEY_CARDS")
    # the Learning Game has no technologies
    assert facts(engine, "improved-survey-st")["copies"] == Fact("copies", 1, "TECHS")
    assert facts(engine, "improved-survey-st", 2, ["learning"])["copies"] == Fact("copies", 0, "TECHS")
    # a number is a number
    assert facts(engine, "survey-role")["copies"] == Fact("copies", 1)


def test_expression_properties_are_worked_out_when_they_can_be(engine: Engine) -> None:
    # the errata give Survey +1 symbol from an empty stack; the original printing none
    assert facts(engine, "survey-role")["empty-bonus"] == Fact("empty-bonus", 1, "ERRATA")
    assert facts(engine, "survey-role", 2, ["original-printing"])["empty-bonus"] == Fact("empty-bonus", 0, "ERRATA")
    assert facts(engine, "produce-role")["empty-bonus"] == Fact("empty-bonus", 1)


def test_an_expression_worked_out_in_play_is_shown_in_canonical_form() -> None:
    micro = Engine.for_pack("microcosm")
    score = facts(micro, "colonize-globe")["score"]
    # a valued property: the card names the value, the vocabulary's expression is shown
    assert score == Fact("score", "colony", "the number of cards in your colonies, worked out in play")


def test_source_and_canonical_text_parse_to_the_same_tree(engine: Engine) -> None:
    rules = engine.rules
    game = setting(rules, None, None)
    for ct in rules.cards:
        card = view(rules, ct, game)
        assert bool(card.source) == bool(ct.text)
        if card.source:
            assert " ".join(card.source.split()) == ct.text
            assert parse(card.canonical) == parse(card.source) or [type(s) for s in parse(card.canonical)] == [
                type(s) for s in parse(card.source)
            ]
        assert set(ct.sections) <= set(card.compiled)
        abilities = len(ct.mods) + len(ct.triggers) + len(ct.activated) + len(ct.replacements) + len(ct.wilds)
        assert len(card.compiled) == len(ct.sections) + abilities


def test_multi_line_source_keeps_its_lines(capsys: Capsys) -> None:
    assert main(["cards", "improved-colonize-cr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    source = lines.index("  source:")
    canonical = lines.index("  canonical:")
    assert lines[source + 1 : canonical] == [
        "    ACTION: you may settle 1 planet;",
        "      settle 1 planet OR (choose a face-down planet in your empire; tuck this card under it)",
    ]
    assert lines[canonical + 1 : canonical + 3] == lines[source + 1 : canonical]


def test_listing_shows_copies_for_the_chosen_game(capsys: Capsys) -> None:
    assert main(["cards", "--variant", "learning"]) == 0
    header, *lines = capsys.readouterr().out.splitlines()
    assert header == "Eminent Domain: 2 players, variants: learning"
    rows = {line.split()[0]: line.split()[2] for line in lines}
    assert rows["improved-survey-st"] == "x0"
    assert rows["warfare"] == "x16"


def test_bad_players_and_variants_are_clear_errors(engine: Engine, capsys: Capsys) -> None:
    with pytest.raises(RulesError, match="is for 2 to 4 players, not 7"):
        setting(engine.rules, 7, None)
    assert main(["cards", "warfare", "--players", "1"]) == 2  # a usage error, like simulate's
    out, err = capsys.readouterr()
    assert out == "" and err == "rules-dsl: error: --players 1: Eminent Domain is for 2 to 4 players\n"
    assert main(["cards", "--variant", "lerning"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: unknown variant 'lerning' (known: extended, ")


def test_several_cards_are_separated_and_unknown_ones_reported(capsys: Capsys) -> None:
    assert main(["cards", "warfare", "nope", "survey"]) == 1
    out, err = capsys.readouterr()
    assert err == "no card 'nope' in Eminent Domain\n"
    assert out.count("Eminent Domain: 2 players") == 1
    assert "\n\nSurvey (survey), role-card" in out
