"""Checking a YAML value against its declared shape (`shape.py`), with positions.

The same declarations give the JSON Schemas, so what this reports is what an editor marks.
"""

from __future__ import annotations

import re
from typing import Any

from rules_dsl.errors import suggest
from rules_dsl.packs import shape as sh
from rules_dsl.packs.loader import Problems, key_loc, value_loc
from rules_dsl.packs.model import Loc


def describe(s: sh.Shape) -> str:
    """What a value of this shape is, for messages."""
    if isinstance(s, sh.Str):
        if s.enum:
            return "one of " + ", ".join(s.enum)
        if s.pattern == sh.VAR_PATTERN:
            return "a name in capitals"
        return "text"
    if isinstance(s, sh.Int):
        if s.minimum is not None and s.maximum is not None:
            return f"a whole number from {s.minimum} to {s.maximum}"
        if s.minimum is not None:
            return f"a whole number, at least {s.minimum}"
        return "a whole number"
    if isinstance(s, sh.Real):
        return "a number from -1000000 to 1000000"
    if isinstance(s, sh.Seq):
        return f"a list of {describe(s.item)} items" if not isinstance(s.item, sh.Anything) else "a list"
    if isinstance(s, sh.Record):
        return "a mapping of " + ", ".join(f"{k}:" for k in s.fields)
    if isinstance(s, sh.Table):
        return f"a mapping of names to {describe(s.value)}"
    if isinstance(s, sh.OneOf):
        return " or ".join(describe(o) for o in s.options)
    if isinstance(s, sh.Nothing):
        return "empty"
    if isinstance(s, sh.Bool):
        return "true or false"
    return "anything"


def fields(node: Any, record: sh.Record, file: str, problems: Problems, where: str, loc: Loc) -> set[str]:
    """Check a mapping's keys and values; return the keys whose values fit."""
    if not hasattr(node, "items"):
        problems.add(loc, f"{where} must be {describe(record)}", expected=sorted(record.fields))
        return set()
    good = set()
    for key in node:
        name = str(key)
        field = record.fields.get(name)
        if field is None:
            extra = next((s for p, s in record.extra if re.search(p, name)), None)
            if extra is None:
                problems.add(
                    key_loc(node, key, file),
                    f"unknown key {name!r} in {where}",
                    expected=sorted(record.fields),
                    suggestion=suggest(name, record.fields),
                )
            elif check(node[key], extra, file, problems, f"{where}: {name}", value_loc(node, key, file)):
                good.add(name)
            continue
        if check(node[key], field.shape, file, problems, f"{where}: {name}", value_loc(node, key, file)):
            good.add(name)
    for name, field in record.fields.items():
        if field.required and name not in node:
            problems.add(loc, f"{where} needs {name}:", expected=[name])
            good.clear()
    for group in record.exclusive:
        given = [k for k in group if k in node]
        if len(given) > 1:
            problems.add(loc, f"{where}: give one of {', '.join(given)}, not both")
            good.clear()
    return good


def check(node: Any, s: sh.Shape, file: str, problems: Problems, where: str, loc: Loc) -> bool:
    """Report where node does not fit s; True if it fits."""
    if isinstance(s, sh.Record):
        before = len(problems.items)
        fields(node, s, file, problems, where, loc)
        return len(problems.items) == before
    if isinstance(s, sh.OneOf):
        if any(check(node, o, file, Problems(), where, loc) for o in s.options):
            return True
        problems.add(loc, f"{where} must be {describe(s)}")
        return False
    if isinstance(s, sh.Seq):
        if not isinstance(node, list):
            problems.add(loc, f"{where} must be {describe(s)}")
            return False
        ok = all([check(v, s.item, file, problems, where, value_loc(node, i, file)) for i, v in enumerate(node)])
        if (s.min_items is not None and len(node) < s.min_items) or (
            s.max_items is not None and len(node) > s.max_items
        ):
            problems.add(loc, f"{where} must have {s.min_items} to {s.max_items} items")
            return False
        return ok
    if isinstance(s, sh.Table):
        if not hasattr(node, "items"):
            problems.add(loc, f"{where} must be {describe(s)}")
            return False
        ok = True
        for key, value in node.items():
            if s.key_pattern and not re.search(s.key_pattern, str(key)):
                problems.add(
                    key_loc(node, key, file), f"{where}: {key!r} must be {describe(sh.Str(pattern=s.key_pattern))}"
                )
                ok = False
            elif not check(value, s.value, file, problems, f"{where}: {key}", value_loc(node, key, file)):
                ok = False
        return ok
    if isinstance(s, sh.Str):
        if (
            not isinstance(node, str)
            or (s.enum and node not in s.enum)
            or (s.pattern and not re.search(s.pattern, node))
        ):
            problems.add(
                loc,
                f"{where} must be {describe(s)}",
                expected=list(s.enum),
                suggestion=suggest(str(node), s.enum) if s.enum else "",
            )
            return False
        return True
    if isinstance(s, sh.Int):
        fits = isinstance(node, int) and not isinstance(node, bool)
        if fits and ((s.minimum is not None and node < s.minimum) or (s.maximum is not None and node > s.maximum)):
            fits = False
        if not fits:
            problems.add(loc, f"{where} must be {describe(s)}")
        return fits
    if isinstance(s, sh.Real) and not _real(node):
        problems.add(loc, f"{where} must be {describe(s)}")
        return False
    if isinstance(s, sh.Bool) and not isinstance(node, bool):
        problems.add(loc, f"{where} must be {describe(s)}")
        return False
    if isinstance(s, sh.Nothing) and node is not None:
        problems.add(loc, f"{where} must be empty")
        return False
    return True


def _real(node: Any) -> bool:
    """A finite number of sensible size (a weight): not a bool, NaN, infinity or a 400-digit int."""
    if isinstance(node, bool) or not isinstance(node, int | float):
        return False
    return -1e6 <= node <= 1e6  # False for NaN too
