"""One meaning per name: a word the packs declare in two categories read in the same place.

`your discard` reads a counter before a zone, so a mod that declared a counter `discard`
beside the base zone would silently change what the base cards read. Two categories clash
when the text can name both in the same place (docs/modding.md#one-meaning-per-name);
categories the grammar keeps apart (a moment and a window, a symbol and a moment, a card
kind and a zone, a counter and a card property) may share a word.
"""

from __future__ import annotations

from typing import Any

from rules_dsl.compiler.compose import LIST_WORDS, MAP_WORDS
from rules_dsl.packs.loader import Problems, key_loc, value_loc
from rules_dsl.packs.model import Loc

# vocabulary key -> the category its names are in
LIST_KEYS = LIST_WORDS
MAP_KEYS = {**MAP_WORDS, "moments": "moment", "windows": "window", "quantities": "quantity"}

# what a player or the game has (`your X`, `the X`, `the opponent's X`)
_HELD = ("counter", "zone", "zone group", "quantity")
# what is counted, gained or chosen (`the number of X`, `gain 1 X`, `choose 1 X`)
_NOUNS = ("kind", "counter", "token", "token group", "symbol")
CLASHES = frozenset(
    frozenset((a, b))
    for group in (_HELD, _NOUNS, ("property", "quantity", "zone", "zone group"))
    for a in group
    for b in group
    if a != b
)


def declarations(parts: list[tuple[Any, Loc]]) -> list[tuple[str, str, Loc]]:
    """(word, category, where) for every name the vocabulary parts declare, in load order;
    a kind's plural and a counter's plural are words of their category too."""
    out: list[tuple[str, str, Loc]] = []
    for node, loc in parts:
        if not hasattr(node, "items"):
            continue  # reported by read_vocabulary
        for key, value in node.items():
            if key in LIST_KEYS and isinstance(value, list):
                out += [(str(w), LIST_KEYS[key], value_loc(value, i, loc.file)) for i, w in enumerate(value)]
            elif key in MAP_KEYS and hasattr(value, "items"):
                for name, spec in value.items():
                    where = key_loc(value, name, loc.file)
                    out.append((str(name), MAP_KEYS[key], where))
                    plural = None
                    if key == "kinds":
                        plural = spec if isinstance(spec, str) else _get(spec, "plural", f"{name}s")
                    elif key == "counters":
                        plural = _get(spec, "plural", None)
                    if plural is not None and str(plural) != str(name):
                        out.append((str(plural), MAP_KEYS[key], where))
    return out


def _get(spec: Any, key: str, default: Any) -> Any:
    return spec.get(key, default) if hasattr(spec, "get") else default


def check_one_meaning(parts: list[tuple[Any, Loc]], problems: Problems) -> None:
    """Report each word declared in two clashing categories, at the later declaration,
    naming where the earlier one is."""
    first: dict[str, dict[str, Loc]] = {}  # word -> category -> where it was first declared
    for word, category, loc in declarations(parts):
        seen = first.setdefault(word, {})
        if category in seen:
            continue  # the same category again is an override, which compose reports
        for other, other_loc in seen.items():
            if frozenset((category, other)) in CLASHES:
                problems.add(
                    loc,
                    f"{word!r} is declared as a {category} here and as a {other} at {other_loc.place()}: "
                    "a word means one thing in the packs loaded together, or the rules text reads the wrong one",
                    suggestion=f"give the {category} another name",
                )
                break
        seen[category] = loc
