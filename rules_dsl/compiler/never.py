"""Warnings for what can never happen in the loaded packs (`rules-dsl validate` shows them).

Packs compile although some of their text can never run: an ability whose card never
reaches the zone where it works, a `WHEN` on a moment no rule announces, an `INSTEAD OF`
or `PREVENT` on a moment no text makes an event (`you MOMENT: ...`), an activated
ability in a window no rule opens, a quantity nothing reads, a card nothing moves out of
the zone it starts in. Each is a warning, at the place written.

Where cards can go is worked out from every `move` (and `draw`, `tuck`, a zone's
`refill-from`, the `choosable` part): each move is an edge from the zones its cards come
from to its destination, limited to the kinds its query names and to the property values
that the `if its PROPERTY is VALUE` around it or a `whose PROPERTY is VALUE` filter
require. A card reaches its starting zone and, repeatedly, every destination of an edge
that fits it from a zone it reaches. The analysis errs towards "reachable": a card whose
source is unknown (`it` bound by a caller) may come from anywhere, so a warning is a
certainty, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from rules_dsl import ast
from rules_dsl.compiler import params
from rules_dsl.compiler.statements import walk
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.packs.loader import Problems, key_loc
from rules_dsl.packs.model import CardSource, Loc, Located

# Every syntax node this analysis knows: Move, Tuck (and Draw, through `draw:`) move cards,
# the others do not. A node of a newer construct is taken to move any card anywhere, so a
# grammar addition can silence warnings but never cause a false one (a test lists these).
UNDERSTOOD = frozenset(
    [
        "Activated",
        "AllCards",
        "AllOf",
        "Alternatives",
        "AmongPlayers",
        "Announce",
        "AnswerFirst",
        "AnyOf",
        "Arith",
        "Divide",
        "Multiply",
        "Block",
        "Call",
        "CallArg",
        "Given",
        "Param",
        "CanUse",
        "CardIn",
        "CardsUnder",
        "CardsUnderAll",
        "ChooseCard",
        "ChooseKind",
        "ChoosePlayer",
        "ChooseValue",
        "ChooseZone",
        "ClearMarks",
        "ClearNotes",
        "Compare",
        "Continuous",
        "CountCards",
        "CountEmpty",
        "CountNotes",
        "CountPlayers",
        "CountSymbols",
        "CountTokens",
        "CountTokensOf",
        "CounterChange",
        "DoSection",
        "Draw",
        "Event",
        "Extreme",
        "FillSlot",
        "Flip",
        "ForCards",
        "ForChosen",
        "ForPlayer",
        "ForPlayers",
        "ForPlayersWhere",
        "ForPlayersAtOnce",
        "GroupRef",
        "HighestProp",
        "If",
        "InOrder",
        "IsCopy",
        "IsEmpty",
        "IsFacing",
        "IsIn",
        "IsMarked",
        "IsNoted",
        "It",
        "Lasting",
        "Let",
        "Mark",
        "May",
        "Modify",
        "Wild",
        "Move",
        "Not",
        "Note",
        "Nothing",
        "Number",
        "OnlyIf",
        "Peek",
        "PlayerRef",
        "PlayersCond",
        "PointOut",
        "Pos",
        "PutToken",
        "Query",
        "Ref",
        "Repeat",
        "Replacement",
        "Section",
        "SetVar",
        "Shuffle",
        "Spot",
        "SymbolName",
        "TakeTokenOf",
        "ThisCard",
        "TopCard",
        "TopCards",
        "Total",
        "Triggered",
        "Tuck",
        "TurnOrder",
        "UseAbilities",
        "Var",
        "Where",
        "Whose",
        "WithSection",
        "WithSymbol",
    ]
)
UNDER = "(under a card)"  # where tucked cards are: not a zone, but cards leave it too
Place = Callable[[Loc, ast.Pos], Loc]


@attrs.frozen
class Cards:
    """Which cards a card expression may stand for: kinds (None: any), source zones (None:
    any), one card id (this card), and required property values (prop, value, equal)."""

    kinds: frozenset[str] | None = None
    sources: frozenset[str] | None = None
    card: str = ""
    needs: tuple[tuple[str, Any, bool], ...] = ()

    def fits(self, card: CardSource, kind: str, values: dict[str, Any]) -> bool:
        if self.card and self.card != card.id:
            return False
        if self.kinds is not None and kind not in self.kinds:
            return False
        return all((values.get(prop, 0) == value) == equal for prop, value, equal in self.needs)

    def requiring(self, needs: Iterable[tuple[str, Any, bool]]) -> Cards:
        return attrs.evolve(self, needs=(*self.needs, *needs))


ANY = Cards()


@attrs.frozen
class Edge:
    cards: Cards
    targets: frozenset[str] | None  # None: any zone


@attrs.frozen
class Text:
    """One text of the packs: its tree, where it is written, the card it is on ('' for rules)."""

    tree: Any
    loc: Loc
    card: str = ""
    procedure: str = ""  # a procedure's name: its moves are followed from each call


class _Moves:
    """Collects the edges of one text, following what `it` and named bindings stand for."""

    def __init__(
        self,
        voc: Vocabulary,
        card: str,
        edges: list[Edge],
        procedures: dict[str, Any],
        done: set[Any],
        zone_values: dict[str, frozenset[str]],
    ) -> None:
        self.voc = voc
        self.zone_values = zone_values  # a zone-valued property -> the zones cards give it
        self.zone_binds: dict[str, frozenset[str]] = {}  # `choose a role-stack ... as the stack`
        self.card = card
        self.edges = edges
        self.binds: dict[str, Cards] = {}
        self.procedures = procedures
        self.done = done  # (procedure, what its names stand for, requirements) already followed
        self.running: list[str] = []

    def zones(self, ref: ast.Ref | ast.GroupRef) -> frozenset[str] | None:
        if isinstance(ref, ast.GroupRef):  # `cards in a GROUP`: every zone of the group
            group = self.group(ref.group)
            return None if group is None else frozenset(z for z, _ in group)
        if ref.name in self.voc.zones:
            return frozenset([ref.name])
        members = self.voc.zone_groups.get(ref.name)
        if members is not None:
            return frozenset(z for z, _ in members)
        return self.zone_binds.get(ref.name, self.zone_values.get(ref.name))

    def group(self, name: str) -> tuple[tuple[str, str], ...] | None:
        """A zone group's members, named in the plural or the singular (`choose a pile`, also
        as a zone-group parameter's word; statements.group reads it the same way)."""
        groups = self.voc.zone_groups
        return groups.get(name, groups.get(name + "s"))

    def query(self, q: ast.Query) -> Cards:
        kind = self.voc.kind_of(q.noun)
        sources: set[str] | None = set()
        for ref in q.zones:
            zs = self.zones(ref)
            if zs is None or sources is None:
                sources = None
            else:
                sources |= zs
        needs = tuple(
            (f.prop, f.value, not f.negated) for f in q.filters if isinstance(f, ast.Whose) and isinstance(f.value, str)
        )
        return Cards(
            None if kind is None else frozenset([kind]),
            None if sources is None else frozenset(sources),
            needs=needs,
        )

    def cards(self, expr: Any) -> Cards:
        if isinstance(expr, ast.It):
            return self.binds.get("it", ANY)
        if isinstance(expr, ast.ThisCard):
            return Cards(card=self.card) if self.card else ANY
        if isinstance(expr, ast.Query):
            return self.query(expr)
        if isinstance(expr, ast.AllCards | ast.TopCards | ast.TopCard):
            return Cards(sources=self.zones(expr.zone))
        if isinstance(expr, ast.CardsUnder | ast.CardsUnderAll):
            return Cards(sources=frozenset([UNDER]))
        if isinstance(expr, ast.Ref):
            if expr.name in self.binds:
                return self.binds[expr.name]
            return Cards(sources=self.zones(expr))
        return ANY

    def bind(self, name: str, cards: Cards) -> None:
        self.binds[name] = cards

    def needs_of(self, cond: Any) -> tuple[tuple[str, Any, bool], ...] | None:
        """`its PROPERTY is VALUE` (and conjunctions of them) as requirements, else None."""
        if isinstance(cond, ast.AllOf):
            parts = [self.needs_of(c) for c in cond.conds]
            return None if any(p is None for p in parts) else tuple(n for p in parts if p for n in p)
        if isinstance(cond, ast.Compare) and cond.op in ("eq", "ne"):
            left, right = cond.left, cond.right
            if isinstance(left, ast.Ref) and left.owner == "its" and isinstance(right, ast.Number):
                return ((left.name, right.value, cond.op == "eq"),)
        return None

    def visit(self, node: Any, needs: tuple[tuple[str, Any, bool], ...] = ()) -> None:
        if isinstance(node, tuple | list):
            for n in node:
                self.visit(n, needs)
            return
        if isinstance(node, ast.If):
            found = self.needs_of(node.cond)
            self.visit(node.then, needs + (found or ()))
            if node.otherwise is not None:
                negated = tuple((p, v, not eq) for p, v, eq in found) if found and len(found) == 1 else ()
                self.visit(node.otherwise, needs + negated)
            return
        if isinstance(node, ast.ChooseZone):
            members = self.group(node.group)
            if members is not None:
                self.zone_binds[node.bind] = frozenset(z for z, _ in members)
        elif isinstance(node, ast.ChooseCard | ast.ForCards):
            self.bind(node.bind, self.cards(node.query))
            if node.bind != "it":
                self.bind("it", self.binds[node.bind])
        elif isinstance(node, ast.Move):
            targets = self.zones(node.dest) if node.dest.name not in self.binds else None
            self.edges.append(Edge(self.cards(node.cards).requiring(needs), targets))
        elif isinstance(node, ast.Tuck):
            self.edges.append(Edge(self.cards(node.card).requiring(needs), frozenset([UNDER])))
        elif type(node).__name__ not in UNDERSTOOD:
            self.edges.append(Edge(ANY, None))
        elif isinstance(node, ast.Call) and node.name in self.procedures and node.name not in self.running:
            # a procedure's `it` is what the caller bound (lookup is dynamic, docs/dsl.md#scope)
            key = (node.name, node.args, self.card, frozenset(self.binds.items()), needs)
            if key not in self.done:
                self.done.add(key)
                saved = dict(self.binds)
                self.running.append(node.name)
                tree = self.procedures[node.name]
                if node.args:  # the procedure as compiled for this call's words
                    tree = params.substitute(tree, tuple((a.name, a.word) for a in node.args))
                self.visit(tree, needs)
                self.running.pop()
                self.binds = saved
        fields = getattr(type(node), "__attrs_attrs__", ())
        for field in fields:
            child = getattr(node, field.name)
            nested = isinstance(child, tuple | list) or hasattr(type(child), "__attrs_attrs__")
            if nested and not isinstance(child, ast.Pos):
                self.visit(child, needs)


def _values(card: CardSource, voc: Vocabulary) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for prop, ptype in voc.properties.items():
        given = card.fields.get(prop)
        out[prop] = given.value if given is not None else (0 if ptype in ("number", "expression") else "")
    return out


def reach(cards: list[CardSource], voc: Vocabulary, edges: list[Edge]) -> dict[str, set[str]]:
    """card id -> every zone (and UNDER) it can be in."""
    out: dict[str, set[str]] = {}
    edges = list(dict.fromkeys(edges))
    named = {e.cards.card for e in edges if e.cards.card}
    known: dict[Any, set[str]] = {}  # cards alike to the edges (copies, same facts) reach the same zones
    for card in cards:
        kind = str(card.fields["kind"].value) if "kind" in card.fields else ""
        start = str(card.fields["zone"].value) if "zone" in card.fields else ""
        values = _values(card, voc)
        alike = (kind, start, card.id if card.id in named else "", tuple(sorted(map(str, values.items()))))
        if alike in known:
            out[card.id] = known[alike]
            continue
        fitting = [e for e in edges if e.cards.fits(card, kind, values)]
        zones = {start}
        changed = True
        while changed:
            changed = False
            for e in fitting:
                if e.cards.sources is not None and not (e.cards.sources & zones):
                    continue
                new = set(voc.zones) if e.targets is None else set(e.targets)
                if not new <= zones:
                    zones |= new
                    changed = True
        out[card.id] = known[alike] = zones
    return out


def _fixed_edges(voc: Vocabulary, choosable: Iterable[tuple[str, str]]) -> list[Edge]:
    edges = []
    source, target = voc.draw
    if source and target:
        edges.append(Edge(Cards(sources=frozenset([source])), frozenset([target])))
    for name, zone in voc.zones.items():
        if zone.refill_from:
            edges.append(Edge(Cards(sources=frozenset([zone.refill_from])), frozenset([name])))
    for source, target in choosable:
        edges.append(Edge(Cards(sources=frozenset([source])), frozenset([target])))
    return edges


def _declared_loc(parts: list[Located], section: str, name: str) -> Loc | None:
    for part in reversed(parts):
        table: Any = part.value.get(section) if hasattr(part.value, "get") else None
        if hasattr(table, "get") and name in table:
            return key_loc(table, name, part.loc.file)
    return None


def find_warnings(
    texts: list[Text],
    cards: list[CardSource],
    voc: Vocabulary,
    vocabulary_parts: list[Located],
    choosable: list[tuple[str, str]],
    place: Place,
    moment_of: Callable[[str], str],
    warnings: Problems,
) -> None:
    """Add a warning to `warnings` for each thing the packs declare or write that can never
    happen. `moment_of` gives the declared moment a trigger names ('passes' -> 'pass')."""
    edges = _fixed_edges(voc, choosable)
    announced: set[str] = set()
    events: set[str] = set()  # moments of `you MOMENT: ...`, which replacement abilities answer
    opened: set[str] = set()
    read: set[str] = {voc.slot_room} if voc.slot_room else set()
    procedures = {t.procedure: t.tree for t in texts if t.procedure}
    done: set[Any] = set()
    zone_values = {
        prop: frozenset(str(c.fields[prop].value) for c in cards if prop in c.fields)
        for prop, ptype in voc.properties.items()
        if ptype == "zone"
    }
    nodes: dict[int, list[Any]] = {}
    for i, text in enumerate(texts):
        if not text.procedure:
            _Moves(voc, text.card, edges, procedures, done, zone_values).visit(text.tree)
        nodes[i] = list(walk(text.tree))
        for node in nodes[i]:
            if isinstance(node, ast.Announce):
                announced.add(node.moment)
            elif isinstance(node, ast.Event | ast.AnswerFirst):
                events.add(node.moment)
            elif isinstance(node, ast.UseAbilities | ast.CanUse):
                opened.add(node.window)
            elif isinstance(node, ast.Ref):
                read.add(node.name)
    reached = reach(cards, voc, edges)
    by_id = {c.id: c for c in cards}
    ability_zone = voc.ability_zone[0]
    for i, text in enumerate(texts):
        if not text.card:
            continue
        zones = reached.get(text.card, set())
        # abilities that a section sets up for the rest of a turn work wherever their card is
        lasting = {id(item) for node in nodes[i] if isinstance(node, ast.Lasting) for item in node.items}
        for node in nodes[i]:
            spot = node.spot if isinstance(node, ast.Continuous | ast.Replacement) else None
            if spot is not None and spot.zone not in zones:
                warnings.add(
                    place(text.loc, node.spot.pos),
                    f"this ability works in your {spot.zone}, where this card never goes: "
                    f"nothing moves it there (it can be in: {', '.join(sorted(zones))})",
                    card=text.card,
                    width=spot.pos.width,
                )
            elif (
                isinstance(node, ast.Triggered | ast.Activated | ast.Replacement)
                and spot is None
                and ability_zone
                and ability_zone not in zones
                and id(node) not in lasting
            ):
                warnings.add(
                    place(text.loc, node.pos),
                    f"abilities work while their card is in its owner's {ability_zone}, where this card never "
                    f"goes: nothing moves it there (it can be in: {', '.join(sorted(zones))})",
                    card=text.card,
                    width=len(node.window if isinstance(node, ast.Activated) else node.moment),
                )
            if isinstance(node, ast.Triggered) and moment_of(node.moment) not in announced:
                warnings.add(
                    place(text.loc, node.moment_pos),
                    f"no rule announces {moment_of(node.moment)!r}: this ability never triggers",
                    card=text.card,
                    width=node.moment_pos.width,
                )
            elif isinstance(node, ast.Replacement) and moment_of(node.moment) not in events:
                warnings.add(
                    place(text.loc, node.moment_pos),
                    f"no rule or card text makes {moment_of(node.moment)!r} an event "
                    f"('you {moment_of(node.moment)}: ...'): this ability never applies",
                    card=text.card,
                    width=node.moment_pos.width,
                )
            elif isinstance(node, ast.Activated) and node.window not in opened:
                warnings.add(
                    place(text.loc, node.window_pos),
                    f"no rule opens the window {node.window!r} (use {node.window} abilities): "
                    "this ability can never be used",
                    card=text.card,
                    width=node.window_pos.width,
                )
    for name in voc.quantities:
        if name not in read:
            loc = _declared_loc(vocabulary_parts, "quantities", name)
            if loc is not None:
                warnings.add(
                    loc,
                    f"nothing reads the quantity {name!r} (no text says 'your {name}'): changing it does nothing",
                    width=len(name),
                )
    # a card may stay where it starts if text looks at it there (`choose a role in the role-display`)
    looked_at = {z for name in read for z in ({name} | {m for m, _ in voc.zone_groups.get(name, ())})}
    looked_at |= {z for values in zone_values.values() for z in values}
    looked_at |= {voc.draw[0], *(z.refill_from for z in voc.zones.values()), *(s for s, _ in choosable)}
    for card_id, zones in reached.items():
        card = by_id[card_id]
        start = str(card.fields["zone"].value) if "zone" in card.fields else ""
        # a card without text may stay aside on purpose (a player aid)
        if zones == {start} and start and start not in looked_at and "text" in card.fields:
            warnings.add(
                card.loc,
                f"nothing ever moves this card out of {start!r}, where it starts, and no text looks at "
                f"{start!r}: its text can never run",
                card=card_id,
            )
