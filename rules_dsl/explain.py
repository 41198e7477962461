"""Compiled effects as an indented tree, for `rules-dsl cards CARD`."""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.base import Effect

_SKIP = {
    "eid",
    "text",
    "table",
    "kinds",
    "then_kind",
    "else_kind",
    "body_eid",
    "loops",
    "plan",  # a block's (child, kind) pairs: its statements, shown as such
    "always",
    "at_once",
    "guards",
    "asks",
    "whole",
}  # derived (compiler/link.py)


def effect_tree(effect: Any, indent: int = 0, seen: set[int] | None = None) -> list[str]:
    seen = set() if seen is None else seen
    pad = "  " * indent
    name = type(effect).__name__.lstrip("_")
    if not attrs.has(type(effect)):
        return [f"{pad}{effect!r}"]
    if isinstance(effect, Effect):
        if effect.eid in seen:
            return [f"{pad}{name} #{effect.eid} (see above)"]
        seen.add(effect.eid)
    simple: list[str] = []
    nested: list[tuple[str, Any]] = []
    for f in attrs.fields(type(effect)):
        if f.name in _SKIP or not f.init:  # not init: worked out from the others, for speed
            continue
        value = getattr(effect, f.name)
        if isinstance(value, tuple) and value and all(attrs.has(type(x)) for x in value) or attrs.has(type(value)):
            nested.append((f.name, value))
        elif value not in (None, "", (), False, -1):
            if isinstance(value, (set, frozenset)) and value:  # in a stable order, not the hash seed's
                simple.append(f"{f.name}={{{', '.join(map(repr, sorted(value, key=repr)))}}}")
            else:
                simple.append(f"{f.name}={value!r}")
    head = f"{pad}{name}" + (f" #{effect.eid}" if isinstance(effect, Effect) else "")
    if simple:
        head += " " + " ".join(simple)
    lines = [head]
    for fname, value in nested:
        if isinstance(value, tuple):
            lines.append(f"{pad}  {fname}:")
            for item in value:
                lines.extend(effect_tree(item, indent + 2, seen))
        else:
            if type(value).__name__ == "_ProcRef":
                lines.append(f"{pad}  {fname}: procedure #{value.eid}")
                continue
            lines.append(f"{pad}  {fname}:")
            lines.extend(effect_tree(value, indent + 2, seen))
    return lines


def card_trees(rules: Any, ct: Any, indent: int = 2) -> dict[str, list[str]]:
    """A card's whole compiled behaviour: each section, then each ability, as a tree."""
    trees: dict[str, list[str]] = {label: effect_tree(rules.effects[eid], indent) for label, eid in ct.sections.items()}
    for quantity, mods in ct.mods.items():
        trees[f"WHILE ... {quantity}"] = [line for mod in mods for line in effect_tree(mod, indent)]
    for ability in (*ct.triggers, *ct.activated, *ct.replacements, *ct.wilds):
        trees[ability.text] = effect_tree(ability, indent)
    return trees
