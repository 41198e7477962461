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


def winners_text(winners: list[int], cooperative: bool) -> str:
    """The winners in words: `player 1, player 3`; a co-operative game's players won or lost
    together."""
    if cooperative:
        return "everyone (won together)" if winners else "nobody (lost together)"
    return ", ".join(f"player {w + 1}" for w in winners) or "nobody"


def dumps(record: dict[str, Any]) -> str:
    """One line, the same bytes for the same game on any machine."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


MAX_NAME = 1000  # a pack, bot, variant, card, statistic or end trigger's name
MAX_ITEMS = 10_000  # items of one list or mapping (variants, statistics, cards of a seat)
MAX_COUNT = 10**12  # turns, decisions, scores: far beyond any game, small enough to sum as floats
# keys newer files add (older ones lack them): key -> the JSON types its value may have
OPTIONAL: dict[str, tuple[type, ...]] = {
    "rounds": (int,),
    "tiebreaks": (list,),
    "budget": (str,),
    "packs": (list,),
    "lineup": (list,),  # the bots as named; `bots` is who sat where in this game
    "seat_order": (list,),  # the line-up position seated in each seat
    "choices": (dict,),  # {"offered": [{card: n} per seat], "taken": [...]}
    "experiment": (dict,),  # rules-dsl experiment: {"kind", "subject", "arm", "seat", "policy"[, "follow_ups"]}
}


def _name(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_NAME


def _count(value: Any, least: float = 0) -> bool:
    """A whole number (or, for scores, any finite number) within bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return value == value and least <= value <= MAX_COUNT  # value == value: not NaN


def _per_seat(value: Any, n: int, item: Any) -> bool:
    return isinstance(value, list) and len(value) == n and all(item(v) for v in value)


def _names(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= MAX_ITEMS and all(_name(v) for v in value)


def _seat_counts(value: Any) -> bool:
    """One seat's {card: how many} of a statistic."""
    return (
        isinstance(value, dict)
        and len(value) <= MAX_ITEMS
        and all(_name(k) and isinstance(v, int) and _count(v) for k, v in value.items())
    )


def problem(record: Any) -> str:
    """Why a parsed line is not a game result, or '': every field's type, size and range
    (a report or a resumed run then never meets a value it cannot use)."""
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not a game"
    for key in FIELDS:
        if key not in record:
            return f"no {key!r}"
    for key, kinds in (*FIELDS.items(), *OPTIONAL.items()):
        if key in record and (not isinstance(record[key], kinds) or isinstance(record[key], bool)):
            return f"{key!r} is {type(record[key]).__name__}"
    for key in ("rotate_seats", "cooperative"):  # cooperative: all won or all lost together
        if key in record and not isinstance(record[key], bool):
            return f"{key!r} is {type(record[key]).__name__}"
    n = record["players"]
    if not 1 <= n <= 64 or len(record["scores"]) != n or len(record["bots"]) != n:
        return "'players', 'scores' and 'bots' do not match"
    score = lambda v: _count(v, -MAX_COUNT)  # noqa: E731 - scores may be negative
    checks = [
        ("pack", _name(record["pack"])),
        ("scenario", record["scenario"] is None or _name(record["scenario"])),
        ("end_trigger", _name(record["end_trigger"])),
        ("variants", _names(record["variants"])),
        ("packs", _names(record.get("packs", []))),
        ("budget", _name(record.get("budget", ""))),
        ("bots", all(_name(b) for b in record["bots"])),
        ("scores", _per_seat(record["scores"], n, score)),
        ("tiebreaks", "tiebreaks" not in record or _per_seat(record["tiebreaks"], n, score)),
        ("turns", _count(record["turns"])),
        ("rounds", _count(record.get("rounds", 0))),
        ("decisions", _count(record["decisions"])),
        (
            "winners",
            len(record["winners"]) <= n
            and len(set(map(repr, record["winners"]))) == len(record["winners"])
            and all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < n for w in record["winners"]),
        ),
        (
            "breakdown",
            len(record["breakdown"]) <= MAX_ITEMS
            and all(_name(k) and _per_seat(v, n, score) for k, v in record["breakdown"].items()),
        ),
        (
            "counts",
            len(record["counts"]) <= MAX_ITEMS
            and all(_name(k) and _per_seat(v, n, _seat_counts) for k, v in record["counts"].items()),
        ),
        ("lineup", "lineup" not in record or (_names(record["lineup"]) and len(record["lineup"]) == n)),
        (
            "seat_order",
            "seat_order" not in record
            or _per_seat(
                record["seat_order"], n, lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n
            ),
        ),
        (
            "choices",
            "choices" not in record
            or (
                set(record["choices"]) <= {"offered", "taken"}
                and all(_per_seat(v, n, _seat_counts) for v in record["choices"].values())
            ),
        ),
    ]
    if record.get("cooperative") and len(record["winners"]) not in (0, n):
        return "'winners' of a co-operative game must be every seat or none"
    for key, ok in checks:
        if not ok:
            return f"{key!r} {WHAT[key]}"
    return ""


WHAT = {
    "pack": f"is not a name (text of at most {MAX_NAME} characters)",
    "scenario": f"is not a name (text of at most {MAX_NAME} characters) or null",
    "end_trigger": f"is not a name (text of at most {MAX_NAME} characters)",
    "variants": "is not a list of names",
    "packs": "is not a list of names",
    "budget": f"is not text of at most {MAX_NAME} characters",
    "bots": "are not bot names",
    "scores": f"are not numbers from -{MAX_COUNT} to {MAX_COUNT}",
    "tiebreaks": f"are not one number per seat from -{MAX_COUNT} to {MAX_COUNT}",
    "turns": f"is not a count from 0 to {MAX_COUNT}",
    "rounds": f"is not a count from 0 to {MAX_COUNT}",
    "decisions": f"is not a count from 0 to {MAX_COUNT}",
    "winners": "are not seats",
    "breakdown": "is not {part: one number per seat}",
    "counts": "is not {statistic: one {card: count} per seat}",
    "lineup": "is not one bot name per seat",
    "seat_order": "is not one line-up position per seat",
    "choices": "is not {offered|taken: one {card: count} per seat}",
}


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
            record = numbers.json_loads(text)
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
