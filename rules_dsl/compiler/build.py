"""Packs -> Rules. Every name in every text is checked against the declared vocabulary;
all problems are collected and reported together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from rules_dsl import ast
from rules_dsl.compiler.compose import Pieces, compose
from rules_dsl.compiler.statements import CompileError, StatementCompiler, walk
from rules_dsl.compiler.vocabulary import Vocabulary, add_to_groups, read_vocabulary
from rules_dsl.effects.base import Effect
from rules_dsl.effects.control import Scope
from rules_dsl.effects.turns import GameLoop
from rules_dsl.effects.values import Num, NumExpr, VarNum
from rules_dsl.errors import DslSyntaxError, suggest
from rules_dsl.packs import shape
from rules_dsl.packs.loader import Problems, find_pack_folders, key_loc, load_pack, value_loc
from rules_dsl.packs.model import CardSource, Loc, Located, PackSource
from rules_dsl.parser import parse
from rules_dsl.rules import CardType, EndTrigger, Rules, Statistic, Variant

CARD_FIELDS = shape.CARD_FIELDS
VAR_RE = "[A-Z][A-Z0-9_]*"
BUILTIN_PARAMS = {"PLAYERS"}


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


def load_sources(paths: list[str], problems: Problems) -> list[PackSource]:
    """Load pack folders and order them so each comes after the packs it requires."""
    packs: dict[str, PackSource] = {}
    for folder in find_pack_folders(paths):
        pack = load_pack(folder, problems)
        if pack is None:
            continue
        if pack.id in packs:
            problems.add(Loc(str(Path(folder) / "pack.yaml"), 1, 1), f"pack id {pack.id!r} is loaded twice")
            continue
        packs[pack.id] = pack
    ordered: list[PackSource] = []
    done: set[str] = set()

    def visit(p: PackSource, chain: tuple[str, ...]) -> None:
        if p.id in done:
            return
        for r in p.requires:
            if r in chain:
                problems.add(
                    Loc(str(Path(p.folder) / "pack.yaml"), 1, 1),
                    f"packs require each other: {' -> '.join(chain + (r,))}",
                )
            elif r not in packs:
                problems.add(
                    Loc(str(Path(p.folder) / "pack.yaml"), 1, 1),
                    f"requires pack {r!r}, which was not given",
                    suggestion=f"add its folder to the command line ({suggest(r, packs) or 'e.g. cards/'})",
                )
            else:
                visit(packs[r], chain + (p.id,))
        done.add(p.id)
        ordered.append(p)

    for p in packs.values():
        visit(p, ())
    return ordered


def compile_packs(paths: list[str]) -> Rules:
    """Load and compile pack folders; raise PackError listing every problem."""
    problems = Problems()
    sources = load_sources(paths, problems)
    problems.raise_if_any()
    if not sources:
        from rules_dsl.errors import PackError, PackProblem

        raise PackError([PackProblem(", ".join(paths) or "?", 1, 1, "no pack found")])
    rules = _Builder(sources, problems).build()
    problems.raise_if_any()
    assert rules is not None
    return rules


class _Builder:
    def __init__(self, sources: list[PackSource], problems: Problems) -> None:
        self.sources = sources
        self.problems = problems
        self.parts: dict[str, list[Located]] = {}
        for src in sources:
            for key, located in src.sections.items():
                self.parts.setdefault(key, []).append(located)
        self.composed = compose(sources, problems)

    # ---- entry -----------------------------------------------------------------
    def build(self) -> Rules | None:
        voc = read_vocabulary([(p.value, p.loc) for p in self.parts.get("vocabulary", [])], self.problems)
        add_to_groups(voc, self.composed.group_additions, self.problems)
        params = self.read_parameters()
        variants, defaults = self.read_variants(params)
        cards = self.composed.cards
        texts = self.parse_all(cards)
        statistics = self.read_statistics(voc)
        evaluation_part = self.composed.evaluation
        evaluation_tree = None if evaluation_part is None else self.parse_text(evaluation_part, "expression")
        lets = {"X", "N"}
        binds: dict[str, str] = {}
        for t in texts:
            for node in walk(t.tree):
                if isinstance(node, ast.Let):
                    lets.add(node.name)
                elif isinstance(node, ast.ChooseCard | ast.ForCards):
                    binds.setdefault(node.bind, "card")
                elif isinstance(node, ast.ChooseZone):
                    binds[node.bind] = "zone"
                elif isinstance(node, ast.ChooseKind):
                    binds[node.bind] = "kind"
        for group, members in voc.zone_groups.items():
            for zone, when in members:
                if when and when not in params:
                    part = self.parts["vocabulary"][-1]
                    self.problems.add(
                        part.loc,
                        f"zone group {group!r}: {zone!r} is there when {when!r}, an unknown parameter",
                        expected=sorted(params),
                        suggestion=suggest(when, params),
                    )
        for counter in voc.counters.values():
            if isinstance(counter.start, str) and counter.start not in params:
                part = self.parts["vocabulary"][-1]
                self.problems.add(
                    part.loc,
                    f"counter {counter.name!r} starts at unknown parameter {counter.start!r}",
                    expected=sorted(params),
                    suggestion=suggest(counter.start, params),
                )
        effects: list[Effect | None] = []
        sc = StatementCompiler(voc, effects, set(params) | BUILTIN_PARAMS | lets, binds, self.procedures())
        self._sc = sc
        card_types = self.compile_cards(cards, voc, sc)
        wild = self.compile_wild(voc, sc, {c.id: i for i, c in enumerate(card_types)})
        setup = self.compile_script("setup", sc, phase_name="setup")
        phases = self.compile_turn(sc)
        triggers, extra = self.compile_end(sc)
        score, tiebreak = self.compile_scoring(sc)
        evaluation = None
        if evaluation_tree is not None and evaluation_part is not None:
            try:
                evaluation = sc.num(evaluation_tree)
            except CompileError as exc:
                self.report(exc, evaluation_part.loc)
        sc.finish_procedures(self.problems, text_pos)
        players = self.player_range()
        bodies = tuple(e.body.eid for _, eid in phases if isinstance(e := effects[eid], Scope))
        loop = GameLoop(
            len(effects),
            "the game",
            tuple(phases),
            tuple((t.name, t.cond) for t in triggers),
            extra,
            score,
            tiebreak,
            bodies,
            self._end_after_turn,
            self._final_turn(sc),
            tuple(self._breakdown),
            self._turn_limit,
        )
        effects.append(loop)
        if self.problems.items:
            return None
        assert all(e is not None for e in effects)
        return Rules(
            packs=tuple(s.id for s in self.sources),
            name=self.sources[-1].name,
            min_players=players[0],
            max_players=players[1],
            effects=tuple(e for e in effects if e is not None),
            cards=tuple(card_types),
            card_index={c.id: i for i, c in enumerate(card_types)},
            zones=dict(voc.zones),
            zone_groups=dict(voc.zone_groups),
            counters=dict(voc.counters),
            shared_counters={c.name: c.start for c in voc.counters.values() if not c.per_player},
            params=params,
            variants=variants,
            default_variants=tuple(defaults),
            setup=setup,
            game_loop=loop.eid,
            phases=tuple(phases),
            end_triggers=tuple(triggers),
            score=score,
            tiebreak=tiebreak,
            draw_from=voc.draw[0],
            draw_to=voc.draw[1],
            overrides=tuple(self.composed.overrides),
            additions=tuple(self.composed.additions),
            wild=wild,
            evaluation=evaluation,
            statistics=tuple(statistics),
        )

    def read_statistics(self, voc: Vocabulary) -> list[Statistic]:
        """`statistics: {NAME: {from: ZONE or [ZONE...], to: ZONE or [ZONE...]}}`: card moves to count."""
        part = self.composed.statistics
        if part is None:
            return []
        node = part.value
        if not hasattr(node, "items"):
            self.problems.add(part.loc, "statistics must map a name to {from: zones, to: zones}")
            return []
        out = []
        for name, spec in node.items():
            loc = value_loc(node, name, part.loc.file)
            if not hasattr(spec, "items") or set(spec) != {"from", "to"}:
                message = f"statistic {name!r} must be {{from: zones, to: zones}}"
                self.problems.add(loc, message, expected=["from", "to"])
                continue
            ends: list[tuple[str, ...]] = []
            for end in ("from", "to"):
                zones = spec[end] if isinstance(spec[end], list) else [spec[end]]
                for z in zones:
                    if z not in voc.zones:
                        self.problems.add(
                            value_loc(spec, end, part.loc.file),
                            f"statistic {name!r}: unknown zone {z!r}",
                            expected=sorted(voc.zones),
                            suggestion=suggest(str(z), voc.zones),
                        )
                ends.append(tuple(str(z) for z in zones))
            out.append(Statistic(str(name), ends[0], ends[1]))
        return out

    def player_range(self) -> tuple[int, int]:
        for s in reversed(self.sources):
            if s.players:
                return s.players
        return (2, 4)

    # ---- parameters and variants ----------------------------------------------
    def read_parameters(self) -> dict[str, Any]:
        import re

        params: dict[str, Any] = {}
        for part in self.parts.get("parameters", []):
            node, loc = part.value, part.loc
            if not hasattr(node, "items"):
                self.problems.add(loc, "parameters must map NAMES to numbers or {players: number}")
                continue
            for name, value in node.items():
                vloc = value_loc(node, name, loc.file)
                if not re.fullmatch(VAR_RE, str(name)):
                    self.problems.add(
                        key_loc(node, name, loc.file),
                        f"parameter {name!r} must be written in capitals, e.g. HAND_LIMIT",
                    )
                    continue
                checked = self.param_value(value, vloc)
                if checked is not None:
                    params[str(name)] = checked
        return params

    def param_value(self, value: Any, loc: Loc) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if hasattr(value, "items") and all(isinstance(k, int) and isinstance(v, int) for k, v in value.items()):
            return {int(k): int(v) for k, v in value.items()}
        self.problems.add(loc, "a parameter is a whole number, or a number per player count such as {2: 1, 4: 2}")
        return None

    def read_variants(self, params: dict[str, Any]) -> tuple[dict[str, Variant], list[str]]:
        variants: dict[str, Variant] = {}
        for part in self.parts.get("variants", []):
            node, loc = part.value, part.loc
            if not hasattr(node, "items"):
                self.problems.add(loc, "variants must map each variant name to {description:, parameters:}")
                continue
            for name, spec in node.items():
                vloc = key_loc(node, name, loc.file)
                if not hasattr(spec, "items"):
                    self.problems.add(vloc, f"variant {name!r} must be a mapping")
                    continue
                for field in spec:
                    if field not in shape.VARIANT.names():
                        self.problems.add(
                            key_loc(spec, field, loc.file),
                            f"unknown key {field!r} in variant {name!r}",
                            expected=sorted(shape.VARIANT.names()),
                            suggestion=suggest(str(field), shape.VARIANT.names()),
                        )
                overrides: dict[str, Any] = {}
                pnode = spec.get("parameters") or {}
                for pname, pval in pnode.items():
                    ploc = key_loc(pnode, pname, loc.file)
                    if pname not in params:
                        self.problems.add(
                            ploc,
                            f"variant {name!r} sets unknown parameter {pname!r}",
                            suggestion=suggest(str(pname), params),
                        )
                        continue
                    checked = self.param_value(pval, value_loc(pnode, pname, loc.file))
                    if checked is not None:
                        overrides[str(pname)] = checked
                variants[str(name)] = Variant(str(name), str(spec.get("description", "")), overrides)
        for vname, pname, pval, ploc, vloc in self.composed.variant_changes:
            if pname not in params:
                self.problems.add(
                    ploc, f"variant {vname!r} sets unknown parameter {pname!r}", suggestion=suggest(pname, params)
                )
                continue
            checked = self.param_value(pval, vloc)
            if checked is not None and vname in variants:
                variants[vname].params[pname] = checked
        defaults: list[str] = []
        for v, vloc in self.composed.default_variants:
            if v not in variants:
                self.problems.add(vloc, f"unknown variant {v!r}", suggestion=suggest(str(v), variants))
            elif v not in defaults:
                defaults.append(str(v))
        return variants, defaults

    # ---- cards -----------------------------------------------------------------
    def parse_all(self, cards: list[CardSource]) -> list[_Text]:
        texts: list[_Text] = []
        self._card_trees: dict[str, Any] = {}
        for card in cards:
            text = card.fields.get("text")
            if text is None:
                continue
            tree = self.parse_text(text, "start", card.id)
            if tree is not None:
                self._card_trees[card.id] = tree
                texts.append(_Text(tree, text.loc, card.id))
        self._script_trees: dict[str, Any] = {}
        setup = self.composed.setup
        self._setup_loc = setup.base.loc if setup else None
        if setup is not None and (parsed := self.parse_pieces(setup, "start")) is not None:
            self._script_trees["setup"], self._setup_loc = parsed
            texts.append(_Text(*parsed))
        self._phase_trees: list[tuple[str, Any, Loc]] = []
        for name, pieces in self.composed.phases:
            parsed = self.parse_pieces(pieces, "start")
            if parsed is not None:
                self._phase_trees.append((name, *parsed))
                texts.append(_Text(*parsed))
        self._proc_trees: dict[str, tuple[Any, Loc]] = {}
        for name, pieces in self.composed.procedures.items():
            parsed = self.parse_pieces(pieces, "start")
            if parsed is not None:
                self._proc_trees[name] = parsed
                texts.append(_Text(*parsed))
        self._end_trees: list[tuple[str, Any, Loc]] = []
        self._end_after_turn = False
        self._turn_limit = 0
        self._final_turn_tree: tuple[Any, Loc] | None = None
        end = self.composed.game_end
        self._extra_rounds: Any = 0
        if end is not None:
            node = end.value
            if not hasattr(node, "items"):
                self.problems.add(end.loc, "game-end must be {triggers: [...], extra-rounds: N}")
            else:
                end_keys = list(shape.GAME_END.fields)
                for field in node:
                    if field not in end_keys:
                        self.problems.add(
                            key_loc(node, field, end.loc.file),
                            f"unknown key {field!r} in game-end",
                            expected=sorted(end_keys),
                            suggestion=suggest(str(field), end_keys),
                        )
                self._extra_rounds = node.get("extra-rounds", 0)
                ends = node.get("ends", "after-round")
                if ends not in shape.END_ENDS:
                    self.problems.add(
                        value_loc(node, "ends", end.loc.file),
                        f"ends must be after-round (equal turns) or after-turn, not {ends!r}",
                        expected=list(shape.END_ENDS),
                    )
                self._end_after_turn = ends == "after-turn"
                limit = node.get("turn-limit", 0)
                if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
                    self.problems.add(
                        value_loc(node, "turn-limit", end.loc.file), "turn-limit must be a whole number of turns"
                    )
                    limit = 0
                self._turn_limit = limit
                if "final-turn" in node:
                    t = Located(node["final-turn"], Loc(end.loc.file, *self._text_loc(node, "final-turn", end.loc)))
                    self._final_turn_tree = (self.parse_text(t, "condition"), t.loc)
                if self._end_after_turn and node.get("extra-rounds", 0) != 0:
                    self.problems.add(
                        key_loc(node, "extra-rounds", end.loc.file),
                        "extra-rounds has no meaning when the game ends after the turn (ends: after-turn)",
                    )
                if not isinstance(node.get("triggers", []), list):
                    self.problems.add(value_loc(node, "triggers", end.loc.file), "triggers must be a list")
                for trig, tloc in self.composed.triggers:
                    if not hasattr(trig, "items") or set(trig) != shape.TRIGGER.names():
                        self.problems.add(
                            tloc, "each trigger is {name: ..., when: condition}", expected=["name", "when"]
                        )
                        continue
                    t = Located(trig["when"], Loc(tloc.file, *self._text_loc(trig, "when", tloc)))
                    tree = self.parse_text(t, "condition")
                    if tree is not None:
                        self._end_trees.append((str(trig["name"]), tree, t.loc))
        self._score_trees: dict[str, tuple[Any, Loc]] = {}
        scoring = self.composed.scoring
        if scoring is not None:
            node = scoring.value
            if not hasattr(node, "items"):
                self.problems.add(scoring.loc, "scoring must be {score: expression, tiebreak: expression}")
            else:
                for field in node:
                    if field == "breakdown" and not hasattr(node[field], "items"):
                        self.problems.add(scoring.loc, "breakdown must map a name to an expression")
                    elif field not in shape.SCORING.names():
                        self.problems.add(
                            key_loc(node, field, scoring.loc.file),
                            f"unknown key {field!r} in scoring",
                            expected=sorted(shape.SCORING.names()),
                            suggestion=suggest(str(field), shape.SCORING.names()),
                        )
        for field, pieces in self.composed.score.items():
            parsed = self.parse_pieces(pieces, "expression")
            if parsed is not None:
                self._score_trees[field] = parsed
        # named parts of the score, for reports (they need not add up to it)
        self._breakdown_trees: list[tuple[str, Any, Loc]] = []
        for name, text in self.composed.breakdown:
            tree = self.parse_text(text, "expression")
            if tree is not None:
                self._breakdown_trees.append((name, tree, text.loc))
        return texts

    def parse_pieces(self, pieces: Pieces, start: str) -> tuple[Any, Loc] | None:
        """Parse a text with the additions of other packs; each piece's mistakes are reported at it."""
        if not pieces.before and not pieces.after:
            tree = self.parse_text(pieces.base, start)
            return None if tree is None else (tree, pieces.base.loc)
        trees = [self.parse_text(p, start) for p in (*pieces.before, pieces.base, *pieces.after)]
        if any(t is None for t in trees):
            return None
        joined = pieces.joined(expression=start == "expression")
        tree = self.parse_text(joined, start)
        return None if tree is None else (tree, joined.loc)

    @staticmethod
    def _text_loc(node: Any, key: Any, fallback: Loc) -> tuple[int, int, int, int, int]:
        k = key_loc(node, key, fallback.file)
        v = value_loc(node, key, fallback.file)
        return (k.line, k.column, v.text_line, v.text_column, v.indent)

    def parse_text(self, text: Located, start: str, card: str = "") -> Any:
        if not isinstance(text.value, str):
            self.problems.add(text.loc, "expected rules text (a string)", card=card)
            return None
        try:
            return parse(text.value, start)
        except DslSyntaxError as exc:
            at = text_pos(text.loc, exc.line, exc.column)
            self.problems.add(at, exc.message, card=card, expected=exc.expected, width=exc.width)
            return None

    def procedures(self) -> dict[str, tuple[Any, Loc]]:
        return self._proc_trees

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
            if kind.value not in voc.kinds:
                self.problems.add(
                    kind.loc,
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
                    zone.loc,
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
                    count = cv
                else:
                    self.problems.add(
                        f["count"].loc,
                        f"count must be a whole number or a parameter, not {cv!r}",
                        card=card.id,
                        suggestion=suggest(str(cv), sc.params),
                    )
            symbols = self.word_list(f.get("symbols"), voc.symbols, "symbol", card.id)
            slots = self.word_list(f.get("slots"), voc.tokens, "token kind", card.id)
            props: dict[str, Any] = {}
            for pname, ptype in voc.properties.items():
                default: Any = 0 if ptype in ("number", "expression") else ""
                given = f.get(pname)
                if given is None:
                    props[pname] = default
                    continue
                props[pname] = self.property_value(given, pname, ptype, voc, card.id)
            sections: dict[str, int] = {}
            tree = self._card_trees.get(card.id)
            if tree is not None:
                for section in tree:
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
                )
            )
        return out

    def word_list(self, located: Located | None, known: list[str], what: str, card: str) -> list[str]:
        if located is None:
            return []
        value = located.value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problems.add(
                located.loc, f"expected a list of {what}s, e.g. [{known[0] if known else what}]", card=card
            )
            return []
        for v in value:
            if v not in known:
                self.problems.add(
                    located.loc, f"unknown {what} {v!r}", card=card, expected=known, suggestion=suggest(v, known)
                )
        return [str(v) for v in value if v in known]

    def property_value(self, located: Located, pname: str, ptype: Any, voc: Vocabulary, card: str) -> Any:
        v = located.value
        if ptype == "number":
            if isinstance(v, int) and not isinstance(v, bool):
                return v
            self.problems.add(located.loc, f"{pname} must be a whole number, not {v!r}", card=card)
            return 0
        if ptype == "symbol":
            if v in voc.symbols:
                return v
            self.problems.add(
                located.loc,
                f"{pname} must be a symbol",
                card=card,
                expected=voc.symbols,
                suggestion=suggest(str(v), voc.symbols),
            )
            return ""
        if ptype == "zone":
            if v in voc.zones:
                return v
            self.problems.add(
                located.loc,
                f"{pname} must be a zone",
                card=card,
                expected=sorted(voc.zones),
                suggestion=suggest(str(v), voc.zones),
            )
            return ""
        if ptype == "expression":
            # a number worked out for the card itself: "it" and "its" are the card
            if isinstance(v, int) and not isinstance(v, bool):
                return v
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
                located.loc,
                f"{pname} must be one of the declared values",
                card=card,
                expected=ptype,
                suggestion=suggest(str(v), ptype),
            )
            return ""
        return str(v)

    # ---- rules texts ----------------------------------------------------------
    def report(self, exc: CompileError, loc: Loc, card: str = "") -> None:
        at = text_pos(loc, exc.pos.line, exc.pos.column)
        self.problems.add(
            at, exc.message, card=card, expected=exc.expected, suggestion=exc.suggestion, width=exc.pos.width
        )

    def compile_script(self, key: str, sc: StatementCompiler, phase_name: str) -> int:
        tree = self._script_trees.get(key)
        loc = self._setup_loc
        if tree is None or loc is None:
            if loc is None:
                self.problems.add(Loc(self.sources[-1].folder + "/pack.yaml", 1, 1), f"the packs give no {key}")
            return -1
        try:
            body = sc.block(tree)
        except CompileError as exc:
            self.report(exc, loc)
            return -1
        return sc.add(Scope, text=phase_name, body=body, absorbs_failure=True).eid

    def compile_turn(self, sc: StatementCompiler) -> list[tuple[str, int]]:
        phases = []
        if self.composed.turn is None:
            self.problems.add(Loc(self.sources[-1].folder + "/pack.yaml", 1, 1), "the packs give no turn")
        for name, tree, loc in self._phase_trees:
            try:
                body = sc.block(tree)
            except CompileError as exc:
                self.report(exc, loc)
                continue
            phases.append((name, sc.add(Scope, text=f"{name} phase", body=body, absorbs_failure=True).eid))
        return phases

    def compile_end(self, sc: StatementCompiler) -> tuple[list[EndTrigger], NumExpr]:
        triggers = []
        for name, tree, loc in self._end_trees:
            try:
                triggers.append(EndTrigger(name, sc.cond(tree)))
            except CompileError as exc:
                self.report(exc, loc)
        extra: NumExpr = Num(0)
        er = self._extra_rounds
        if isinstance(er, int):
            extra = Num(er)
        elif isinstance(er, str) and er in sc.params:
            extra = VarNum(er)
        else:
            part = self.composed.game_end
            assert part is not None
            self.problems.add(part.loc, f"extra-rounds must be a number or a parameter, not {er!r}")
        return triggers, extra

    def compile_wild(self, voc: Vocabulary, sc: StatementCompiler, index: dict[str, int]) -> dict[int, Any]:
        """Cards that count as one of every symbol while a condition holds for their owner."""
        wild: dict[int, Any] = {}
        for card_id, text, loc in voc.wild_cards:
            if card_id not in index:
                self.problems.add(loc, f"wild-cards: unknown card {card_id!r}", suggestion=suggest(card_id, index))
                continue
            tree = self.parse_text(Located(text, loc), "condition")
            if tree is None:
                continue
            try:
                wild[index[card_id]] = sc.cond(tree)
            except CompileError as exc:
                self.report(exc, loc)
        return wild

    def _final_turn(self, sc: StatementCompiler) -> Any:
        if self._final_turn_tree is None or self._final_turn_tree[0] is None:
            return None
        tree, loc = self._final_turn_tree
        try:
            return sc.cond(tree)
        except CompileError as exc:
            self.report(exc, loc)
            return None

    def compile_scoring(self, sc: StatementCompiler) -> tuple[NumExpr, NumExpr]:
        exprs: dict[str, NumExpr] = {"score": Num(0), "tiebreak": Num(0)}
        for field, (tree, loc) in self._score_trees.items():
            try:
                exprs[field] = sc.num(tree)
            except CompileError as exc:
                self.report(exc, loc)
        self._breakdown: list[tuple[str, NumExpr]] = []
        for name, tree, loc in getattr(self, "_breakdown_trees", []):
            try:
                self._breakdown.append((name, sc.num(tree)))
            except CompileError as exc:
                self.report(exc, loc)
        if "score" not in self._score_trees:
            self.problems.add(Loc(self.sources[-1].folder + "/pack.yaml", 1, 1), "the packs give no scoring: score")
        return exprs["score"], exprs["tiebreak"]


def _count(words: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for w in words:
        out[w] = out.get(w, 0) + 1
    return out
