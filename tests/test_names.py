"""One meaning per name: a word declared in two categories read in the same place is an
error naming both declarations, and a card may replace a required pack's card only if it
says `override: true` (docs/modding.md#one-meaning-per-name)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from rules_dsl.cli import main
from rules_dsl.compiler import compile_packs
from rules_dsl.compiler.words import CLASHES
from rules_dsl.errors import PackError, PackProblem

BASE = ROOT / "cards"
VOCABULARY = BASE / "vocabulary.yaml"
ROLES = BASE / "roles.yaml"
VETERAN = ROOT / "examples" / "mods" / "veteran-survey"


def problems(*paths: Path) -> list[PackProblem]:
    with pytest.raises(PackError) as info:
        compile_packs([str(p) for p in paths])
    return info.value.problems


def mod(tmp_path: Path, body: str, name: str = "mod", requires: str = "[base]") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "pack.yaml").write_text(f"id: {name}\nrequires: {requires}\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(body, encoding="utf-8")
    return folder


def where(path: Path, line_text: str, word: str) -> tuple[str, int, int]:
    """(file, line, column) of `word` in the line of `path` equal to `line_text`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = lines.index(line_text)
    return str(path), i + 1, lines[i].index(word) + 1


# ---- a word in two categories --------------------------------------------------------

# how a mod declares the word `gizmo` in each category, as one line under `vocabulary:`
DECLARE = {
    "counter": "  counters: {gizmo: {per: player}}",
    "zone": "  zones: {gizmo: {per: player}}",
    "zone group": "  zone-groups: {gizmo: [box]}",
    "quantity": "  quantities: {gizmo: how many gizmos a player may keep}",
    "property": "  properties: {gizmo: number}",
    "kind": "  kinds: {gizmo: gizmos}",
    "token": "  tokens: [gizmo]",
    "token group": "  token-groups: {gizmo: []}",
    "symbol": "  symbols: [gizmo]",
}
PAIRS = sorted(tuple(sorted(pair)) for pair in CLASHES)


def test_every_clash_is_a_pair_of_declared_categories() -> None:
    assert {c for pair in PAIRS for c in pair} == set(DECLARE)
    assert ("counter", "zone") in PAIRS and ("property", "quantity") in PAIRS and ("zone", "zone group") in PAIRS


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_a_word_in_two_clashing_categories_names_both_declarations(tmp_path: Path, first: str, second: str) -> None:
    folder = mod(tmp_path, f"vocabulary:\n{DECLARE[first]}\n{DECLARE[second]}\n")
    rules = folder / "rules.yaml"
    [p] = problems(BASE, folder)
    assert (p.file, p.line, p.column) == where(rules, DECLARE[second], "gizmo")
    _, line, column = where(rules, DECLARE[first], "gizmo")
    assert p.message == (
        f"'gizmo' is declared as a {second} here and as a {first} at {rules}:{line}:{column}: "
        "a word means one thing in the packs loaded together, or the rules text reads the wrong one"
    )
    assert p.suggestion == f"give the {second} another name"


def test_a_mod_counter_named_like_the_base_zone_is_an_error(tmp_path: Path) -> None:
    # before, this validated and the base cards' `your discard` read the counter
    folder = mod(tmp_path, "vocabulary:\n  counters:\n    discard: {per: player}\n")
    [p] = problems(BASE, folder)
    assert (p.file, p.line, p.column) == (str(folder / "rules.yaml"), 3, 5)
    _, line, column = where(VOCABULARY, "    discard: {per: player, visibility: public, facing: up}", "discard")
    assert f"as a zone at {VOCABULARY}:{line}:{column}" in p.message


def test_a_counter_plural_is_a_word_of_the_counter(tmp_path: Path) -> None:
    # the base counter `fighter` is also read as `your fighters`
    folder = mod(tmp_path, "vocabulary:\n  zones:\n    fighters: {per: player}\n")
    [p] = problems(BASE, folder)
    assert p.message.startswith("'fighters' is declared as a zone here and as a counter at ")


def test_categories_the_text_keeps_apart_may_share_a_word(tmp_path: Path) -> None:
    # a window and a moment (DURING / WHEN), a symbol and a moment, a kind's plural and a zone
    body = (
        "vocabulary:\n"
        "  moments: {gizmo: when a gizmo is made}\n"
        "  windows: {gizmo: while a gizmo is made}\n"
        "  symbols: [gizmo]\n"
        "  kinds: {widget: widgets}\n"
        "  zones: {widgets: {}}\n"
    )
    compile_packs([str(BASE), str(mod(tmp_path, body))])


def test_the_same_word_in_one_category_again_is_an_override_not_a_clash(tmp_path: Path) -> None:
    folder = mod(tmp_path, "vocabulary:\n  zones:\n    discard: {per: player, visibility: owner}\n")
    rules = compile_packs([str(BASE), str(folder)])
    assert rules.zones["discard"].visibility == "owner"


# ---- a card id a required pack has ----------------------------------------------------

SURVEY = "cards:\n  - id: survey\n{flag}    name: Survey\n    kind: role-card\n    zone: survey-stack\n    count: 1\n"


def test_reusing_a_required_packs_card_id_is_an_error_naming_both(tmp_path: Path) -> None:
    folder = mod(tmp_path, SURVEY.format(flag=""))
    [p] = problems(BASE, folder)
    assert (p.file, p.line, p.column, p.card) == (str(folder / "rules.yaml"), 2, 5, "survey")
    _, line, column = where(ROLES, "  - id: survey", "id")
    assert p.message == (
        f"pack 'base' already has a card 'survey' ({ROLES}:{line}:{column}): a card that replaces it says so"
    )
    assert p.suggestion == "add 'override: true' to replace it, or give this card another id"


def test_override_true_replaces_the_card_and_validate_lists_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = mod(tmp_path, SURVEY.format(flag="    override: true\n"))
    rules = compile_packs([str(BASE), str(folder)])
    [survey] = [c for c in rules.cards if c.id == "survey"]
    assert survey.count == 1
    assert [o for o in rules.overrides if o.startswith("card ")] == [
        f"card survey (base -> mod, {folder / 'rules.yaml'}:2)"
    ]
    assert main(["validate", "--explain", str(BASE), str(folder)]) == 0
    assert f"overridden: card survey (base -> mod, {folder / 'rules.yaml'}:2)" in capsys.readouterr().out


def test_override_true_with_nothing_to_replace_is_an_error(tmp_path: Path) -> None:
    body = SURVEY.format(flag="    override: true\n").replace("id: survey", "id: new-survey")
    [p] = problems(BASE, mod(tmp_path, body))
    assert (p.line, p.column, p.card) == (3, 5, "new-survey")
    assert p.message == "override: true, but no pack 'mod' requires has a card 'new-survey' to replace"


def test_override_is_true_or_false(tmp_path: Path) -> None:
    [p] = problems(BASE, mod(tmp_path, SURVEY.format(flag="    override: yes please\n")))
    assert (p.line, p.message) == (3, "override must be true or false")


def test_override_on_a_copies_entry_covers_each_copy(tmp_path: Path) -> None:
    body = (
        "cards:\n  - override: true\n    name: Survey\n    kind: role-card\n    zone: survey-stack\n"
        "    copies:\n      - {id: survey}\n      - {id: colonize}\n"
    )
    rules = compile_packs([str(BASE), str(mod(tmp_path, body))])
    assert {o.split(" (")[0] for o in rules.overrides} == {"card survey", "card colonize"}


# ---- the built-in packs say which cards they replace ----------------------------------

BUILT_IN = {
    ("cards",): set(),
    ("cards", "expansions/scenarios"): {"politics"},
    ("cards", "expansions/scenarios", "expansions/escalation"): {
        "politics",
        "colonize",
        "improved-colonize-cr",
        "improved-colonize-ct",
        "improved-colonize-cs",
        "improved-colonize-cw",
        "terraforming",
        "weapon-emporium",
    },
    ("expansions/microcosm",): set(),
    ("cards", "examples/mods/envoys"): set(),
    ("cards", "examples/mods/bounties"): set(),
    ("cards", "examples/mods/frontier-techs"): set(),
    ("cards", "examples/mods/veteran-survey"): {"survey"},
    ("examples/games/love-letter",): set(),
    ("examples/games/spice-market",): set(),
    ("examples/games/dominion-first-game",): set(),
    ("examples/games/polignac",): set(),
    ("examples/games/sushi-go",): set(),
    ("examples/games/hanabi",): set(),
}


@pytest.mark.parametrize("paths", list(BUILT_IN), ids=lambda p: "+".join(Path(x).name for x in p))
def test_every_built_in_pack_and_example_validates_and_says_which_cards_it_replaces(paths: tuple[str, ...]) -> None:
    rules = compile_packs([str(ROOT / p) for p in paths])
    replaced = {o.split(" (")[0].removeprefix("card ") for o in rules.overrides if o.startswith("card ")}
    assert replaced == BUILT_IN[paths]
