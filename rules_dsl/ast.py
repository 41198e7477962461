"""The syntax tree of card and rules text: one frozen class per construct, no behaviour.

Every node carries the position of its first token inside the text it was parsed from,
so the compiler can point at the exact word when a name is unknown.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Pos:
    line: int
    column: int
    width: int = 1


# ---- references and expressions ----------------------------------------------------


@attrs.frozen
class Ref:
    """A name whose kind the compiler resolves: `your hand`, `the box`, `its stack`."""

    owner: str  # "your" | "the" | "its" | "poss" | "this" | "opponent" | "opponents" | "of"
    name: str
    pos: Pos
    possessor: str = ""  # for "the market's pile": "market"
    player: PlayerRef | None = None  # owner "player": "the player to your left's hand"
    card: CardRef | CardIn | None = None  # owner "of": "the suit of the card in your lead"


@attrs.frozen
class CardIn:
    """`the card in your lead or an opponent's lead`: the card those zones hold (the first
    found, zones in the order written, each from the bottom), to read a property of."""

    word: str  # as written: "card" (or "cards", which the compiler refuses)
    zones: tuple[Ref | GroupRef, ...]
    pos: Pos


@attrs.frozen
class PlayerRef:
    """A player named by where they sit: `the player to your left` (how "left", of None:
    you), `the player to the right of the target` (of: the chosen player's PlayerRef, how
    "named"), `the previous player`, `the start player`."""

    how: str  # "left" | "right" | "previous" | "start" | "named"
    of: PlayerRef | None
    name: str  # "named": the chosen player's bound name
    pos: Pos
    word: str = "player"  # as written ("opponent" is refused by the compiler)


@attrs.frozen
class It:
    pos: Pos


@attrs.frozen
class ThisCard:
    pos: Pos


@attrs.frozen
class Number:
    value: int
    pos: Pos


@attrs.frozen
class Var:
    name: str
    pos: Pos


@attrs.frozen
class Arith:
    op: str  # "plus" | "minus"
    left: Expr
    right: Expr
    pos: Pos


@attrs.frozen
class Multiply:
    """`3 times your coins`: binds tighter than plus and minus."""

    left: Expr
    right: Expr
    pos: Pos


@attrs.frozen
class Divide:
    """`your coins divided by 2 rounded up`: a whole number, rounded down unless `up`."""

    left: Expr
    right: Expr
    up: bool
    pos: Pos


@attrs.frozen
class Query:
    """`a face-down house in your tableau with a gold symbol where ...`"""

    facing: str  # "" | "face-up" | "face-down"
    noun: str  # "card" / "cards" or a card kind (singular or plural)
    zones: tuple[Ref | GroupRef, ...]
    filters: tuple[Filter, ...]
    pos: Pos
    noun_pos: Pos | None = None


@attrs.frozen
class CardsUnder:
    card: CardRef
    pos: Pos


@attrs.frozen
class CardsUnderAll:
    """The cards tucked under any card a query finds."""

    query: Query
    pos: Pos


@attrs.frozen
class CountCards:
    query: Query | CardsUnder
    pos: Pos


@attrs.frozen
class CountSymbols:
    symbol: SymbolRef
    cards: CardSet
    pos: Pos


@attrs.frozen
class CountEmpty:
    group: str
    pos: Pos


@attrs.frozen
class CountTokens:
    cards: CardSet
    pos: Pos


@attrs.frozen
class Total:
    prop: str
    query: CardSet
    pos: Pos


@attrs.frozen
class SymbolName:
    name: str
    pos: Pos


# ---- filters and conditions --------------------------------------------------------


@attrs.frozen
class WithSymbol:
    symbol: SymbolRef
    pos: Pos


@attrs.frozen
class WithSection:
    section: str
    pos: Pos


@attrs.frozen
class Whose:
    """`whose colour is red`, `whose type is its type`: a property compared with a value."""

    prop: str
    value: str | Ref  # a declared value, or a reference worked out for the enclosing card
    negated: bool
    pos: Pos


@attrs.frozen
class OnlyIf:
    cond: Cond
    pos: Pos


@attrs.frozen
class Where:
    cond: Cond
    pos: Pos


@attrs.frozen
class Compare:
    op: str  # ge le gt lt eq ne
    left: Expr
    right: Expr
    pos: Pos


@attrs.frozen
class IsEmpty:
    subject: Expr
    negated: bool
    pos: Pos


@attrs.frozen
class IsFacing:
    subject: Expr
    facing: str
    pos: Pos


@attrs.frozen
class IsIn:
    subject: Expr
    zone: Ref
    pos: Pos


@attrs.frozen
class Not:
    cond: Cond
    pos: Pos


@attrs.frozen
class AllOf:
    conds: tuple[Cond, ...]
    pos: Pos


# ---- statements --------------------------------------------------------------------


@attrs.frozen
class Block:
    stmts: tuple[Stmt, ...]
    pos: Pos
    text: str = ""


@attrs.frozen
class Alternatives:
    options: tuple[Stmt, ...]
    pos: Pos


@attrs.frozen
class May:
    body: Stmt
    pos: Pos


@attrs.frozen
class If:
    cond: Cond
    then: Stmt
    otherwise: Stmt | None
    pos: Pos


@attrs.frozen
class Repeat:
    kind: str  # "repeat" | "up_to" | "any" | "while"
    count: Expr | None
    cond: Cond | None
    body: Stmt
    pos: Pos


@attrs.frozen
class ForPlayers:
    who: str  # "player" | "opponent"
    pos: Pos
    body: Stmt


@attrs.frozen
class ForCards:
    query: Query
    bind: str
    body: Stmt
    pos: Pos


@attrs.frozen
class ChooseCard:
    query: Query | CardsUnder | CardsUnderAll  # `choose a card under ...`: one tucked card
    bind: str
    pos: Pos
    text: str = ""


@attrs.frozen
class ChooseZone:
    group: str
    bind: str
    pos: Pos
    text: str = ""


@attrs.frozen
class TopCards:
    count: Expr | None
    zone: Ref
    pos: Pos


@attrs.frozen
class AllCards:
    zone: Ref
    pos: Pos


@attrs.frozen
class Move:
    cards: CardsExpr
    dest: Ref
    facing: str  # "" | "up" | "down"
    pos: Pos
    bottom: bool = False


@attrs.frozen
class Tuck:
    card: CardRef
    under: CardRef
    pos: Pos


@attrs.frozen
class Flip:
    card: CardRef
    facing: str
    pos: Pos


@attrs.frozen
class Draw:
    count: Expr
    pos: Pos


@attrs.frozen
class Shuffle:
    zone: Ref
    pos: Pos


@attrs.frozen
class CounterChange:
    verb: str  # gain | lose | pay | return
    amount: Expr
    counter: str
    pos: Pos
    counter_pos: Pos | None = None


@attrs.frozen
class FillSlot:
    query: Query
    pos: Pos
    text: str = ""


@attrs.frozen
class TakeTokenOf:
    """`remove a token from ...`, or `remove a KIND token from ...` (kind "" for any)."""

    kind: str
    query: Query
    pos: Pos
    text: str = ""


@attrs.frozen
class PutToken:
    kind: str
    card: CardRef
    pos: Pos


@attrs.frozen
class Note:
    value: str | Ref
    name: str
    pos: Pos


@attrs.frozen
class ClearNotes:
    name: str
    pos: Pos


@attrs.frozen
class ChooseKind:
    group: str
    bind: str
    pos: Pos
    text: str = ""


@attrs.frozen
class IsNoted:
    subject: Expr
    name: str
    pos: Pos


@attrs.frozen
class AnyOf:
    conds: tuple[Cond, ...]
    pos: Pos


@attrs.frozen
class CountTokensOf:
    kind: str
    cards: CardSet
    pos: Pos


@attrs.frozen
class CountNotes:
    name: str
    pos: Pos


@attrs.frozen
class Extreme:
    """`the smaller of A and B` / `the larger of A and B`."""

    larger: bool
    left: Expr
    right: Expr
    pos: Pos


@attrs.frozen
class Let:
    name: str
    value: Expr
    pos: Pos


@attrs.frozen
class SetVar:
    """`set X to EXPR`: changes the nearest X already bound (outside a loop's body too)."""

    name: str
    value: Expr
    pos: Pos


@attrs.frozen
class DoSection:
    card: CardRef
    section: str
    pos: Pos


@attrs.frozen
class Nothing:
    pos: Pos


@attrs.frozen
class Mark:
    card: CardRef
    name: str
    on: bool
    pos: Pos
    value: bool = False  # `mark it as the hint`: the mark is the chosen value named `name`


@attrs.frozen
class ClearMarks:
    name: str
    pos: Pos


@attrs.frozen
class Peek:
    card: CardRef
    pos: Pos


@attrs.frozen
class PointOut:
    """`point out cards in the target's hand whose colour is the named`: every player learns,
    of each card in those zones, whether it passes the filters."""

    query: Query
    pos: Pos


@attrs.frozen
class TopCard:
    zone: Ref
    pos: Pos


@attrs.frozen
class IsMarked:
    subject: Expr
    name: str
    negated: bool
    pos: Pos


@attrs.frozen
class IsCopy:
    """`CARD is [not] a copy of CARD-ID`: which card a card is (`card_pos` is the id's)."""

    subject: Expr
    card_id: str
    negated: bool
    pos: Pos
    card_pos: Pos


@attrs.frozen
class CallArg:
    """`prize: coins` in a call: the word a named parameter stands for."""

    name: str
    word: str
    pos: Pos
    word_pos: Pos


@attrs.frozen
class Call:
    name: str
    arg: Expr | None
    noun: str
    pos: Pos
    noun_pos: Pos | None = None
    args: tuple[CallArg, ...] = ()


@attrs.frozen
class Param:
    """`a counter ships` in `given ...`: a named parameter and the kind of word it takes."""

    kind: str
    name: str
    pos: Pos
    kind_pos: Pos


@attrs.frozen
class Given:
    """`given a counter ships, a property icons`: a procedure's named parameters."""

    params: tuple[Param, ...]
    pos: Pos


@attrs.frozen
class Section:
    label: str
    block: Block
    pos: Pos


# ---- abilities -------------------------------------------------------------------------


@attrs.frozen
class Spot:
    """Where a card's continuous ability works: `face-up in your tableau`."""

    facing: str  # "" | "face-up" | "face-down"
    zone: str
    pos: Pos


@attrs.frozen
class Modify:
    """`add 1 to your hand-limit [if COND]` (sign 1) or `subtract 2 from your ...` (-1)."""

    sign: int
    amount: Expr
    quantity: str
    cond: Cond | None
    pos: Pos
    quantity_pos: Pos


@attrs.frozen
class Wild:
    """`your copies of CARD are wild [if COND]` in a continuous ability: while its card
    lies there, the owner's copies of that card count as one of every symbol."""

    card_id: str
    cond: Cond | None
    pos: Pos
    card_pos: Pos


@attrs.frozen
class Continuous:
    """`WHILE face-up in your tableau: add 1 to your hand-limit`."""

    spot: Spot
    mods: tuple[Modify | Wild, ...]
    pos: Pos


@attrs.frozen
class Triggered:
    """`WHENEVER an opponent passes: ...`: subject "you" | "opponent" | "player"."""

    subject: str
    moment: str
    this_card: bool
    block: Block
    pos: Pos
    moment_pos: Pos


@attrs.frozen
class Activated:
    """`ONCE PER TURN, during your action: ...`, or `DURING your boost: ...` (once: False,
    usable each time the rules offer the window)."""

    window: str
    block: Block
    pos: Pos
    window_pos: Pos
    once: bool = True


@attrs.frozen
class Replacement:
    """`[MAY] INSTEAD OF you MOMENT: ...` or `[MAY] PREVENT an opponent MOMENT` (block None):
    what happens instead when the rules' `you MOMENT: ...` would happen to a player."""

    optional: bool
    subject: str
    moment: str
    block: Block | None
    pos: Pos
    moment_pos: Pos
    spot: Spot | None = None  # where the card must lie: the pack's ability zone if None


@attrs.frozen
class Event:
    """`you MOMENT: BODY` (or `they MOMENT: BODY`): the body is an event that replacement
    abilities may replace or prevent for the player it happens to."""

    moment: str
    body: Stmt
    pos: Pos
    moment_pos: Pos


@attrs.frozen
class Lasting:
    """`for the rest of this turn: (...)`: abilities that last until the turn ends."""

    items: tuple[Modify | Triggered, ...]
    pos: Pos


@attrs.frozen
class AnswerFirst:
    """`you answer MOMENT first`: the replacements of the event `you MOMENT: ...` are asked
    now, and the answer is kept for when it happens."""

    moment: str
    pos: Pos
    moment_pos: Pos


@attrs.frozen
class Announce:
    """`announce harvest [for it]`: the rules say a moment happens, triggers answer."""

    moment: str
    card: CardRef | None
    pos: Pos


@attrs.frozen
class UseAbilities:
    """`use action abilities`: a window in which activated abilities may be used;
    `use a boost ability` (one: True; pos: the window's name) uses exactly one of them."""

    window: str
    pos: Pos
    one: bool = False


@attrs.frozen
class CanUse:
    """`you can use a boost ability`: some activated ability of the window can start now."""

    window: str
    pos: Pos


# ---- players as values (issue 26) -----------------------------------------------------


@attrs.frozen
class GroupRef:
    """`cards in a supply-pile`: every zone of a zone group, in a query."""

    group: str
    pos: Pos


@attrs.frozen
class ChoosePlayer:
    """`choose an opponent where C as the target`: a seat, bound by name; in C, 'you' and
    'their' are the player considered. who: "player" (anyone, you too), "opponent" or
    "another" (both: anyone but you)."""

    who: str
    cond: Cond | None
    bind: str
    pos: Pos
    text: str = ""


@attrs.frozen
class ForPlayer:
    """`for the player to your left: BODY`: the body runs with that player as 'you'."""

    player: PlayerRef
    body: Stmt
    pos: Pos


@attrs.frozen
class ForChosen:
    """`for the target: BODY`: the body runs with the chosen player as 'you'."""

    name: str
    body: Stmt
    pos: Pos


@attrs.frozen
class ForPlayersWhere:
    """`for each player where C: BODY`: each player for whom C holds, from the active one."""

    who: str
    cond: Cond
    body: Stmt
    pos: Pos


@attrs.frozen
class ForPlayersAtOnce:
    """`for each player [where C] at once: CHOICE then: BODY`: every seat answers CHOICE
    hidden from the others, then BODY runs for each with its answer bound."""

    who: str
    cond: Cond | None
    choice: Stmt
    body: Stmt
    pos: Pos


@attrs.frozen
class ChooseValue:
    """`choose a rank value other than 1 as the guess`: one of a property's values."""

    prop: str
    other_than: Expr | None
    bind: str
    pos: Pos
    text: str = ""
    where: Cond | None = None  # `choose a colour value where COND as the hint`: the values for which it holds


@attrs.frozen
class TurnOrder:
    """`leave the turn order`, `join the turn order`, `take the next turn` (for 'you')."""

    action: str  # "leave" | "join" | "next" | "start" ("become the start player")
    pos: Pos


@attrs.frozen
class PlayersCond:
    """`any player where C`, `every opponent where C`, `no player where C`."""

    quantifier: str  # "any" | "every" | "no"
    who: str
    cond: Cond
    pos: Pos


@attrs.frozen
class InOrder:
    """`you are in the turn order` (also `they are ...`)."""

    pos: Pos


@attrs.frozen
class AmongPlayers:
    """`the highest EXPR among players where C`: EXPR worked out for each player as 'you'."""

    highest: bool
    expr: Expr
    who: str  # "players" | "opponents"
    cond: Cond | None
    pos: Pos


@attrs.frozen
class HighestProp:
    """`the highest rank of cards in your hand`: 0 for no card."""

    highest: bool
    prop: str
    cards: CardSet
    pos: Pos


@attrs.frozen
class CountPlayers:
    """`the number of players where C`."""

    who: str
    cond: Cond | None
    pos: Pos


Ability = Continuous | Triggered | Activated | Replacement

CardRef = It | ThisCard | Ref | TopCard
SymbolRef = SymbolName | Ref
CardSet = Query | CardsUnder | CardsUnderAll | It | ThisCard | Ref
CardsExpr = It | ThisCard | Ref | TopCards | AllCards | CardsUnder | Query
Expr = (
    Number
    | Var
    | It
    | ThisCard
    | Ref
    | Arith
    | Multiply
    | Divide
    | CountCards
    | CountSymbols
    | CountEmpty
    | CountTokens
    | Total
    | AmongPlayers
    | HighestProp
    | CountPlayers
)
Filter = WithSymbol | WithSection | Where | Whose
Cond = (
    Compare
    | IsEmpty
    | IsFacing
    | IsIn
    | IsMarked
    | IsCopy
    | IsNoted
    | Not
    | AllOf
    | AnyOf
    | CanUse
    | PlayersCond
    | InOrder
)
Stmt = (
    Block
    | Alternatives
    | May
    | If
    | Repeat
    | ForPlayers
    | ForCards
    | ChooseCard
    | ChooseZone
    | Move
    | Tuck
    | Flip
    | Draw
    | Shuffle
    | CounterChange
    | FillSlot
    | Let
    | DoSection
    | Nothing
    | Call
    | Given
    | Mark
    | ClearMarks
    | Peek
    | OnlyIf
    | TakeTokenOf
    | PutToken
    | Note
    | ClearNotes
    | ChooseKind
    | Announce
    | AnswerFirst
    | UseAbilities
    | Lasting
    | ChoosePlayer
    | ForChosen
    | ForPlayer
    | ForPlayersWhere
    | ForPlayersAtOnce
    | PointOut
    | ChooseValue
    | TurnOrder
    | SetVar
    | Event
)
