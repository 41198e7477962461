"""What every build step shares: the packs being compiled, the problems found, and
parsing one text value of a pack (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.compiler.compose import Pieces, compose
from rules_dsl.compiler.statements import CompileError, StatementCompiler
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.effects.abilities import WildGrant
from rules_dsl.effects.values import NumExpr
from rules_dsl.errors import DslSyntaxError
from rules_dsl.packs import shape
from rules_dsl.packs.loader import Problems, key_loc, unknown_keys, value_loc
from rules_dsl.packs.model import Loc, Located, PackSource
from rules_dsl.parser import parse
from rules_dsl.rules import Variant
from rules_dsl.syntax_errors import outside_cards


def named(value: Any, known: Any) -> bool:
    """Whether a value from a pack file names one of `known` (zones, kinds, ...): only text
    can, so a list or a mapping given for a name is reported, never looked up (unhashable)."""
    return isinstance(value, str) and value in known


def text_pos(loc: Loc, line: int, column: int) -> Loc:
    """A position inside a text value -> a position in its file."""
    if loc.segments:
        start, piece = loc.segments[0]
        for first, seg in loc.segments:
            if first <= line:
                start, piece = first, seg
        return text_pos(piece, line - start + 1, column)
    if loc.text_line == 0:
        return Loc(loc.file, loc.line, loc.column)
    if line <= 1:
        return Loc(loc.file, loc.text_line, loc.text_column + column - 1)
    return Loc(loc.file, loc.text_line + line - 1, loc.indent + column)


@attrs.define
class _Text:
    """One text to compile, parsed once, with where it came from."""

    tree: Any
    loc: Loc
    card: str = ""


class BuilderBase:
    """The state of one build (build.py: _Builder), shared by the steps that inherit it."""

    # set by the build steps (build.py: build) and read by the others
    _voc: Vocabulary
    _sc: StatementCompiler
    _params: dict[str, Any]
    _variants: dict[str, Variant]
    _quantity_spots: dict[str, list[tuple[str, str]]]
    _card_trees: dict[str, Any]
    _card_text_locs: dict[str, Loc]
    _script_trees: dict[str, Any]
    _setup_loc: Loc | None
    _phase_trees: list[tuple[str, Any, Loc]]
    _proc_trees: dict[str, tuple[Any, Loc]]
    _deal_trees: dict[str, tuple[Any, Loc]]
    _end_trees: list[tuple[str, Any, Loc, bool, str]]
    _end_after_turn: bool
    _turn_limit: int
    _final_turn_tree: tuple[Any, Loc] | None
    _extra_rounds: Any
    _score_trees: dict[str, tuple[Any, Loc]]
    _coop_tree: tuple[Any, Loc] | None  # the scoring's `co-operative: {win: ...}`
    _end_rotation: bool  # game-end's `ends: after-rotation`
    _breakdown_trees: list[tuple[str, Any, Loc]]
    _wild_trees: list[tuple[Any, Loc]]
    _wild_grants: list[WildGrant]  # `your copies of CARD are wild [if COND]` on the cards
    _card_now: str
    _breakdown: list[tuple[str, NumExpr]]

    def __init__(self, sources: list[PackSource], problems: Problems) -> None:
        self.sources = sources
        self.problems = problems
        self.parts: dict[str, list[Located]] = {}
        for src in sources:
            for key, located in src.sections.items():
                self.parts.setdefault(key, []).append(located)
        self.composed = compose(sources, problems)
        self.warnings = Problems()  # what can never happen: reported, but the packs load

    def unknown_keys(self, node: Any, file: str, record: shape.Record, where: str) -> None:
        """Report each key of a mapping that `record` (shape.py) does not name (loader.unknown_keys)."""
        unknown_keys(node, record, file, self.problems, f"in {where}")

    def report(self, exc: CompileError, loc: Loc, card: str = "") -> None:
        at = text_pos(loc, exc.pos.line, exc.pos.column)
        self.problems.add(
            at, exc.message, card=card, expected=exc.expected, suggestion=exc.suggestion, width=exc.pos.width
        )

    def parse_pieces(self, pieces: Pieces, start: str) -> tuple[Any, Loc] | None:
        """Parse a text with the additions of other packs; each piece's mistakes are reported at it."""
        if pieces.simple():
            tree = self.parse_text(pieces.base, start)
            return None if tree is None else (tree, pieces.base.loc)
        leaves = pieces.leaves()
        trees = [self.parse_text(p, start) for p in leaves]
        if any(t is None for t in trees):
            return None
        joined = pieces.joined(expression=start == "expression")
        try:
            tree = parse(joined.value, start)
        except DslSyntaxError as exc:
            # each piece parsed alone: together they pass a bound (length, depth), and the
            # addition (the last one made) is what to change, not the text it extends
            added = leaves[-1] if pieces.after or not pieces.before else leaves[0]
            self.problems.add(
                text_pos(added.loc, 1, 1),
                f"with this addition, the text it extends breaks a bound: {exc.message}",
                width=exc.width,
            )
            return None
        return tree, joined.loc

    @staticmethod
    def _text_loc(node: Any, key: Any, fallback: Loc) -> tuple[int, int, int, int, int]:
        k = key_loc(node, key, fallback.file)
        v = value_loc(node, key, fallback.file)
        return (k.line, k.column, v.text_line, v.text_column, v.indent)

    def parse_text(self, text: Located, start: str, card: str = "") -> Any:
        value = text.value
        if start == "expression" and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # `score: 0`: a number is an expression
        if not isinstance(value, str):
            # at the value, not its key: the value is what to change
            self.problems.add(text_pos(text.loc, 1, 1), f"expected {_TEXTS[start]}, not {_shown(value)}", card=card)
            return None
        try:
            tree = parse(value, start)
        except DslSyntaxError as exc:
            at = text_pos(text.loc, exc.line, exc.column)
            expected = exc.expected if card or start != "start" else outside_cards(exc.expected)
            self.problems.add(at, exc.message, card=card, expected=expected, width=exc.width, suggestion=exc.suggestion)
            return None
        if isinstance(tree, tuple) and not card:
            # card text (sections, abilities) where rules text was expected
            first = tree[0]
            self.problems.add(
                text_pos(text.loc, first.pos.line, first.pos.column),
                "sections and abilities belong on cards: rules text here is a plain block of statements",
            )
            return None
        return tree


# what each start of the grammar reads, for a value that is not text
_TEXTS = {
    "start": "rules text (a string)",
    "expression": "an expression (a number or text such as 'the number of cards in your hand plus 1')",
    "condition": "a condition (text such as 'the deck is empty')",
}


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (yes/no)"
    if isinstance(value, list | tuple):
        return "a list"
    if hasattr(value, "items"):
        return "a mapping"
    return repr(value)
