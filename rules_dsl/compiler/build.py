"""Packs -> Rules. Every name in every text is checked against the declared vocabulary;
all problems are collected and reported together."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from textwrap import shorten
from typing import Any

import attrs

from rules_dsl import ast, chosen
from rules_dsl.compiler import names, never
from rules_dsl.compiler.compose import Pieces, compose
from rules_dsl.compiler.features import compile_features
from rules_dsl.compiler.invariants import compile_invariants
from rules_dsl.compiler.statements import CompileError, StatementCompiler, walk
from rules_dsl.compiler.vocabulary import Vocabulary, add_to_groups, read_vocabulary
from rules_dsl.effects.abilities import ReplaceAbility
from rules_dsl.effects.base import Effect
from rules_dsl.effects.control import Block, Scope
from rules_dsl.effects.turns import GameLoop
from rules_dsl.effects.values import Num, NumExpr, VarNum
from rules_dsl.effects.watching import reads
from rules_dsl.errors import DslSyntaxError, suggest
from rules_dsl.packs import shape
from rules_dsl.packs.check import check as check_shape
from rules_dsl.packs.loader import Problems, find_pack_folders, key_loc, load_pack, value_loc
from rules_dsl.packs.model import CardSource, Loc, Located, PackSource
from rules_dsl.parser import parse
from rules_dsl.rules import CardType, Choosable, EndTrigger, Rules, Statistic, Variant

CARD_FIELDS = shape.CARD_FIELDS
# Bounds on the cards of a game (docs/modding.md#limits): every copy is a CardState in
# every game, so a slip such as count: 100000000 would exhaust memory at the first game.
MAX_COPIES = 1_000  # copies of one card
MAX_CARDS = 10_000  # copies of all cards in one game
VAR_RE = "[A-Z][A-Z0-9_]*"
BUILTIN_PARAMS = {"PLAYERS"}
# a pack's `limits:` key -> the Rules field it sets (the bounds are in shape.LIMITS)
LIMITS = {"steps": "step_limit", "decisions-per-turn": "decision_limit", "frames": "frame_limit"}


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
            if r in chain or r == p.id:
                cycle = (*chain[chain.index(r) :], p.id, r) if r in chain else (p.id, r)
                problems.add(
                    Loc(str(Path(p.folder) / "pack.yaml"), 1, 1),
                    f"packs require each other: {' -> '.join(cycle)}",
                )
            elif r not in packs:
                problems.add(
                    Loc(str(Path(p.folder) / "pack.yaml"), 1, 1),
                    f"requires pack {r!r}, which is neither installed nor given",
                    suggestion=suggest(r, packs)
                    or "install it (`rules-dsl packs` lists what is installed) or add its folder",
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
    return compile_sources(sources)


def compile_sources(sources: list[PackSource]) -> Rules:
    """Compile packs already loaded and ordered (`load_sources`); raise PackError."""
    problems = Problems()
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
        self.warnings = Problems()  # what can never happen: reported, but the packs load

    # ---- entry -----------------------------------------------------------------
    def build(self) -> Rules | None:
        voc = read_vocabulary([(p.value, p.loc) for p in self.parts.get("vocabulary", [])], self.problems)
        self._voc = voc
        add_to_groups(voc, self.composed.group_additions, self.problems)
        params = self.read_parameters()
        variants, defaults = self.read_variants(params)
        cards = self.composed.cards
        texts = self.parse_all(cards)
        statistics = self.read_statistics(voc)
        choosable = self.read_choosable(voc, variants)
        evaluation_part = self.composed.evaluation
        evaluation_tree = None if evaluation_part is None else self.parse_text(evaluation_part, "expression")
        lets = {"X", "N"}
        binds: dict[str, str] = {}
        chosen_values: dict[str, str] = {}  # a name bound by `choose a PROP value` -> PROP
        for t in texts:
            for node in walk(t.tree):
                if isinstance(node, ast.Let | ast.SetVar):
                    lets.add(node.name)
                elif isinstance(node, ast.ChooseCard | ast.ForCards):
                    binds.setdefault(node.bind, "card")
                elif isinstance(node, ast.ChooseZone):
                    binds[node.bind] = "zone"
                elif isinstance(node, ast.ChooseKind):
                    binds[node.bind] = "kind"
                elif isinstance(node, ast.ChoosePlayer):
                    binds[node.bind] = "player"
                elif isinstance(node, ast.ChooseValue):
                    binds[node.bind] = "value"
                    chosen_values.setdefault(node.bind, node.prop)
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
        self._params = params
        self._variants = variants
        self._quantity_spots: dict[str, list[tuple[str, str]]] = {}
        sc.card_ids = {c.id for c in cards}
        sc.printed = self.printed_numbers(cards, voc)
        sc.chosen_values = chosen_values
        self.compile_valued(voc, sc)
        card_types = self.compile_cards(cards, voc, sc)
        self.check_total_cards(card_types)
        wild = self.compile_wild(voc, sc, {c.id: i for i, c in enumerate(card_types)}, cards)
        setup = self.compile_script("setup", sc, phase_name="setup")
        phases = self.compile_turn(sc)
        triggers, extra = self.compile_end(sc)
        deal_setup, deal_end, deal_scoring = self.compile_deal(sc)
        if deal_setup >= 0 and setup >= 0:
            # the first deal is set up with the game, so a scenario lays its position out after both
            both = sc.add(Block, text="setup", children=(effects[setup], effects[deal_setup]))
            setup = sc.add(Scope, text="setup", body=both, absorbs_failure=True).eid
        elif deal_setup >= 0 and self._setup_loc is None:
            setup = deal_setup  # a game of deals may leave its own set-up out
        score, tiebreak = self.compile_scoring(sc)
        invariants = compile_invariants(
            [src.sections["invariants"] for src in self.sources if "invariants" in src.sections],
            sc,
            self.problems,
            self.parse_text,
            self.report,
            self._text_loc,
            self.composed.overrides,
        )
        evaluation = None
        if evaluation_tree is not None and evaluation_part is not None:
            try:
                evaluation = sc.num(evaluation_tree)
            except CompileError as exc:
                self.report(exc, evaluation_part.loc)
        features, weights, weights_place = compile_features(
            self.parts.get("features", []), self.composed.weights, sc, self.problems, self.parse_text, self.report
        )
        sc.finish_procedures(self.problems, text_pos)
        self.check_names(set(params) | BUILTIN_PARAMS, lets)
        if not self.problems.items:
            self.find_warnings(voc, choosable, evaluation_tree, evaluation_part)
        players = self.player_range()
        bodies = tuple(e.body.eid for _, eid in phases if isinstance(e := effects[eid], Scope))
        watched = tuple((t.name, t.cond) for t in triggers if t.at_once)
        reads_of = [reads(cond) for _, cond in watched]
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
            watched,
            frozenset().union(*(r.counters for r in reads_of if r is not None)),
            frozenset().union(*(r.zones for r in reads_of if r is not None)),
            any(r is None for r in reads_of),
            deal_setup=-1 if deal_setup < 0 else effects[deal_setup].body.eid,  # type: ignore[union-attr]
            deal_end=deal_end,
            deal_scoring=-1 if deal_scoring < 0 else effects[deal_scoring].body.eid,  # type: ignore[union-attr]
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
            **self.read_limits(),
            quantity_spots={q: tuple(sp) for q, sp in self._quantity_spots.items()},
            valued={p: {v: str(text) for v, (text, _) in vs.items()} for p, vs in voc.valued.items()},
            invariants=invariants,
            evaluation=evaluation,
            features=features,
            weights=weights,
            weights_place=weights_place,
            statistics=tuple(statistics),
            choosable=choosable,
            slot_groups=dict(voc.token_groups),
            watched=bool(loop.watched),
            watch_counters=loop.watch_counters,
            watch_zones=loop.watch_zones,
            watch_every=loop.watch_every,
            warnings=tuple(attrs.evolve(w, severity="warning") for w in self.warnings.items),
        )

    def find_warnings(
        self, voc: Vocabulary, choosable: dict[str, Choosable], evaluation: Any, evaluation_part: Located | None
    ) -> None:
        """What the packs write that can never happen (compiler/never.py), as warnings."""
        texts = [never.Text(tree, self._card_text_locs[cid], cid) for cid, tree in self._card_trees.items()]
        texts += [never.Text(tree, loc, procedure=name) for name, (tree, loc) in self._proc_trees.items()]
        texts += [never.Text(tree, loc) for _, tree, loc in self._phase_trees]
        if "setup" in self._script_trees and self._setup_loc is not None:
            texts.append(never.Text(self._script_trees["setup"], self._setup_loc))
        texts += [never.Text(tree, loc) for _, tree, loc, _ in self._end_trees]
        texts += [never.Text(tree, loc) for tree, loc in self._deal_trees.values()]
        texts += [never.Text(tree, loc) for tree, loc in self._score_trees.values()]
        texts += [never.Text(tree, loc) for _, tree, loc in self._breakdown_trees]
        if self._final_turn_tree is not None and self._final_turn_tree[0] is not None:
            texts.append(never.Text(*self._final_turn_tree))
        if evaluation is not None and evaluation_part is not None:
            texts.append(never.Text(evaluation, evaluation_part.loc))
        texts += [never.Text(tree, loc) for tree, loc in self._wild_trees if tree is not None]
        never.find_warnings(
            texts,
            self.composed.cards,
            voc,
            self.parts.get("vocabulary", []),
            [(c.source, c.target) for c in choosable.values()],
            lambda loc, pos: text_pos(loc, pos.line, pos.column),
            lambda name: self._sc.moment(name, ast.Pos(1, 1)),
            self.warnings,
        )

    def check_names(self, params: set[str], lets: set[str]) -> None:
        """Report each variable used where some way of running its text leaves it unbound."""
        units = [
            names.Unit(key, part.block, self._card_text_locs[cid], cid)
            for cid, tree in self._card_trees.items()
            if isinstance(tree, tuple)
            for part in tree
            if (key := self._runs(part)) is not None
        ]
        units += [names.Unit(("procedure", n), tree, loc) for n, (tree, loc) in self._proc_trees.items()]
        roots: list[tuple[Any, Loc]] = [(tree, loc) for _, tree, loc in self._phase_trees]
        if "setup" in self._script_trees and self._setup_loc is not None:
            roots.append((self._script_trees["setup"], self._setup_loc))
        roots += [(tree, loc) for _, tree, loc, _ in self._end_trees]
        roots += [(tree, loc) for tree, loc in self._deal_trees.values()]
        roots += list(self._score_trees.values())
        roots += [(tree, loc) for _, tree, loc in getattr(self, "_breakdown_trees", [])]
        if self._final_turn_tree is not None and self._final_turn_tree[0] is not None:
            roots.append(self._final_turn_tree)
        units += [names.Unit(("root", str(i)), tree, loc) for i, (tree, loc) in enumerate(roots)]
        units = names.with_instances(units, self._proc_trees)  # procedures with named parameters
        for miss in names.unbound(units, set(self._proc_trees), params):
            name = miss.var.name
            if name not in lets:
                continue  # bound nowhere at all: the statement compiler has reported it
            runs = {
                "section": f"; not every 'do ... {miss.unit.key[1]}' that runs this section binds it",
                "procedure": f"; not every call of {miss.unit.key[1]!r} binds it",
                "moment": f"; not every 'announce {miss.unit.key[1]}' binds it",
                "window": f"; not every 'use {miss.unit.key[1]} abilities' binds it",
                "replaced": f"; not every 'you {miss.unit.key[1]}: ...' binds it",
            }
            self.problems.add(
                text_pos(miss.unit.loc, miss.var.pos.line, miss.var.pos.column),
                f"nothing is called {name!r} here: no 'let {name} be ...' comes before it"
                + runs.get(miss.unit.key[0], ""),
                card=miss.unit.card,
                expected=sorted(miss.known - params),
                suggestion=suggest(name, miss.known),
                width=len(name),
            )

    def _runs(self, part: Any) -> names.Key | None:
        """What runs a part of a card's text: a section its label, a triggered ability its
        moment's announcements, an activated one its window. A continuous ability's amounts
        are worked out wherever the quantity is asked for, so only parameters are sure there:
        it is not checked."""
        if isinstance(part, ast.Section):
            return ("section", part.label)
        try:
            if isinstance(part, ast.Triggered):
                return ("moment", self._sc.moment(part.moment, part.moment_pos))
            if isinstance(part, ast.Activated):
                return ("window", self._sc.window(part.window, part.window_pos))
            if isinstance(part, ast.Replacement) and part.block is not None:
                return ("replaced", self._sc.moment(part.moment, part.moment_pos))
        except CompileError:
            pass  # reported where the ability is compiled
        return None

    def read_limits(self) -> dict[str, int]:
        """`limits: {steps: ..., decisions-per-turn: ..., frames: ...}`, the last pack's
        value of each; the defaults are Rules' own."""
        out: dict[str, int] = {}
        for part in self.parts.get("limits", []):
            node, loc = part.value, part.loc
            if not hasattr(node, "items"):
                self.problems.add(loc, "limits must map steps, decisions-per-turn or frames to a number")
                continue
            for key, value in node.items():
                if key not in LIMITS:
                    self.problems.add(
                        key_loc(node, key, loc.file),
                        f"unknown limit {key!r}",
                        expected=sorted(LIMITS),
                        suggestion=suggest(str(key), LIMITS),
                    )
                    continue
                field = LIMITS[key]
                bound = shape.LIMITS.fields[key].shape
                most = bound.maximum if isinstance(bound, shape.Int) and bound.maximum else 1
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
                    self.problems.add(
                        value_loc(node, key, loc.file), f"the limit {key} is a whole number from 1 to {most}"
                    )
                    continue
                out[field] = value
        return out

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
                    if not named(z, voc.zones):
                        self.problems.add(
                            value_loc(spec, end, part.loc.file),
                            f"statistic {name!r}: unknown zone {z!r}",
                            expected=sorted(voc.zones),
                            suggestion=suggest(str(z), voc.zones),
                        )
                ends.append(tuple(str(z) for z in zones))
            out.append(Statistic(str(name), ends[0], ends[1]))
        return out

    def read_choosable(self, voc: Vocabulary, variants: dict[str, Variant]) -> dict[str, Choosable]:
        """`choosable: {OPTION: {from: ZONE, to: ZONE, prefix:, variant:, description:}}`, entry by
        entry (a later pack replaces an option of the same name)."""
        out: dict[str, Choosable] = {}
        for part in self.parts.get("choosable", []):
            node, file = part.value, part.loc.file
            if not hasattr(node, "items"):
                self.problems.add(part.loc, "choosable must map an option name to {from: zone, to: zone}")
                continue
            for option, spec in node.items():
                loc = key_loc(node, option, file)
                if not hasattr(spec, "items") or not {"from", "to"} <= set(spec):
                    self.problems.add(
                        loc, f"choosable {option!r} must give from: and to: zones", expected=["from", "to"]
                    )
                    continue
                self.unknown_keys(spec, file, shape.CHOOSABLE.names(), f"choosable {option!r}")
                for end in ("from", "to"):
                    if named(spec[end], voc.zones) and voc.zones[spec[end]].per_player:
                        self.problems.add(
                            value_loc(spec, end, file), f"choosable {option!r}: {spec[end]!r} must be a shared zone"
                        )
                    elif not named(spec[end], voc.zones):
                        self.problems.add(
                            value_loc(spec, end, file),
                            f"choosable {option!r}: unknown zone {spec[end]!r}",
                            expected=sorted(voc.zones),
                            suggestion=suggest(str(spec[end]), voc.zones),
                        )
                variant = str(spec.get("variant", ""))
                if variant and variant not in variants:
                    self.problems.add(
                        value_loc(spec, "variant", file),
                        f"choosable {option!r}: unknown variant {variant!r}",
                        expected=sorted(variants),
                        suggestion=suggest(variant, variants),
                    )
                out[str(option)] = Choosable(
                    str(option),
                    str(spec["from"]),
                    str(spec["to"]),
                    str(spec.get("prefix", "")),
                    variant,
                    str(spec.get("description", "")),
                )
        return out

    def unknown_keys(self, node: Any, file: str, known: Iterable[str], where: str) -> None:
        """Report each key of a mapping that is not one of `known`, at its line, with a suggestion."""
        known = list(known)
        for key in node:
            if key not in known:
                self.problems.add(
                    key_loc(node, key, file),
                    f"unknown key {key!r} in {where}",
                    expected=sorted(known),
                    suggestion=suggest(str(key), known),
                )

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
            return int(value)  # a plain int, not the YAML reader's subclass
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
                if chosen.SEPARATOR in str(name):  # OPTION=NAME is a chosen card (rules_dsl/chosen.py)
                    self.problems.add(vloc, f"variant {name!r}: a variant name has no {chosen.SEPARATOR!r}")
                    continue
                self.unknown_keys(spec, loc.file, shape.VARIANT.names(), f"variant {name!r}")
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
    def _section_words(self) -> list[str]:
        return list(self._voc.sections)

    def parse_all(self, cards: list[CardSource]) -> list[_Text]:
        texts: list[_Text] = []
        self._card_trees: dict[str, Any] = {}
        self._card_text_locs: dict[str, Loc] = {}
        for card in cards:
            text = card.fields.get("text")
            if text is None:
                continue
            tree = self.parse_text(text, "start", card.id)
            if isinstance(tree, ast.Block):
                self.problems.add(
                    text_pos(text.loc, 1, 1),
                    "a card's text is made of sections, each starting with its label",
                    card=card.id,
                    expected=[s + ":" for s in self._section_words()],
                    suggestion=f"write e.g. '{self._section_words()[0]}: {shorten(str(text.value), 40)}'"
                    if self._section_words()
                    else "",
                )
                continue
            if tree is not None:
                self._card_trees[card.id] = tree
                self._card_text_locs[card.id] = text.loc
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
        self._deal_trees = self.parse_deal(texts)
        self._end_trees: list[tuple[str, Any, Loc, bool]] = []
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
                self.unknown_keys(node, end.loc.file, list(shape.GAME_END.fields), "game-end")
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
                    if (
                        not hasattr(trig, "items")
                        or not {"name", "when"} <= set(trig)
                        or not set(trig) <= shape.TRIGGER.names()
                    ):
                        self.problems.add(
                            tloc,
                            "each trigger is {name: ..., when: condition, checked: end-of-turn or at-once}",
                            expected=["name", "when", "checked"],
                        )
                        continue
                    checked = trig.get("checked", "end-of-turn")
                    if checked not in shape.END_CHECKED:
                        self.problems.add(
                            value_loc(trig, "checked", tloc.file),
                            f"checked must be end-of-turn (after each turn) or at-once (the moment it holds), "
                            f"not {checked!r}",
                            expected=list(shape.END_CHECKED),
                        )
                        continue
                    t = Located(trig["when"], Loc(tloc.file, *self._text_loc(trig, "when", tloc)))
                    tree = self.parse_text(t, "condition")
                    if tree is not None:
                        self._end_trees.append((str(trig["name"]), tree, t.loc, checked == "at-once"))
        self._score_trees: dict[str, tuple[Any, Loc]] = {}
        scoring = self.composed.scoring
        if scoring is not None:
            node = scoring.value
            if not hasattr(node, "items"):
                self.problems.add(scoring.loc, "scoring must be {score: expression, tiebreak: expression}")
            else:
                if "breakdown" in node and not hasattr(node["breakdown"], "items"):
                    self.problems.add(scoring.loc, "breakdown must map a name to an expression")
                self.unknown_keys(node, scoring.loc.file, shape.SCORING.names(), "scoring")
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
        if not isinstance(text.value, str):
            self.problems.add(text.loc, "expected rules text (a string)", card=card)
            return None
        try:
            tree = parse(text.value, start)
        except DslSyntaxError as exc:
            at = text_pos(text.loc, exc.line, exc.column)
            self.problems.add(
                at, exc.message, card=card, expected=exc.expected, width=exc.width, suggestion=exc.suggestion
            )
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

    def procedures(self) -> dict[str, tuple[Any, Loc]]:
        return self._proc_trees

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
                    count = int(cv) if is_number else cv
                    most = self.most_copies(cv)
                    if most > MAX_COPIES:
                        self.problems.add(
                            f["count"].loc,
                            f"at most {MAX_COPIES} copies of a card are allowed, not {most}",
                            card=card.id,
                        )
                        count = 0
                else:
                    self.problems.add(
                        f["count"].loc,
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
                    name.loc, f"a card's name is text, not {name.value!r}", card=card.id, suggestion="quote it"
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
                return int(v)  # a plain int: the YAML reader's subclass reads as an expression
            self.problems.add(located.loc, f"{pname} must be a whole number, not {v!r}", card=card)
            return 0
        if ptype == "symbol":
            if named(v, voc.symbols):
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
            if named(v, voc.zones):
                return str(v)
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
            deal = self.composed.deal.value if self.composed.deal is not None else None
            if loc is None and not (isinstance(deal, dict) and "setup" in deal):
                self.problems.add(Loc(self.sources[-1].folder + "/pack.yaml", 1, 1), f"the packs give no {key}")
            return -1
        try:
            body = sc.block(tree)
        except CompileError as exc:
            self.report(exc, loc)
            return -1
        return sc.add(Scope, text=phase_name, body=body, absorbs_failure=True).eid

    def parse_deal(self, texts: list[_Text]) -> dict[str, tuple[Any, Loc]]:
        """The `deal:` part's texts (set-up, end, scoring), parsed: key -> (tree, where)."""
        part = self.composed.deal
        out: dict[str, tuple[Any, Loc]] = {}
        if part is None:
            return out
        node = part.value
        if not check_shape(node, shape.DEAL, part.loc.file, self.problems, "deal", part.loc):
            return out
        for key, start in (("setup", "start"), ("end", "condition"), ("scoring", "start")):
            if key in node:
                text = Located(node[key], value_loc(node, key, part.loc.file))
                tree = self.parse_text(text, start)
                if tree is not None:
                    out[key] = (tree, text.loc)
                    texts.append(_Text(tree, text.loc))
        return out

    def compile_deal(self, sc: StatementCompiler) -> tuple[int, Any, int]:
        """The deal's set-up and scoring (`Scope` effect ids, -1 when not given) and its end
        condition (None: the packs have no deals)."""
        found: dict[str, Any] = {"setup": -1, "end": None, "scoring": -1}
        for key, (tree, loc) in self._deal_trees.items():
            try:
                if key == "end":
                    found[key] = sc.cond(tree)
                else:
                    body = sc.block(tree)
                    found[key] = sc.add(Scope, text=f"deal {key}", body=body, absorbs_failure=True).eid
            except CompileError as exc:
                self.report(exc, loc)
        return found["setup"], found["end"], found["scoring"]

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
        for name, tree, loc, at_once in self._end_trees:
            try:
                triggers.append(EndTrigger(name, sc.cond(tree), at_once))
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

    def compile_wild(
        self, voc: Vocabulary, sc: StatementCompiler, index: dict[str, int], cards: list[CardSource]
    ) -> dict[int, Any]:
        """Cards that count as one of every symbol while a condition holds for their owner:
        a card's own `wild:` field, or the vocabulary's `wild-cards:` list."""
        wild: dict[int, Any] = {}
        self._wild_trees: list[tuple[Any, Loc]] = []
        given = [(c.id, c.fields["wild"].value, c.fields["wild"].loc) for c in cards if "wild" in c.fields]
        for card_id, text, loc in [*voc.wild_cards, *given]:
            if card_id not in index:
                self.problems.add(loc, f"wild-cards: unknown card {card_id!r}", suggestion=suggest(card_id, index))
                continue
            tree = self.parse_text(Located(text, loc), "condition")
            self._wild_trees.append((tree, loc))
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
        if "score" not in self._score_trees and "score" not in self.composed.score:  # a bad text: reported
            self.problems.add(Loc(self.sources[-1].folder + "/pack.yaml", 1, 1), "the packs give no scoring: score")
        return exprs["score"], exprs["tiebreak"]


def _count(words: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for w in words:
        out[w] = out.get(w, 0) + 1
    return out
