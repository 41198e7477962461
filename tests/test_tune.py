"""rules-dsl tune: weights learned from exploring self-play, written where the pack reads
them, and clear errors for what cannot be tuned (docs/balance.md#tuned-evaluations)."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from rules_dsl.cli import main
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine
from rules_dsl.tune import Fit, plan_rank, play_rows, tune, with_weights

Capsys = pytest.CaptureFixture[str]
MICRO = ROOT / "expansions" / "microcosm"


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def head(text: str) -> str:
    """A pack file's text before its weights: part and the comment right above it."""
    lines = text.split("\n")
    at = lines.index("weights:")
    while lines[at - 1].startswith("#"):
        at -= 1
    return "\n".join(lines[:at])


def test_a_tiny_run_gives_a_weight_for_every_feature() -> None:
    engine = Engine.for_pack("microcosm")
    fit = tune(engine, 2, games=4, seed=1, rounds=1, stride=4)
    assert isinstance(fit, Fit)
    assert fit.names == tuple(f.name for f in engine.rules.features)
    assert len(fit.weights) == len(fit.names)
    assert all(math.isfinite(w) for w in fit.weights)
    assert fit.games == 4 and fit.rows > 0
    # the same seed plays the same games: the same weights
    assert tune(engine, 2, games=4, seed=1, rounds=1, stride=4).weights == fit.weights


def test_tune_writes_the_weights_the_pack_reads_back(tmp_path: Path, capsys: Capsys) -> None:
    pack = tmp_path / "micro"
    shutil.copytree(MICRO, pack)
    before = (pack / "evaluation.yaml").read_text(encoding="utf-8")
    code, out, err = run(capsys, "tune", str(pack), "--games", "4", "--rounds", "1", "--stride", "4", "--quiet")
    assert code == 0, err
    assert "weights learned from 4 games" in out
    assert f"wrote the weights to {pack / 'evaluation.yaml'}" in out
    after = (pack / "evaluation.yaml").read_text(encoding="utf-8")
    # the features part is kept as it was; the weights and their comment are new
    assert head(after) == head(before)
    assert "# Tuned by `rules-dsl tune " in after
    rules = compile_packs([str(pack)])
    assert rules.weights is not None and len(rules.weights) == len(rules.features)
    tuned = dict(line.strip().split(": ") for line in after.split("weights:\n")[1].splitlines() if line.strip())
    assert [float(tuned[f.name]) for f in rules.features] == list(rules.weights)


def test_tune_out_writes_a_mods_file(tmp_path: Path, capsys: Capsys) -> None:
    out_file = tmp_path / "mod-weights.yaml"
    code, out, err = run(
        capsys, "tune", "microcosm", "--games", "2", "--rounds", "1", "--out", str(out_file), "--quiet"
    )
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith("# Evaluation weights learned by rules-dsl tune")
    assert "\nweights:\n  card-score: " in text


def test_with_weights_replaces_only_the_weights() -> None:
    text = "# head\nfeatures:\n  a: your hand\n\n# old comment\nweights:\n  a: 1\n\nstatistics: {}\n"
    new = with_weights(text, ["# new", "weights:", "  a: 2"])
    assert new == "# head\nfeatures:\n  a: your hand\n\n# new\nweights:\n  a: 2\n\nstatistics: {}\n"
    assert with_weights("features:\n  a: your hand\n", ["weights:", "  a: 2"]) == (
        "features:\n  a: your hand\n\nweights:\n  a: 2\n"
    )


def test_a_pack_without_features_says_where_to_add_them(capsys: Capsys) -> None:
    game = ROOT / "examples" / "games" / "love-letter"
    code, out, err = run(capsys, "tune", str(game), "--games", "2", "--quiet")
    assert code == 1
    assert out == ""
    line = next(i for i, t in enumerate((game / "pack.yaml").read_text().splitlines(), 1) if t.startswith("files:"))
    assert err.startswith(f"error: {game / 'pack.yaml'}:{line}:1: Love Letter declares no evaluation features")
    assert "add a file with a features: part" in err


def test_a_seat_exploring_by_a_plan_keeps_to_one_course() -> None:
    # its exploring decisions take the option id it likes best that game, whatever the
    # copy or place (`id#2`, `id@hand`): the same liking in every decision of the game
    assert plan_rank(3, 1, "survey@hand") == plan_rank(3, 1, "survey#2") == plan_rank(3, 1, "survey")
    likings = {seed: max(["survey", "warfare", "colonize", "research"], key=lambda o: plan_rank(seed, 0, o))
               for seed in range(40)}  # fmt: skip
    assert len(set(likings.values())) == 4  # each game its own plan
    engine = Engine.for_pack("microcosm")
    planned = play_rows(engine, 2, 5, [0.0] * len(engine.rules.features), 1.0, 4, plans=1.0)
    assert planned == play_rows(engine, 2, 5, [0.0] * len(engine.rules.features), 1.0, 4, plans=1.0)
    assert planned != play_rows(engine, 2, 5, [0.0] * len(engine.rules.features), 1.0, 4)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--explore", "2"], "--explore 2.0: give a share from 0 to 1"),
        (["--plans", "-1"], "--plans -1.0: give a share from 0 to 1"),
        (["--players", "3"], "Microcosm is for exactly 2 players"),
    ],
)
def test_bad_tune_options(argv: list[str], message: str, capsys: Capsys) -> None:
    code, out, err = run(capsys, "tune", "microcosm", "--quiet", *argv)
    assert code == 2 or code == 1
    assert message in err
