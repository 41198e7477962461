"""Procedures with named parameters: `given a KIND NAME, ...` at a procedure's start,
`PROCEDURE [N] using NAME: WORD, ...` at a call (docs/dsl.md#procedure-parameters)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ROOT

from rules_dsl import ast, printer
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError, PackProblem
from rules_dsl.parser import parse

BASE = str(ROOT / "cards")
ESCALATION = [str(ROOT / "cards"), str(ROOT / "expansions" / "scenarios"), str(ROOT / "expansions" / "escalation")]

# dissent, then a choice between two procedures passed by name, then a counter gained
# through a parameter (base's dissent is the first moment a player meets in a game)
PICK = """\
procedures:
  pick: |
    given a procedure first, a procedure second, a counter prize;
    (first OR second);
    gain N prize
  gain-a-fighter: |
    gain 1 fighter
  gain-an-influence: |
    gain 1 influence
extend:
  procedures:
    dissent:
      after: |
        pick 2 using first: gain-a-fighter, second: gain-an-influence, prize: influence
"""


def mod(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "params"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: params\nrequires: [base]\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(body, encoding="utf-8")
    return folder


def problem(tmp_path: Path, body: str) -> PackProblem:
    folder = mod(tmp_path, body)
    with pytest.raises(PackError) as info:
        compile_packs([BASE, str(folder)])
    [p] = info.value.problems
    assert p.file == str(folder / "rules.yaml")
    return p


def at(body: str, word: str, occurrence: int = 1) -> tuple[int, int]:
    """Line and column (from 1) of the n-th `word` in body."""
    start = -1
    for _ in range(occurrence):
        start = body.index(word, start + 1)
    line = body.count("\n", 0, start) + 1
    return line, start - (body.rfind("\n", 0, start) + 1) + 1


def to_dissent(engine: Engine, seed: int) -> tuple[Engine, object]:
    st = engine.new_game(2, seed)
    for _ in range(200):
        assert st.pending is not None
        if st.pending.prompt == "choose: follow OR dissent":
            engine.apply(st, "dissent")
            return engine, st
        engine.apply(st, st.pending.options[-1])
    raise AssertionError("no dissent offered")


# ---- syntax ---------------------------------------------------------------------------


def test_given_and_using_parse_and_print_back() -> None:
    text = "given a counter ships, an property icons; pay-ships N using ships: fighters, icons: fighter-icons"
    tree = parse(text)
    assert isinstance(tree, ast.Block)
    given, call = tree.stmts
    assert isinstance(given, ast.Given) and isinstance(call, ast.Call)
    assert [(p.kind, p.name) for p in given.params] == [("counter", "ships"), ("property", "icons")]
    assert [(a.name, a.word) for a in call.args] == [("ships", "fighters"), ("icons", "fighter-icons")]
    assert isinstance(call.arg, ast.Var) and call.arg.name == "N"
    printed = printer.to_text(tree)
    assert printed == (
        "given a counter ships, a property icons;\npay-ships N using ships: fighters, icons: fighter-icons"
    )
    assert printer.to_text(parse(printed)) == printed


def test_a_call_keeps_its_number_and_noun_before_using() -> None:
    call = parse("attack 2 planets using what: fighter").stmts[0]
    assert isinstance(call, ast.Call)
    assert (call.noun, [a.word for a in call.args]) == ("planets", ["fighter"])
    assert isinstance(call.arg, ast.Number) and call.arg.value == 2


# ---- what a call does -------------------------------------------------------------------


def test_the_words_are_put_in_and_labels_read_with_them(tmp_path: Path) -> None:
    engine, st = to_dissent(Engine.load([BASE, str(mod(tmp_path, PICK))]), 1)
    assert st.pending is not None  # type: ignore[attr-defined]
    # the choice between the procedures passed in is labelled with their names
    assert st.pending.prompt == "choose: gain-a-fighter OR gain-an-influence"  # type: ignore[attr-defined]
    assert list(st.pending.options) == ["gain-a-fighter", "gain-an-influence"]  # type: ignore[attr-defined]
    player = st.pending.player  # type: ignore[attr-defined]
    influence = list(st.counters["influence"])  # type: ignore[attr-defined]
    fighters = list(st.counters["fighter"])  # type: ignore[attr-defined]
    engine.apply(st, "gain-a-fighter")  # type: ignore[arg-type]
    assert st.counters["fighter"][player] == fighters[player] + 1  # type: ignore[attr-defined]
    # `gain N prize` with N = 2 and prize = influence
    assert st.counters["influence"][player] == influence[player] + 2  # type: ignore[attr-defined]


def test_escalation_writes_each_payment_and_each_planet_use_once() -> None:
    compile_packs(ESCALATION)  # every call's words are of their parameters' kinds
    text = (ROOT / "expansions" / "escalation" / "rules.yaml").read_text(encoding="utf-8")
    procedures = yaml.safe_load(text)["procedures"]
    for name in ("pay-fighters", "pay-destroyers"):
        assert procedures[name].startswith("pay-ships N using ")
    for name in ("discard-a-fighter-icon", "discard-a-destroyer-icon", "discard-a-battlecruiser-icon"):
        assert procedures[name].startswith("discard-a-ship-icon using icons: ")
    assert not [name for name in procedures if name.startswith("use-a-planet-of-type-")]
    assert text.count("use-a-planet-of-type using planet-type: ") == 3


# ---- errors at the call, with file:line:col ---------------------------------------------


def test_a_missing_parameter_is_named_at_the_call(tmp_path: Path) -> None:
    body = PICK.replace(", prize: influence", "")
    p = problem(tmp_path, body)
    assert "'pick' needs 'prize': add 'using prize: ...'" in p.message
    assert (p.line, p.column) == at(body, "pick 2")


def test_an_unknown_parameter_is_named_with_the_ones_there_are(tmp_path: Path) -> None:
    body = PICK.replace("prize: influence", "prise: influence")
    p = problem(tmp_path, body)
    assert "'pick' has no parameter 'prise'" in p.message
    assert (p.line, p.column) == at(body, "prise")
    assert p.expected == ["first", "prize", "second"]
    assert "prize" in p.suggestion


def test_a_word_of_the_wrong_kind_is_named_with_what_fits(tmp_path: Path) -> None:
    body = PICK.replace("prize: influence", "prize: hand")
    p = problem(tmp_path, body)
    assert "'prize' of 'pick' takes a counter; 'hand' is not one" in p.message
    assert (p.line, p.column) == at(body, "hand")
    assert "influence" in p.expected


def test_a_procedure_parameter_takes_only_a_procedure(tmp_path: Path) -> None:
    body = PICK.replace("second: gain-an-influence", "second: gain-an-influense")
    p = problem(tmp_path, body)
    assert "'second' of 'pick' takes a procedure; 'gain-an-influense' is not one" in p.message
    assert "gain-an-influence" in p.suggestion


def test_using_on_a_procedure_without_given_is_an_error(tmp_path: Path) -> None:
    body = PICK.replace("        pick 2 using", "        gain-a-fighter using")
    p = problem(tmp_path, body)
    assert "'gain-a-fighter' has no named parameters" in p.message
    assert (p.line, p.column) == at(body, "first: gain-a-fighter")


def test_given_is_only_a_procedure_s_first_statement(tmp_path: Path) -> None:
    body = PICK.replace("    gain 1 fighter\n", "    gain 1 fighter;\n    given a counter late\n")
    p = problem(tmp_path, body)
    assert "'given' names a procedure's parameters" in p.message
    assert (p.line, p.column) == at(body, "given a counter late")


def test_a_parameter_may_not_be_a_word_of_the_pack(tmp_path: Path) -> None:
    body = PICK.replace("a counter prize", "a counter fighter").replace("gain N prize", "gain N fighter")
    body = body.replace("prize: influence", "fighter: influence")
    p = problem(tmp_path, body)
    assert "parameter 'fighter' is already a counter of the pack" in p.message
    assert (p.line, p.column) == at(body, "fighter;")


def test_an_unknown_kind_of_parameter_is_named_with_the_kinds(tmp_path: Path) -> None:
    body = PICK.replace("a counter prize", "a countr prize")
    p = problem(tmp_path, body)
    assert "unknown kind of parameter 'countr'" in p.message
    assert "counter" in p.expected and "counter" in p.suggestion
    assert (p.line, p.column) == at(body, "countr")


# ---- variables: a procedure's copy sees what its callers bind -------------------------

LETS = """\
procedures:
  give: |
    given a counter what;
    gain V what
  give-twice: |
    let V be 2;
    give using what: influence
  chain: |
    given a procedure then-do;
    then-do
  give-by-name: |
    let V be 1;
    chain using then-do: give-fighters
  give-fighters: |
    give using what: fighter
extend:
  procedures:
    dissent:
      after: |
        give-twice;
        give-by-name
"""


def test_a_variable_bound_by_every_caller_of_a_copy_compiles_and_runs(tmp_path: Path) -> None:
    engine = Engine.load([BASE, str(mod(tmp_path, LETS))])
    st = engine.new_game(2, 1)
    for _ in range(200):
        assert st.pending is not None
        if st.pending.prompt == "choose: follow OR dissent":
            break
        engine.apply(st, st.pending.options[-1])
    assert st.pending is not None
    player = st.pending.player
    influence, fighters = st.counters["influence"][player], st.counters["fighter"][player]
    engine.apply(st, "dissent")
    # give-twice: V = 2 influence; give-by-name: V = 1 fighter, through chain's then-do
    assert st.counters["influence"][player] == influence + 2
    assert st.counters["fighter"][player] == fighters + 1


def test_a_procedure_passed_by_name_is_checked_where_it_is_run(tmp_path: Path) -> None:
    body = LETS.replace("    let V be 1;\n    chain", "    chain")
    p = problem(tmp_path, body)
    assert "nothing is called 'V' here" in p.message
    assert (p.line, p.column) == at(body, "V what")


# ---- a zone group as a parameter --------------------------------------------------------

# the group is named in the plural (`the number of empty stacks`) and in the singular
# (`choose a stack`), as a pack's own group is; `own-piles` holds per-player zones
GROUPS = """\
vocabulary:
  zone-groups:
    own-piles: [discard, hand]
procedures:
  take-from: |
    given a zone-group heaps, a counter prize;
    gain the number of empty heaps prize;
    gain the number of cards in a heap prize;
    choose a heap that is not empty as the source;
    move the top card of the source to your discard
extend:
  procedures:
    dissent:
      after: |
        take-from using heaps: own-piles, prize: fighter;
        take-from using heaps: role-stacks, prize: influence
"""


def before_dissent(engine: Engine, seed: int) -> object:
    st = engine.new_game(2, seed)
    for _ in range(200):
        assert st.pending is not None
        if st.pending.prompt == "choose: follow OR dissent":
            return st
        engine.apply(st, st.pending.options[-1])
    raise AssertionError("no dissent offered")


def test_a_zone_group_is_passed_by_name_and_read_in_the_singular_and_plural(tmp_path: Path) -> None:
    engine = Engine.load([BASE, str(mod(tmp_path, GROUPS))])
    st: Any = before_dissent(engine, 1)
    player = st.pending.player
    fighters, influence = st.counters["fighter"][player], st.counters["influence"][player]
    hand, discard = list(st.zones[f"hand.{player}"]), list(st.zones[f"discard.{player}"])
    groups = ("survey-stack", "warfare-stack", "colonize-stack", "produce-trade-stack", "research-stack")
    stacks = {z: list(st.zones[z]) for z in groups}
    assert not discard and len(hand) == 5 and all(stacks.values())
    engine.apply(st, "dissent")
    # dissent draws first (1 card: your dissent-draws); then own-piles: the chooser's discard
    # (empty) and hand: 1 empty heap, 6 cards in a heap; the hand is the one heap that is not
    # empty, so its top card (the one drawn) goes to the discard unasked
    assert st.counters["fighter"][player] == fighters + 1 + 6
    [drawn] = st.zones[f"discard.{player}"]
    assert drawn not in hand and st.zones[f"hand.{player}"] == hand
    # role-stacks: no empty heap, every card of the stacks counted; the stacks are offered
    assert st.counters["influence"][player] == influence + sum(map(len, stacks.values()))
    assert (st.pending.player, list(st.pending.options)) == (player, list(groups))
    engine.apply(st, "warfare-stack")
    assert st.zones[f"discard.{player}"] == [drawn, stacks["warfare-stack"][-1]]
    assert st.zones["warfare-stack"] == stacks["warfare-stack"][:-1]


def test_a_zone_group_parameter_parses_and_prints_back() -> None:
    text = "given a zone-group heaps;\nchoose a heap that is not empty as the source"
    given, choose = parse(text).stmts  # type: ignore[union-attr]
    assert [(p.kind, p.name) for p in given.params] == [("zone-group", "heaps")]
    assert isinstance(choose, ast.ChooseZone) and choose.group == "heap"
    assert printer.to_text(parse(text)) == text


def test_a_zone_group_parameter_takes_only_a_zone_group(tmp_path: Path) -> None:
    body = GROUPS.replace("heaps: own-piles", "heaps: own-pile")
    p = problem(tmp_path, body)
    assert "'heaps' of 'take-from' takes a zone-group; 'own-pile' is not one" in p.message
    assert (p.line, p.column) == at(body, "own-pile,")
    assert "own-piles" in p.expected and "role-stacks" in p.expected
    assert "own-piles" in p.suggestion


def test_a_zone_group_parameter_s_singular_must_be_new_too(tmp_path: Path) -> None:
    # "hands" would make "choose a hand" mean the group, though `hand` is a zone
    body = GROUPS.replace("heaps", "hands").replace("a heap", "a hand")
    p = problem(tmp_path, body)
    assert "parameter 'hands' names 'hand' in the singular, which is already a zone of the pack" in p.message
    assert (p.line, p.column) == at(body, "hands,")


def test_validate_follows_cards_through_a_zone_group_parameter(tmp_path: Path) -> None:
    # `choose a heap` is the group `lofts` in the singular: the card moved there stays in
    # the attic or the box, so its ability (in the empire) can never work
    folder = tmp_path / "lofty"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: lofty\nrequires: [base]\nfiles: [rules.yaml]\n", encoding="utf-8")
    body = """\
vocabulary:
  zones:
    attic: {visibility: public, facing: up}
  zone-groups:
    lofts: [attic, box]
cards:
  - id: dozer
    kind: planet
    zone: attic
    text: |
      WHEN you dissent: gain 1 influence
procedures:
  stash: |
    given a zone-group heaps;
    choose a heap that is not empty as the spot;
    move the top card of the attic to the spot
extend:
  procedures:
    dissent:
      after: |
        stash using heaps: lofts
"""
    (folder / "rules.yaml").write_text(body, encoding="utf-8")
    warnings = compile_packs([BASE, str(folder)]).warnings
    assert [(w.card, w.line, w.message) for w in warnings] == [
        (
            "dozer",
            at(body, "WHEN")[0],
            "abilities work while their card is in its owner's empire, where this card never goes: "
            "nothing moves it there (it can be in: attic, box)",
        )
    ]
