"""Results files: one finished game per JSON line, read back with every bad line reported.

Written by `rules-dsl simulate --out`, read by `--resume` and `rules-dsl report`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import attrs

from rules_dsl import files, numbers
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
        handle, _ = files.open_regular(path)
    except files.FileProblem as exc:
        raise RulesError(f"cannot read results file {path}: {exc.reason}") from None
    try:
        with handle:
            return parse(_lines(handle))
    except OSError as exc:
        raise RulesError(f"cannot read results file {path}: {exc.strerror or exc}") from None


def _lines(handle: BinaryIO) -> Iterator[str | None]:
    """The file's lines, each read only up to MAX_LINE bytes (None for a longer one),
    so a file without line breaks is never held whole."""
    while True:
        line = handle.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # the rest of the long line, read by pieces
                line = handle.readline(MAX_LINE)
            yield None
            continue
        yield line.decode("utf-8", errors="replace")


def parse(lines: Iterable[str | None]) -> Loaded:
    out = Loaded([], [])
    for number, line in enumerate(lines, 1):
        if line is None or len(line) > MAX_LINE:
            out.skipped.append((number, "line too long"))
            continue
        text = line.strip()
        if not text:
            continue
        try:
            record = json.loads(text, parse_int=numbers.json_int)
        except json.JSONDecodeError as exc:
            out.skipped.append((number, f"not JSON ({exc.msg} at column {exc.colno})"))
            continue
        except (numbers.NumberError, RecursionError) as exc:
            out.skipped.append((number, f"not a game result: {exc}" if str(exc) else "nested too deeply"))
            continue
        why = problem(record)
        if why:
            out.skipped.append((number, f"not a game result: {why}"))
            continue
        out.games.append(record)
    return out
