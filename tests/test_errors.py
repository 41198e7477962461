"""Bad input gets a clear error that says where and what, and loses nothing.

Broken packs are copies of the base pack in tmp_path with one line edited as text; the
expected positions are found in the edited file, so the tests do not hard-code line
numbers of the base pack.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules_dsl.cli import main
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine
from rules_dsl.errors import (
    DslSyntaxError,
    IllegalOption,
    PackError,
    PackProblem,
    RulesError,
    RulesLoopError,
    StateFormatError,
)
from rules_dsl.parser import _lark, parse
from rules_dsl.syntax_errors import describer

PackCopy = Callable[..., Path]


def problems_of(folder: Path) -> list[PackProblem]:
    with pytest.raises(PackError) as info:
        compile_packs([str(folder)])
    problems = info.value.problems
    assert problems, "a PackError without problems"
    n = len(problems)
    assert str(info.value).endswith(f"{n} problem{'s' if n != 1 else ''} found")
    return problems


def only_problem(folder: Path) -> PackProblem:
    problems = problems_of(folder)
    assert len(problems) == 1, "\n".join(p.render() for p in problems)
    return problems[0]


def position(folder: Path, file: str, line_text: str, word: str | None = None) -> tuple[int, int]:
    """(line, column), 1-based, of `word` (default: the line's first non-blank) on the line equal to `line_text`."""
    lines = (folder / file).read_text(encoding="utf-8").splitlines()
    matches = [i for i, line in enumerate(lines) if line == line_text]
    assert len(matches) == 1, f"{line_text!r} occurs {len(matches)} times in {file}"
    line = lines[matches[0]]
    col = line.index(word) if word is not None else len(line) - len(line.lstrip())
    return matches[0] + 1, col + 1


def edit_card(folder: Path, file: str, card: str, old: str, new: str) -> None:
    """Replace the first `old` inside the card whose id is `card`."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    start = text.index(f"- id: {card}\n")
    end = text.find("\n  - id: ", start + 1)
    end = len(text) if end < 0 else end
    block = text[start:end]
    assert old in block, f"{old!r} not in card {card}"
    path.write_text(text[:start] + block.replace(old, new, 1) + text[end:], encoding="utf-8")


def assert_problem(
    p: PackProblem,
    *,
    file: Path,
    at: tuple[int, int],
    message: str,
    card: str = "",
    expected: list[str] | None = None,
    suggestion: str = "",
) -> None:
    assert (p.file, p.line, p.column) == (str(file), *at), p.render()
    assert p.message == message
    assert p.card == card
    if expected is not None:
        assert p.expected == expected
    assert p.suggestion == suggestion
    # the rendering shows all of it, with the offending source line
    text = p.render()
    assert text.startswith(f"{file}:{at[0]}:{at[1]}: ")
    assert message in text
    assert p.source_line.strip() and p.source_line.strip() in text
    if suggestion:
        assert suggestion in text


# ---- rules text ----------------------------------------------------------------------


def test_dsl_syntax_error(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "ACTION: draw 2 cards\n", "ACTION: draw 2 cards (\n"))
    p = only_problem(folder)
    line, col = position(folder, "roles.yaml", "      ACTION: draw 2 cards (", "(")
    assert_problem(p, file=folder / "roles.yaml", at=(line, col), message="unexpected word '('", card="survey")
    assert "';' and the next statement" in p.expected and "')' closing the '('" not in p.expected  # no '(' is open
    assert "expected one of: " in p.render()


@pytest.mark.parametrize(
    ("new", "word", "keyword"),
    [
        ("WHENEVR you trade: draw 1 card", "WHENEVR", "WHENEVER"),
        ("WHILST in your empire: add 1 to your hand-limit", "WHILST", "WHILE"),
        ("ACTION: drow 2 cards", "drow", "draw"),
        ("ACTION: for eech player: draw 1 card", "eech", "each"),
    ],
)
def test_misspelled_keyword_suggests_it(pack_copy: PackCopy, new: str, word: str, keyword: str) -> None:
    folder = pack_copy(("roles.yaml", "ACTION: draw 2 cards\n", new + "\n"))
    p = only_problem(folder)
    assert_problem(
        p,
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", "      " + new, word),
        message=f"unknown word {word!r}",
        card="survey",
        suggestion=f"did you mean {keyword!r}?",
    )
    assert p.width == len(word)


def test_missing_section_colon_says_so(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "ACTION: draw 2 cards\n", "ACTION draw 2 cards\n"))
    assert_problem(
        only_problem(folder),
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", "      ACTION draw 2 cards"),
        message="missing ':' after the section label 'ACTION'",
        card="survey",
        suggestion="write 'ACTION:'",
    )


def test_missing_heading_colon_says_so(pack_copy: PackCopy) -> None:
    old = "WHEN you trade: note the kind as traded;"
    folder = pack_copy(("techs.yaml", old, old.replace(":", "", 1)))
    p = only_problem(folder)
    assert p.message == "missing ':' before the word 'note'"
    assert p.expected == ["':' ending the heading"]


def test_unclosed_parenthesis_says_so() -> None:
    with pytest.raises(DslSyntaxError) as info:
        parse("ACTION: (draw 1 card; gain 1 fighter")
    assert info.value.message == "missing ')': unexpected end of text"
    assert info.value.expected == ["')' closing the '('"]


def test_expected_words_are_a_modders_words() -> None:
    """Every terminal of the grammar is described by a word of card text, never its name."""
    words = describer(_lark())
    for terminal in _lark().terminals:
        if terminal.name in ("WS", "COMMENT"):
            continue
        word = words.expected([terminal.name])[0]
        assert "_" not in word and word != terminal.name.lower() or word in words.keywords, (terminal.name, word)
    assert words.expected(["WHEN"]) == ["WHEN or WHENEVER"]
    assert words.expected(["WHILE", "__never"]) == ["__never", "WHILE"]  # unknown names show as given
    with pytest.raises(DslSyntaxError) as info:
        parse("ACTION draw 1 card")
    expected = info.value.expected
    assert (
        "another section (a section label such as ACTION:, WHEN, WHILE, DURING, ONCE, MAY, INSTEAD or PREVENT)"
        in expected
    )
    assert not any(w.startswith("__") or w.isupper() and "_" in w for w in expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # after a statement: what each mark or joining word would start, never a bare `')'`
        # (no '(' is open) or `using`; the headings of another section as one item
        (
            "ACTION: attack 1 planet gain",
            [
                "';' and the next statement",
                "OR and another choice",
                "otherwise and what happens if not",
                "using and the procedure's inputs",
                "another section (a section label such as ACTION:, WHEN, WHILE, DURING, ONCE, MAY, INSTEAD or PREVENT)",
            ],
        ),
        # inside a '(' the ')' closes it
        ("ACTION: (draw 1 card 2", ["';' and the next statement", "')' closing the '('"]),
        # arithmetic is one item
        ("ACTION: gain (2 fighters", ["')' closing the '('", "plus or minus and a number"]),
    ],
)
def test_expectations_are_said_in_words(text: str, expected: list[str]) -> None:
    with pytest.raises(DslSyntaxError) as info:
        parse(text)
    assert info.value.expected[: len(expected)] == expected, info.value.expected
    assert not {"')'", "';'", "minus", "using"} & set(info.value.expected)


def test_misspelled_verb_suggests_the_known_one(pack_copy: PackCopy) -> None:
    folder = pack_copy(
        ("roles.yaml", "ACTION: gain 1 fighter OR attack 1 planet\n", "ACTION: gain 1 fighter OR atack 1 planet\n")
    )
    p = only_problem(folder)
    line, col = position(folder, "roles.yaml", "      ACTION: gain 1 fighter OR atack 1 planet", "atack")
    assert_problem(
        p,
        file=folder / "roles.yaml",
        at=(line, col),
        message="unknown word 'atack'",
        card="warfare",
        suggestion="did you mean 'attack'?",
    )
    assert "attack" in p.expected and "settle" in p.expected
    assert p.width == len("atack")


def _misspelled_kind(pack_copy: PackCopy, phrase: str) -> tuple[Path, PackProblem, str]:
    old = "ACTION: (choose a face-down planet in your empire; tuck"
    folder = pack_copy(("roles.yaml", old, old.replace("face-down planet", phrase)))
    text_line = f"      ACTION: (choose a {phrase} in your empire; tuck this card under it)"
    return folder, only_problem(folder), text_line


def test_misspelled_card_kind_in_text(pack_copy: PackCopy) -> None:
    folder, p, text_line = _misspelled_kind(pack_copy, "plnets")
    assert_problem(
        p,
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", text_line, "plnets"),
        message="unknown card kind 'plnets'",
        card="colonize",
        suggestion="did you mean 'planets'?",
    )
    assert {"planet", "planets", "role-card", "politics"} <= set(p.expected)
    assert p.width == len("plnets")


def test_misspelled_card_kind_after_an_adjective_points_at_the_word(pack_copy: PackCopy) -> None:
    folder, p, text_line = _misspelled_kind(pack_copy, "face-down plnets")
    assert p.message == "unknown card kind 'plnets'"
    assert p.suggestion == "did you mean 'planets'?"
    assert (p.line, p.column) == position(folder, "roles.yaml", text_line, "plnets")


def test_unknown_zone_in_text(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "ACTION: draw 2 cards\n", "ACTION: move the top card of your dek to your hand\n"))
    p = only_problem(folder)
    text_line = "      ACTION: move the top card of your dek to your hand"
    assert_problem(
        p,
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", text_line, "dek"),
        message="unknown zone 'dek'",
        card="survey",
        suggestion="did you mean 'deck'?",
    )
    assert {"deck", "hand", "discard", "empire"} <= set(p.expected)


def test_unknown_symbol_in_rules_text(pack_copy: PackCopy) -> None:
    folder = pack_copy(("rules.yaml", "with a colonize symbol as the colony", "with a colonise symbol as the colony"))
    p = only_problem(folder)
    text_line = "        for each card in your role-area with a colonise symbol as the colony:"
    assert_problem(
        p,
        file=folder / "rules.yaml",
        at=position(folder, "rules.yaml", text_line, "colonise"),
        message="unknown symbol 'colonise'",
        card="",
        suggestion="did you mean 'colonize'?",
    )
    assert sorted(p.expected) == ["colonize", "produce", "research", "survey", "trade", "warfare"]


def assert_kinds(expected: list[str]) -> None:
    """The card kinds the base vocabulary declares, sorted."""
    assert expected == sorted(expected)
    assert {"planet", "politics", "role", "role-card"} <= set(expected)
    assert "planets" not in expected  # kinds, not their plurals


# ---- card fields ---------------------------------------------------------------------


def test_unknown_card_kind(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "    kind: politics\n", "    kind: politic\n"))
    assert_problem(
        only_problem(folder),
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", "    kind: politic", "politic"),  # at the value, not the key
        message="unknown kind 'politic'",
        card="politics",
        suggestion="did you mean 'politics'?",
    )
    assert_kinds(only_problem(folder).expected)


def test_unknown_symbol_on_a_card(pack_copy: PackCopy) -> None:
    folder = pack_copy()
    edit_card(folder, "roles.yaml", "survey", "symbols: [survey]", "symbols: [survy]")
    assert_problem(
        only_problem(folder),
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", "    symbols: [survy]", "survy"),  # at the item
        message="unknown symbol 'survy'",
        card="survey",
        expected=["survey", "warfare", "colonize", "produce", "trade", "research"],
        suggestion="did you mean 'survey'?",
    )


def test_unknown_starting_zone(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "    zone: politics-pile\n", "    zone: politic-pile\n"))
    p = only_problem(folder)
    assert_problem(
        p,
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", "    zone: politic-pile", "politic-pile"),
        message="unknown shared zone 'politic-pile'",
        card="politics",
        suggestion="did you mean 'politics-pile'?",
    )
    assert "politics-pile" in p.expected and "hand" not in p.expected  # only shared zones


def test_duplicate_card_id(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "  - id: warfare\n", "  - id: survey\n"))
    lines = (folder / "roles.yaml").read_text(encoding="utf-8").splitlines()
    first, second = [i + 1 for i, line in enumerate(lines) if line == "  - id: survey"]
    assert_problem(
        only_problem(folder),
        file=folder / "roles.yaml",
        at=(second, 5),
        message=f"duplicate card id 'survey' (first at roles.yaml:{first})",
        card="survey",
    )


def test_missing_kind(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "    kind: politics\n", ""))
    assert_problem(
        only_problem(folder),
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", "  - id: politics", "id"),
        message="missing field 'kind'",
        card="politics",
    )
    assert_kinds(only_problem(folder).expected)


def test_wrong_type_of_a_property(pack_copy: PackCopy) -> None:
    folder = pack_copy()
    edit_card(folder, "planets.yaml", "pomerene", "influence: 2", "influence: many")
    assert_problem(
        only_problem(folder),
        file=folder / "planets.yaml",
        at=position(folder, "planets.yaml", "    influence: many", "many"),
        message="influence must be a whole number, not 'many'",
        card="pomerene",
    )


def test_misspelled_card_field(pack_copy: PackCopy) -> None:
    folder = pack_copy()
    edit_card(folder, "planets.yaml", "pomerene", "colonize-cost: 2", "colonise-cost: 2")
    p = only_problem(folder)
    lines = (folder / "planets.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines) if text == "    colonise-cost: 2") + 1
    assert_problem(
        p,
        file=folder / "planets.yaml",
        at=(line, 5),
        message="unknown field 'colonise-cost'",
        card="pomerene",
        suggestion="did you mean 'colonize-cost'?",
    )
    assert {"colonize-cost", "influence", "kind", "text", "zone"} <= set(p.expected)


# ---- vocabulary, zone specs, manifest, YAML -----------------------------------------------


def test_misspelled_vocabulary_key(pack_copy: PackCopy) -> None:
    folder = pack_copy(("vocabulary.yaml", "  kinds:\n", "  symbol: [x]\n  kinds:\n"))
    assert_problem(
        only_problem(folder),
        file=folder / "vocabulary.yaml",
        at=position(folder, "vocabulary.yaml", "  symbol: [x]"),
        message="unknown vocabulary key 'symbol'",
        suggestion="did you mean 'symbols'?",
    )


def test_a_misspelled_vocabulary_key_reports_what_it_breaks_too(pack_copy: PackCopy) -> None:
    folder = pack_copy(("vocabulary.yaml", "  tokens: [", "  tokenz: ["))
    problems = problems_of(folder)
    assert problems[0].message == "unknown vocabulary key 'tokenz'"
    assert problems[0].suggestion == "did you mean 'tokens'?"
    rest = problems[1:]
    assert all("unknown token kind " in p.message for p in rest)
    assert all(Path(p.file).parent == folder for p in rest)
    drawde = [p for p in rest if p.card == "drawde"]
    assert [p.message for p in drawde] == ["unknown token kind 'food'"]
    assert drawde[0].source_line.strip() == "slots: [food]"


def test_misspelled_key_in_a_zone_spec(pack_copy: PackCopy) -> None:
    old = "    deck: {per: player, visibility: hidden, facing: down, refill-from: discard}\n"
    folder = pack_copy(("vocabulary.yaml", old, old.replace("refill-from", "refil-from")))
    line_text = old.replace("refill-from", "refil-from").rstrip("\n")
    assert_problem(
        only_problem(folder),
        file=folder / "vocabulary.yaml",
        at=position(folder, "vocabulary.yaml", line_text, "refil-from"),
        message="unknown key 'refil-from' for zone 'deck'",
        expected=["facing", "per", "refill-from", "visibility"],
        suggestion="did you mean 'refill-from'?",
    )


def test_misspelled_key_in_a_kind_spec(pack_copy: PackCopy) -> None:
    folder = pack_copy(("vocabulary.yaml", "      plural: planets\n", "      plurals: planets\n"))
    assert_problem(
        only_problem(folder),
        file=folder / "vocabulary.yaml",
        at=position(folder, "vocabulary.yaml", "      plurals: planets"),
        message="unknown key 'plurals' for kind 'planet'",
        expected=["back", "plural"],
        suggestion="did you mean 'plural'?",
    )


def test_misspelled_manifest_key(pack_copy: PackCopy) -> None:
    folder = pack_copy(("pack.yaml", "requires: []\n", "require: []\n"))
    assert_problem(
        only_problem(folder),
        file=folder / "pack.yaml",
        at=position(folder, "pack.yaml", "require: []"),
        message="unknown key 'require' in the manifest",
        expected=["description", "engine", "files", "id", "name", "players", "requires", "version"],
        suggestion="did you mean 'requires'?",
    )


def test_invalid_yaml(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "    kind: politics\n", "    kind: politics: x\n"))
    line, col = position(folder, "roles.yaml", "    kind: politics: x", ": x")
    assert_problem(
        only_problem(folder),
        file=folder / "roles.yaml",
        at=(line, col),
        message="not valid YAML: mapping values are not allowed here",
        card="politics",
    )


def test_invalid_yaml_unclosed_bracket(pack_copy: PackCopy) -> None:
    folder = pack_copy()
    edit_card(folder, "roles.yaml", "survey", "symbols: [survey]", "symbols: [survey")
    p = only_problem(folder)
    # ruamel finds it only at the next key; the mistake is where the bracket opens
    assert_problem(
        p,
        file=folder / "roles.yaml",
        at=position(folder, "roles.yaml", "    symbols: [survey", "["),
        message=f"not valid YAML: the '[' that starts here has no ']' (at line {p.line + 1}: "
        "found character '|' that cannot start any token)",
        card="survey",
    )


def test_invalid_yaml_unclosed_quote(pack_copy: PackCopy) -> None:
    folder = pack_copy()
    edit_card(folder, "roles.yaml", "warfare", "name: Warfare", "name: 'Warfare")
    p = only_problem(folder)
    assert (p.line, p.column) == position(folder, "roles.yaml", "    name: 'Warfare", "'")
    assert p.card == "warfare"
    assert p.message.startswith("not valid YAML: the quote that starts here is not closed (at line ")


def test_yaml_error_outside_cards_names_no_card(pack_copy: PackCopy) -> None:
    folder = pack_copy(("vocabulary.yaml", "  kinds:\n", "  kinds: x: y\n"))
    p = only_problem(folder)
    assert p.message == "not valid YAML: mapping values are not allowed here"
    assert p.card == ""


def test_misspelled_vocabulary_key_lists_the_known_keys(pack_copy: PackCopy) -> None:
    folder = pack_copy(("vocabulary.yaml", "  kinds:\n", "  symbol: [x]\n  kinds:\n"))
    expected = only_problem(folder).expected
    assert expected == sorted(expected)
    assert {"counters", "draw", "kinds", "properties", "sections", "symbols", "tokens", "zones"} <= set(expected)


def test_not_a_pack_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    p = only_problem(missing)
    assert (p.file, p.line, p.column) == (str(missing), 1, 1)
    assert p.message == "not a pack folder: pack.yaml is missing"
    assert p.suggestion == "a pack folder holds pack.yaml and the YAML files it lists"


def test_a_folder_without_packs(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    p = only_problem(tmp_path / "empty")
    assert p.message == "no pack found"
    assert p.file == str(tmp_path / "empty")


# ---- several problems at once --------------------------------------------------------------


def test_every_problem_of_a_run_is_reported(pack_copy: PackCopy) -> None:
    folder = pack_copy(
        ("roles.yaml", "ACTION: gain 1 fighter OR attack 1 planet\n", "ACTION: gain 1 fighter OR atack 1 planet\n"),
        ("roles.yaml", "    kind: politics\n", "    kind: politic\n"),
        ("roles.yaml", "ACTION: draw 2 cards\n", "ACTION: draw 2 cards (\n"),
    )
    edit_card(folder, "planets.yaml", "pomerene", "influence: 2", "influence: many")
    edit_card(folder, "planets.yaml", "drawde", "colonize-cost: 2", "colonise-cost: 2")
    problems = problems_of(folder)
    got = sorted((Path(p.file).name, p.card, p.message) for p in problems)
    assert got == sorted(
        [
            ("roles.yaml", "warfare", "unknown word 'atack'"),
            ("roles.yaml", "politics", "unknown kind 'politic'"),
            ("roles.yaml", "survey", "unexpected word '('"),
            ("planets.yaml", "pomerene", "influence must be a whole number, not 'many'"),
            ("planets.yaml", "drawde", "unknown field 'colonise-cost'"),
        ]
    )


def test_loading_problems_in_several_files_are_all_reported(pack_copy: PackCopy) -> None:
    folder = pack_copy(
        ("pack.yaml", "requires: []\n", "require: []\n"),
        ("roles.yaml", "    kind: politics\n", "    kind: politics: x\n"),
        ("planets.yaml", "cards:\n", "cards:\n  - name: no id here\n"),
    )
    got = sorted((Path(p.file).name, p.message) for p in problems_of(folder))
    assert got == [
        ("pack.yaml", "unknown key 'require' in the manifest"),
        ("planets.yaml", "this card has no id"),
        ("roles.yaml", "not valid YAML: mapping values are not allowed here"),
    ]


# ---- the validate command ---------------------------------------------------------------


def test_validate_prints_every_problem_and_exits_1(pack_copy: PackCopy, capsys: pytest.CaptureFixture[str]) -> None:
    folder = pack_copy(
        ("roles.yaml", "ACTION: gain 1 fighter OR attack 1 planet\n", "ACTION: gain 1 fighter OR atack 1 planet\n")
    )
    edit_card(folder, "planets.yaml", "pomerene", "influence: 2", "influence: many")
    problems = problems_of(folder)
    assert main(["validate", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == PackError(problems).render() + "\n"
    assert "Traceback" not in err
    assert err.endswith("2 problems found\n")
    assert "did you mean 'attack'?" in err


def test_validate_accepts_the_base_pack(engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    cards = str(Path(__file__).resolve().parent.parent / "cards")
    assert main(["validate", cards]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rules = engine.rules
    assert out == f"ok: {cards}: {len(rules.cards)} cards, {rules.written_effects()} effects, packs base\n"


# ---- illegal options --------------------------------------------------------------------


def test_an_illegal_option_names_the_legal_ones_and_changes_nothing(engine: Engine) -> None:
    st = engine.new_game(2, 1)
    before = engine.to_json(st)
    legal = list(st.pending.options)  # type: ignore[union-attr]
    for bad in ("nonsense", "done", "", legal[0].upper()):
        with pytest.raises(IllegalOption) as info:
            engine.apply(st, bad)
        message = str(info.value)
        assert message.startswith(f"{bad!r} is not a legal option now. Player 1 must ")
        assert message.endswith("legal options: " + ", ".join(repr(o) for o in legal))
        assert engine.to_json(st) == before
    # the state still plays exactly like a fresh one
    engine.apply(st, legal[0])
    fresh = engine.new_game(2, 1)
    engine.apply(fresh, legal[0])
    assert engine.to_json(st) == engine.to_json(fresh)


def test_no_option_is_legal_after_the_game(engine: Engine, play: Callable[..., Any]) -> None:
    final, _ = play(engine, 2, 4)
    before = engine.to_json(final)
    with pytest.raises(IllegalOption, match="the game is over: there is nothing to decide"):
        engine.apply(final, "pass")
    assert engine.to_json(final) == before


def test_unknown_variant_and_bad_player_count(engine: Engine) -> None:
    known = ", ".join(sorted(engine.rules.variants))
    with pytest.raises(RulesError) as info:
        engine.new_game(2, 1, ["nope"])
    assert str(info.value) == f"unknown variant 'nope' (known: {known})"
    with pytest.raises(RulesError, match="Eminent Domain is for 2 to 4 players, not 5"):
        engine.new_game(5, 1)


# ---- corrupted saved states ---------------------------------------------------------------


def _corrupt(engine: Engine, change: Callable[[dict[str, Any]], Any]) -> str:
    st = engine.new_game(2, 1)
    data = json.loads(engine.to_json(st))
    change(data)
    return json.dumps(data)


CORRUPTIONS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("wrong type", lambda d: d.__setitem__("turn", "three"), "expected int @ state.turn"),
    ("wrong type in a list", lambda d: d.__setitem__("players", [2]), "@ state.players"),
    ("wrong type in a card", lambda d: d["cards"][3].__setitem__("under", 7), "@ state.cards[3].under"),
    ("missing field", lambda d: d.pop("zones"), "required field missing @ state.zones"),
    ("missing card field", lambda d: d["cards"][3].pop("type"), "required field missing @ state.cards[3].type"),
    ("unknown field", lambda d: d.__setitem__("colour", 1), "extra fields found (colour) @ state"),
    (
        "unknown card field",
        lambda d: d["cards"][3].__setitem__("colour", 1),
        "extra fields found (colour) @ state.cards[3]",
    ),
    (
        "card in two zones",
        lambda d: d["zones"]["box"].append(d["zones"]["survey-stack"][0]),
        "is in two places",
    ),
    ("card nowhere", lambda d: d["zones"]["box"].clear(), "is nowhere"),
    ("unknown card type", lambda d: d["cards"][5].__setitem__("type", 9999), "card 5 has unknown type 9999"),
    (
        "negative counter",
        lambda d: d["counters"]["fighter"].__setitem__(1, -2),
        "counter fighter of player 1 is negative (-2)",
    ),
    ("unknown effect", lambda d: d["frames"][0].__setitem__("eid", 10**6), "a frame names unknown effect 1000000"),
]


@pytest.mark.parametrize(("change", "words"), [c[1:] for c in CORRUPTIONS], ids=[c[0] for c in CORRUPTIONS])
def test_a_corrupted_state_is_rejected_with_its_problem(
    engine: Engine, change: Callable[[dict[str, Any]], Any], words: str
) -> None:
    text = _corrupt(engine, change)
    with pytest.raises(StateFormatError) as info:
        engine.from_json(text)
    assert words in str(info.value)


def test_a_card_in_two_zones_names_both(engine: Engine) -> None:
    st = engine.new_game(2, 1)
    card = st.zones["survey-stack"][0]
    text = _corrupt(engine, lambda d: d["zones"]["box"].append(card))
    with pytest.raises(StateFormatError) as info:
        engine.from_json(text)
    assert f"card {card} is in two places: box and survey-stack" in str(info.value)


def test_text_that_is_not_json(engine: Engine) -> None:
    with pytest.raises(StateFormatError, match="not valid JSON at line 1, column 2"):
        engine.from_json("{not json")


LAX_CORRUPTIONS: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("string for a bool", lambda d: d["cards"][100].__setitem__("up", "false")),
    ("float for an int", lambda d: d.__setitem__("turn", 3.7)),
    ("string for an int", lambda d: d.__setitem__("turn", "3")),
    ("string for a list", lambda d: d.__setitem__("log", "abc")),
    ("bool for an int", lambda d: d["cards"][0].__setitem__("type", True)),
]


@pytest.mark.parametrize("change", [c[1] for c in LAX_CORRUPTIONS], ids=[c[0] for c in LAX_CORRUPTIONS])
def test_a_wrongly_typed_value_is_rejected_not_coerced(engine: Engine, change: Callable[[dict[str, Any]], Any]) -> None:
    text = _corrupt(engine, change)
    with pytest.raises(StateFormatError):
        engine.from_json(text)


# ---- effects that never finish --------------------------------------------------------------


def _play_card(engine: Engine, card: str) -> None:
    """Start 2-player games until `card` may be played as the first action, and play it."""
    for seed in range(1, 50):
        st = engine.new_game(2, seed)
        assert st.pending is not None
        if st.pending.source == "action phase" and card in st.pending.options:
            engine.apply(st, card)
            return
    raise AssertionError(f"no game starts with {card!r} playable")


def test_an_endless_loop_in_a_card_names_the_card(pack_copy: PackCopy) -> None:
    folder = pack_copy(("roles.yaml", "ACTION: draw 2 cards\n", "ACTION: while 1 is 1: gain 1 fighter\n"))
    engine = Engine.load([str(folder)])
    with pytest.raises(RulesLoopError) as info:
        _play_card(engine, "survey")
    assert info.value.message == (
        f"card 'survey' (Survey) ran {engine.rules.step_limit} steps without a decision: its effects never finish"
    )
    # the error says how to reproduce it: replaying its decisions raises it again
    game = info.value.game
    assert game is not None and game.decisions[-1] == "survey"
    assert f"seed {game.seed}" in str(info.value)
    with pytest.raises(RulesLoopError):
        engine.replay(game.players, game.seed, list(game.variants), list(game.decisions))


def test_a_procedure_calling_itself_names_the_card(pack_copy: PackCopy) -> None:
    folder = pack_copy(
        ("rules.yaml", "  dissent: |\n", "  spin: |\n    gain 1 fighter; spin\n  dissent: |\n"),
        ("roles.yaml", "ACTION: draw 2 cards\n", "ACTION: spin\n"),
    )
    engine = Engine.load([str(folder)])
    # each call stays on the stack (it is not the last statement's tail), so the frame
    # limit stops it before the step limit would
    deep = r"^card 'survey' \(Survey\): the procedure 'spin' nested more than 500 deep"
    with pytest.raises(RulesLoopError, match=deep):
        _play_card(engine, "survey")


def test_an_endless_loop_in_the_rules_text_is_reported(pack_copy: PackCopy) -> None:
    folder = pack_copy(
        (
            "rules.yaml",
            "      shuffle the planet-deck;\n",
            "      while 1 is 1: gain 1 fighter;\n      shuffle the planet-deck;\n",
        )
    )
    engine = Engine.load([str(folder)])
    with pytest.raises(RulesLoopError, match=r"^the rules ran \d+ steps without a decision \(in: "):
        engine.new_game(2, 1)


# ---- rules text and values: where the problem is, and only it -----------------------


def test_a_syntax_error_in_a_procedure_does_not_make_it_unknown(pack_copy: PackCopy) -> None:
    folder = pack_copy(
        (
            "rules.yaml",
            "      draw HAND_SIZE cards\n  standard-start:",
            "      draw HAND_SIZE cards (\n  standard-start:",
        )
    )
    p = only_problem(folder)  # not also "unknown word 'start-a-player'" where it is called
    assert (p.line, p.message) == (
        position(folder, "rules.yaml", "      draw HAND_SIZE cards (", "(")[0],
        "unexpected word '('",
    )


def test_errors_in_phase_text_offer_no_card_sections(pack_copy: PackCopy) -> None:
    line = "      if your postponed is at least 1 then act-late\n"
    folder = pack_copy(("rules.yaml", line, line.replace("act-late", "act-late 1 planet gain")))
    p = only_problem(folder)
    assert p.message == "unexpected word 'gain'"
    assert "';' and the next statement" in p.expected
    assert not [e for e in p.expected if "ACTION" in e or "WHEN" in e or "WHILE" in e], p.expected


def test_a_zone_group_problem_is_placed_at_the_member(pack_copy: PackCopy) -> None:
    folder = pack_copy(("vocabulary.yaml", "      - survey-stack\n", "      - survy-stack\n"))
    assert_problem(
        only_problem(folder),
        file=folder / "vocabulary.yaml",
        at=position(folder, "vocabulary.yaml", "      - survy-stack", "survy-stack"),
        message="zone group 'role-stacks' names unknown zone 'survy-stack'",
        suggestion="did you mean 'survey-stack'?",
    )


@pytest.mark.parametrize(
    ("new", "message"),
    [
        (
            "never-decreases: true",
            "expected an expression (a number or text such as 'the number of cards in your hand plus 1'), "
            "not true (yes/no)",
        ),
        (
            "never-decreases: [1, 2]",
            "expected an expression (a number or text such as 'the number of cards in your hand plus 1'), not a list",
        ),
    ],
)
def test_a_value_that_is_not_text_says_what_is_expected_at_the_value(
    pack_copy: PackCopy, new: str, message: str
) -> None:
    line = "    never-decreases: the number of cards in the box\n"
    folder = pack_copy(("invariants.yaml", line, f"    {new}\n"))
    assert_problem(
        only_problem(folder),
        file=folder / "invariants.yaml",
        at=position(folder, "invariants.yaml", f"    {new}", new.split(": ")[1]),
        message=message,
    )


def test_a_number_is_an_expression(pack_copy: PackCopy) -> None:
    """`never-decreases: 0` is an expression, not "expected rules text"."""
    folder = pack_copy(
        ("invariants.yaml", "    never-decreases: the number of cards in the box\n", "    never-decreases: 0\n")
    )
    rules = compile_packs([str(folder)])
    assert any(inv.kind == "never-decreases" for inv in rules.invariants)
