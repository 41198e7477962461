"""Evaluation features and weights (`features:`, `weights:`; compiler/features.py): they
compile, evaluate to exact values, a mod may replace the weights, and bad input is an error
at its file:line:col saying what to do (docs/modding.md#evaluation-and-statistics)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ROOT

from rules_dsl.bots import make_bot
from rules_dsl.bots.evaluate import evaluator, feature_values, value_of
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import PackError, PackProblem, RulesError

BASE = ROOT / "cards"


def mod(tmp_path: Path, body: str, name: str = "mod", requires: str = "[base]") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "pack.yaml").write_text(f"id: {name}\nrequires: {requires}\n", encoding="utf-8")
    (folder / "evaluation.yaml").write_text(body, encoding="utf-8")
    return folder


def problems(*paths: Path) -> list[PackProblem]:
    with pytest.raises(PackError) as info:
        compile_packs([str(p) for p in paths])
    return info.value.problems


def weights_for(names: list[str], **given: float) -> str:
    return "weights:\n" + "".join(f"  {n}: {given.get(n.replace('-', '_'), 0)}\n" for n in names)


BASE_NAMES = [f.name for f in compile_packs(pack_paths("base")).features]


def test_the_base_features_at_the_first_decision() -> None:
    """Each seat holds the 10-card starting deck (Survey 2, Warfare 1, Colonize 2,
    Produce/Trade 2 with both symbols, Research 2, Politics 1 with none) and one face-down
    start planet: nothing else yet."""
    engine = Engine.for_pack("base")
    st = engine.new_game(2, 1)
    values = dict(zip(BASE_NAMES, feature_values(engine.rules)(st)[0], strict=True))
    assert values == {
        "influence": 0,
        "planet-influence": 0,
        "technology-influence": 0,
        "colony-influence": 0,
        "planets": 0,
        "face-down-planets": 1,
        "fighters": 0,
        "resources": 0,
        "level-1-technologies": 0,
        "level-2-technologies": 0,
        "level-3-technologies": 0,
        "cards": 10,
        "survey-symbols": 2,
        "warfare-symbols": 1,
        "colonize-symbols": 2,
        "produce-symbols": 2,
        "trade-symbols": 2,
        "research-symbols": 2,
    }
    assert feature_values(engine.rules)(st)[1] == feature_values(engine.rules)(st)[0]


def test_a_mods_weights_replace_the_packs_and_value_is_the_weighted_sum(tmp_path: Path) -> None:
    folder = mod(tmp_path, weights_for(BASE_NAMES, cards=0.5, face_down_planets=-2, research_symbols=1.25))
    rules = compile_packs([str(BASE), str(folder)])
    assert rules.weights is not None
    assert dict(zip(BASE_NAMES, rules.weights, strict=True))["cards"] == 0.5
    assert rules.weights_place == f"{folder / 'evaluation.yaml'}:1:1"
    st = Engine(rules).new_game(2, 1)
    # 10 cards x 0.5 - 1 face-down planet x 2 + 2 research symbols x 1.25
    assert value_of(rules, "greedy")(st) == [5.5, 5.5]
    assert evaluator(rules, "greedy")(st) == [0.0, 0.0]


def test_a_feature_value_follows_the_game() -> None:
    """After random decisions, each seat's value is its features times the weights."""
    engine = Engine.for_pack("microcosm")
    st = engine.new_game(2, 3)
    rng = random.Random(3)
    for _ in range(40):
        assert st.pending is not None
        engine.apply(st, st.pending.options[rng.randrange(len(st.pending.options))])
    rules = engine.rules
    assert rules.weights is not None
    features = feature_values(rules)(st)
    assert any(any(row) for row in features)
    expected = [sum(w * v for w, v in zip(rules.weights, row, strict=True)) for row in features]
    assert value_of(rules, "greedy")(st) == pytest.approx(expected)


def test_a_mod_adds_a_feature_and_must_weigh_it(tmp_path: Path) -> None:
    body = "features:\n  hand-size: your hand\n" + weights_for(BASE_NAMES)
    folder = mod(tmp_path, body)
    [p] = problems(BASE, folder)
    assert (p.file, p.line, p.column) == (str(folder / "evaluation.yaml"), 3, 1)
    assert "no weight for the feature 'hand-size'" in p.message
    assert f"{folder / 'evaluation.yaml'}:2:3" in p.message
    assert "rules-dsl tune" in p.message
    rules = compile_packs([str(BASE), str(mod(tmp_path, body + "  hand-size: 1\n", "mod2"))])
    assert [f.name for f in rules.features][-1] == "hand-size"


def test_a_weight_for_an_unknown_feature_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    folder = mod(tmp_path, weights_for(BASE_NAMES) + "  plantes: 2\n")
    [p] = problems(BASE, folder)
    assert (p.file, p.line, p.column) == (str(folder / "evaluation.yaml"), len(BASE_NAMES) + 2, 3)
    assert "weight for an unknown feature 'plantes'" in p.message
    assert "planets" in p.suggestion


def test_weights_without_features(tmp_path: Path) -> None:
    folder = mod(tmp_path, "weights:\n  influence: 1\n", requires="[]")
    (folder / "pack.yaml").write_text("id: mod\nrequires: []\nfiles: [evaluation.yaml]\n", encoding="utf-8")
    found = problems(folder)
    assert any("weights: but the packs declare no features" in p.message for p in found)


@pytest.mark.parametrize("value", ["lots", "true", ".nan", "1e400", "[1]"])
def test_a_weight_must_be_a_number(tmp_path: Path, value: str) -> None:
    folder = mod(tmp_path, weights_for(BASE_NAMES).replace("influence: 0\n", f"influence: {value}\n", 1))
    [p] = problems(BASE, folder)
    assert p.message == "weights: influence must be a number from -1000000 to 1000000"
    assert p.line == 2


def test_a_feature_that_does_not_compile_names_its_place(tmp_path: Path) -> None:
    folder = mod(tmp_path, "features:\n  odd: your gizmos\n")
    p, missing = problems(BASE, folder)
    assert (p.file, p.line) == (str(folder / "evaluation.yaml"), 2)
    assert p.column >= 8
    assert "no weight for the feature 'odd'" in missing.message


def test_features_without_weights_leave_the_bots_asking_for_tune(tmp_path: Path) -> None:
    """A game of its own with features but no weights: random plays, greedy says what to do."""
    game = tmp_path / "micro"
    import shutil

    shutil.copytree(ROOT / "expansions" / "microcosm", game)
    path = game / "evaluation.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("\nweights:")], encoding="utf-8")  # its comment stays: harmless
    engine = Engine.load([str(game)])
    assert engine.rules.weights is None and engine.rules.features
    with pytest.raises(RulesError, match=r"run 'rules-dsl tune microcosm' to learn them"):
        make_bot("greedy", engine, 1)
    make_bot("random", engine, 1)
