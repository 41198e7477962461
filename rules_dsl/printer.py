"""Syntax tree -> card text in its canonical form.

The canonical form is what `rules-dsl cards ID` shows next to the source: each section and
each of its statements on a line of its own, bodies bare when they are one simple statement
and parenthesised otherwise, and one spelling where the syntax tree keeps no difference
(`their` prints as `your`; `either` and `in turn order` are dropped). Parsing the printed
text gives the same tree, positions aside (tests/test_printer.py checks every pack's texts
and generated ones).

There is one printer per syntax-node class, registered with `@prints(ast.Class)`; a test
fails for a node class without one. A printer gets the node and `follow`, the words that
will come right after its text. The grammar resolves a few shift/reduce conflicts greedily:
a query inside a `where` takes the filters after it, a condition takes a following `and`,
an expression a following `plus`/`minus`. So a printer that puts one of those words after
an expression passes it in `follow`, and `expr()` puts the expression in parentheses when
the expression's text would otherwise swallow that word (`opens()`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules_dsl import ast

NONE: frozenset[str] = frozenset()
FILTER_WORDS = frozenset({"with", "where", "whose"})
ARITH_WORDS = frozenset({"plus", "minus", "times", "divided"})
# sums and products: their text ends with a term, which a following operator does not take
ARITHMETIC = (ast.Arith, ast.Multiply, ast.Divide)

Printer = Callable[[Any, frozenset[str]], str]
PRINTERS: dict[type, Printer] = {}
# Statements that cannot stand bare as a body or an alternative (the grammar's `compound`).
COMPOUND: set[type] = set()


def prints(cls: type, compound: bool = False) -> Callable[[Printer], Printer]:
    """Register the printer of one syntax-node class."""

    def register(fn: Printer) -> Printer:
        PRINTERS[cls] = fn
        if compound:
            COMPOUND.add(cls)
        return fn

    return register


def to_text(node: Any) -> str:
    """Canonical text of a parse result: a card's sections, a block, a condition or an expression.

    The statements of a card section or of a rules text go one to a line (line breaks mean
    nothing to the parser); everything inside a statement stays on its line.
    """
    if isinstance(node, tuple):
        return "\n".join(_item(s) for s in node)
    if isinstance(node, ast.Block):
        return _lines(node, "")
    return show(node)


def _item(node: Any) -> str:
    """One item of a card's text: a section (a statement to a line) or an ability."""
    if isinstance(node, ast.Section):
        return f"{node.label}: " + _lines(node.block, "  ")
    if isinstance(node, ast.Triggered):
        return f"{_when(node)}: " + _lines(node.block, "  ")
    if isinstance(node, ast.Activated):
        return f"{_during(node)}: " + _lines(node.block, "  ")
    if isinstance(node, ast.Replacement) and node.block is not None:
        return f"{_instead(node)}: " + _lines(node.block, "  ")
    if isinstance(node, ast.Continuous):
        return f"WHILE {show(node.spot)}: " + ";\n  ".join(show(m) for m in node.mods)
    return show(node)


def _lines(block: ast.Block, indent: str) -> str:
    return (";\n" + indent).join(_stmt(s) for s in block.stmts)


def _stmt(node: Any) -> str:
    """A statement of a block: a nested block in parentheses."""
    return f"({show(node)})" if isinstance(node, ast.Block) else show(node)


def show(node: Any, follow: frozenset[str] = NONE) -> str:
    try:
        printer = PRINTERS[type(node)]
    except KeyError:
        raise TypeError(f"no printer for syntax node {type(node).__name__} (add one in rules_dsl/printer.py)") from None
    return printer(node, follow)


def expr(node: Any, follow: frozenset[str] = NONE) -> str:
    """An expression, in parentheses when its end would swallow a word in `follow`."""
    if opens(node) & follow:
        return f"({show(node)})"
    return show(node, follow)


def term(node: Any, follow: frozenset[str] = NONE) -> str:
    """A single term (`the smaller of A and B`, the right side of `plus`): sums in parentheses."""
    if isinstance(node, ARITHMETIC):
        return f"({show(node)})"
    return expr(node, follow)


def opens(node: Any) -> frozenset[str]:
    """The words that the end of this node's text would take as its own continuation."""
    if isinstance(node, ARITHMETIC):
        return ARITH_WORDS | (NONE if isinstance(node.right, ARITHMETIC) else opens(node.right))
    if isinstance(node, ast.Query):
        return FILTER_WORDS | (opens(node.filters[-1]) if node.filters else NONE)
    if isinstance(node, ast.Where):
        return frozenset({"and"}) | opens(node.cond)
    if isinstance(node, ast.Compare):
        return ARITH_WORDS | opens(node.right)  # `where its x is 1 plus 2` adds inside the where
    if isinstance(node, ast.Not):
        return opens(node.cond)
    if isinstance(node, ast.AllOf):
        return opens(node.conds[-1])
    if isinstance(node, ast.CountCards | ast.Total | ast.CardsUnderAll):
        return opens(node.query)
    if isinstance(node, ast.CountSymbols | ast.CountTokens | ast.CountTokensOf):
        return opens(node.cards)
    if isinstance(node, ast.Extreme):
        return NONE if isinstance(node.right, ARITHMETIC) else opens(node.right)
    if isinstance(node, ast.AmongPlayers | ast.CountPlayers):
        # the condition takes every `and` after it, as a query's `where` does
        return frozenset({"where"}) if node.cond is None else frozenset({"and"}) | opens(node.cond)
    if isinstance(node, ast.HighestProp):
        return opens(node.cards)
    if isinstance(node, ast.PlayersCond):
        return frozenset({"and"}) | opens(node.cond)
    return NONE


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _bind(name: str, default: str = "it") -> str:
    return "" if name == default else f" as the {name}"


def body(node: Any) -> str:
    """A body of a compound statement or an alternative: bare if one simple statement."""
    stmts = node.stmts if isinstance(node, ast.Block) else (node,)
    if len(stmts) == 1 and type(stmts[0]) not in COMPOUND:
        return show(stmts[0])
    return f"({show(node)})"


# ---- text structure ----------------------------------------------------------------


@prints(ast.Section)
def _section(n: ast.Section, follow: frozenset[str]) -> str:
    return f"{n.label}: {show(n.block)}"


@prints(ast.Block, compound=True)
def _block(n: ast.Block, follow: frozenset[str]) -> str:
    return "; ".join(_stmt(s) for s in n.stmts)


# ---- compound statements -----------------------------------------------------------


@prints(ast.Alternatives, compound=True)
def _alternatives(n: ast.Alternatives, follow: frozenset[str]) -> str:
    return " OR ".join(body(o) for o in n.options)


@prints(ast.May, compound=True)
def _may(n: ast.May, follow: frozenset[str]) -> str:
    return f"you may {body(n.body)}"


@prints(ast.If, compound=True)
def _if(n: ast.If, follow: frozenset[str]) -> str:
    text = f"if {show(n.cond)} then {body(n.then)}"
    return text if n.otherwise is None else f"{text} otherwise {body(n.otherwise)}"


@prints(ast.Repeat, compound=True)
def _repeat(n: ast.Repeat, follow: frozenset[str]) -> str:
    if n.kind == "repeat":
        return f"repeat {expr(n.count)} times: {body(n.body)}"
    if n.kind == "up_to":
        return f"up to {expr(n.count)} times: {body(n.body)}"
    if n.kind == "any":
        return f"any number of times: {body(n.body)}"
    return f"while {show(n.cond)}: {body(n.body)}"


@prints(ast.ForPlayers, compound=True)
def _for_players(n: ast.ForPlayers, follow: frozenset[str]) -> str:
    return f"for each {n.who}: {body(n.body)}"


@prints(ast.ForChosen, compound=True)
def _for_chosen(n: ast.ForChosen, follow: frozenset[str]) -> str:
    return f"for the {n.name}: {body(n.body)}"


@prints(ast.ForPlayer, compound=True)
def _for_player(n: ast.ForPlayer, follow: frozenset[str]) -> str:
    return f"for {show(n.player)}: {body(n.body)}"


@prints(ast.ForPlayersWhere, compound=True)
def _for_players_where(n: ast.ForPlayersWhere, follow: frozenset[str]) -> str:
    return f"for each {n.who} where {show(n.cond)}: {body(n.body)}"


@prints(ast.ForPlayersAtOnce, compound=True)
def _for_players_at_once(n: ast.ForPlayersAtOnce, follow: frozenset[str]) -> str:
    where = f" where {show(n.cond)}" if n.cond is not None else ""
    return f"for each {n.who}{where} at once: {body(n.choice)} then: {body(n.body)}"


@prints(ast.ForCards, compound=True)
def _for_cards(n: ast.ForCards, follow: frozenset[str]) -> str:
    return f"for each {show(n.query)}{_bind(n.bind)}: {body(n.body)}"


# ---- simple statements -------------------------------------------------------------


@prints(ast.ChooseCard)
def _choose_card(n: ast.ChooseCard, follow: frozenset[str]) -> str:
    if isinstance(n.query, ast.CardsUnder):
        return f"choose a card under {show(n.query.card)}{_bind(n.bind)}"
    if isinstance(n.query, ast.CardsUnderAll):
        return f"choose a card under {show(n.query.query)}{_bind(n.bind)}"
    q = show(n.query)
    return f"choose {_article(q)} {q}{_bind(n.bind)}"


@prints(ast.ChooseZone)
def _choose_zone(n: ast.ChooseZone, follow: frozenset[str]) -> str:
    return f"choose {_article(n.group)} {n.group} that is not empty{_bind(n.bind)}"


@prints(ast.ChooseKind)
def _choose_kind(n: ast.ChooseKind, follow: frozenset[str]) -> str:
    return f"choose {_article(n.group)} {n.group} kind{_bind(n.bind, 'kind')}"


@prints(ast.ChoosePlayer)
def _choose_player(n: ast.ChoosePlayer, follow: frozenset[str]) -> str:
    who = "another player" if n.who == "another" else f"{_article(n.who)} {n.who}"
    where = f" where {show(n.cond, frozenset({'as'}))}" if n.cond is not None else ""
    return f"choose {who}{where} as the {n.bind}"


@prints(ast.ChooseValue)
def _choose_value(n: ast.ChooseValue, follow: frozenset[str]) -> str:
    bind = _bind(n.bind, n.prop)
    other = f" other than {expr(n.other_than, frozenset({'as'}) if bind else follow)}" if n.other_than else ""
    if n.where is not None:
        other = f" where {show(n.where, frozenset({'as'}) if bind else follow)}"
    return f"choose {_article(n.prop)} {n.prop} value{other}{bind}"


@prints(ast.TurnOrder)
def _turn_order(n: ast.TurnOrder, follow: frozenset[str]) -> str:
    return {
        "leave": "leave the turn order",
        "join": "join the turn order",
        "next": "take the next turn",
        "start": "become the start player",
        "start?": "become the start opponent",
    }[n.action]


@prints(ast.Move)
def _move(n: ast.Move, follow: frozenset[str]) -> str:
    cards = f"all {show(n.cards)}" if isinstance(n.cards, ast.Query) else show(n.cards)
    where = "the bottom of " if n.bottom else ""
    facing = f" face {n.facing}" if n.facing else ""
    return f"move {cards} to {where}{show(n.dest)}{facing}"


@prints(ast.OnlyIf)
def _only_if(n: ast.OnlyIf, follow: frozenset[str]) -> str:
    return f"only if {show(n.cond, follow)}"


@prints(ast.Tuck)
def _tuck(n: ast.Tuck, follow: frozenset[str]) -> str:
    return f"tuck {show(n.card)} under {show(n.under)}"


@prints(ast.Flip)
def _flip(n: ast.Flip, follow: frozenset[str]) -> str:
    return f"flip {show(n.card)} face {n.facing}"


def _cards_word(count: Any) -> str:
    return "card" if isinstance(count, ast.Number) and count.value == 1 else "cards"


@prints(ast.Draw)
def _draw(n: ast.Draw, follow: frozenset[str]) -> str:
    return f"draw {expr(n.count)} {_cards_word(n.count)}"


@prints(ast.Shuffle)
def _shuffle(n: ast.Shuffle, follow: frozenset[str]) -> str:
    return f"shuffle {show(n.zone)}"


@prints(ast.CounterChange)
def _counter_change(n: ast.CounterChange, follow: frozenset[str]) -> str:
    return f"{n.verb} {expr(n.amount)} {n.counter}"


@prints(ast.FillSlot)
def _fill_slot(n: ast.FillSlot, follow: frozenset[str]) -> str:
    q = show(n.query, follow)
    return f"fill an empty slot on {_article(q)} {q}"


@prints(ast.TakeTokenOf)
def _take_token(n: ast.TakeTokenOf, follow: frozenset[str]) -> str:
    q = show(n.query, follow)
    token = f"{_article(n.kind)} {n.kind} token" if n.kind else "a token"
    return f"remove {token} from {_article(q)} {q}"


@prints(ast.PutToken)
def _put_token(n: ast.PutToken, follow: frozenset[str]) -> str:
    return f"put {_article(n.kind)} {n.kind} token on {show(n.card)}"


def _value(value: str | ast.Ref) -> str:
    return value if isinstance(value, str) else show(value)


@prints(ast.Note)
def _note(n: ast.Note, follow: frozenset[str]) -> str:
    return f"note {_value(n.value)} as {n.name}"


@prints(ast.ClearNotes)
def _clear_notes(n: ast.ClearNotes, follow: frozenset[str]) -> str:
    return f"clear all {n.name} notes"


@prints(ast.SetVar)
def _set_var(n: ast.SetVar, follow: frozenset[str]) -> str:
    return f"set {n.name} to {expr(n.value, follow)}"


@prints(ast.Let)
def _let(n: ast.Let, follow: frozenset[str]) -> str:
    return f"let {n.name} be {expr(n.value, follow)}"


@prints(ast.Mark)
def _mark(n: ast.Mark, follow: frozenset[str]) -> str:
    return f"{'mark' if n.on else 'unmark'} {show(n.card)} as {'the ' if n.value else ''}{n.name}"


@prints(ast.ClearMarks)
def _clear_marks(n: ast.ClearMarks, follow: frozenset[str]) -> str:
    return f"clear all {n.name} marks"


@prints(ast.PointOut)
def _point_out(n: ast.PointOut, follow: frozenset[str]) -> str:
    return f"point out {show(n.query)}"


@prints(ast.Peek)
def _peek(n: ast.Peek, follow: frozenset[str]) -> str:
    return f"peek at {show(n.card)}"


@prints(ast.DoSection)
def _do_section(n: ast.DoSection, follow: frozenset[str]) -> str:
    if isinstance(n.card, ast.It):
        return f"do its {n.section}"
    if isinstance(n.card, ast.ThisCard):
        return f"do this card's {n.section}"
    assert isinstance(n.card, ast.Ref)
    return f"do the {n.card.name}'s {n.section}"


@prints(ast.Nothing)
def _nothing(n: ast.Nothing, follow: frozenset[str]) -> str:
    return "nothing"


@prints(ast.Call)
def _call(n: ast.Call, follow: frozenset[str]) -> str:
    parts = [n.name]
    if n.arg is not None:
        parts.append(expr(n.arg))
    if n.noun:
        parts.append(n.noun)
    if n.args:
        parts.append("using " + ", ".join(_call_arg(a, follow) for a in n.args))
    return " ".join(parts)


@prints(ast.CallArg)
def _call_arg(n: ast.CallArg, follow: frozenset[str]) -> str:
    return f"{n.name}: {n.word}"


@prints(ast.Given)
def _given(n: ast.Given, follow: frozenset[str]) -> str:
    return "given " + ", ".join(_param(p, follow) for p in n.params)


@prints(ast.Param)
def _param(n: ast.Param, follow: frozenset[str]) -> str:
    return f"{_article(n.kind)} {n.kind} {n.name}"


# ---- cards, references, queries ----------------------------------------------------


@prints(ast.Ref)
def _ref(n: ast.Ref, follow: frozenset[str]) -> str:
    owner = {
        "your": "your",
        "the": "the",
        "its": "its",
        "this": "this card's",
        "opponent": "the opponent's",
        "opponents": "an opponent's",
        "player?": "the player's",
    }
    if n.owner == "poss":
        return f"the {n.possessor}'s {n.name}"
    if n.owner == "player" and n.player is not None:
        return f"{show(n.player)}'s {n.name}"
    if n.owner == "of" and n.card is not None:
        return f"the {n.name} of {show(n.card)}"
    return f"{owner[n.owner]} {n.name}"


@prints(ast.CardIn)
def _card_in(n: ast.CardIn, follow: frozenset[str]) -> str:
    return f"the {n.word} in " + " or ".join(show(z) for z in n.zones)


@prints(ast.PlayerRef)
def _player_ref(n: ast.PlayerRef, follow: frozenset[str]) -> str:
    if n.how == "named":
        return f"the {n.name}"
    if n.how in ("previous", "start"):
        return f"the {n.how} {n.word}"
    if n.of is None:
        return f"the {n.word} to your {n.how}"
    return f"the {n.word} to the {n.how} of {show(n.of)}"


@prints(ast.It)
def _it(n: ast.It, follow: frozenset[str]) -> str:
    return "it"


@prints(ast.ThisCard)
def _this_card(n: ast.ThisCard, follow: frozenset[str]) -> str:
    return "this card"


@prints(ast.TopCard)
def _top_card(n: ast.TopCard, follow: frozenset[str]) -> str:
    return f"the top card of {show(n.zone)}"


@prints(ast.TopCards)
def _top_cards(n: ast.TopCards, follow: frozenset[str]) -> str:
    count = n.count if n.count is not None else ast.Number(1, n.pos)
    return f"the top {expr(count)} {_cards_word(count)} of {show(n.zone)}"


@prints(ast.AllCards)
def _all_cards(n: ast.AllCards, follow: frozenset[str]) -> str:
    return f"all cards in {show(n.zone)}"


@prints(ast.CardsUnder)
def _cards_under(n: ast.CardsUnder, follow: frozenset[str]) -> str:
    return f"the cards under {show(n.card)}"


@prints(ast.CardsUnderAll)
def _cards_under_all(n: ast.CardsUnderAll, follow: frozenset[str]) -> str:
    return f"the cards under {show(n.query, follow)}"


@prints(ast.GroupRef)
def _group_ref(n: ast.GroupRef, follow: frozenset[str]) -> str:
    return f"{_article(n.group)} {n.group}"


@prints(ast.Query)
def _query(n: ast.Query, follow: frozenset[str]) -> str:
    parts = [n.facing] if n.facing else []
    parts.append(n.noun)
    parts.append("in " + " or ".join(show(z) for z in n.zones))
    for i, f in enumerate(n.filters):
        after = follow if i == len(n.filters) - 1 else FILTER_WORDS
        parts.append(show(f, after))
    return " ".join(parts)


@prints(ast.SymbolName)
def _symbol_name(n: ast.SymbolName, follow: frozenset[str]) -> str:
    return n.name


@prints(ast.WithSymbol)
def _with_symbol(n: ast.WithSymbol, follow: frozenset[str]) -> str:
    if isinstance(n.symbol, ast.SymbolName):
        return f"with {_article(n.symbol.name)} {n.symbol.name} symbol"
    return f"with {show(n.symbol)} symbol"


@prints(ast.WithSection)
def _with_section(n: ast.WithSection, follow: frozenset[str]) -> str:
    return f"with {n.section}"


@prints(ast.Where)
def _where(n: ast.Where, follow: frozenset[str]) -> str:
    return f"where {show(n.cond, follow)}"


@prints(ast.Whose)
def _whose(n: ast.Whose, follow: frozenset[str]) -> str:
    return f"whose {n.prop} is {'not ' if n.negated else ''}{_value(n.value)}"


# ---- conditions --------------------------------------------------------------------

COMPARISONS = {
    "ge": "is at least",
    "le": "is at most",
    "gt": "is more than",
    "lt": "is less than",
    "eq": "is",
    "ne": "is not",
}


@prints(ast.Compare)
def _compare(n: ast.Compare, follow: frozenset[str]) -> str:
    return f"{expr(n.left)} {COMPARISONS[n.op]} {expr(n.right, follow)}"


@prints(ast.IsEmpty)
def _is_empty(n: ast.IsEmpty, follow: frozenset[str]) -> str:
    return f"{expr(n.subject)} is {'not ' if n.negated else ''}empty"


@prints(ast.IsFacing)
def _is_facing(n: ast.IsFacing, follow: frozenset[str]) -> str:
    return f"{expr(n.subject)} is {n.facing}"


@prints(ast.IsIn)
def _is_in(n: ast.IsIn, follow: frozenset[str]) -> str:
    return f"{expr(n.subject)} is in {show(n.zone)}"


@prints(ast.IsMarked)
def _is_marked(n: ast.IsMarked, follow: frozenset[str]) -> str:
    return f"{expr(n.subject)} is {'not ' if n.negated else ''}marked {n.name}"


@prints(ast.IsCopy)
def _is_copy(n: ast.IsCopy, follow: frozenset[str]) -> str:
    return f"{expr(n.subject)} is {'not ' if n.negated else ''}a copy of {n.card_id}"


@prints(ast.IsNoted)
def _is_noted(n: ast.IsNoted, follow: frozenset[str]) -> str:
    return f"{expr(n.subject)} is noted as {n.name}"


@prints(ast.Not)
def _not(n: ast.Not, follow: frozenset[str]) -> str:
    return f"not {show(n.cond, follow)}"


@prints(ast.AllOf)
def _all_of(n: ast.AllOf, follow: frozenset[str]) -> str:
    last = len(n.conds) - 1
    return " and ".join(show(c, follow if i == last else frozenset({"and"})) for i, c in enumerate(n.conds))


@prints(ast.PlayersCond)
def _players_cond(n: ast.PlayersCond, follow: frozenset[str]) -> str:
    return f"{n.quantifier} {n.who} where {show(n.cond, follow)}"


@prints(ast.InOrder)
def _in_order(n: ast.InOrder, follow: frozenset[str]) -> str:
    return "you are in the turn order"


@prints(ast.AnyOf)
def _any_of(n: ast.AnyOf, follow: frozenset[str]) -> str:
    return "any of (" + "; ".join(show(c) for c in n.conds) + ")"


# ---- expressions -------------------------------------------------------------------


@prints(ast.Number)
def _number(n: ast.Number, follow: frozenset[str]) -> str:
    return str(n.value)


@prints(ast.Var)
def _var(n: ast.Var, follow: frozenset[str]) -> str:
    return n.name


@prints(ast.Arith)
def _arith(n: ast.Arith, follow: frozenset[str]) -> str:
    # left-associative: a sum on the left needs no parentheses, only its last term closed
    left = show(n.left, ARITH_WORDS) if isinstance(n.left, ARITHMETIC) else expr(n.left, ARITH_WORDS)
    return f"{left} {n.op} {term(n.right, follow)}"


def _factor(node: Any) -> str:
    """The left side of `times` or `divided by`: a product as it is, a sum in parentheses."""
    if isinstance(node, ast.Arith):
        return f"({show(node)})"
    return show(node, ARITH_WORDS) if isinstance(node, ARITHMETIC) else expr(node, ARITH_WORDS)


@prints(ast.Multiply)
def _multiply(n: ast.Multiply, follow: frozenset[str]) -> str:
    return f"{_factor(n.left)} times {term(n.right, follow)}"


@prints(ast.Divide)
def _divide(n: ast.Divide, follow: frozenset[str]) -> str:
    rounding = " rounded up" if n.up else ""
    return f"{_factor(n.left)} divided by {term(n.right, follow | {'rounded'})}{rounding}"


@prints(ast.CountCards)
def _count_cards(n: ast.CountCards, follow: frozenset[str]) -> str:
    if isinstance(n.query, ast.CardsUnder):
        return f"the number of cards under {show(n.query.card)}"
    return f"the number of {show(n.query, follow)}"


@prints(ast.CountSymbols)
def _count_symbols(n: ast.CountSymbols, follow: frozenset[str]) -> str:
    return f"the number of {show(n.symbol)} symbols on {show(n.cards, follow)}"


@prints(ast.CountEmpty)
def _count_empty(n: ast.CountEmpty, follow: frozenset[str]) -> str:
    return f"the number of empty {n.group}"


@prints(ast.CountTokens)
def _count_tokens(n: ast.CountTokens, follow: frozenset[str]) -> str:
    return f"the number of tokens on {show(n.cards, follow)}"


@prints(ast.CountTokensOf)
def _count_tokens_of(n: ast.CountTokensOf, follow: frozenset[str]) -> str:
    return f"the number of {n.kind} tokens on {show(n.cards, follow)}"


@prints(ast.CountNotes)
def _count_notes(n: ast.CountNotes, follow: frozenset[str]) -> str:
    return f"the number of {n.name} notes"


@prints(ast.Total)
def _total(n: ast.Total, follow: frozenset[str]) -> str:
    return f"the total {n.prop} of {show(n.query, follow)}"


@prints(ast.AmongPlayers)
def _among_players(n: ast.AmongPlayers, follow: frozenset[str]) -> str:
    which = "highest" if n.highest else "lowest"
    where = f" where {show(n.cond, follow)}" if n.cond is not None else ""
    return f"the {which} {expr(n.expr, frozenset({'among'}))} among {n.who}{where}"


@prints(ast.CountPlayers)
def _count_players(n: ast.CountPlayers, follow: frozenset[str]) -> str:
    where = f" where {show(n.cond, follow)}" if n.cond is not None else ""
    return f"the number of {n.who}{where}"


@prints(ast.HighestProp)
def _highest_prop(n: ast.HighestProp, follow: frozenset[str]) -> str:
    return f"the {'highest' if n.highest else 'lowest'} {n.prop} of {show(n.cards, follow)}"


@prints(ast.Extreme)
def _extreme(n: ast.Extreme, follow: frozenset[str]) -> str:
    which = "larger" if n.larger else "smaller"
    return f"the {which} of {term(n.left, frozenset({'and'}))} and {term(n.right, follow)}"


# ---- abilities ----------------------------------------------------------------------

_SUBJECTS = {"you": "you", "opponent": "an opponent", "player": "a player"}


@prints(ast.Spot)
def _spot(n: ast.Spot, follow: frozenset[str]) -> str:
    return f"{n.facing} in your {n.zone}" if n.facing else f"in your {n.zone}"


@prints(ast.Modify)
def _modify(n: ast.Modify, follow: frozenset[str]) -> str:
    cond = "" if n.cond is None else f" if {show(n.cond, follow)}"
    if n.sign > 0:
        return f"add {expr(n.amount)} to your {n.quantity}{cond}"
    return f"subtract {expr(n.amount)} from your {n.quantity}{cond}"


@prints(ast.Wild)
def _wild(n: ast.Wild, follow: frozenset[str]) -> str:
    cond = "" if n.cond is None else f" if {show(n.cond, follow)}"
    return f"your copies of {n.card_id} are wild{cond}"


@prints(ast.Continuous)
def _continuous(n: ast.Continuous, follow: frozenset[str]) -> str:
    return f"WHILE {show(n.spot)}: " + "; ".join(show(m) for m in n.mods)


def _when(n: ast.Triggered) -> str:
    this = " this card" if n.this_card else ""
    return f"WHEN {_SUBJECTS[n.subject]} {n.moment}{this}"


@prints(ast.Triggered)
def _triggered(n: ast.Triggered, follow: frozenset[str]) -> str:
    return f"{_when(n)}: {show(n.block)}"


def _during(n: ast.Activated) -> str:
    return f"ONCE PER TURN, during your {n.window}" if n.once else f"DURING your {n.window}"


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


@prints(ast.Activated)
def _activated(n: ast.Activated, follow: frozenset[str]) -> str:
    return f"{_during(n)}: {show(n.block)}"


def _instead(n: ast.Replacement) -> str:
    may = "MAY " if n.optional else ""
    word = "INSTEAD OF" if n.block is not None else "PREVENT"
    spot = "" if n.spot is None else f" while {show(n.spot)}"
    return f"{may}{word} {_SUBJECTS[n.subject]} {n.moment}{spot}"


@prints(ast.Replacement)
def _replacement(n: ast.Replacement, follow: frozenset[str]) -> str:
    return _instead(n) if n.block is None else f"{_instead(n)}: {show(n.block)}"


@prints(ast.Event, compound=True)
def _event(n: ast.Event, follow: frozenset[str]) -> str:
    return f"you {n.moment}: {body(n.body)}"


@prints(ast.Lasting)
def _lasting(n: ast.Lasting, follow: frozenset[str]) -> str:
    items = [f"{_when(i)}: {body(i.block)}" if isinstance(i, ast.Triggered) else show(i) for i in n.items]
    return "for the rest of this turn: (" + "; ".join(items) + ")"


@prints(ast.AnswerFirst)
def _answer_first(n: ast.AnswerFirst, follow: frozenset[str]) -> str:
    return f"you answer {n.moment} first"


@prints(ast.Announce)
def _announce(n: ast.Announce, follow: frozenset[str]) -> str:
    return f"announce {n.moment}" + ("" if n.card is None else f" for {show(n.card)}")


@prints(ast.UseAbilities)
def _use_abilities(n: ast.UseAbilities, follow: frozenset[str]) -> str:
    return f"use {_a(n.window)} ability" if n.one else f"use {n.window} abilities"


@prints(ast.CanUse)
def _can_use(n: ast.CanUse, follow: frozenset[str]) -> str:
    return f"you can use {_a(n.window)} ability"
