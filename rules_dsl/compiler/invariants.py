"""A pack's `invariants:`: facts of its game that hold in every position, in the pack's own words.

Each entry has a `name` and one claim, written in the condition or expression language
(so a mistake in it is reported with file, line, column and a suggestion, like card text):

- `holds: CONDITION`: true in every position, tested once for each player as "you";
- `constant: EXPRESSION`: its value never changes from the first decision to the end;
- `never-decreases: EXPRESSION` / `never-increases: EXPRESSION`: it only goes one way.

An expression claim may add `plus-each-player: EXPRESSION`, worked out for each player as
"you" and added to the value (coins held by every player plus the bank). The main
expression is worked out with "you" = player 1. Packs add invariants; a later pack's
invariant with the same name replaces the earlier one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules_dsl.compiler.statements import CompileError, StatementCompiler
from rules_dsl.packs.loader import Problems, key_loc, unknown_keys, value_loc
from rules_dsl.packs.model import Loc, Located
from rules_dsl.packs.shape import INVARIANT, INVARIANT_CLAIMS
from rules_dsl.rules import Invariant

CLAIMS = {claim: "condition" if claim == "holds" else "expression" for claim in INVARIANT_CLAIMS}
KEYS = sorted(INVARIANT.names())

TextLoc = Callable[[Any, Any, Loc], tuple[int, int, int, int, int]]
ParseText = Callable[[Located, str], Any]
Report = Callable[[CompileError, Loc], None]


def compile_invariants(
    parts: list[Located],
    sc: StatementCompiler,
    problems: Problems,
    parse_text: ParseText,
    report: Report,
    text_loc: TextLoc,
    overridden: list[str],
) -> tuple[Invariant, ...]:
    """Every pack's `invariants:` list, in pack order, compiled against the merged words."""
    found: dict[str, Invariant] = {}
    for part in parts:
        if not isinstance(part.value, list):
            problems.add(part.loc, "invariants must be a list of {name: ..., holds: condition} (or constant: ...)")
            continue
        for i, entry in enumerate(part.value):
            eloc = value_loc(part.value, i, part.loc.file)
            inv = _one(entry, eloc, sc, problems, parse_text, report, text_loc)
            if inv is None:
                continue
            if inv.name in found:
                overridden.append(f"invariant {inv.name} ({found[inv.name].file} -> {inv.file})")
            found[inv.name] = inv
    return tuple(found.values())


def _one(
    entry: Any,
    eloc: Loc,
    sc: StatementCompiler,
    problems: Problems,
    parse_text: ParseText,
    report: Report,
    text_loc: TextLoc,
) -> Invariant | None:
    if not hasattr(entry, "items"):
        problems.add(eloc, "each invariant is {name: ..., holds: condition}", expected=KEYS)
        return None
    ok = not unknown_keys(entry, INVARIANT, eloc.file, problems, "in an invariant")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.add(eloc, "an invariant needs a name: name: what must hold", expected=["name"])
        ok = False
    claims = [k for k in CLAIMS if k in entry]
    if len(claims) != 1:
        problems.add(
            eloc,
            "an invariant makes exactly one claim: " + ("none given" if not claims else f"{', '.join(claims)} given"),
            expected=list(CLAIMS),
        )
        return None
    kind = claims[0]
    if "plus-each-player" in entry and kind == "holds":
        problems.add(
            key_loc(entry, "plus-each-player", eloc.file),
            "plus-each-player adds to an expression: use it with constant, never-decreases or never-increases",
        )
        ok = False
    main = _compile(entry, kind, CLAIMS[kind], eloc, sc, parse_text, report, text_loc)
    each = None
    if "plus-each-player" in entry:
        each = _compile(entry, "plus-each-player", "expression", eloc, sc, parse_text, report, text_loc)
        ok = ok and each is not None
    if not ok or main is None:
        return None
    return Invariant(str(name), kind, main, each, eloc.file, eloc.line)


def _compile(
    entry: Any,
    key: str,
    start: str,
    eloc: Loc,
    sc: StatementCompiler,
    parse_text: ParseText,
    report: Report,
    text_loc: TextLoc,
) -> Any:
    text = Located(entry[key], Loc(eloc.file, *text_loc(entry, key, eloc)))
    tree = parse_text(text, start)
    if tree is None:
        return None
    try:
        return sc.cond(tree) if start == "condition" else sc.num(tree)
    except CompileError as exc:
        report(exc, text.loc)
        return None
