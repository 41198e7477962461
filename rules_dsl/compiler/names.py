"""Compile-time check that every variable is bound where it is used.

Lookup is dynamic (docs/dsl.md#scope): `LEAD: draw X cards` sees the `X` that the text
running `do the role's LEAD` bound before it. So a variable used in a text is bound if a
`let` comes before it in that text, or if it is bound at every place that runs the text:
every `do ... LABEL` for a card section, every call of a procedure (a call with a number
binds `N`), every `announce MOMENT` for a triggered ability, every `use WINDOW abilities`
for an activated one. Texts nothing runs from the rules (phases, set-up, end and scoring) see only
the pack's parameters. A section or procedure that nothing runs is not checked.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from rules_dsl import ast
from rules_dsl.compiler import params
from rules_dsl.compiler.statements import walk
from rules_dsl.packs.model import Loc

# ("section", LABEL), ("procedure", name), ("moment", MOMENT) for triggered abilities,
# ("window", WINDOW) for activated ones, ("replaced", MOMENT) for replacement abilities
# (run by `you MOMENT: ...`), or ("root", what)
Key = tuple[str, str]


@attrs.define
class Unit:
    """One text: what runs it (its key), its tree, where it is."""

    key: Key
    tree: object
    loc: Loc
    card: str = ""
    uses: list[tuple[ast.Var, frozenset[str]]] = attrs.Factory(list)  # with the names bound before
    sites: list[tuple[Key, frozenset[str]]] = attrs.Factory(list)  # texts it runs, names bound then


@attrs.frozen
class Unbound:
    var: ast.Var
    unit: Unit
    known: frozenset[str]  # what is bound there


def _scan(unit: Unit, procedures: set[str]) -> None:
    bound: set[str] = set()
    # a let binds its name after its value (`let Q be Q` uses a Q from before): the walk
    # gives the value's nodes right after the let, so the name waits for `left` nodes
    late, left = "", 0
    for node in walk(unit.tree):
        if late:
            if left:
                left -= 1
            else:
                bound.add(late)
                late = ""
        if isinstance(node, ast.Let | ast.SetVar):
            late, left = node.name, sum(1 for _ in walk(node.value))
            if not left:
                bound.add(late)
                late = ""
        elif isinstance(node, ast.Var):
            unit.uses.append((node, frozenset(bound)))
        elif isinstance(node, ast.DoSection):
            unit.sites.append((("section", node.section), frozenset(bound)))
        elif isinstance(node, ast.Announce):
            unit.sites.append((("moment", node.moment), frozenset(bound)))
        elif isinstance(node, ast.Event | ast.AnswerFirst):
            unit.sites.append((("replaced", node.moment), frozenset(bound)))
        elif isinstance(node, ast.UseAbilities):
            unit.sites.append((("window", node.window), frozenset(bound)))
        elif isinstance(node, ast.Call) and node.name in procedures:
            with_n = bound | {"N"} if node.arg is not None else bound
            unit.sites.append((call_key(node), frozenset(with_n)))


def call_key(node: ast.Call) -> Key:
    """What a call runs: the procedure, or its copy for the call's words (named parameters)."""
    if not node.args:
        return ("procedure", node.name)
    words = ",".join(f"{a.name}:{a.word}" for a in sorted(node.args, key=lambda a: a.name))
    return ("procedure", f"{node.name}({words})")


def with_instances(units: Iterable[Unit], trees: dict[str, tuple[object, Loc]]) -> list[Unit]:
    """The units, and one more for each set of words a procedure with named parameters is
    called with: its text with the words put in (the procedure's own text, which names its
    parameters, is then run by nothing and not checked; docs/dsl.md#procedure-parameters)."""
    out = list(units)
    seen: set[Key] = set()
    i = 0
    while i < len(out):
        for node in walk(out[i].tree):
            if isinstance(node, ast.Call) and node.args and node.name in trees:
                key = call_key(node)
                if key not in seen:
                    seen.add(key)
                    tree, loc = trees[node.name]
                    words = tuple((a.name, a.word) for a in node.args)
                    out.append(Unit(key, params.substitute(tree, words), loc))
        i += 1
    return out


def unbound(units: Iterable[Unit], procedures: set[str], params: set[str]) -> list[Unbound]:
    """Every use of a variable that some way of running its text leaves unbound."""
    units = list(units)
    for u in units:
        _scan(u, procedures)
    # names bound on entry to each key, for all ways in: None until some way is known
    entry: dict[Key, frozenset[str] | None] = {u.key: None for u in units}
    for u in units:
        if u.key[0] == "root":
            entry[u.key] = frozenset()
    changed = True
    while changed:  # the sets only shrink, so this ends
        changed = False
        ways: dict[Key, list[frozenset[str]]] = {}
        for u in units:
            start = entry[u.key]
            if start is None:
                continue
            for key, bound in u.sites:
                ways.setdefault(key, []).append(start | bound)
        for key, found in ways.items():
            if key not in entry:
                continue
            new = frozenset.intersection(*found)
            if new != entry[key]:
                entry[key] = new
                changed = True
    out = []
    for u in units:
        start = entry[u.key]
        if start is None:
            continue  # nothing runs it
        for var, bound in u.uses:
            if var.name not in params and var.name not in bound and var.name not in start:
                out.append(Unbound(var, u, start | bound | params))
    return out
