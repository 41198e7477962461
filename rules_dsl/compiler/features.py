"""A pack's `features:` and `weights:`: how the search bots judge a position.

`features:` maps a name to an expression worked out for "you" (counters held, cards of a
kind, symbols in the deck); packs add features, a later pack's feature of the same name
replaces the earlier one. `weights:` gives each feature a weight (the last pack's table
replaces the earlier ones, so a mod may ship its own); a bot values a position for "you"
as the weighted sum of the features. `rules-dsl tune` learns the weights from games.
Weights must name exactly the declared features: a weight for an unknown feature, or a
feature left without a weight, is an error at the `weights:` entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules_dsl.compiler.statements import CompileError, StatementCompiler
from rules_dsl.errors import suggest
from rules_dsl.packs import check, shape
from rules_dsl.packs.loader import Problems, key_loc, value_loc
from rules_dsl.packs.model import Loc, Located
from rules_dsl.rules import Feature

ParseText = Callable[[Located, str], Any]
Report = Callable[[CompileError, Loc], None]
TUNE_HINT = "run 'rules-dsl tune PACK' to learn them (docs/balance.md#tuned-evaluations)"


def compile_features(
    parts: list[Located],
    weights: Located | None,
    sc: StatementCompiler,
    problems: Problems,
    parse_text: ParseText,
    report: Report,
) -> tuple[tuple[Feature, ...], tuple[float, ...] | None, str]:
    """The features in pack order, the weights in the same order (None: none given), and
    where the weights are written (file:line:col, or "")."""
    found: dict[str, Feature] = {}
    declared: dict[str, Loc] = {}
    for part in parts:
        node, file = part.value, part.loc.file
        if not check.check(node, shape.PACK_FILE.fields["features"].shape, file, problems, "features", part.loc):
            continue
        for name, text in node.items():
            at = key_loc(node, name, file)
            declared[str(name)] = at
            tree = parse_text(Located(text, value_loc(node, name, file)), "expression")
            if tree is None:
                continue
            try:
                expr = sc.num(tree)
            except CompileError as exc:
                report(exc, value_loc(node, name, file))
                continue
            found[str(name)] = Feature(str(name), expr, at.place())
    if weights is None:
        return tuple(found.values()), None, ""
    node, file = weights.value, weights.loc.file
    if not check.check(node, shape.PACK_FILE.fields["weights"].shape, file, problems, "weights", weights.loc):
        return tuple(found.values()), None, ""
    if not declared:
        problems.add(
            weights.loc,
            "weights: but the packs declare no features: give a features: part naming an expression for "
            "each weight (docs/modding.md#evaluation-and-statistics)",
        )
        return (), None, ""
    given: dict[str, float] = {}
    for name, value in node.items():
        if str(name) not in declared:
            problems.add(
                key_loc(node, name, file),
                f"weight for an unknown feature {str(name)!r}: weights name the packs' features",
                expected=sorted(declared),
                suggestion=suggest(str(name), declared),
            )
            continue
        given[str(name)] = float(value)
    missing = [n for n in declared if n not in given]
    if missing:
        problems.add(
            weights.loc,
            "weights: no weight for the feature"
            + ("s " if len(missing) > 1 else " ")
            + ", ".join(f"{n!r} ({declared[n].place()})" for n in missing)
            + ": give every feature a weight (0 ignores it), or "
            + TUNE_HINT,
            expected=missing,
        )
    if problems.items or len(found) != len(declared):
        return tuple(found.values()), None, ""
    return tuple(found.values()), tuple(given[f.name] for f in found.values()), weights.loc.place()
