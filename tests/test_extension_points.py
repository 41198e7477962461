"""Extension points: rules text written as named steps, which a pack that requires another
changes (before, after, instead of, or as an alternative to a step) without restating the
rest; Escalation is such a delta of the base rules, so a change to them reaches it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from rules_dsl.compiler import compile_packs
from rules_dsl.compiler.build import load_sources
from rules_dsl.compiler.compose import compose
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError, PackProblem
from rules_dsl.packs.loader import Problems
from rules_dsl.state import GameState

BASE = str(ROOT / "cards")
SCENARIOS = ROOT / "expansions" / "scenarios"
ESCALATION = ROOT / "expansions" / "escalation"


def problems(*paths: Path | str) -> list[PackProblem]:
    with pytest.raises(PackError) as info:
        compile_packs([str(p) for p in paths])
    return info.value.problems


def mod(tmp_path: Path, name: str, body: str, requires: str = "[base]") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "pack.yaml").write_text(f"id: {name}\nrequires: {requires}\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(body, encoding="utf-8")
    return folder


def procedure(name: str, *paths: Path | str) -> str:
    """A procedure's text as the packs compose it, on one line."""
    found = Problems()
    composed = compose(load_sources([str(p) for p in paths], found), found)
    assert not found.items
    return " ".join(str(composed.procedures[name].joined().value).split())


def where(path: Path, line_text: str) -> tuple[str, int, int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    i = lines.index(line_text)
    return str(path), i + 1, len(lines[i]) - len(lines[i].lstrip()) + 1


# ---- Escalation states only its differences ------------------------------------------


def test_escalation_restates_no_part_of_the_base_rules() -> None:
    base = yaml.safe_load((ROOT / "cards" / "rules.yaml").read_text(encoding="utf-8"))
    scenarios = yaml.safe_load((SCENARIOS / "rules.yaml").read_text(encoding="utf-8"))
    escalation = yaml.safe_load((ESCALATION / "rules.yaml").read_text(encoding="utf-8"))
    for pack in (scenarios, escalation):
        assert "turn" not in pack and "setup" not in pack
        assert not set(pack.get("procedures", {})) & set(base["procedures"])
    assert not set(escalation.get("procedures", {})) & set(scenarios["procedures"])


def _copy_packs(tmp_path: Path) -> tuple[Path, Path, Path]:
    base = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", base)
    scenarios = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS, scenarios)
    escalation = tmp_path / "escalation"
    shutil.copytree(ESCALATION, escalation)
    return base, scenarios, escalation


def _play(engine: Engine, seed: int, decisions: int) -> tuple[GameState, int]:
    """A game played by always taking option `i mod n` at the i-th decision; returns the
    state and how many times a player chose to dissent."""
    st = engine.new_game(3, seed)
    dissents = 0
    for i in range(decisions):
        if st.pending is None:
            break
        option = st.pending.options[i % len(st.pending.options)]
        dissents += option == "dissent"
        engine.apply(st, option)
    return st, dissents


def test_a_change_to_a_base_procedure_reaches_escalation(tmp_path: Path) -> None:
    base, scenarios, escalation = _copy_packs(tmp_path)
    packs = [str(base), str(scenarios), str(escalation)]
    st, dissents = _play(Engine.load(packs), 5, 400)
    assert dissents >= 3
    rules = base / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    dissent = "    draw your dissent-draws cards;\n"
    changed = text.replace(dissent, dissent + "    gain 1 influence;\n")
    assert changed != text
    rules.write_text(changed, encoding="utf-8")
    st2, dissents2 = _play(Engine.load(packs), 5, 400)
    assert dissents2 == dissents
    # each dissent now takes one influence token from the supply
    assert (
        sum(st2.counters["influence"]) + st2.shared["influence-supply"]
        == sum(st.counters["influence"]) + st.shared["influence-supply"]
    )
    assert st.shared["influence-supply"] - st2.shared["influence-supply"] == dissents


def test_a_change_to_a_named_base_step_reaches_escalation(tmp_path: Path) -> None:
    """The base role phase gives one more symbol to the leader: Escalation's leader gets
    it too, beside Escalation's own additions to that step (extra symbols)."""
    base, scenarios, escalation = _copy_packs(tmp_path)
    packs = [str(base), str(scenarios), str(escalation)]
    rules = base / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    changed = text.replace("          plus BONUS\n", "          plus BONUS\n          plus 1\n")
    assert changed != text
    rules.write_text(changed, encoding="utf-8")
    Engine.load(packs)  # it compiles
    assert "plus BONUS plus 1 ; set X to X plus your extra-symbols ;" in procedure("role-phase", *packs)


# ---- the extension points ----------------------------------------------------------


def test_before_after_replace_and_alternative_of_named_steps(tmp_path: Path) -> None:
    a = mod(
        tmp_path,
        "a",
        """\
extend:
  steps:
    count-the-lead:
      after: set X to X plus 1
    do-the-follow:
      replace: do the role's LEAD
    boost-the-lead:
      before: gain 1 influence
  procedures:
    dissent:
      alternative: gain 1 influence
""",
    )
    Engine.load([BASE, str(a)])  # it compiles
    role_phase = procedure("role-phase", BASE, a)
    assert "; gain 1 influence ; boost ; let X be" in role_phase
    assert "plus BONUS ; set X to X plus 1 ; do the role's LEAD ;" in role_phase
    follow = procedure("follow-the-role", BASE, a)
    assert "do the role's FOLLOW" not in follow and "do the role's LEAD" in follow
    dissent = "( draw your dissent-draws cards; announce dissent ) OR ( gain 1 influence )"
    assert procedure("dissent", BASE, a) == dissent


def test_a_dissent_with_an_alternative_asks_which(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "extend:\n  procedures:\n    dissent:\n      alternative: gain 1 influence\n")
    engine = Engine.load([BASE, str(a)])
    st = engine.new_game(2, 1)
    for _ in range(200):
        assert st.pending is not None
        if st.pending.prompt == "choose: follow OR dissent":
            engine.apply(st, "dissent")
            break
        engine.apply(st, st.pending.options[-1])
    assert st.pending is not None
    assert st.pending.prompt == "choose: draw your dissent-draws cards; announce dissent OR gain 1 influence"
    before = list(st.counters["influence"])
    player = st.pending.player
    engine.apply(st, "gain 1 influence")
    assert st.counters["influence"][player] == before[player] + 1


def test_an_unknown_step_is_reported_where_it_is_named_with_suggestions(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "extend:\n  steps:\n    count-the-leed:\n      after: set X to X plus 1\n")
    [p] = problems(BASE, a)
    assert (p.file, p.line, p.column) == where(a / "rules.yaml", "    count-the-leed:")
    assert "no step 'count-the-leed'" in p.message
    assert "count-the-lead" in p.suggestion
    assert "count-the-follow" in p.expected


def test_a_step_name_declared_twice_is_an_error_naming_both(tmp_path: Path) -> None:
    a = mod(
        tmp_path,
        "a",
        "procedures:\n  greet:\n    - step: lead-the-role\n      text: gain 1 influence\n",
    )
    [p] = problems(BASE, a)
    assert (p.file, p.line) == (str(a / "rules.yaml"), 3)
    assert "already a step called 'lead-the-role'" in p.message
    assert "cards/rules.yaml:" in p.message


def test_a_step_added_by_a_pack_can_be_changed_by_a_later_one(tmp_path: Path) -> None:
    a = mod(
        tmp_path,
        "a",
        "extend:\n  steps:\n    lead-the-role:\n      after:\n"
        "        - step: cheer\n          text: gain 1 influence\n",
    )
    b = mod(tmp_path, "b", "extend:\n  steps:\n    cheer:\n      replace: gain 2 influence\n", requires="[base, a]")
    Engine.load([BASE, str(a), str(b)])  # it compiles
    assert "do the role's LEAD ; gain 2 influence ; announce lead" in procedure("role-phase", BASE, a, b)


def test_two_mods_replacing_one_step_conflict(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "extend:\n  steps:\n    lead-the-role:\n      replace: do the role's FOLLOW\n")
    b = mod(tmp_path, "b", "extend:\n  steps:\n    lead-the-role:\n      replace: gain 1 influence\n")
    [p] = problems(BASE, a, b)
    assert p.file == str(b / "rules.yaml")
    assert "does not require it" in p.message


def test_a_step_change_of_the_wrong_shape_is_reported_from_the_shape(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "extend:\n  steps:\n    lead-the-role:\n      instead: gain 1 influence\n")
    [p] = problems(BASE, a)
    assert (p.file, p.line) == (str(a / "rules.yaml"), 4)
    assert "unknown key 'instead'" in p.message
    assert set(p.expected) == {"before", "after", "replace", "alternative"}


def test_a_mistake_in_a_step_is_reported_at_the_step(tmp_path: Path) -> None:
    a = mod(
        tmp_path,
        "a",
        "procedures:\n  greet:\n    - step: hello\n      text: gain 1 influense\n",
    )
    [p] = problems(BASE, a)
    assert (p.file, p.line) == (str(a / "rules.yaml"), 4)


def test_a_replaced_procedure_takes_its_steps_with_it(tmp_path: Path) -> None:
    """A pack that gives a procedure again may name its steps as the old one did."""
    a = mod(
        tmp_path,
        "a",
        "procedures:\n  boost:\n    - step: boost-with-cards\n      text: nothing\n",
    )
    Engine.load([BASE, str(a)])  # it compiles
    assert procedure("boost", BASE, a) == "nothing"
