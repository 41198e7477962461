"""YAML that users write (packs, scenarios, golden game lists), read as plain data with bounds.

One reader for every YAML file: no tags (`!!python/...`: the files are data), nesting at
most MAX_DEPTH deep (checked on the tokens, before anything recursive runs), aliases that
expand to at most MAX_VALUES values (a few lines of aliases of aliases can stand for
billions), no number too long to read (rules_dsl/numbers.py). Every problem is a
YamlProblem with its line and column.
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.tokens import (
    AliasToken,
    BlockEndToken,
    BlockMappingStartToken,
    BlockSequenceStartToken,
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    FlowSequenceStartToken,
    ScalarToken,
    TagToken,
)

from rules_dsl import numbers
from rules_dsl.errors import RulesError

MAX_VALUES = 100_000  # values in one file with every alias expanded
MAX_DEPTH = 100  # mappings and lists inside each other
_OPEN = (BlockMappingStartToken, BlockSequenceStartToken, FlowMappingStartToken, FlowSequenceStartToken)
_CLOSE = (BlockEndToken, FlowMappingEndToken, FlowSequenceEndToken)
_NUMBER_LIKE = re.compile(r"[-+]?(0[xXoObB])?[0-9a-fA-F_:]+")


class YamlProblem(RulesError):
    def __init__(self, line: int, column: int, message: str, suggestion: str = "", width: int = 1) -> None:
        super().__init__(f"line {line}, column {column}: {message}" + (f" ({suggestion})" if suggestion else ""))
        self.line = line
        self.column = column
        self.message = message
        self.suggestion = suggestion
        self.width = width


def load(text: str, kind: str = "a pack", typ: str = "safe") -> Any:
    """The data of a YAML text (`typ` "rt" keeps positions for messages); `kind` names
    what the file is in the message about tags."""
    yaml = YAML(typ=typ, pure=True)
    first_alias: tuple[int, int] | None = None
    depth = 0
    open_flows: list[tuple[int, int, str]] = []  # where each [ or { not yet closed opens
    try:
        for token in yaml.scan(text):
            mark = token.start_mark
            if isinstance(token, FlowSequenceStartToken | FlowMappingStartToken):
                open_flows.append((mark.line + 1, mark.column + 1, text[mark.index]))
            elif isinstance(token, FlowSequenceEndToken | FlowMappingEndToken) and open_flows:
                open_flows.pop()
            if isinstance(token, TagToken):
                handle, suffix = token.value
                tag = (handle or "") + (suffix or "")
                raise YamlProblem(
                    mark.line + 1,
                    mark.column + 1,
                    f"YAML tags such as {tag!r} are not allowed: {kind} is plain data",
                    "remove the tag",
                    len(tag),
                )
            if isinstance(token, _OPEN):
                depth += 1
                if depth > MAX_DEPTH:
                    raise YamlProblem(mark.line + 1, mark.column + 1, f"the YAML is nested more than {MAX_DEPTH} deep")
            elif isinstance(token, _CLOSE):
                depth -= 1
            elif isinstance(token, AliasToken) and first_alias is None:
                first_alias = (mark.line + 1, mark.column + 1)
            elif isinstance(token, ScalarToken) and token.plain and _NUMBER_LIKE.fullmatch(token.value):
                problem = numbers.too_big(re.sub(r"[0-9a-fA-F]", "1", token.value))
                if problem:
                    raise YamlProblem(mark.line + 1, mark.column + 1, problem, width=len(token.value))
        data = yaml.load(text)
    except MarkedYAMLError as exc:
        raise YamlProblem(*_yaml_error_place(exc, open_flows[-1] if open_flows else None)) from None
    except ReaderError as exc:  # a control character: YAML allows none
        line = text[: exc.position].count("\n") + 1
        raise YamlProblem(line, 1, f"not valid YAML: {str(exc).splitlines()[0]}") from None
    except YAMLError as exc:
        raise YamlProblem(1, 1, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlProblem(1, 1, "the YAML is nested too deeply") from None
    if first_alias is not None and _expanded_size(data, {}) > MAX_VALUES:
        raise YamlProblem(
            *first_alias,
            f"the aliases of this file expand to more than {MAX_VALUES} values",
            "write the values out, or alias fewer nested aliases",
        )
    return data


def _yaml_error_place(exc: MarkedYAMLError, open_flow: tuple[int, int, str] | None) -> tuple[int, int, str]:
    """Where a YAML mistake is and what it is. An unclosed bracket or quote is found only
    where the next item starts, lines later; it is reported where it was opened."""
    mark, context = exc.problem_mark, exc.context_mark
    line = mark.line + 1 if mark else 1
    col = mark.column + 1 if mark else 1
    message = f"not valid YAML: {exc.problem}"
    if context is not None and context.line + 1 < line and "quoted" in str(exc.context or ""):
        where = context.line + 1, context.column + 1
        return (*where, f"not valid YAML: the quote that starts here is not closed (at line {line}: {exc.problem})")
    if open_flow is not None and open_flow[0] < line:
        flow_line, flow_col, bracket = open_flow
        closing = "]" if bracket == "[" else "}"
        return (
            flow_line,
            flow_col,
            f"not valid YAML: the {bracket!r} that starts here has no {closing!r} (at line {line}: {exc.problem})",
        )
    return line, col, message


def _expanded_size(node: Any, sizes: dict[int, int]) -> int:
    """How many values a node stands for with every alias written out (shared nodes are
    counted once per place but worked out once, so a bomb costs no more than its text)."""
    if not isinstance(node, dict | list):
        return 1
    known = sizes.get(id(node))
    if known is not None:
        return known
    children = node.values() if isinstance(node, dict) else node
    total = 1 + sum(_expanded_size(child, sizes) for child in children)
    sizes[id(node)] = total
    return total
