"""Syntax tree -> effect objects, resolving every name against the vocabulary."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import attrs

from rules_dsl import ast, printer
from rules_dsl.compiler import params as named
from rules_dsl.compiler.compile_error import CompileError as CompileError  # imported from here by the compiler
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.effects import abilities, card_of, choices, control, players, primitives, simultaneous
from rules_dsl.effects import values as v
from rules_dsl.effects.base import Effect, Nothing
from rules_dsl.errors import suggest
from rules_dsl.numbers import MAX_VALUE
from rules_dsl.packs.loader import Problems
from rules_dsl.packs.model import Loc

MAX_PLAYERS = 8
E = TypeVar("E", bound=Effect)


_CHILD_FIELDS: dict[type, tuple[str, ...] | None] = {}  # a syntax class's fields; None: not a node


def _fields_of(kind: type) -> tuple[str, ...] | None:
    if kind not in _CHILD_FIELDS:
        _CHILD_FIELDS[kind] = tuple(f.name for f in attrs.fields(kind)) if attrs.has(kind) else None
    return _CHILD_FIELDS[kind]


def walk(node: Any) -> Iterator[Any]:
    """Every syntax node below (and including) node, parents first, in text order.

    Iterative (a deep tree cannot overflow the stack) and fast: every pack compile walks
    every text."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple | list):
            stack.extend(reversed(n))
            continue
        names = _fields_of(type(n))
        if names is None:
            continue
        yield n
        stack.extend(getattr(n, name) for name in reversed(names))


def unknown(what: str, name: str, pos: ast.Pos, known: list[str]) -> CompileError:
    return CompileError(
        f"unknown {what} {name!r}", ast.Pos(pos.line, pos.column, len(name)), sorted(known), suggest(name, known)
    )


class StatementCompiler:
    def __init__(
        self,
        voc: Vocabulary,
        effects: list[Effect | None],
        params: set[str],
        binds: dict[str, str],
        procedures: dict[str, tuple[Any, Loc]],
    ) -> None:
        self.voc = voc
        self.effects = effects
        self.params = params
        self.binds = binds
        self.proc_trees = procedures
        self.procs: dict[str, int] = {}
        self.proc_errors: list[tuple[CompileError, Loc]] = []
        self._uses_n_cache: dict[str, bool] = {}
        self.listeners = abilities.Listeners(zone=voc.ability_zone[0], facing=voc.ability_zone[1])
        # events that `you may` (or a loop's `done`) asks first: (moment, pass label); and the
        # replacement abilities' blocks, compiled once more for those (finish_declinable)
        self._declinable_wanted: set[tuple[str, str]] = set()
        self._replacement_blocks: list[tuple[abilities.ReplaceAbility, ast.Block]] = []
        self.valued: dict[str, dict[str, v.NumExpr]] = {}  # filled by the builder
        self.card_ids: set[str] = set()  # filled by the builder: `whose id is CARD-ID`
        # filled by the builder: procedures whose text has a syntax error (reported there): a
        # call to one is no unknown word
        self.broken_procedures: set[str] = set()
        self.printed: dict[str, set[int]] = {}  # filled by the builder: number property -> printed values
        self.chosen_values: dict[str, str] = {}  # filled by the builder: `choose a PROP value as NAME`

    def add(self, cls: type[E], **kw: Any) -> E:
        eff = cls(eid=len(self.effects), **kw)  # type: ignore[call-arg]
        self.effects.append(eff)
        return eff

    # ---- statements ------------------------------------------------------------
    def block(self, node: ast.Block, optional: str = "") -> Effect:
        stmts = node.stmts
        if len(stmts) == 1:
            return self.stmt(stmts[0], optional, node.text)
        if optional:
            # the first statement that asks something carries the pass option
            lead = 0
            while lead < len(stmts) and isinstance(stmts[lead], ast.Let):
                lead += 1
            if lead < len(stmts) and self.asks_first(stmts[lead]):
                children = [self.stmt(s, optional if i == lead else "") for i, s in enumerate(stmts)]
                return self.add(control.Block, text=node.text, children=tuple(children))
            inner = self.add(control.Block, text=node.text, children=tuple(self.stmt(s) for s in stmts))
            ask = self.add(control.Ask, text=node.text, yes=node.text or "yes", no=optional, body=inner)
            return self.add(control.Block, text=node.text, children=(ask, inner))
        return self.add(control.Block, text=node.text, children=tuple(self.stmt(s) for s in stmts))

    def asks_first(self, node: Any, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a statement starts by asking a choice that can carry a pass option."""
        if isinstance(node, ast.ChooseCard | ast.ChooseZone | ast.FillSlot | ast.TakeTokenOf):
            return True
        if isinstance(node, ast.Block):
            lead = [s for s in node.stmts if not isinstance(s, ast.Let | ast.Given)]
            return bool(lead) and lead[0] is node.stmts[len(node.stmts) - len(lead)] and self.asks_first(lead[0], seen)
        if isinstance(node, ast.Event):  # its pass goes to the body, or to the replacing block
            return self.asks_first(node.body, seen)
        if isinstance(node, ast.Call) and node.name in self.proc_trees and node.name not in seen:
            once = isinstance(node.arg, ast.Number) and node.arg.value == 1
            if node.arg is not None and not self._uses_n(node.name) and not once:
                return False  # a repeated call asks once per round
            return self.asks_first(self.proc_trees[node.name][0], seen | {node.name})
        return False

    def _uses_n(self, name: str) -> bool:
        # asked for every call of the procedure: walk its tree once
        known = self._uses_n_cache.get(name)
        if known is None:
            known = any(isinstance(n, ast.Var) and n.name == "N" for n in walk(self.proc_trees[name][0]))
            self._uses_n_cache[name] = known
        return known

    def body(self, node: ast.Stmt, optional: str = "") -> Effect:
        if isinstance(node, ast.Block):
            return self.block(node, optional)
        return self.stmt(node, optional)

    def stmt(self, node: ast.Stmt, optional: str = "", text: str = "") -> Effect:
        compile_ = STATEMENTS.get(type(node))
        if compile_ is None:
            # The grammar made a statement node no table entry compiles: a bug here, not in the text.
            raise TypeError(f"internal error: no compile function for statement {type(node).__name__} in STATEMENTS")
        eff = compile_(self, node, optional)
        if optional and not isinstance(node, ast.Block) and not self.asks_first(node):
            text = text or _text(node)
            ask = self.add(control.Ask, text=text, yes=text or "yes", no=optional, body=eff)
            return self.add(control.Block, text=text, children=(ask, eff))
        return eff

    def s_Block(self, node: ast.Block, optional: str) -> Effect:
        return self.block(node, optional)

    def s_Alternatives(self, node: ast.Alternatives, optional: str) -> Effect:
        options = tuple(self.body(o) for o in node.options)
        labels = tuple(_text(o) or f"option {i + 1}" for i, o in enumerate(node.options))
        if len(set(labels)) != len(labels):
            labels = tuple(f"{i + 1}: {label}" for i, label in enumerate(labels))
        return self.add(control.Alternatives, text=" OR ".join(labels), options=options, labels=labels)

    def s_May(self, node: ast.May, optional: str) -> Effect:
        return self.add(control.Optional, text="you may " + _text(node.body), body=self.body(node.body, "pass"))

    def s_If(self, node: ast.If, optional: str) -> Effect:
        return self.add(
            control.If,
            text="if ...",
            cond=self.cond(node.cond),
            then=self.body(node.then),
            otherwise=self.body(node.otherwise) if node.otherwise is not None else None,
        )

    def s_Repeat(self, node: ast.Repeat, optional: str) -> Effect:
        kind = node.kind
        body = self.body(node.body, "done" if kind in ("up_to", "any") else "")
        count = self.num(node.count) if node.count is not None else None
        cond = self.cond(node.cond) if node.cond is not None else None
        return self.add(
            control.Loop,
            text=f"{kind} {_text(node.body)}",
            body=body,
            count=count,
            cond=cond,
            at_most=kind in ("up_to", "any"),
        )

    def s_ForPlayers(self, node: ast.ForPlayers, optional: str) -> Effect:
        return self.add(
            control.ForPlayers,
            text=f"for each {node.who}",
            body=self.body(node.body),
            opponents_only=node.who == "opponent",
        )

    def s_ForCards(self, node: ast.ForCards, optional: str) -> Effect:
        return self.add(
            control.ForCards,
            text="for each card",
            body=self.body(node.body),
            query=self.query(node.query),
            name=node.bind,
        )

    def s_ChooseCard(self, node: ast.ChooseCard, optional: str) -> Effect:
        q = self.cardset(node.query)
        return self.add(
            choices.ChooseCard,
            text=node.text,
            query=q,
            name=node.bind,
            optional=bool(optional),
            pass_label=optional or "pass",
        )

    def group(self, name: str, pos: ast.Pos) -> tuple[tuple[str, str], ...]:
        groups = self.voc.zone_groups
        if name not in groups and name + "s" in groups:  # "choose a market-pile" names the group market-piles
            name += "s"
        if name not in groups:
            raise unknown("zone group", name, pos, list(groups))
        # a per-player member is the zone of the player asking: marked for values.group_zones
        zones = self.voc.zones
        return tuple((z + v.YOURS if z in zones and zones[z].per_player else z, w) for z, w in groups[name])

    def s_ChooseZone(self, node: ast.ChooseZone, optional: str) -> Effect:
        return self.add(
            choices.ChooseZone,
            text=node.text,
            zones=self.group(node.group, node.pos),
            name=node.bind,
            optional=bool(optional),
            pass_label=optional or "pass",
        )

    def s_Move(self, node: ast.Move, optional: str) -> Effect:
        dest = self.zone(node.dest)
        cards = node.cards
        text = "move cards"
        if node.bottom:
            if isinstance(cards, ast.TopCards | ast.AllCards | ast.TopCard | ast.Query):
                raise CompileError("only one card, or the cards under one, can be moved to the bottom", node.pos)
            cset_bottom: v.CardSet = (
                v.CardsUnder(self.card(cards.card))
                if isinstance(cards, ast.CardsUnder)
                else v.OneCard(self.card(cards))
            )
            return self.add(
                primitives.MoveCards, text=text, cset=cset_bottom, dest=dest, facing=node.facing, bottom=True
            )
        if isinstance(cards, ast.TopCards):
            count = self.num(cards.count) if cards.count is not None else None
            return self.add(
                primitives.MoveTop, text=text, count=count, source=self.zone(cards.zone), dest=dest, facing=node.facing
            )
        if isinstance(cards, ast.AllCards):
            return self.add(primitives.MoveAll, text=text, source=self.zone(cards.zone), dest=dest, facing=node.facing)
        if isinstance(cards, ast.TopCard):
            return self.add(
                primitives.MoveTop, text=text, count=None, source=self.zone(cards.zone), dest=dest, facing=node.facing
            )
        if isinstance(cards, ast.Query):
            return self.add(primitives.MoveCards, text=text, cset=self.query(cards), dest=dest, facing=node.facing)
        if isinstance(cards, ast.CardsUnder):
            cset: v.CardSet = v.CardsUnder(self.card(cards.card))
        else:
            cset = v.OneCard(self.card(cards))
        return self.add(primitives.MoveCards, text=text, cset=cset, dest=dest, facing=node.facing)

    def s_Tuck(self, node: ast.Tuck, optional: str) -> Effect:
        return self.add(primitives.Tuck, text="tuck", card_expr=self.card(node.card), host_expr=self.card(node.under))

    def s_Flip(self, node: ast.Flip, optional: str) -> Effect:
        return self.add(primitives.Flip, text="flip", card_expr=self.card(node.card), up=node.facing == "up")

    def s_Draw(self, node: ast.Draw, optional: str) -> Effect:
        src, dest = self.voc.draw
        if not src:
            raise CompileError("'draw' needs the pack's vocabulary to say draw: {from: ZONE, to: ZONE}", node.pos)
        return self.add(
            primitives.Draw,
            text="draw",
            count=self.num(node.count),
            source=self._player_zone(src),
            dest=self._player_zone(dest),
        )

    def s_Shuffle(self, node: ast.Shuffle, optional: str) -> Effect:
        return self.add(primitives.Shuffle, text="shuffle", zone=self.zone(node.zone))

    def s_CounterChange(self, node: ast.CounterChange, optional: str) -> Effect:
        name = self.voc.counter_words.get(node.counter)
        if name is None:
            raise unknown("counter", node.counter, node.counter_pos or node.pos, list(self.voc.counter_words))
        counter = self.voc.counters[name]
        amount = self.num(node.amount)
        floor = -MAX_VALUE if counter.may_be_negative else 0
        if not counter.per_player:  # a shared counter: the one value everyone shares
            return self.add(
                primitives.ChangeShared,
                text=f"{node.verb} {name}",
                amount=amount,
                counter=name,
                verb=node.verb,
                supply=counter.supply if node.verb in ("gain", "return") else "",
                floor=floor,
            )
        if node.verb == "gain":
            return self.add(primitives.Gain, text=f"gain {name}", amount=amount, counter=name, supply=counter.supply)
        supply = counter.supply if node.verb == "return" else ""
        return self.add(
            primitives.Lose,
            text=f"{node.verb} {name}",
            amount=amount,
            counter=name,
            must_pay=node.verb == "pay",
            supply=supply,
            floor=floor,
        )

    def s_FillSlot(self, node: ast.FillSlot, optional: str) -> Effect:
        room = self.voc.slot_room
        return self.add(
            choices.FillSlot,
            text=node.text,
            query=self.query(node.query),
            optional=bool(optional),
            pass_label=optional or "pass",
            room=abilities.Quantity(room, self.quantity(room, node.pos)) if room else None,
        )

    def s_Let(self, node: ast.Let, optional: str) -> Effect:
        return self.add(control.Let, text=f"let {node.name}", name=node.name, value=self.num(node.value))

    def s_SetVar(self, node: ast.SetVar, optional: str) -> Effect:
        return self.add(control.SetVar, text=f"set {node.name}", name=node.name, value=self.num(node.value))

    def s_DoSection(self, node: ast.DoSection, optional: str) -> Effect:
        if node.section not in self.voc.sections:
            raise unknown("section", node.section, node.pos, self.voc.sections)
        return self.add(
            choices.DoSection, text=f"do {node.section}", card_expr=self.card(node.card), section=node.section
        )

    def s_Mark(self, node: ast.Mark, optional: str) -> Effect:
        verb = "mark" if node.on else "unmark"
        if node.value:  # `mark it as the hint`: the mark is the chosen value, as a word
            if self.binds.get(node.name) != "value":
                chosen = [b for b, k in self.binds.items() if k == "value"]
                raise unknown("chosen value", node.name, node.pos, chosen)
            return self.add(
                primitives.MarkValue,
                text=f"{verb} as the {node.name}",
                card_expr=self.card(node.card),
                name=node.name,
                on=node.on,
            )
        return self.add(
            primitives.Mark, text=f"{verb} as {node.name}", card_expr=self.card(node.card), name=node.name, on=node.on
        )

    def s_ClearMarks(self, node: ast.ClearMarks, optional: str) -> Effect:
        return self.add(primitives.ClearMarks, text=f"clear all {node.name} marks", name=node.name)

    def s_PointOut(self, node: ast.PointOut, optional: str) -> Effect:
        return self.add(primitives.PointOut, text="point out", query=self.query(node.query))

    def s_Peek(self, node: ast.Peek, optional: str) -> Effect:
        return self.add(primitives.Peek, text="peek", card_expr=self.card(node.card))

    def token_kinds(self, name: str, pos: ast.Pos) -> tuple[str, ...]:
        if name in self.voc.tokens:
            return (name,)
        if name in self.voc.token_groups:
            return self.voc.token_groups[name]
        raise unknown("token kind", name, pos, [*self.voc.tokens, *self.voc.token_groups])

    def s_TakeTokenOf(self, node: ast.TakeTokenOf, optional: str) -> Effect:
        return self.add(
            choices.TakeToken,
            text=node.text,
            query=self.query(node.query),
            optional=bool(optional),
            pass_label=optional or "pass",
            kinds=self.token_kinds(node.kind, node.pos) if node.kind else (),
        )

    def s_PutToken(self, node: ast.PutToken, optional: str) -> Effect:
        kinds = self.token_kinds(node.kind, node.pos)
        if len(kinds) != 1:
            raise CompileError(f"put names one token kind, not the group {node.kind!r}", node.pos)
        return self.add(
            primitives.PutToken, text=f"put a {node.kind} token", kind=kinds[0], card_expr=self.card(node.card)
        )

    def s_Note(self, node: ast.Note, optional: str) -> Effect:
        return self.add(
            primitives.Note, text=f"note as {node.name}", value=self.text(node.value, node.pos), name=node.name
        )

    def s_ClearNotes(self, node: ast.ClearNotes, optional: str) -> Effect:
        return self.add(primitives.ClearNotes, text=f"clear all {node.name} notes", name=node.name)

    def s_ChooseKind(self, node: ast.ChooseKind, optional: str) -> Effect:
        return self.add(
            choices.ChooseKind, text=node.text, kinds=self.token_kinds(node.group, node.pos), name=node.bind
        )

    # ---- players as values -----------------------------------------------------
    def s_ChoosePlayer(self, node: ast.ChoosePlayer, optional: str) -> Effect:
        cond = self.cond(node.cond) if node.cond is not None else None
        return self.add(players.ChoosePlayer, text=node.text, who=node.who, cond=cond, name=node.bind)

    def _player_var(self, name: str, pos: ast.Pos) -> str:
        if self.binds.get(name) == "player":
            return name
        raise unknown("chosen player", name, pos, [b for b, k in self.binds.items() if k == "player"])

    def s_ForChosen(self, node: ast.ForChosen, optional: str) -> Effect:
        name = self._player_var(node.name, node.pos)
        return self.add(players.ForChosen, text=f"for the {name}", name=name, body=self.body(node.body))

    def seat_of(self, node: ast.PlayerRef) -> players.SeatOf:
        """`the player to your left`, `the player to the right of the target`, `the previous
        player`, `the start player`: a player by where they sit."""
        if node.how == "named":
            return players.SeatOf("named", None, self._player_var(node.name, node.pos))
        if node.word != "player":
            raise CompileError(
                f"write 'the player', not 'the {node.word}': a seat is named the same for anyone", node.pos
            )
        return players.SeatOf(node.how, None if node.of is None else self.seat_of(node.of))

    def s_ForPlayer(self, node: ast.ForPlayer, optional: str) -> Effect:
        who = self.seat_of(node.player)
        return self.add(players.ForSeat, text=f"for {printer.show(node.player)}", who=who, body=self.body(node.body))

    def s_ForPlayersWhere(self, node: ast.ForPlayersWhere, optional: str) -> Effect:
        return self.add(
            players.ForPlayersWhere,
            text=f"for each {node.who} where ...",
            who=node.who,
            cond=self.cond(node.cond),
            body=self.body(node.body),
        )

    def s_ForPlayersAtOnce(self, node: ast.ForPlayersAtOnce, optional: str) -> Effect:
        choice_node = node.choice
        said = choice_node.text if isinstance(choice_node, ast.Block) else _text(choice_node)
        if isinstance(choice_node, ast.Block) and len(choice_node.stmts) == 1:
            choice_node = choice_node.stmts[0]
        # `you may choose ...`: the choice itself offers to pass
        choice = self.stmt(choice_node.body, "pass") if isinstance(choice_node, ast.May) else self.stmt(choice_node)
        if not choice.secret:
            raise CompileError(
                "'for each ... at once:' asks one choice of every seat, answered hidden from the others: "
                f"{said!r} is not one (give one 'choose ... as the NAME', then act on it after 'then:')",
                _pos(choice_node),
            )
        body = self.body(node.body)
        return self.add(
            simultaneous.AtOnce,
            text=f"for each {node.who} at once",
            who=node.who,
            cond=self.cond(node.cond) if node.cond is not None else None,
            choice=choice,
            body=body,
        )

    def s_ChooseValue(self, node: ast.ChooseValue, optional: str) -> Effect:
        ptype = self.voc.properties.get(node.prop)
        if self.chosen_values.get(node.bind, node.prop) != node.prop:
            raise CompileError(f"'the {node.bind}' is a value of {self.chosen_values[node.bind]!r} elsewhere", node.pos)
        values: tuple[Any, ...]
        other: v.NumExpr | None = None
        if isinstance(ptype, list):  # one of the declared words
            if node.other_than is not None:
                raise CompileError(f"'other than' takes a number: {node.prop!r} has words", node.pos)
            values = tuple(ptype)
        elif ptype == "number":
            values = tuple(sorted(self.printed.get(node.prop, set())))
            other = self.num(node.other_than) if node.other_than is not None else None
        else:
            choosable = [p for p, t in self.voc.properties.items() if t == "number" or isinstance(t, list)]
            raise unknown("number or listed property", node.prop, node.pos, choosable)
        where = self.cond(node.where) if node.where is not None else None
        return self.add(
            players.ChooseValue, text=node.text, values=values, other_than=other, name=node.bind, where=where
        )

    def s_TurnOrder(self, node: ast.TurnOrder, optional: str) -> Effect:
        if node.action == "start?":
            raise CompileError("write 'become the start player'", node.pos)
        words = {
            "leave": "leave the turn order",
            "join": "join the turn order",
            "next": "take the next turn",
            "start": "become the start player",
        }
        return self.add(players.TurnOrder, text=words[node.action], action=node.action)

    def _chosen(self, ref: ast.Ref) -> bool:
        return ref.owner == "poss" and self.binds.get(ref.possessor) == "player"

    def chosen_zone(self, ref: ast.Ref) -> v.ZoneExpr | None:
        """`the target's hand`: a chosen player's zone; None when the possessor is not a
        chosen player."""
        zones = self.voc.zones
        if ref.player is not None:  # `the player to your left's hand`
            if ref.name in zones and zones[ref.name].per_player:
                return players.SeatZone(ref.name, self.seat_of(ref.player))
            raise unknown("zone", ref.name, ref.pos, [z for z, t in zones.items() if t.per_player])
        if not self._chosen(ref):
            return None
        if ref.name in zones and zones[ref.name].per_player:
            return players.SeatZone(ref.name, players.SeatOf("named", None, ref.possessor))
        raise unknown("zone", ref.name, ref.pos, [z for z, t in zones.items() if t.per_player])

    def chosen_number(self, ref: ast.Ref) -> v.NumExpr | None:
        """`the target's coins`, `the target's seat`, `the target's hand` (its size)."""
        zones = self.voc.zones
        counter = self.voc.counter_words.get(ref.name)
        if ref.player is not None:  # `the player to your left's coins`
            who = self.seat_of(ref.player)
        elif self._chosen(ref):  # `the target's coins`
            who = players.SeatOf("named", None, ref.possessor)
        else:
            return None
        if counter is not None and self.voc.counters[counter].per_player:
            return players.SeatCounter(counter, who)
        if ref.name == "seat":
            return players.SeatNumber(who)
        if ref.name in zones and zones[ref.name].per_player:
            return v.ZoneSize(players.SeatZone(ref.name, who))
        known = [w for w, c in self.voc.counter_words.items() if self.voc.counters[c].per_player]
        raise unknown("counter or zone", ref.name, ref.pos, [*known, *(z for z, t in zones.items() if t.per_player)])

    def text(self, node: Any, pos: ast.Pos) -> v.TextExpr:
        if isinstance(node, str):
            return v.TextLit(node)
        if isinstance(node, ast.Ref):
            if node.owner == "the" and (self.binds.get(node.name) == "kind" or node.name == "kind"):
                return v.TextVar(node.name)
            if node.owner in ("its", "poss", "this", "of"):
                return v.TextProp(self._prop(node, _kind(self.voc.properties.get(node.name, "text"))))
        raise CompileError("expected a word here: a name, 'the kind', or a card's property", pos)

    def s_OnlyIf(self, node: ast.OnlyIf, optional: str) -> Effect:
        return self.add(control.OnlyIf, text="only if", cond=self.cond(node.cond))

    def s_Given(self, node: ast.Given, optional: str) -> Effect:
        # a procedure's parameters are taken off its text before it is compiled
        raise CompileError("'given' names a procedure's parameters: it is only its first statement", node.pos)

    def s_Nothing(self, node: ast.Nothing, optional: str) -> Effect:
        return self.add(Nothing, text="nothing")

    def s_Call(self, node: ast.Call, optional: str) -> Effect:
        if node.name in self.broken_procedures:
            return self.add(Nothing, text=_call_text(node))
        if node.name not in self.proc_trees:
            raise CompileError(
                f"unknown word {node.name!r}",
                ast.Pos(node.pos.line, node.pos.column, len(node.name)),
                sorted(self.proc_trees) + ["a statement such as draw, gain, move, choose"],
                suggest(node.name, list(self.proc_trees) + STATEMENT_WORDS),
            )
        uses_n = self._uses_n(node.name)
        words = named.bindings(node, named.given(self.proc_trees[node.name][0]), self.voc, self.proc_trees)
        if words is None:
            return self.add(Nothing, text="nothing")
        # "you may build 1 house": the procedure's first choice offers the pass
        eid = self.procedure(node.name, optional if self.asks_first(node) else "", words)
        if uses_n and node.arg is None:
            raise CompileError(f"{node.name!r} needs a number, e.g. '{node.name} 1'", node.pos)
        if node.noun and node.noun not in self._nouns():
            raise unknown("word", node.noun, node.noun_pos or node.pos, self._nouns())
        arg = self.num(node.arg) if node.arg is not None else None
        if isinstance(arg, v.Num) and arg.value == 1 and not uses_n:
            return self.add(control.Call, text=_call_text(node), proc=_ProcRef(eid, self.effects), arg=None)
        if arg is not None and not uses_n:
            # "build 2 houses" with a procedure for one house: do it that many times
            once = self.add(control.Call, text=node.name, proc=_ProcRef(eid, self.effects), arg=None)
            return self.add(control.Loop, text=_call_text(node), body=once, count=arg, cond=None)
        return self.add(control.Call, text=_call_text(node), proc=_ProcRef(eid, self.effects), arg=arg)

    # ---- abilities -------------------------------------------------------------
    def moment(self, name: str, pos: ast.Pos) -> str:
        """A declared moment; "passes" and "finishes-..." name "pass" and "finish-..."."""
        moments = self.voc.moments
        if name in moments:
            return name
        first, dash, rest = name.partition("-")
        for suffix in ("s", "es"):
            base = first[: -len(suffix)] + dash + rest
            if first.endswith(suffix) and base in moments:
                return base
        raise unknown("moment", name, pos, list(moments))

    def window(self, name: str, pos: ast.Pos) -> str:
        if name not in self.voc.windows:
            raise unknown("window", name, pos, list(self.voc.windows))
        return name

    def quantity(self, name: str, pos: ast.Pos) -> v.NumExpr:
        """The start of a declared quantity."""
        if name not in self.voc.quantities:
            raise unknown("quantity", name, pos, list(self.voc.quantities))
        start = self.voc.quantities[name][0]
        if isinstance(start, str):
            if start not in self.params:
                raise CompileError(f"quantity {name!r} starts at unknown parameter {start!r}", pos)
            return v.VarNum(start)
        return v.Num(start)

    def modifier(self, node: ast.Modify, zone: str = "", facing: str = "") -> abilities.Modifier:
        self.quantity(node.quantity, node.quantity_pos)
        amount = self.num(node.amount)
        cond = self.cond(node.cond) if node.cond is not None else None
        const = abilities.constant_of(node.sign, amount, cond)
        return abilities.Modifier(node.quantity, node.sign, amount, cond, zone, facing, const)

    def subject(self, node: ast.Triggered | ast.Replacement, what: str) -> str:
        """Whom an ability answers, in words ("an opponent"), its subject checked."""
        if node.subject not in abilities.SUBJECTS:
            raise CompileError(f"{what} subject is you, an opponent or a player, not {node.subject!r}", node.pos)
        return {"you": "you", "opponent": "an opponent", "player": "a player"}[node.subject]

    def trigger(self, node: ast.Triggered) -> abilities.TriggerAbility:
        moment = self.moment(node.moment, node.moment_pos)
        who = self.subject(node, "a trigger's")
        self.listeners.moments.add(moment)
        body = self.block(node.block)
        this = " this card" if node.this_card else ""
        text = f"WHEN {who} {node.moment}{this}: {node.block.text}"
        return self.add(
            abilities.TriggerAbility,
            text=text,
            moment=moment,
            subject=node.subject,
            this_card=node.this_card,
            body=body,
        )

    def activated(self, node: ast.Activated) -> abilities.ActivatedAbility:
        window = self.window(node.window, node.window_pos)
        self.listeners.windows.add(window)
        body = self.block(node.block)
        during = f"ONCE PER TURN, during your {window}" if node.once else f"DURING your {window}"
        text = f"{during}: {node.block.text}"
        return self.add(abilities.ActivatedAbility, text=text, window=window, body=body, once=node.once)

    def replacement(self, node: ast.Replacement) -> abilities.ReplaceAbility:
        """`[MAY] INSTEAD OF <subject> MOMENT: ...` / `[MAY] PREVENT <subject> MOMENT`."""
        moment = self.moment(node.moment, node.moment_pos)
        who = self.subject(node, "a replacement's")
        zone, facing = self.voc.ability_zone
        if node.spot is not None:
            zone, facing = node.spot.zone, {"face-up": "up", "face-down": "down"}.get(node.spot.facing, "")
            owned = sorted(z for z, t in self.voc.zones.items() if t.per_player)
            if zone not in owned:
                raise CompileError(
                    f"unknown zone {zone!r}: a replacement ability works in one of its owner's zones",
                    node.spot.pos,
                    owned,
                    suggest(zone, owned),
                )
        self.listeners.replaced.add(moment)
        if node.block is None and not node.optional:  # an event it would stop cannot start
            self.listeners.prevented.add(moment)
        spots = self.listeners.replace_spots.setdefault(moment, [])
        if (zone, facing) not in spots:
            spots.append((zone, facing))
        body = self.block(node.block) if node.block is not None else None
        where = (
            "" if node.spot is None else f" while {node.spot.facing + ' ' if node.spot.facing else ''}in your {zone}"
        )
        head = (
            f"{'MAY ' if node.optional else ''}{'INSTEAD OF' if body is not None else 'PREVENT'} {who} {moment}{where}"
        )
        text = head if node.block is None else f"{head}: {node.block.text}"
        ability = self.add(
            abilities.ReplaceAbility,
            text=text,
            moment=moment,
            subject=node.subject,
            optional=node.optional,
            body=body,
            zone=zone,
            facing=facing,
        )
        if node.block is not None:
            self._replacement_blocks.append((ability, node.block))
        return ability

    def finish_declinable(self) -> None:
        """Compile each replacement's block once more with the pass label of each event of
        its moment that `you may` (or a loop's `done`) asks first, so the block asks it
        too (docs/dsl.md#replacement-abilities-instead-of-prevent). Only where such an
        event exists: no label is made that no game can offer."""
        done: set[tuple[int, str]] = set()
        while True:
            todo = [
                (ab, block, label)
                for ab, block in self._replacement_blocks
                for moment, label in sorted(self._declinable_wanted)
                if moment == ab.moment and (ab.eid, label) not in done
            ]
            if not todo:
                return
            for ab, block, label in todo:
                done.add((ab.eid, label))
                self.listeners.declinable[(ab.eid, label)] = self.block(block, label).eid

    def s_Event(self, node: ast.Event, optional: str) -> Effect:
        moment = self.moment(node.moment, node.moment_pos)
        optional = optional if self.asks_first(node.body) else ""  # else `stmt` asks before it
        if optional:
            self._declinable_wanted.add((moment, optional))
        return self.add(
            abilities.Replaceable,
            text=f"you {moment}: ...",
            moment=moment,
            body=self.body(node.body, optional),
            listeners=self.listeners,
            optional=optional,
        )

    def s_AnswerFirst(self, node: ast.AnswerFirst, optional: str) -> Effect:
        moment = self.moment(node.moment, node.moment_pos)
        return self.add(
            abilities.AnswerFirst, text=f"you answer {moment} first", moment=moment, listeners=self.listeners
        )

    def s_Announce(self, node: ast.Announce, optional: str) -> Effect:
        moment = self.moment(node.moment, ast.Pos(node.pos.line, node.pos.column + 9, len(node.moment)))
        card = self.card(node.card) if node.card is not None else None
        return self.add(
            abilities.Announce, text=f"announce {moment}", moment=moment, card_expr=card, listeners=self.listeners
        )

    def s_UseAbilities(self, node: ast.UseAbilities, optional: str) -> Effect:
        if node.one:  # "use a boost ability": its pos is the window's name
            window = self.window(node.window, node.pos)
            text = f"use {'an' if window[:1] in 'aeiou' else 'a'} {window} ability"
            return self.add(abilities.UseAbility, text=text, window=window, listeners=self.listeners)
        window = self.window(node.window, ast.Pos(node.pos.line, node.pos.column + 4, len(node.window)))
        return self.add(abilities.UseAbilities, text=f"use {window} abilities", window=window, listeners=self.listeners)

    def s_Lasting(self, node: ast.Lasting, optional: str) -> Effect:
        made: list[Effect] = []
        for item in node.items:
            if isinstance(item, ast.Modify):
                m = self.modifier(item)
                made.append(self.add(abilities.ModifyAbility, text=f"{item.quantity}", modifier=m))
            else:
                if item.this_card:
                    raise CompileError("a lasting trigger cannot name 'this card'", item.pos)
                made.append(self.trigger(item))
        return self.add(abilities.StartLasting, text="for the rest of this turn", abilities=tuple(made))

    def _nouns(self) -> list[str]:
        return [*self.voc.nouns(), *self.voc.counter_words, *self.voc.tokens, "card", "cards", *self.voc.symbols]

    def procedure(self, name: str, optional: str = "", words: tuple[tuple[str, str], ...] = ()) -> int:
        key = f"{name}/{optional}" if optional else name
        if words:  # named parameters: one compiled copy per set of words
            key += "(" + ",".join(f"{p}:{w}" for p, w in words) + ")"
        if key in self.procs:
            return self.procs[key]
        eid = len(self.effects)
        self.effects.append(None)  # reserved: a procedure may call itself
        self.procs[key] = eid
        tree, loc = self.proc_trees[name]
        tree = named.substitute(tree, words)
        try:
            body = self.block(tree, optional)
        except CompileError as exc:
            self.proc_errors.append((exc, loc))
            body = self.add(Nothing, text="nothing")
        self.effects[eid] = control.Scope(eid=eid, text=name, body=body, absorbs_failure=False)
        return eid

    def finish_procedures(self, problems: Problems, text_pos: Callable[[Loc, int, int], Loc]) -> None:
        for name, (tree, loc) in self.proc_trees.items():
            decl = named.given(tree)
            if decl is None:
                self.procedure(name)
                continue
            # compiled at each call with its words; its declaration is checked here
            try:
                named.check_given(decl, self.voc, self.proc_trees)
            except CompileError as bad:
                self.proc_errors.append((bad, loc))
        for exc, loc in self.proc_errors:
            at = text_pos(loc, exc.pos.line, exc.pos.column)
            problems.add(at, exc.message, expected=exc.expected, suggestion=exc.suggestion, width=exc.pos.width)

    # ---- names -----------------------------------------------------------------
    def _player_zone(self, name: str) -> v.PlayerZone:
        return v.PlayerZone(name, tuple(f"{name}.{i}" for i in range(MAX_PLAYERS)))

    def zone(self, ref: Any, several: bool = False) -> v.ZoneExpr:
        if isinstance(ref, ast.GroupRef):
            return players.GroupZones(ref.group, self.group(ref.group, ref.pos))
        if not isinstance(ref, ast.Ref):
            raise CompileError("expected a zone here, e.g. 'your hand' or 'the draw-pile'", _pos(ref))
        zones = self.voc.zones
        if ref.owner in ("opponent", "opponents", "player?"):
            if ref.owner == "player?":
                raise CompileError("write 'the opponent's ZONE' or 'an opponent's ZONE'", ref.pos)
            if ref.name not in zones or not zones[ref.name].per_player:
                raise unknown("zone", ref.name, ref.pos, [z for z, t in zones.items() if t.per_player])
            if ref.owner == "opponents":
                if not several:
                    raise CompileError(
                        f"'an opponent's {ref.name}' names several zones: use it where cards are chosen or counted, "
                        f"or write 'the opponent's {ref.name}'",
                        ref.pos,
                    )
                return v.OpponentsZones(ref.name)
            return v.OpponentZone(ref.name)
        if ref.owner == "your":
            if ref.name in zones and zones[ref.name].per_player:
                return self._player_zone(ref.name)
            if ref.name in zones:
                raise CompileError(f"{ref.name!r} is shared: write 'the {ref.name}'", ref.pos)
            raise unknown("zone", ref.name, ref.pos, [z for z, t in zones.items() if t.per_player])
        if ref.owner == "the":
            if self.binds.get(ref.name) == "zone":
                return v.ZoneVar(ref.name)
            if ref.name in zones and not zones[ref.name].per_player:
                return v.SharedZone(ref.name)
            if ref.name in zones:
                raise CompileError(f"{ref.name!r} belongs to each player: write 'your {ref.name}'", ref.pos)
            raise unknown("zone", ref.name, ref.pos, [z for z, t in zones.items() if not t.per_player])
        chosen = self.chosen_zone(ref)
        if chosen is not None:
            return chosen
        prop = self._prop(ref, "zone")
        return prop

    def _prop(self, ref: ast.Ref, want: str) -> v.CardProp:
        props = self.voc.properties
        if ref.name not in props:
            raise unknown("property", ref.name, ref.pos, list(props))
        ptype = props[ref.name]
        kind = "text" if isinstance(ptype, list) else ptype
        compatible = {(want, want), ("symbol", "text"), ("number", "expression")}
        if (want, kind) not in compatible:
            raise CompileError(f"property {ref.name!r} is a {kind}, not a {want}", ref.pos)
        if ref.owner == "its":
            card: v.CardExpr = v.ItCard()
        elif ref.owner == "this":
            card = v.ThisCard()
        elif ref.owner == "of":
            card = self.card_of(ref.card)
        else:
            card = self._card_var(ref.possessor, ref.pos)
        return v.CardProp(card, ref.name)

    def card_of(self, node: Any) -> v.CardExpr:
        """The card of `the PROPERTY of CARD`: a card as anywhere, or `the card in ZONES`."""
        if isinstance(node, ast.CardIn):
            if node.word != "card":
                where = " or ".join(printer.show(z) for z in node.zones)
                raise CompileError(
                    f"write 'the card in ...': a property is read from one card, not {node.word!r}",
                    node.pos,
                    suggestion=f"the card in {where}",
                )
            zones = tuple(self.zone(z, several=True) for z in node.zones)
            return card_of.CardIn(v.Query(zones, -1, "", None, "", None))
        if isinstance(node, ast.Ref) and not (node.owner == "the" and self.binds.get(node.name) == "card"):
            cards = [b for b, k in self.binds.items() if k == "card"]
            zone = node.name in self.voc.zones or node.name in self.voc.zone_groups
            raise CompileError(
                "expected a card after 'of': 'it', 'this card', 'the NAME' (a card given with 'as'), "
                "'the top card of ZONE' or 'the card in ZONE'",
                node.pos,
                cards,
                f"the card in {printer.show(node)}" if zone else suggest(node.name, cards),
            )
        return self.card(node)

    def _card_var(self, name: str, pos: ast.Pos) -> v.CardExpr:
        if self.binds.get(name) == "card":
            return v.CardVar(name)
        raise unknown("card name", name, pos, [b for b, k in self.binds.items() if k == "card"])

    def card(self, node: Any) -> v.CardExpr:
        if isinstance(node, ast.It):
            return v.ItCard()
        if isinstance(node, ast.TopCard):
            return v.TopCard(self.zone(node.zone))
        if isinstance(node, ast.ThisCard):
            return v.ThisCard()
        if isinstance(node, ast.Ref) and node.owner == "the":
            return self._card_var(node.name, node.pos)
        raise CompileError("expected a card here: 'it', 'this card' or a name given with 'as'", _pos(node))

    def sym(self, node: Any) -> v.SymExpr:
        if isinstance(node, ast.SymbolName):
            if node.name not in self.voc.symbols:
                raise unknown("symbol", node.name, node.pos, self.voc.symbols)
            return v.SymLit(node.name)
        if isinstance(node, ast.Ref) and node.owner in ("its", "poss", "this", "of"):
            return self._prop(node, "symbol")
        raise CompileError("expected a symbol here", _pos(node))

    def query(self, q: ast.Query) -> v.Query:
        kind = ""
        if q.noun not in ("card", "cards"):
            found = self.voc.kind_of(q.noun)
            if found is None:
                raise unknown("card kind", q.noun, q.noun_pos or q.pos, self.voc.nouns() + ["card"])
            kind = found
        symbol = None
        section = ""
        wheres: list[v.Cond] = []
        whose: list[tuple[str, Any, bool]] = []
        for f in q.filters:
            if isinstance(f, ast.Whose):
                whose.append(self.whose(f))
                continue
            if isinstance(f, ast.WithSymbol):
                if symbol is not None:
                    raise CompileError("one 'with a ... symbol' per query; add 'where' conditions for more", f.pos)
                symbol = self.sym(f.symbol)
            elif isinstance(f, ast.WithSection):
                if f.section not in self.voc.sections:
                    raise unknown("section", f.section, f.pos, self.voc.sections)
                if section:
                    raise CompileError("one 'with SECTION' per query", f.pos)
                section = f.section
            else:
                wheres.append(self.cond(f.cond))
        where: v.Cond | None = None
        if len(wheres) == 1:
            where = wheres[0]
        elif wheres:
            where = v.AllOf(tuple(wheres))
        facing = {"": -1, "face-down": 0, "face-up": 1}[q.facing]
        zones = tuple(self.zone(z, several=True) for z in q.zones)
        return v.Query(zones, facing, kind, symbol, section, where, tuple(whose))

    def whose(self, f: ast.Whose) -> tuple[str, Any, bool]:
        props = self.voc.properties
        if f.prop == "id" and "id" not in props:
            # every card's id is a built-in text property: "whose id is pomerene"
            if not isinstance(f.value, str):
                raise CompileError("compare a card's id with a card id such as 'whose id is ...'", f.pos)
            if f.value not in self.card_ids:
                raise unknown("card id", f.value, f.pos, sorted(self.card_ids))
            return (f.prop, f.value, f.negated)
        if f.prop not in props:
            raise unknown("property", f.prop, f.pos, list(props))
        ptype = props[f.prop]
        if isinstance(f.value, str):
            allowed = ptype if isinstance(ptype, list) else (self.voc.symbols if ptype == "symbol" else None)
            if allowed is None:
                kind = ptype if isinstance(ptype, str) else "text"
                raise CompileError(f"{f.prop!r} is a {kind}: compare it with 'where its {f.prop} is ...'", f.pos)
            if f.value not in allowed:
                raise unknown(f"value of {f.prop}", f.value, f.pos, list(allowed))
            return (f.prop, f.value, f.negated)
        if f.value.owner == "the" and self.binds.get(f.value.name) == "value":
            chosen = self.chosen_values.get(f.value.name, "")
            if self.voc.properties.get(chosen) != ptype:
                raise CompileError(f"'the {f.value.name}' is a value of {chosen!r}, not of {f.prop!r}", f.pos)
            return (f.prop, players.ChosenWord(f.value.name), f.negated)
        if f.value.owner not in ("its", "poss", "this", "of"):
            raise CompileError("compare with a value such as 'red' or a card's property such as 'its type'", f.pos)
        if f.value.name not in props:
            raise unknown("property", f.value.name, f.value.pos, list(props))
        if props[f.value.name] != ptype:
            raise CompileError(
                f"{f.prop!r} and {f.value.name!r} are different kinds of property: they never match", f.pos
            )
        return (f.prop, self._prop(f.value, _kind(props[f.value.name])), f.negated)

    def cardset(self, node: Any) -> v.CardSet:
        if isinstance(node, ast.Query):
            return self.query(node)
        if isinstance(node, ast.CardsUnder):
            return v.CardsUnder(self.card(node.card))
        if isinstance(node, ast.CardsUnderAll):
            return v.CardsUnderAll(self.query(node.query))
        return v.OneCard(self.card(node))

    # ---- numbers and conditions ----------------------------------------------
    def num(self, node: Any) -> v.NumExpr:
        compile_ = NUMBERS.get(type(node))
        if compile_ is None:
            raise CompileError("expected a number here", _pos(node))
        return compile_(self, node)

    def n_Number(self, node: ast.Number) -> v.NumExpr:
        return v.Num(node.value)

    def n_card(self, node: ast.It | ast.ThisCard | ast.TopCard) -> v.NumExpr:
        return v.CardId(self.card(node))

    def n_Var(self, node: ast.Var) -> v.NumExpr:
        if node.name not in self.params:
            raise unknown("variable or parameter", node.name, node.pos, sorted(self.params))
        return v.VarNum(node.name)

    def n_Arith(self, node: ast.Arith) -> v.NumExpr:
        return v.Arith(1 if node.op == "plus" else -1, self.num(node.left), self.num(node.right))

    def n_Multiply(self, node: ast.Multiply) -> v.NumExpr:
        return v.Multiply(self.num(node.left), self.num(node.right), printer.show(node))

    def n_Divide(self, node: ast.Divide) -> v.NumExpr:
        return v.Divide(self.num(node.left), self.num(node.right), node.up, printer.show(node))

    def n_CountCards(self, node: ast.CountCards) -> v.NumExpr:
        return v.CountCards(self.cardset(node.query))

    def n_CountSymbols(self, node: ast.CountSymbols) -> v.NumExpr:
        return v.CountSymbols(self.sym(node.symbol), self.cardset(node.cards))

    def n_CountEmpty(self, node: ast.CountEmpty) -> v.NumExpr:
        return v.CountEmpty(self.group(node.group, node.pos))

    def n_CountTokens(self, node: ast.CountTokens) -> v.NumExpr:
        return v.CountTokens(self.cardset(node.cards))

    def n_CountTokensOf(self, node: ast.CountTokensOf) -> v.NumExpr:
        return v.CountTokensOf(self.token_kinds(node.kind, node.pos), self.cardset(node.cards))

    def n_CountNotes(self, node: ast.CountNotes) -> v.NumExpr:
        return v.CountNotes(node.name)

    def n_Extreme(self, node: ast.Extreme) -> v.NumExpr:
        return v.Extreme(node.larger, self.num(node.left), self.num(node.right))

    def n_Total(self, node: ast.Total) -> v.NumExpr:
        if node.prop in self.voc.valued:
            return v.ValuedTotal(node.prop, self.cardset(node.query), self.valued.get(node.prop, {}))
        if self.voc.properties.get(node.prop) not in ("number", "expression"):
            numeric = [p for p, t in self.voc.properties.items() if t in ("number", "expression")]
            raise unknown("number property", node.prop, node.pos, numeric)
        return v.Total(node.prop, self.cardset(node.query))

    def n_AmongPlayers(self, node: ast.AmongPlayers) -> v.NumExpr:
        cond = self.cond(node.cond) if node.cond is not None else None
        return players.AmongPlayers(node.highest, self.num(node.expr), node.who, cond)

    def n_CountPlayers(self, node: ast.CountPlayers) -> v.NumExpr:
        return players.CountPlayers(node.who, self.cond(node.cond) if node.cond is not None else None)

    def n_HighestProp(self, node: ast.HighestProp) -> v.NumExpr:
        if self.voc.properties.get(node.prop) not in ("number", "expression"):
            numeric = [p for p, t in self.voc.properties.items() if t in ("number", "expression")]
            raise unknown("number property", node.prop, node.pos, numeric)
        return players.HighestProp(node.highest, node.prop, self.cardset(node.cards))

    def n_Ref(self, node: ast.Ref) -> v.NumExpr:
        number = self.chosen_number(node)
        if number is not None:
            return number
        if node.owner == "the" and self.binds.get(node.name) == "value":
            if isinstance(self.voc.properties.get(self.chosen_values.get(node.name, "")), list):
                raise CompileError(
                    f"'the {node.name}' is a word: compare it with 'whose ... is the {node.name}'", node.pos
                )
            return v.VarNum(node.name)
        counters = self.voc.counter_words
        if node.owner in ("opponent", "your") and node.name in self.voc.quantities:
            return abilities.Quantity(node.name, self.quantity(node.name, node.pos), node.owner == "opponent")
        if node.owner == "opponent":
            name = counters.get(node.name)
            if name is not None and self.voc.counters[name].per_player:
                return v.OpponentCounter(name)
            return v.ZoneSize(self.zone(node))
        if node.owner == "your":
            name = counters.get(node.name)
            if name is not None and self.voc.counters[name].per_player:
                return v.PlayerCounter(name)
            if node.name == "seat":
                return v.Seat()
            if node.name in self.voc.zones and self.voc.zones[node.name].per_player:
                return v.ZoneSize(self.zone(node))
            raise unknown(
                "counter or quantity",
                node.name,
                node.pos,
                [w for w, c in counters.items() if self.voc.counters[c].per_player] + list(self.voc.quantities),
            )
        if node.owner == "the":
            name = counters.get(node.name)
            if name is not None and not self.voc.counters[name].per_player:
                return v.SharedCounter(name)
            if self.binds.get(node.name) == "card":
                return v.CardId(v.CardVar(node.name))
            if node.name in self.voc.zones or self.binds.get(node.name) == "zone":
                return v.ZoneSize(self.zone(node))
            raise unknown(
                "shared counter",
                node.name,
                node.pos,
                [w for w, c in counters.items() if not self.voc.counters[c].per_player],
            )
        if self.voc.properties.get(node.name) == "zone":
            return v.ZoneSize(self._prop(node, "zone"))
        return self._prop(node, "number")

    def cond(self, node: Any) -> v.Cond:
        compile_ = CONDITIONS.get(type(node))
        if compile_ is None:
            raise CompileError("expected a condition here", _pos(node))
        return compile_(self, node)

    def c_Compare(self, node: ast.Compare) -> v.Cond:
        words = self._word_props(node)
        if words is not None:
            return card_of.SameValue(*words, negated=node.op == "ne")
        return v.Compare(node.op, self.num(node.left), self.num(node.right))

    def _word_props(self, node: ast.Compare) -> tuple[v.CardProp, v.CardProp] | None:
        """`its suit is the suit of the card in ...`: two cards' words (not numbers) compared;
        None when either side is not a card's text, symbol or zone property."""
        props = self.voc.properties
        sides = (node.left, node.right)
        kinds = []
        for side in sides:
            if not (isinstance(side, ast.Ref) and side.owner in ("its", "poss", "this", "of") and side.name in props):
                return None
            if props[side.name] in ("number", "expression"):
                return None
            kinds.append(props[side.name])
        left, right = node.left.name, node.right.name  # type: ignore[union-attr]
        if node.op not in ("eq", "ne"):
            raise CompileError(f"{left!r} is a word: compare it with 'is' or 'is not'", node.pos, ["is", "is not"])
        if kinds[0] != kinds[1]:
            raise CompileError(
                f"{left!r} and {right!r} are different kinds of property: they never match",
                node.pos,
                suggestion=f"compare {left!r} with another card's {left!r}",
            )
        kind = _kind(kinds[0])
        return self._prop(node.left, kind), self._prop(node.right, kind)  # type: ignore[arg-type]

    def c_IsEmpty(self, node: ast.IsEmpty) -> v.Cond:
        return v.IsZero(self.num(node.subject), node.negated)

    def c_IsFacing(self, node: ast.IsFacing) -> v.Cond:
        return v.IsFacing(self.card(node.subject), node.facing == "face-up")

    def c_IsIn(self, node: ast.IsIn) -> v.Cond:
        return v.IsIn(self.card(node.subject), self.zone(node.zone, several=True))

    def c_IsMarked(self, node: ast.IsMarked) -> v.Cond:
        return v.IsMarked(self.card(node.subject), node.name, node.negated)

    def c_IsCopy(self, node: ast.IsCopy) -> v.Cond:
        if node.card_id not in self.card_ids:
            raise unknown("card id", node.card_id, node.card_pos, sorted(self.card_ids))
        return v.IsCopy(self.card(node.subject), node.card_id, node.negated)

    def c_IsNoted(self, node: ast.IsNoted) -> v.Cond:
        return v.IsNoted(self.text(node.subject, node.pos), node.name)

    def c_AnyOf(self, node: ast.AnyOf) -> v.Cond:
        return v.AnyOf(tuple(self.cond(c) for c in node.conds))

    def c_Not(self, node: ast.Not) -> v.Cond:
        return v.NotCond(self.cond(node.cond))

    def c_AllOf(self, node: ast.AllOf) -> v.Cond:
        return v.AllOf(tuple(self.cond(c) for c in node.conds))

    def c_CanUse(self, node: ast.CanUse) -> v.Cond:
        return abilities.CanUse(self.window(node.window, node.pos), self.listeners)

    def c_PlayersCond(self, node: ast.PlayersCond) -> v.Cond:
        return players.PlayersCond(node.quantifier, node.who, self.cond(node.cond))

    def c_InOrder(self, node: ast.InOrder) -> v.Cond:
        return players.InOrder()


# One table per syntax category, from node type to the method that compiles it. A new
# statement adds one line here and one s_ method above (see docs/architecture.md).
StatementCompile = Callable[[StatementCompiler, Any, str], Effect]
NumberCompile = Callable[[StatementCompiler, Any], v.NumExpr]
ConditionCompile = Callable[[StatementCompiler, Any], v.Cond]

STATEMENTS: dict[type, StatementCompile] = {
    ast.Block: StatementCompiler.s_Block,
    ast.Alternatives: StatementCompiler.s_Alternatives,
    ast.May: StatementCompiler.s_May,
    ast.If: StatementCompiler.s_If,
    ast.Repeat: StatementCompiler.s_Repeat,
    ast.ForPlayers: StatementCompiler.s_ForPlayers,
    ast.ForCards: StatementCompiler.s_ForCards,
    ast.ChooseCard: StatementCompiler.s_ChooseCard,
    ast.ChooseZone: StatementCompiler.s_ChooseZone,
    ast.Move: StatementCompiler.s_Move,
    ast.Tuck: StatementCompiler.s_Tuck,
    ast.Flip: StatementCompiler.s_Flip,
    ast.Draw: StatementCompiler.s_Draw,
    ast.Shuffle: StatementCompiler.s_Shuffle,
    ast.CounterChange: StatementCompiler.s_CounterChange,
    ast.FillSlot: StatementCompiler.s_FillSlot,
    ast.Let: StatementCompiler.s_Let,
    ast.SetVar: StatementCompiler.s_SetVar,
    ast.DoSection: StatementCompiler.s_DoSection,
    ast.Mark: StatementCompiler.s_Mark,
    ast.ClearMarks: StatementCompiler.s_ClearMarks,
    ast.Peek: StatementCompiler.s_Peek,
    ast.PointOut: StatementCompiler.s_PointOut,
    ast.TakeTokenOf: StatementCompiler.s_TakeTokenOf,
    ast.PutToken: StatementCompiler.s_PutToken,
    ast.Note: StatementCompiler.s_Note,
    ast.ClearNotes: StatementCompiler.s_ClearNotes,
    ast.ChooseKind: StatementCompiler.s_ChooseKind,
    ast.ChoosePlayer: StatementCompiler.s_ChoosePlayer,
    ast.ForChosen: StatementCompiler.s_ForChosen,
    ast.ForPlayer: StatementCompiler.s_ForPlayer,
    ast.ForPlayersWhere: StatementCompiler.s_ForPlayersWhere,
    ast.ForPlayersAtOnce: StatementCompiler.s_ForPlayersAtOnce,
    ast.ChooseValue: StatementCompiler.s_ChooseValue,
    ast.TurnOrder: StatementCompiler.s_TurnOrder,
    ast.OnlyIf: StatementCompiler.s_OnlyIf,
    ast.Given: StatementCompiler.s_Given,
    ast.Nothing: StatementCompiler.s_Nothing,
    ast.Call: StatementCompiler.s_Call,
    ast.Event: StatementCompiler.s_Event,
    ast.AnswerFirst: StatementCompiler.s_AnswerFirst,
    ast.Announce: StatementCompiler.s_Announce,
    ast.UseAbilities: StatementCompiler.s_UseAbilities,
    ast.Lasting: StatementCompiler.s_Lasting,
}

NUMBERS: dict[type, NumberCompile] = {
    ast.Number: StatementCompiler.n_Number,
    ast.It: StatementCompiler.n_card,
    ast.ThisCard: StatementCompiler.n_card,
    ast.TopCard: StatementCompiler.n_card,
    ast.Var: StatementCompiler.n_Var,
    ast.Arith: StatementCompiler.n_Arith,
    ast.Multiply: StatementCompiler.n_Multiply,
    ast.Divide: StatementCompiler.n_Divide,
    ast.CountCards: StatementCompiler.n_CountCards,
    ast.CountSymbols: StatementCompiler.n_CountSymbols,
    ast.CountEmpty: StatementCompiler.n_CountEmpty,
    ast.CountTokens: StatementCompiler.n_CountTokens,
    ast.CountTokensOf: StatementCompiler.n_CountTokensOf,
    ast.CountNotes: StatementCompiler.n_CountNotes,
    ast.Extreme: StatementCompiler.n_Extreme,
    ast.Total: StatementCompiler.n_Total,
    ast.AmongPlayers: StatementCompiler.n_AmongPlayers,
    ast.CountPlayers: StatementCompiler.n_CountPlayers,
    ast.HighestProp: StatementCompiler.n_HighestProp,
    ast.Ref: StatementCompiler.n_Ref,
}

CONDITIONS: dict[type, ConditionCompile] = {
    ast.Compare: StatementCompiler.c_Compare,
    ast.IsEmpty: StatementCompiler.c_IsEmpty,
    ast.IsFacing: StatementCompiler.c_IsFacing,
    ast.IsIn: StatementCompiler.c_IsIn,
    ast.IsMarked: StatementCompiler.c_IsMarked,
    ast.IsCopy: StatementCompiler.c_IsCopy,
    ast.IsNoted: StatementCompiler.c_IsNoted,
    ast.AnyOf: StatementCompiler.c_AnyOf,
    ast.Not: StatementCompiler.c_Not,
    ast.AllOf: StatementCompiler.c_AllOf,
    ast.CanUse: StatementCompiler.c_CanUse,
    ast.PlayersCond: StatementCompiler.c_PlayersCond,
    ast.InOrder: StatementCompiler.c_InOrder,
}


STATEMENT_WORDS = [
    "choose",
    "move",
    "tuck",
    "flip",
    "draw",
    "shuffle",
    "gain",
    "lose",
    "pay",
    "fill",
    "remove",
    "let",
    "do",
    "nothing",
    "repeat",
    "while",
    "for",
    "if",
    "either",
    "mark",
    "unmark",
    "clear",
    "peek",
]


@attrs.frozen(eq=False)
class _ProcRef:
    """A procedure by id: procedures may call each other before all are compiled."""

    eid: int
    table: list[Effect | None]

    @property
    def body(self) -> Effect:
        proc = self.table[self.eid]
        assert isinstance(proc, control.Scope)
        return proc.body


def _kind(ptype: Any) -> str:
    return "text" if isinstance(ptype, list) else str(ptype)


def _pos(node: Any) -> ast.Pos:
    return getattr(node, "pos", ast.Pos(1, 1))


def _text(node: Any) -> str:
    if isinstance(node, ast.Block):
        return node.text
    return ""


def _call_text(node: ast.Call) -> str:
    return node.name
