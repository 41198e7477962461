"""Card text -> syntax tree. One LALR parser, built once, for every pack."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import lark
from lark import Token, Transformer, v_args

from rules_dsl import ast, numbers
from rules_dsl.errors import DslSyntaxError
from rules_dsl.syntax_errors import from_lark

GRAMMAR = Path(__file__).with_name("grammar") / "effects.lark"
_COMMENT = re.compile(r"#[^\n]*")
# Bounds on one text (docs/dsl.md#limits). The parser is iterative, but the syntax tree is
# built, compiled and run by recursion, so a text nested hundreds deep would overflow the
# Python stack; the deepest real text is 13 levels.
MAX_DEPTH = 100
MAX_TEXT = 20_000  # characters
# Questions asked of every player or card inside each other: each works out what it holds
# once per player or card, so the work multiplies by the number of players (or cards) at
# every level; the built-in packs nest 2. The grammar's rules that ask them:
MAX_AGGREGATES = 4
AGGREGATES = frozenset(
    {
        "any_player",
        "every_player",
        "no_player",
        "among_players",
        "count_players",
        "for_players_where",
        "for_players_at_once",
        "choose_player",
        "choose_other_player",
        "where",  # a query's `where COND`: tested on each card
    }
)


@lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    return lark.Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        start=["start", "condition", "expression"],
        maybe_placeholders=False,
    )


def _pos(meta: Any) -> ast.Pos:
    if getattr(meta, "empty", True):
        return ast.Pos(1, 1)
    return ast.Pos(meta.line, meta.column, max(1, meta.end_column - meta.column))


def _tpos(tok: Token) -> ast.Pos:
    return ast.Pos(tok.line or 1, tok.column or 1, len(str(tok)))


def _words(source: str) -> str:
    """A piece of source as one line without comments: the label of an option or a frame."""
    return " ".join(_COMMENT.sub("", source).split())


def _check_numbers(text: str) -> None:
    """A number too long to read (rules_dsl/numbers.py), refused where it is."""
    for match in re.finditer(r"[0-9]+", text):
        problem = numbers.too_big(match.group())
        if problem:
            before = text[: match.start()]
            line = before.count("\n") + 1
            column = match.start() - (before.rfind("\n") + 1) + 1
            raise DslSyntaxError(problem, line, column, width=len(match.group()))


@lru_cache(maxsize=4096)
def parse(text: str, start: str = "start") -> Any:
    """Parse card text (start), a condition or an expression into the syntax tree.

    Trees are immutable, so a text compiled again (every pack of a mod set, each test's
    copy of a pack, the fuzzer's packs) is parsed once.
    """
    if len(text) > MAX_TEXT:
        raise DslSyntaxError(f"the text is {len(text)} characters long; a text may hold at most {MAX_TEXT}", 1, 1)
    _check_numbers(text)
    try:
        tree = _lark().parse(text, start=start)
    except lark.exceptions.UnexpectedInput as exc:
        raise from_lark(exc, text, _lark()) from None
    _check_depth(tree)
    return _ToAst(text).transform(tree)


def _check_depth(tree: lark.Tree[Token]) -> None:
    """Refuse a text nested deeper than MAX_DEPTH, or with more than MAX_AGGREGATES questions
    about every player or card inside each other, pointing at where it gets too deep."""
    stack = [(tree, 1, 0)]
    while stack:
        node, depth, asked = stack.pop()
        if node.data in AGGREGATES:
            asked += 1
        if depth > MAX_DEPTH or asked > MAX_AGGREGATES:
            meta = node.meta
            line = getattr(meta, "line", 1) if not getattr(meta, "empty", True) else 1
            column = getattr(meta, "column", 1) if not getattr(meta, "empty", True) else 1
            if depth > MAX_DEPTH:
                message = (
                    f"the text is nested too deeply: at most {MAX_DEPTH} levels (parentheses, "
                    "statements inside statements, terms of a sum) are allowed"
                )
            else:
                message = (
                    f"questions about every player or card are nested too deeply: at most {MAX_AGGREGATES} "
                    "inside each other ('any/every/no player where', 'the number of players where', "
                    "'the highest ... among players', 'choose a player where', 'for each player where', "
                    "'cards in ... where'); each multiplies the work by the number of players or cards"
                )
            raise DslSyntaxError(message, line, column)
        stack.extend((child, depth + 1, asked) for child in node.children if isinstance(child, lark.Tree))


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    # -- top level
    def sections(self, meta: Any, ch: list[Any]) -> tuple[ast.Section, ...]:
        return tuple(ch)

    def script(self, meta: Any, ch: list[Any]) -> ast.Block:
        return ch[0]  # type: ignore[no-any-return]

    def condition(self, meta: Any, ch: list[Any]) -> Any:
        return ch[0]

    def expression(self, meta: Any, ch: list[Any]) -> Any:
        return ch[0]

    def section(self, meta: Any, ch: list[Any]) -> ast.Section:
        label = str(ch[0])[:-1]
        return ast.Section(label, ch[1], _tpos(ch[0]))

    def block(self, meta: Any, ch: list[Any]) -> ast.Block:
        text = ""
        if not getattr(meta, "empty", True):
            text = self.text[meta.start_pos : meta.end_pos]
        return ast.Block(tuple(ch), _pos(meta), _words(text))

    def _src(self, meta: Any) -> str:
        return _words(self.text[meta.start_pos : meta.end_pos])

    # -- statements
    def _wrapped(self, meta: Any, ch: list[Any]) -> ast.Block:
        text = self.text[meta.start_pos : meta.end_pos].strip()
        if isinstance(ch[0], ast.Block):
            if text.startswith("(") and text.endswith(")"):
                text = text[1:-1].strip()
            return ast.Block(ch[0].stmts, _pos(meta), _words(text))
        return ast.Block((ch[0],), _pos(meta), _words(text))

    alt = _wrapped
    body = _wrapped

    def alternatives(self, meta: Any, ch: list[Any]) -> ast.Alternatives:
        return ast.Alternatives(tuple(ch), _pos(meta))

    def may(self, meta: Any, ch: list[Any]) -> ast.May:
        return ast.May(ch[0], _pos(meta))

    def if_(self, meta: Any, ch: list[Any]) -> ast.If:
        return ast.If(ch[0], ch[1], ch[2] if len(ch) > 2 else None, _pos(meta))

    def repeat(self, meta: Any, ch: list[Any]) -> ast.Repeat:
        return ast.Repeat("repeat", ch[0], None, ch[1], _pos(meta))

    def up_to(self, meta: Any, ch: list[Any]) -> ast.Repeat:
        return ast.Repeat("up_to", ch[0], None, ch[1], _pos(meta))

    def any_times(self, meta: Any, ch: list[Any]) -> ast.Repeat:
        return ast.Repeat("any", None, None, ch[0], _pos(meta))

    def while_(self, meta: Any, ch: list[Any]) -> ast.Repeat:
        return ast.Repeat("while", None, ch[0], ch[1], _pos(meta))

    def for_players(self, meta: Any, ch: list[Any]) -> ast.ForPlayers:
        return ast.ForPlayers(str(ch[0]), _pos(meta), ch[-1])

    def order(self, meta: Any, ch: list[Any]) -> str:
        return "turn order"

    def for_cards(self, meta: Any, ch: list[Any]) -> ast.ForCards:
        bind = ch[1] if len(ch) == 3 else "it"
        return ast.ForCards(ch[0], bind, ch[-1], _pos(meta))

    def bind(self, meta: Any, ch: list[Any]) -> str:
        return str(ch[-1])

    def article(self, meta: Any, ch: list[Any]) -> None:
        return None

    def choose_card(self, meta: Any, ch: list[Any]) -> ast.ChooseCard:
        ch = [c for c in ch if c is not None]
        bind = ch[1] if len(ch) > 1 else "it"
        return ast.ChooseCard(ch[0], bind, _pos(meta), self._src(meta))

    def choose_under(self, meta: Any, ch: list[Any]) -> ast.ChooseCard:
        ch = [c for c in ch if c is not None]
        bind = ch[2] if len(ch) > 2 else "it"
        return ast.ChooseCard(ast.CardsUnder(ch[1], _pos(meta)), bind, _pos(meta), self._src(meta))

    def choose_under_all(self, meta: Any, ch: list[Any]) -> ast.ChooseCard:
        ch = [c for c in ch if c is not None]
        bind = ch[2] if len(ch) > 2 else "it"
        return ast.ChooseCard(ast.CardsUnderAll(ch[1], _pos(meta)), bind, _pos(meta), self._src(meta))

    def choose_zone(self, meta: Any, ch: list[Any]) -> ast.ChooseZone:
        ch = [c for c in ch if c is not None]
        bind = ch[1] if len(ch) > 1 else "it"
        return ast.ChooseZone(str(ch[0]), bind, _pos(meta), self._src(meta))

    def move(self, meta: Any, ch: list[Any]) -> ast.Move:
        facing = ch[2] if len(ch) > 2 else ""
        return ast.Move(ch[0], ch[1], facing, _pos(meta))

    def move_bottom(self, meta: Any, ch: list[Any]) -> ast.Move:
        facing = ch[2] if len(ch) > 2 else ""
        return ast.Move(ch[0], ch[1], facing, _pos(meta), bottom=True)

    def only_if(self, meta: Any, ch: list[Any]) -> ast.OnlyIf:
        return ast.OnlyIf(ch[0], _pos(meta))

    def whose(self, meta: Any, ch: list[Any]) -> ast.Whose:
        return ast.Whose(str(ch[0]), ch[1], False, _pos(meta))

    def whose_not(self, meta: Any, ch: list[Any]) -> ast.Whose:
        return ast.Whose(str(ch[0]), ch[1], True, _pos(meta))

    def literal(self, meta: Any, ch: list[Any]) -> str:
        return str(ch[0])

    def face_up(self, meta: Any, ch: list[Any]) -> str:
        return "up"

    def face_down(self, meta: Any, ch: list[Any]) -> str:
        return "down"

    def tuck(self, meta: Any, ch: list[Any]) -> ast.Tuck:
        return ast.Tuck(ch[0], ch[1], _pos(meta))

    def flip(self, meta: Any, ch: list[Any]) -> ast.Flip:
        return ast.Flip(ch[0], ch[1], _pos(meta))

    def draw(self, meta: Any, ch: list[Any]) -> ast.Draw:
        return ast.Draw(ch[0], _pos(meta))

    def shuffle(self, meta: Any, ch: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(ch[0], _pos(meta))

    def gain(self, meta: Any, ch: list[Any]) -> ast.CounterChange:
        return ast.CounterChange("gain", ch[0], str(ch[1]), _pos(meta), _tpos(ch[1]))

    def lose(self, meta: Any, ch: list[Any]) -> ast.CounterChange:
        return ast.CounterChange("lose", ch[0], str(ch[1]), _pos(meta), _tpos(ch[1]))

    def pay(self, meta: Any, ch: list[Any]) -> ast.CounterChange:
        return ast.CounterChange("pay", ch[0], str(ch[1]), _pos(meta), _tpos(ch[1]))

    def return_(self, meta: Any, ch: list[Any]) -> ast.CounterChange:
        return ast.CounterChange("return", ch[0], str(ch[1]), _pos(meta), _tpos(ch[1]))

    def fill_slot(self, meta: Any, ch: list[Any]) -> ast.FillSlot:
        return ast.FillSlot([c for c in ch if c is not None][0], _pos(meta), self._src(meta))

    def take_token(self, meta: Any, ch: list[Any]) -> ast.TakeTokenOf:
        return ast.TakeTokenOf("", [c for c in ch if c is not None][0], _pos(meta), self._src(meta))

    def let(self, meta: Any, ch: list[Any]) -> ast.Let:
        return ast.Let(str(ch[0]), ch[1], _pos(meta))

    def set_var(self, meta: Any, ch: list[Any]) -> ast.SetVar:
        return ast.SetVar(str(ch[0]), ch[1], _pos(meta))

    def do_section(self, meta: Any, ch: list[Any]) -> ast.DoSection:
        card, section = ch[0]
        return ast.DoSection(card, section, _pos(meta))

    def its_section(self, meta: Any, ch: list[Any]) -> tuple[Any, str]:
        return ast.It(_pos(meta)), str(ch[0])

    def poss_section(self, meta: Any, ch: list[Any]) -> tuple[Any, str]:
        return ast.Ref("the", str(ch[0]), _tpos(ch[0])), str(ch[1])

    def this_section(self, meta: Any, ch: list[Any]) -> tuple[Any, str]:
        return ast.ThisCard(_pos(meta)), str(ch[0])

    def mark(self, meta: Any, ch: list[Any]) -> ast.Mark:
        return ast.Mark(ch[0], str(ch[1]), True, _pos(meta))

    def unmark(self, meta: Any, ch: list[Any]) -> ast.Mark:
        return ast.Mark(ch[0], str(ch[1]), False, _pos(meta))

    def mark_value(self, meta: Any, ch: list[Any]) -> ast.Mark:
        return ast.Mark(ch[0], str(ch[1]), True, _pos(meta), value=True)

    def unmark_value(self, meta: Any, ch: list[Any]) -> ast.Mark:
        return ast.Mark(ch[0], str(ch[1]), False, _pos(meta), value=True)

    def clear_marks(self, meta: Any, ch: list[Any]) -> ast.ClearMarks:
        return ast.ClearMarks(str(ch[0]), _pos(meta))

    def peek(self, meta: Any, ch: list[Any]) -> ast.Peek:
        return ast.Peek(ch[0], _pos(meta))

    def point_out(self, meta: Any, ch: list[Any]) -> ast.PointOut:
        return ast.PointOut(ch[0], _pos(meta))

    def top_card(self, meta: Any, ch: list[Any]) -> ast.TopCard:
        return ast.TopCard(ch[-1], _pos(meta))

    def opponent_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("opponent" if str(ch[0]) == "opponent" else "player?", str(ch[1]), _tpos(ch[1]))

    def opponents_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("opponents" if str(ch[0]) == "opponent" else "player?", str(ch[1]), _tpos(ch[1]))

    def is_marked(self, meta: Any, ch: list[Any]) -> ast.IsMarked:
        return ast.IsMarked(ch[0], str(ch[1]), False, _pos(meta))

    def not_marked(self, meta: Any, ch: list[Any]) -> ast.IsMarked:
        return ast.IsMarked(ch[0], str(ch[1]), True, _pos(meta))

    def is_copy(self, meta: Any, ch: list[Any]) -> ast.IsCopy:
        return ast.IsCopy(ch[0], str(ch[1]), False, _pos(meta), _tpos(ch[1]))

    def not_copy(self, meta: Any, ch: list[Any]) -> ast.IsCopy:
        return ast.IsCopy(ch[0], str(ch[1]), True, _pos(meta), _tpos(ch[1]))

    def take_token_of(self, meta: Any, ch: list[Any]) -> ast.TakeTokenOf:
        ch = [c for c in ch if c is not None]
        return ast.TakeTokenOf(str(ch[0]), ch[1], _pos(meta), self._src(meta))

    def put_token(self, meta: Any, ch: list[Any]) -> ast.PutToken:
        ch = [c for c in ch if c is not None]
        return ast.PutToken(str(ch[0]), ch[1], _pos(meta))

    def note(self, meta: Any, ch: list[Any]) -> ast.Note:
        return ast.Note(ch[0], str(ch[1]), _pos(meta))

    def clear_notes(self, meta: Any, ch: list[Any]) -> ast.ClearNotes:
        return ast.ClearNotes(str(ch[0]), _pos(meta))

    def choose_kind(self, meta: Any, ch: list[Any]) -> ast.ChooseKind:
        ch = [c for c in ch if c is not None]
        bind = ch[1] if len(ch) > 1 else "kind"
        return ast.ChooseKind(str(ch[0]), bind, _pos(meta), self._src(meta))

    # -- players as values
    def _cond_and_bind(self, ch: list[Any]) -> tuple[Any, str]:
        cond = next((c for c in ch if not isinstance(c, str | Token) and c is not None), None)
        bind = str(ch[-1]) if isinstance(ch[-1], str) and not isinstance(ch[-1], Token) else ""
        return cond, bind

    def choose_player(self, meta: Any, ch: list[Any]) -> ast.ChoosePlayer:
        ch = [c for c in ch if c is not None]
        cond, bind = self._cond_and_bind(ch[1:])
        return ast.ChoosePlayer(str(ch[0]), cond, bind, _pos(meta), self._src(meta))

    def choose_other_player(self, meta: Any, ch: list[Any]) -> ast.ChoosePlayer:
        cond, bind = self._cond_and_bind(ch)
        return ast.ChoosePlayer("another", cond, bind, _pos(meta), self._src(meta))

    def for_chosen(self, meta: Any, ch: list[Any]) -> ast.ForChosen:
        return ast.ForChosen(str(ch[0]), ch[1], _pos(meta))

    def for_player(self, meta: Any, ch: list[Any]) -> ast.ForPlayer:
        return ast.ForPlayer(ch[0], ch[1], _pos(meta))

    # ---- players by seat: "the player to your left", "the previous player" ----
    def player_beside_you(self, meta: Any, ch: list[Any]) -> ast.PlayerRef:
        return ast.PlayerRef(str(ch[1]), None, "", _pos(meta), str(ch[0]))

    def player_beside(self, meta: Any, ch: list[Any]) -> ast.PlayerRef:
        return ast.PlayerRef(str(ch[1]), ch[2], "", _pos(meta), str(ch[0]))

    def previous_player(self, meta: Any, ch: list[Any]) -> ast.PlayerRef:
        return ast.PlayerRef("previous", None, "", _pos(meta), str(ch[0]))

    def start_player(self, meta: Any, ch: list[Any]) -> ast.PlayerRef:
        return ast.PlayerRef("start", None, "", _pos(meta), str(ch[0]))

    def player_named(self, meta: Any, ch: list[Any]) -> ast.PlayerRef:
        return ast.PlayerRef("named", None, str(ch[0]), _tpos(ch[0]))

    def player_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("player", str(ch[1]), _tpos(ch[1]), player=ch[0])

    def become_start(self, meta: Any, ch: list[Any]) -> ast.TurnOrder:
        return ast.TurnOrder("start" if str(ch[0]) == "player" else "start?", _pos(meta))

    def for_players_where(self, meta: Any, ch: list[Any]) -> ast.ForPlayersWhere:
        return ast.ForPlayersWhere(str(ch[0]), ch[1], ch[2], _pos(meta))

    def for_players_at_once(self, meta: Any, ch: list[Any]) -> ast.ForPlayersAtOnce:
        cond = ch[1] if len(ch) == 4 else None
        return ast.ForPlayersAtOnce(str(ch[0]), cond, ch[-2], ch[-1], _pos(meta))

    def choose_value(self, meta: Any, ch: list[Any]) -> ast.ChooseValue:
        ch = [c for c in ch if c is not None]
        rest = ch[1:]
        bind = str(rest.pop()) if rest and isinstance(rest[-1], str) and not isinstance(rest[-1], Token) else ""
        other = rest[0] if rest else None
        return ast.ChooseValue(str(ch[0]), other, bind or str(ch[0]), _pos(meta), self._src(meta))

    def choose_value_where(self, meta: Any, ch: list[Any]) -> ast.ChooseValue:
        ch = [c for c in ch if c is not None]
        bind = str(ch[2]) if len(ch) > 2 else str(ch[0])
        return ast.ChooseValue(str(ch[0]), None, bind, _pos(meta), self._src(meta), where=ch[1])

    def leave_order(self, meta: Any, ch: list[Any]) -> ast.TurnOrder:
        return ast.TurnOrder("leave", _pos(meta))

    def join_order(self, meta: Any, ch: list[Any]) -> ast.TurnOrder:
        return ast.TurnOrder("join", _pos(meta))

    def take_next_turn(self, meta: Any, ch: list[Any]) -> ast.TurnOrder:
        return ast.TurnOrder("next", _pos(meta))

    def any_player(self, meta: Any, ch: list[Any]) -> ast.PlayersCond:
        return ast.PlayersCond("any", str(ch[0]), ch[1], _pos(meta))

    def every_player(self, meta: Any, ch: list[Any]) -> ast.PlayersCond:
        return ast.PlayersCond("every", str(ch[0]), ch[1], _pos(meta))

    def no_player(self, meta: Any, ch: list[Any]) -> ast.PlayersCond:
        return ast.PlayersCond("no", str(ch[0]), ch[1], _pos(meta))

    def in_order(self, meta: Any, ch: list[Any]) -> ast.InOrder:
        return ast.InOrder(_pos(meta))

    def among_players(self, meta: Any, ch: list[Any]) -> ast.AmongPlayers:
        cond = ch[3] if len(ch) > 3 else None
        return ast.AmongPlayers(str(ch[0]) == "highest", ch[1], str(ch[2]), cond, _pos(meta))

    def highest_prop(self, meta: Any, ch: list[Any]) -> ast.HighestProp:
        return ast.HighestProp(str(ch[0]) == "highest", str(ch[1]), ch[2], _pos(meta))

    def count_players(self, meta: Any, ch: list[Any]) -> ast.CountPlayers:
        return ast.CountPlayers(str(ch[0]), ch[1] if len(ch) > 1 else None, _pos(meta))

    def is_noted(self, meta: Any, ch: list[Any]) -> ast.IsNoted:
        return ast.IsNoted(ch[0], str(ch[1]), _pos(meta))

    def any_of(self, meta: Any, ch: list[Any]) -> ast.AnyOf:
        return ast.AnyOf(tuple(ch), _pos(meta))

    def count_tokens_of(self, meta: Any, ch: list[Any]) -> ast.CountTokensOf:
        return ast.CountTokensOf(str(ch[0]), ch[-1], _pos(meta))

    def count_notes(self, meta: Any, ch: list[Any]) -> ast.CountNotes:
        return ast.CountNotes(str(ch[0]), _tpos(ch[0]))

    def smaller(self, meta: Any, ch: list[Any]) -> ast.Extreme:
        return ast.Extreme(False, ch[0], ch[1], _pos(meta))

    def larger(self, meta: Any, ch: list[Any]) -> ast.Extreme:
        return ast.Extreme(True, ch[0], ch[1], _pos(meta))

    # -- abilities
    def continuous(self, meta: Any, ch: list[Any]) -> ast.Continuous:
        return ast.Continuous(ch[0], tuple(ch[1:]), _pos(meta))

    def ability(self, meta: Any, ch: list[Any]) -> Any:
        return ch[0]

    def spot(self, meta: Any, ch: list[Any]) -> ast.Spot:
        facing = str(ch[0]) if len(ch) > 1 else ""
        return ast.Spot(facing, str(ch[-1]), _tpos(ch[-1]))

    def subject_you(self, meta: Any, ch: list[Any]) -> str:
        return "you"

    def subject_players(self, meta: Any, ch: list[Any]) -> str:
        return str(ch[-1])

    def this_subject(self, meta: Any, ch: list[Any]) -> bool:
        return True

    def _modify(self, sign: int, meta: Any, ch: list[Any]) -> ast.Modify:
        cond = ch[2] if len(ch) > 2 else None
        return ast.Modify(sign, ch[0], str(ch[1]), cond, _pos(meta), _tpos(ch[1]))

    def wild(self, meta: Any, ch: list[Any]) -> ast.Wild:
        cond = ch[1] if len(ch) > 1 else None
        return ast.Wild(str(ch[0]), cond, _pos(meta), _tpos(ch[0]))

    def modify_add(self, meta: Any, ch: list[Any]) -> ast.Modify:
        return self._modify(1, meta, ch)

    def modify_sub(self, meta: Any, ch: list[Any]) -> ast.Modify:
        return self._modify(-1, meta, ch)

    def trigger(self, meta: Any, ch: list[Any]) -> ast.Triggered:
        this_card = len(ch) == 5
        return ast.Triggered(ch[1], str(ch[2]), this_card, ch[-1], _pos(meta), _tpos(ch[2]))

    def lasting_trigger(self, meta: Any, ch: list[Any]) -> ast.Triggered:
        return ast.Triggered(ch[1], str(ch[2]), False, ch[-1], _pos(meta), _tpos(ch[2]))

    def activated(self, meta: Any, ch: list[Any]) -> ast.Activated:
        return ast.Activated(str(ch[0]), ch[1], _pos(meta), _tpos(ch[0]))

    def activated_any(self, meta: Any, ch: list[Any]) -> ast.Activated:
        return ast.Activated(str(ch[0]), ch[1], _pos(meta), _tpos(ch[0]), once=False)

    def _replacement(self, meta: Any, ch: list[Any], block: Any) -> ast.Replacement:
        optional = isinstance(ch[0], Token) and ch[0].type == "MAY"
        rest = ch[1:] if optional else ch
        spot = rest[2] if len(rest) > 2 else None
        return ast.Replacement(optional, rest[0], str(rest[1]), block, _pos(meta), _tpos(rest[1]), spot)

    def instead(self, meta: Any, ch: list[Any]) -> ast.Replacement:
        return self._replacement(meta, ch[:-1], ch[-1])

    def prevent(self, meta: Any, ch: list[Any]) -> ast.Replacement:
        return self._replacement(meta, ch, None)

    def replacement(self, meta: Any, ch: list[Any]) -> Any:
        return ch[0]

    def event(self, meta: Any, ch: list[Any]) -> ast.Event:
        return ast.Event(str(ch[0]), ch[1], _pos(meta), _tpos(ch[0]))

    def lasting_body(self, meta: Any, ch: list[Any]) -> tuple[Any, ...]:
        return tuple(ch)

    def lasting(self, meta: Any, ch: list[Any]) -> ast.Lasting:
        return ast.Lasting(ch[0], _pos(meta))

    def answer_first(self, meta: Any, ch: list[Any]) -> ast.AnswerFirst:
        return ast.AnswerFirst(str(ch[0]), _pos(meta), _tpos(ch[0]))

    def announce(self, meta: Any, ch: list[Any]) -> ast.Announce:
        return ast.Announce(str(ch[0]), ch[1] if len(ch) > 1 else None, _pos(meta))

    def use_abilities(self, meta: Any, ch: list[Any]) -> ast.UseAbilities:
        return ast.UseAbilities(str(ch[0]), _pos(meta))

    def use_ability(self, meta: Any, ch: list[Any]) -> ast.UseAbilities:
        window = [c for c in ch if c is not None][-1]
        return ast.UseAbilities(str(window), _tpos(window), one=True)  # where the window is named

    def can_use(self, meta: Any, ch: list[Any]) -> ast.CanUse:
        window = [c for c in ch if c is not None][-1]
        return ast.CanUse(str(window), _tpos(window))

    def nothing(self, meta: Any, ch: list[Any]) -> ast.Nothing:
        return ast.Nothing(_pos(meta))

    def call(self, meta: Any, ch: list[Any]) -> ast.Call:
        name = ch[0]
        arg = None
        noun = ""
        noun_pos = None
        args: list[ast.CallArg] = []
        for c in ch[1:]:
            if isinstance(c, ast.CallArg):
                args.append(c)
            elif isinstance(c, Token) and c.type == "NAME":
                noun = str(c)
                noun_pos = _tpos(c)
            else:
                arg = c
        return ast.Call(str(name), arg, noun, _tpos(name), noun_pos, tuple(args))

    def call_arg(self, meta: Any, ch: list[Any]) -> ast.CallArg:
        return ast.CallArg(str(ch[0]), str(ch[1]), _tpos(ch[0]), _tpos(ch[1]))

    def given_param(self, meta: Any, ch: list[Any]) -> ast.Param:
        kind, name = [c for c in ch if isinstance(c, Token) and c.type == "NAME"]
        return ast.Param(str(kind), str(name), _tpos(name), _tpos(kind))

    def given(self, meta: Any, ch: list[Any]) -> ast.Given:
        return ast.Given(tuple(ch), _pos(meta))

    # -- queries and cards
    def query(self, meta: Any, ch: list[Any]) -> ast.Query:
        facing = ""
        rest = list(ch)
        if isinstance(rest[0], Token) and rest[0].type == "FACING":
            facing = str(rest.pop(0))
        noun, noun_pos = rest.pop(0)
        zones = rest.pop(0)
        return ast.Query(facing, noun, zones, tuple(rest), _pos(meta), noun_pos)

    def query_tail(self, meta: Any, ch: list[Any]) -> ast.Query:
        return ch[0]  # type: ignore[no-any-return]

    def noun(self, meta: Any, ch: list[Any]) -> tuple[str, ast.Pos]:
        return str(ch[0]), _tpos(ch[0])

    def zones(self, meta: Any, ch: list[Any]) -> tuple[ast.Ref, ...]:
        return tuple(ch)

    def zones_group(self, meta: Any, ch: list[Any]) -> tuple[ast.GroupRef, ...]:
        name = ch[-1]
        return (ast.GroupRef(str(name), _tpos(name)),)

    def with_symbol(self, meta: Any, ch: list[Any]) -> ast.WithSymbol:
        ch = [c for c in ch if c is not None]
        return ast.WithSymbol(ch[0], _pos(meta))

    def with_section(self, meta: Any, ch: list[Any]) -> ast.WithSection:
        return ast.WithSection(str(ch[0]), _pos(meta))

    def where(self, meta: Any, ch: list[Any]) -> ast.Where:
        return ast.Where(ch[0], _pos(meta))

    def one_card(self, meta: Any, ch: list[Any]) -> Any:
        return ch[0]

    def top_cards(self, meta: Any, ch: list[Any]) -> ast.TopCards:
        return ast.TopCards(ch[0], ch[-1], _pos(meta))

    def all_query(self, meta: Any, ch: list[Any]) -> Any:
        q: ast.Query = ch[-1]
        # "all cards in ZONE" is the common, fast case
        zone = q.zones[0]
        plain = q.noun in ("card", "cards") and not q.facing and not q.filters and len(q.zones) == 1
        if plain and isinstance(zone, ast.Ref):  # a zone group names several zones: a query
            return ast.AllCards(zone, _pos(meta))
        return q

    def cards_under(self, meta: Any, ch: list[Any]) -> ast.CardsUnder:
        return ast.CardsUnder(ch[-1], _pos(meta))

    def cards_under_all(self, meta: Any, ch: list[Any]) -> ast.CardsUnderAll:
        return ast.CardsUnderAll(ch[-1], _pos(meta))

    def it(self, meta: Any, ch: list[Any]) -> ast.It:
        return ast.It(_pos(meta))

    def this_card(self, meta: Any, ch: list[Any]) -> ast.ThisCard:
        return ast.ThisCard(_pos(meta))

    def your_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("your", str(ch[0]), _tpos(ch[0]))

    def the_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("the", str(ch[0]), _tpos(ch[0]))

    def its_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("its", str(ch[0]), _tpos(ch[0]))

    def poss_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("poss", str(ch[1]), _tpos(ch[1]), possessor=str(ch[0]))

    def this_ref(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("this", str(ch[0]), _tpos(ch[0]))

    def prop_of(self, meta: Any, ch: list[Any]) -> ast.Ref:
        return ast.Ref("of", str(ch[0]), _tpos(ch[0]), card=ch[1])

    def card_in(self, meta: Any, ch: list[Any]) -> ast.CardIn:
        return ast.CardIn(str(ch[0]), ch[1], _pos(meta))

    def symbol_name(self, meta: Any, ch: list[Any]) -> ast.SymbolName:
        return ast.SymbolName(str(ch[0]), _tpos(ch[0]))

    # -- conditions
    def all_of(self, meta: Any, ch: list[Any]) -> Any:
        return ch[0] if len(ch) == 1 else ast.AllOf(tuple(ch), _pos(meta))

    def not_(self, meta: Any, ch: list[Any]) -> ast.Not:
        return ast.Not(ch[0], _pos(meta))

    def _cmp(op: str) -> Any:  # type: ignore[misc]  # noqa: N805
        def build(self: Any, meta: Any, ch: list[Any]) -> ast.Compare:
            return ast.Compare(op, ch[0], ch[1], _pos(meta))

        return build

    ge = _cmp("ge")
    le = _cmp("le")
    gt = _cmp("gt")
    lt = _cmp("lt")
    eq = _cmp("eq")
    ne = _cmp("ne")

    def is_empty(self, meta: Any, ch: list[Any]) -> ast.IsEmpty:
        return ast.IsEmpty(ch[0], False, _pos(meta))

    def not_empty(self, meta: Any, ch: list[Any]) -> ast.IsEmpty:
        return ast.IsEmpty(ch[0], True, _pos(meta))

    def is_facing(self, meta: Any, ch: list[Any]) -> ast.IsFacing:
        return ast.IsFacing(ch[0], str(ch[1]), _pos(meta))

    def is_in(self, meta: Any, ch: list[Any]) -> ast.IsIn:
        return ast.IsIn(ch[0], ch[1], _pos(meta))

    # -- expressions
    def add(self, meta: Any, ch: list[Any]) -> ast.Arith:
        return ast.Arith("plus", ch[0], ch[1], _pos(meta))

    def sub(self, meta: Any, ch: list[Any]) -> ast.Arith:
        return ast.Arith("minus", ch[0], ch[1], _pos(meta))

    def multiply(self, meta: Any, ch: list[Any]) -> ast.Multiply:
        return ast.Multiply(ch[0], ch[2], _pos(meta))

    def divide(self, meta: Any, ch: list[Any]) -> ast.Divide:
        return ast.Divide(ch[0], ch[1], False, _pos(meta))

    def divide_up(self, meta: Any, ch: list[Any]) -> ast.Divide:
        return ast.Divide(ch[0], ch[1], True, _pos(meta))

    def number(self, meta: Any, ch: list[Any]) -> ast.Number:
        return ast.Number(int(ch[0]), _tpos(ch[0]))

    def var(self, meta: Any, ch: list[Any]) -> ast.Var:
        return ast.Var(str(ch[0]), _tpos(ch[0]))

    def total(self, meta: Any, ch: list[Any]) -> ast.Total:
        return ast.Total(str(ch[0]), ch[1], _pos(meta))

    def count_cards(self, meta: Any, ch: list[Any]) -> ast.CountCards:
        return ast.CountCards(ch[0], _pos(meta))

    def count_symbols(self, meta: Any, ch: list[Any]) -> ast.CountSymbols:
        return ast.CountSymbols(ch[0], ch[-1], _pos(meta))

    def count_empty(self, meta: Any, ch: list[Any]) -> ast.CountEmpty:
        return ast.CountEmpty(str(ch[0]), _tpos(ch[0]))

    def count_under(self, meta: Any, ch: list[Any]) -> ast.CountCards:
        return ast.CountCards(ast.CardsUnder(ch[-1], _pos(meta)), _pos(meta))

    def count_tokens(self, meta: Any, ch: list[Any]) -> ast.CountTokens:
        return ast.CountTokens(ch[0], _pos(meta))
