"""Card types: fields, properties, copies, and the abilities printed on cards."""

from __future__ import annotations

from typing import Any

from rules_dsl import ast
from rules_dsl.compiler.build_base import BuilderBase, named, text_pos
from rules_dsl.compiler.statements import CompileError, StatementCompiler
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.effects.abilities import ReplaceAbility, WildGrant
from rules_dsl.effects.control import Scope
from rules_dsl.effects.values import Num, NumExpr
from rules_dsl.errors import suggest
from rules_dsl.packs import shape
from rules_dsl.packs.loader import value_loc
from rules_dsl.packs.model import CardSource, Loc, Located
from rules_dsl.printer import show
from rules_dsl.rules import CardType

CARD_FIELDS = shape.CARD_FIELDS
# Bounds on the cards of a game (docs/modding.md#limits): every copy is a CardState in
# every game, so a slip such as count: 100000000 would exhaust memory at the first game.
MAX_COPIES = 1_000  # copies of one card
MAX_CARDS = 10_000  # copies of all cards in one game


class CardCompiling(BuilderBase):
    def printed_numbers(self, cards: list[CardSource], voc: Vocabulary) -> dict[str, set[int]]:
        """The values printed on the cards for each number property (`choose a rank value`)."""
        printed: dict[str, set[int]] = {p: set() for p, t in voc.properties.items() if t == "number"}
        for card in cards:
            for prop, found in printed.items():
                given = card.fields.get(prop)
                if given is not None and isinstance(given.value, int) and not isinstance(given.value, bool):
                    found.add(int(given.value))
        return printed

    def compile_cards(self, cards: list[CardSource], voc: Vocabulary, sc: StatementCompiler) -> list[CardType]:
        out: list[CardType] = []
        known = CARD_FIELDS | set(voc.properties)
        for card in cards:
            f = card.fields
            for key, located in f.items():
                if key not in known:
                    self.problems.add(
                        located.loc,
                        f"unknown field {key!r}",
                        card=card.id,
                        expected=sorted(known),
                        suggestion=suggest(key, known),
                    )
            kind = f.get("kind")
            if kind is None:
                self.problems.add(card.loc, "missing field 'kind'", card=card.id, expected=sorted(voc.kinds))
                continue
            if not named(kind.value, voc.kinds):
                self.problems.add(
                    kind.loc.value(),
                    f"unknown kind {kind.value!r}",
                    card=card.id,
                    expected=sorted(voc.kinds),
                    suggestion=suggest(str(kind.value), voc.kinds),
                )
            zone = f.get("zone")
            zone_name = "" if zone is None else str(zone.value)
            if zone is None:
                self.problems.add(
                    card.loc,
                    "missing field 'zone' (where its copies start)",
                    card=card.id,
                    expected=sorted(z for z, t in voc.zones.items() if not t.per_player),
                )
            elif zone_name not in voc.zones or voc.zones[zone_name].per_player:
                self.problems.add(
                    zone.loc.value(),
                    f"unknown shared zone {zone_name!r}",
                    card=card.id,
                    expected=sorted(z for z, t in voc.zones.items() if not t.per_player),
                    suggestion=suggest(zone_name, voc.zones),
                )
            count: int | str = 1
            if "count" in f:
                cv = f["count"].value
                is_number = isinstance(cv, int) and not isinstance(cv, bool) and cv >= 0
                if is_number or (isinstance(cv, str) and cv in sc.params):
                    count = int(cv) if is_number else cv
                    most = self.most_copies(cv)
                    if most > MAX_COPIES:
                        self.problems.add(
                            f["count"].loc.value(),
                            f"at most {MAX_COPIES} copies of a card are allowed, not {most}",
                            card=card.id,
                        )
                        count = 0
                else:
                    self.problems.add(
                        f["count"].loc.value(),
                        f"count must be a whole number or a parameter, not {cv!r}",
                        card=card.id,
                        suggestion=suggest(str(cv), sc.params),
                    )
            symbols = self.word_list(f.get("symbols"), voc.symbols, "symbol", card.id)
            slots = self.word_list(f.get("slots"), [*voc.tokens, *voc.token_groups], "token kind", card.id)
            props: dict[str, Any] = {}
            for pname, ptype in voc.properties.items():
                default: Any = 0 if ptype in ("number", "expression") else ""
                given = f.get(pname)
                if given is None:
                    props[pname] = default
                    continue
                props[pname] = self.property_value(given, pname, ptype, voc, card.id)
            sections: dict[str, int] = {}
            mods: dict[str, list[Any]] = {}
            triggers: list[Any] = []
            activated: list[Any] = []
            tree = self._card_trees.get(card.id)
            if isinstance(tree, ast.Block):
                self.problems.add(
                    f["text"].loc,
                    "a card's text is sections and abilities, each with its label: e.g. 'ACTION: draw 1 card'",
                    card=card.id,
                    expected=[s + ":" for s in voc.sections] + ["WHEN", "WHILE", "ONCE PER TURN"],
                )
                tree = None
            if tree is not None:
                for item in tree:
                    if not isinstance(item, ast.Section):
                        try:
                            self._card_now = card.id  # the card a `your copies of ... are wild` is on
                            self.compile_ability(item, voc, sc, mods, triggers, activated)
                        except CompileError as exc:
                            self.report(exc, f["text"].loc, card.id)
                        continue
                    section = item
                    if section.label not in voc.sections:
                        self.problems.add(
                            text_pos(f["text"].loc, section.pos.line, section.pos.column),
                            f"unknown section {section.label}:",
                            card=card.id,
                            expected=[s + ":" for s in voc.sections],
                            suggestion=suggest(section.label, voc.sections),
                            width=len(section.label) + 1,
                        )
                        continue
                    if section.label in sections:
                        self.problems.add(
                            text_pos(f["text"].loc, section.pos.line, section.pos.column),
                            f"section {section.label}: is given twice",
                            card=card.id,
                        )
                        continue
                    try:
                        body = sc.block(section.block)
                    except CompileError as exc:
                        self.report(exc, f["text"].loc, card.id)
                        continue
                    scope = sc.add(Scope, text=f"{card.id} {section.label}", body=body, absorbs_failure=True)
                    sections[section.label] = scope.eid
            name = f.get("name")
            if name is not None and not isinstance(name.value, str):
                self.problems.add(
                    name.loc.value(), f"a card's name is text, not {name.value!r}", card=card.id, suggestion="quote it"
                )
            text = f.get("text")
            out.append(
                CardType(
                    id=card.id,
                    name=str(name.value) if name else card.id,
                    kind=str(kind.value),
                    symbols=_count(symbols),
                    slots=_count(slots),
                    props=props,
                    sections=sections,
                    text=" ".join(str(text.value).split()) if text else "",
                    count=count,
                    zone=zone_name,
                    public_props=voc.backs.get(str(kind.value), ()),
                    mods={q: tuple(ms) for q, ms in mods.items()},
                    triggers=tuple(t for t in triggers if not isinstance(t, ReplaceAbility)),
                    activated=tuple(activated),
                    replacements=tuple(t for t in triggers if isinstance(t, ReplaceAbility)),
                    wilds=tuple(g for g in self._wild_grants if g.source == card.id),
                    source={
                        k: str(f[k].value)
                        for k in ("text", *(p for p, t in voc.properties.items() if t == "expression"))
                        if k in f and isinstance(f[k].value, str)
                    },
                )
            )
        return out

    def most_copies(self, count: int | str) -> int:
        """The largest number of copies a count can mean, over player counts and variants."""
        if isinstance(count, int):
            return count
        values: list[Any] = [self._params.get(count, 0)]
        values += [v.params[count] for v in self._variants.values() if count in v.params]
        flat = [n for v in values for n in (v.values() if isinstance(v, dict) else [v])]
        return max([n for n in flat if isinstance(n, int)], default=0)

    def check_total_cards(self, card_types: list[CardType]) -> None:
        total = sum(self.most_copies(c.count) for c in card_types)
        if total > MAX_CARDS:
            self.problems.add(
                Loc(self.sources[-1].folder + "/pack.yaml", 1, 1),
                f"the cards add up to {total} copies; a game may hold at most {MAX_CARDS}",
            )

    def compile_valued(self, voc: Vocabulary, sc: StatementCompiler) -> None:
        """The expressions that the values of a valued property stand for."""
        for prop, values in voc.valued.items():
            compiled: dict[str, NumExpr] = {}
            for value, (text, loc) in values.items():
                if isinstance(text, int) and not isinstance(text, bool):
                    compiled[value] = Num(int(text))
                    continue
                tree = self.parse_text(Located(text, loc), "expression")
                if tree is None:
                    continue
                try:
                    compiled[value] = sc.num(tree)
                except CompileError as exc:
                    self.report(exc, loc)
            sc.valued[prop] = compiled

    def compile_ability(
        self,
        node: Any,
        voc: Vocabulary,
        sc: StatementCompiler,
        mods: dict[str, list[Any]],
        triggers: list[Any],
        activated: list[Any],
    ) -> None:
        """A card's continuous, triggered or activated ability."""
        if isinstance(node, ast.Continuous):
            zone, facing = node.spot.zone, node.spot.facing
            if zone not in voc.zones or not voc.zones[zone].per_player:
                raise CompileError(
                    f"unknown zone {zone!r}: a continuous ability works in one of its owner's zones",
                    node.spot.pos,
                    sorted(z for z, t in voc.zones.items() if t.per_player),
                    suggest(zone, voc.zones),
                )
            up = {"face-up": "up", "face-down": "down"}.get(facing, "")
            for m in node.mods:
                if isinstance(m, ast.Wild):
                    if m.card_id not in sc.card_ids:
                        raise CompileError(
                            f"unknown card id {m.card_id!r}: a card makes copies of a card of the packs wild",
                            m.card_pos,
                            sorted(sc.card_ids),
                            suggest(m.card_id, sc.card_ids),
                        )
                    cond = sc.cond(m.cond) if m.cond is not None else None
                    where = f"{facing + ' ' if facing else ''}in your {zone}"
                    said = f"WHILE {where}: {show(m)}"
                    self._wild_grants.append(WildGrant(said, m.card_id, self._card_now, zone, up, cond))
                    continue
                mod = sc.modifier(m, zone, up)
                mods.setdefault(m.quantity, []).append(mod)
                spots = self._quantity_spots.setdefault(m.quantity, [])
                if (zone, up) not in spots:
                    spots.append((zone, up))
            return
        if isinstance(node, ast.Replacement) and node.spot is not None:
            triggers.append(sc.replacement(node))  # it says where it works
            return
        if not voc.ability_zone[0]:
            raise CompileError(
                "the packs do not say where triggered, activated and replacement abilities work: "
                "declare vocabulary: abilities: {zone: ZONE, facing: up}"
                + (
                    " (or say where this one works: '... while in your ZONE')"
                    if isinstance(node, ast.Replacement)
                    else ""
                ),
                node.pos,
            )
        if isinstance(node, ast.Triggered):
            triggers.append(sc.trigger(node))
        elif isinstance(node, ast.Replacement):
            triggers.append(sc.replacement(node))  # sorted out of the triggers by compile_cards
        else:
            # a card is one option where its abilities are offered: one per window
            if any(a.window == node.window for a in activated):
                raise CompileError(
                    f"a card has one ability for the window {node.window!r}: join them with OR in one ability",
                    node.window_pos,
                )
            activated.append(sc.activated(node))

    def word_list(self, located: Located | None, known: list[str], what: str, card: str) -> list[str]:
        if located is None:
            return []
        value = located.value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problems.add(
                located.loc.value(), f"expected a list of {what}s, e.g. [{known[0] if known else what}]", card=card
            )
            return []
        for i, v in enumerate(value):
            if v not in known:
                self.problems.add(
                    value_loc(value, i, located.loc.file) if hasattr(value, "lc") else located.loc.value(),
                    f"unknown {what} {v!r}",
                    card=card,
                    expected=known,
                    suggestion=suggest(v, known),
                )
        return [str(v) for v in value if v in known]

    def property_value(self, located: Located, pname: str, ptype: Any, voc: Vocabulary, card: str) -> Any:
        v = located.value
        if ptype == "number":
            if isinstance(v, int) and not isinstance(v, bool):
                return int(v)  # a plain int: the YAML reader's subclass reads as an expression
            self.problems.add(located.loc.value(), f"{pname} must be a whole number, not {v!r}", card=card)
            return 0
        if ptype == "symbol":
            if named(v, voc.symbols):
                return v
            self.problems.add(
                located.loc.value(),
                f"{pname} must be a symbol",
                card=card,
                expected=voc.symbols,
                suggestion=suggest(str(v), voc.symbols),
            )
            return ""
        if ptype == "zone":
            if named(v, voc.zones):
                return str(v)
            self.problems.add(
                located.loc.value(),
                f"{pname} must be a zone",
                card=card,
                expected=sorted(voc.zones),
                suggestion=suggest(str(v), voc.zones),
            )
            return ""
        if ptype == "expression":
            # a number worked out for the card itself: "it" and "its" are the card
            if isinstance(v, int) and not isinstance(v, bool):
                return int(v)
            tree = self.parse_text(located, "expression", card)
            if tree is None:
                return 0
            try:
                return self._sc.num(tree)
            except CompileError as exc:
                self.report(exc, located.loc, card)
                return 0
        if isinstance(ptype, list):
            if v in ptype:
                return v
            self.problems.add(
                located.loc.value(),
                f"{pname} must be one of the declared values",
                card=card,
                expected=ptype,
                suggestion=suggest(str(v), ptype),
            )
            return ""
        return str(v)


def _count(words: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for w in words:
        out[w] = out.get(w, 0) + 1
    return out
