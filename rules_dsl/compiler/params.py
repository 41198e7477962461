"""A procedure's named parameters: `given a counter prize` in it, `using prize: coins` at a call.

A parameter stands for a word (a counter, a property, ...), not a value, so each call is
compiled on a copy of the procedure's syntax tree with the parameters' words put in
(docs/dsl.md#procedure-parameters). The words are checked against the parameter's kind
at the call, where the error is reported."""

from __future__ import annotations

import re
from typing import Any

import attrs

from rules_dsl import ast
from rules_dsl.compiler.compile_error import CompileError
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.errors import suggest

# the kinds of word a parameter may take, as written after `given a`
KINDS = ("counter", "property", "value", "token", "zone", "zone-group", "kind", "symbol", "procedure")
# words of the language a parameter may not be named (they are not names of the pack)
RESERVED = frozenset(
    {"it", "its", "your", "the", "this", "card", "cards", "player", "players", "opponent", "opponents"}
)


def given(tree: Any) -> ast.Given | None:
    """The `given ...` a procedure starts with, if it has one."""
    if isinstance(tree, ast.Block) and tree.stmts and isinstance(tree.stmts[0], ast.Given):
        return tree.stmts[0]
    return None


def words_of(kind: str, voc: Vocabulary, procedures: dict[str, Any]) -> list[str]:
    """The words a parameter of this kind may stand for."""
    if kind == "counter":
        return list(voc.counter_words)
    if kind == "property":
        return list(voc.properties)
    if kind == "value":
        return sorted({str(x) for t in voc.properties.values() if isinstance(t, list) for x in t})
    if kind == "token":
        return list(voc.tokens)
    if kind == "zone":
        return list(voc.zones)
    if kind == "zone-group":
        return list(voc.zone_groups)
    if kind == "kind":
        return [*voc.kinds, *voc.kinds.values()]
    if kind == "symbol":
        return list(voc.symbols)
    return list(procedures)


def check_given(decl: ast.Given, voc: Vocabulary, procedures: dict[str, Any]) -> None:
    """A declaration's kinds are known, and its names are new words, each given once."""
    seen: set[str] = set()
    for p in decl.params:
        if p.kind not in KINDS:
            raise CompileError(
                f"unknown kind of parameter {p.kind!r}", p.kind_pos, list(KINDS), suggest(p.kind, list(KINDS))
            )
        if p.name in seen:
            raise CompileError(f"parameter {p.name!r} is given twice", p.pos)
        seen.add(p.name)
        if p.name in RESERVED:
            raise CompileError(f"parameter {p.name!r} is a word of the language; give it a name of its own", p.pos)
        # a zone group is also named in the singular ("choose a pile"): that name is taken too
        names = [p.name]
        if p.kind == "zone-group" and _singular(p.name):
            names.append(_singular(p.name))
        for kind in KINDS:
            for name in names:
                if name in words_of(kind, voc, procedures):
                    message = f"parameter {p.name!r} is already a {kind} of the pack; give it a name of its own"
                    if name != p.name:
                        message = (
                            f"parameter {p.name!r} names {name!r} in the singular, which is already a {kind}"
                            " of the pack; give it a name of its own"
                        )
                    raise CompileError(message, p.pos)


def bindings(
    call: ast.Call, decl: ast.Given | None, voc: Vocabulary, procedures: dict[str, Any]
) -> tuple[tuple[str, str], ...] | None:
    """The words a call gives its procedure's parameters, checked (parameter order);
    None if the procedure's own declaration is wrong (an error reported there)."""
    if decl is None:
        if call.args:
            where = call.args[0].pos
            raise CompileError(f"{call.name!r} has no named parameters (it does not start with 'given')", where)
        return ()
    try:
        check_given(decl, voc, procedures)
    except CompileError:
        return None  # reported once, at the declaration
    declared = {p.name: p for p in decl.params}
    given_words: dict[str, str] = {}
    for a in call.args:
        if a.name not in declared:
            raise CompileError(
                f"{call.name!r} has no parameter {a.name!r}", a.pos, sorted(declared), suggest(a.name, list(declared))
            )
        if a.name in given_words:
            raise CompileError(f"parameter {a.name!r} is given twice", a.pos)
        kind = declared[a.name].kind
        allowed = words_of(kind, voc, procedures)
        if a.word not in allowed:
            raise CompileError(
                f"{a.name!r} of {call.name!r} takes a {kind}; {a.word!r} is not one",
                a.word_pos,
                sorted(allowed),
                suggest(a.word, allowed),
            )
        given_words[a.name] = a.word
    missing = [p.name for p in decl.params if p.name not in given_words]
    if missing:
        example = ", ".join(f"{m}: ..." for m in missing)
        raise CompileError(f"{call.name!r} needs {', '.join(map(repr, missing))}: add 'using {example}'", call.pos)
    return tuple((p.name, given_words[p.name]) for p in decl.params)


def substitute(tree: Any, words: tuple[tuple[str, str], ...]) -> Any:
    """The procedure's tree without its `given`, each parameter replaced by its word.

    Positions stay those of the procedure's text; an option's label (a block's text) reads
    with the words put in, as if the procedure had been written for them."""
    table = dict(words)
    decl = given(tree)
    if decl is not None:
        tree = attrs.evolve(tree, stmts=tree.stmts[1:])
        # a zone group named in the singular ("choose a pile that is not empty" for the
        # parameter `piles`) stands for the group's own singular ("supply-pile")
        for p in decl.params:
            one, word = _singular(p.name), table.get(p.name, "")
            if p.kind == "zone-group" and one and _singular(word) and one not in table:
                table[one] = _singular(word)
    if not table:
        return tree
    pattern = re.compile(r"(?<![a-z0-9-])(" + "|".join(map(re.escape, table)) + r")(?![a-z0-9-])")
    return _put(tree, table, pattern)


def _singular(name: str) -> str:
    """A zone group's name in the singular, as statements.group reads it back ("" if none)."""
    return name[:-1] if len(name) > 1 and name.endswith("s") else ""


def _put(node: Any, table: dict[str, str], pattern: re.Pattern[str]) -> Any:
    if isinstance(node, str):
        return table.get(node, node)
    if isinstance(node, tuple):
        return tuple(_put(n, table, pattern) for n in node)
    if isinstance(node, ast.Pos) or not attrs.has(type(node)):
        return node
    changes: dict[str, Any] = {}
    for field in attrs.fields(type(node)):
        old = getattr(node, field.name)
        if isinstance(node, ast.Block) and field.name == "text":
            new = pattern.sub(lambda m: table[m.group(1)], old)
        else:
            new = _put(old, table, pattern)
        if new is not old:
            changes[field.name] = new
    return attrs.evolve(node, **changes) if changes else node
