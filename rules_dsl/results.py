"""Results files: one finished game per JSON line, read back with every bad line reported.

Written by `rules-dsl simulate --out`, read by `--resume` and `rules-dsl report`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from rules_dsl.errors import RulesError

# key -> the JSON types its value may have
FIELDS: dict[str, tuple[type, ...]] = {
    "seed": (int,),
    "pack": (str,),
    "variants": (list,),
    "scenario": (str, type(None)),
    "players": (int,),
    "bots": (list,),
    "scores": (list,),
    "breakdown": (dict,),
    "winners": (list,),
    "end_trigger": (str,),
    "turns": (int,),
    "decisions": (int,),
    "counts": (dict,),
}
# keys newer files add (older ones lack them): key -> the JSON types its value may have
OPTIONAL_FIELDS: dict[str, tuple[type, ...]] = {
    "lineup": (list,),  # the bots as named; `bots` is who sat where in this game
    "seat_order": (list,),  # the line-up position seated in each seat
    "rotate_seats": (bool,),
    "choices": (dict,),  # {"offered": [{card: n} per seat], "taken": [...]}
}
MAX_LINE = 10_000_000  # a line longer than this is not one of ours


def dumps(record: dict[str, Any]) -> str:
    """One line, the same bytes for the same game on any machine."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def problem(record: Any) -> str:
    """Why a parsed line is not a game result, or ''."""
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not a game"
    for key, kinds in FIELDS.items():
        if key not in record:
            return f"no {key!r}"
        if not isinstance(record[key], kinds) or isinstance(record[key], bool):
            return f"{key!r} is {type(record[key]).__name__}"
    for key, kinds in OPTIONAL_FIELDS.items():
        if key in record and not isinstance(record[key], kinds):
            return f"{key!r} is {type(record[key]).__name__}"
    n = record["players"]
    if not 1 <= n <= 64 or len(record["scores"]) != n or len(record["bots"]) != n:
        return "'players', 'scores' and 'bots' do not match"
    if not all(isinstance(w, int) and 0 <= w < n for w in record["winners"]):
        return "'winners' are not seats"
    if not all(isinstance(s, int | float) for s in record["scores"]):
        return "'scores' are not numbers"
    return ""


@attrs.define
class Loaded:
    games: list[dict[str, Any]]
    skipped: list[tuple[int, str]]  # (line number, why)


def load(path: str | Path) -> Loaded:
    """Every good line of a results file; broken or foreign lines are listed, not fatal."""
    try:
        with Path(path).open(encoding="utf-8", errors="replace") as handle:
            return parse(handle)
    except OSError as exc:
        raise RulesError(f"cannot read results file {path}: {exc.strerror or exc}") from None


def parse(lines: Iterable[str]) -> Loaded:
    out = Loaded([], [])
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        if len(text) > MAX_LINE:
            out.skipped.append((number, "line too long"))
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            out.skipped.append((number, f"not JSON ({exc.msg} at column {exc.colno})"))
            continue
        why = problem(record)
        if why:
            out.skipped.append((number, f"not a game result: {why}"))
            continue
        out.games.append(record)
    return out
