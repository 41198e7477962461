"""Packs -> Rules. Every name in every text is checked against the declared vocabulary;
all problems are collected and reported together."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from rules_dsl import ast, knowledge
from rules_dsl.compiler import blind
from rules_dsl.compiler.build_base import text_pos
from rules_dsl.compiler.cards import CARD_FIELDS, MAX_CARDS, MAX_COPIES, CardCompiling
from rules_dsl.compiler.features import compile_features
from rules_dsl.compiler.game_loop import GameLoopCompiling
from rules_dsl.compiler.invariants import compile_invariants
from rules_dsl.compiler.link import link
from rules_dsl.compiler.pack_checks import PackChecks
from rules_dsl.compiler.pack_parts import BUILTIN_PARAMS, LIMITS, VAR_RE, PackParts
from rules_dsl.compiler.pack_texts import PackTexts
from rules_dsl.compiler.statements import CompileError, StatementCompiler, walk
from rules_dsl.compiler.vocabulary import add_to_groups, read_vocabulary
from rules_dsl.effects.abilities import WildGrant
from rules_dsl.effects.base import Effect
from rules_dsl.effects.choices import ChooseCard
from rules_dsl.effects.control import LOOPS, Block, EachIteration, Scope, StepByStep
from rules_dsl.effects.turns import GameLoop
from rules_dsl.effects.watching import reads
from rules_dsl.errors import RulesError, suggest
from rules_dsl.packs.loader import Problems, find_pack_folders, load_pack
from rules_dsl.packs.model import Loc, Located, PackSource
from rules_dsl.parser import parse
from rules_dsl.rules import Rules, ability_names

# Re-exported: imported from here by the CLI, tests and tools.
__all__ = [
    "BUILTIN_PARAMS",
    "CARD_FIELDS",
    "LIMITS",
    "MAX_CARDS",
    "MAX_COPIES",
    "VAR_RE",
    "compile_packs",
    "compile_sources",
    "load_sources",
]


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


def compile_with_expressions(paths: list[str], texts: dict[str, str]) -> tuple[Rules, dict[str, Any]]:
    """Compile packs, and with them texts in the packs' words written elsewhere (a command
    line's `--policy NAME=EXPR`): each an expression or, failing that, a condition, compiled
    for the packs' vocabulary (`NumExpr` or `Cond`, evaluated for "you" against these rules).
    A text that does not compile is a PackError at `NAME:1:col`. Not cached: the rules
    and the texts are compiled together."""
    problems = Problems()
    sources = load_sources(paths, problems)
    problems.raise_if_any()
    builder = _Builder(sources, problems)
    rules = builder.build()
    problems.raise_if_any()
    assert rules is not None
    compiled: dict[str, Any] = {}
    for name, text in texts.items():
        where = Loc(name, 1, 1, 1, 1)
        try:
            parse(text, "expression")
            start = "expression"
        except RulesError:
            try:
                parse(text, "condition")
                start = "condition"
            except RulesError:
                start = "expression"  # report the expression's error
        tree = builder.parse_text(Located(text, where), start)
        if tree is None:
            continue
        try:
            compiled[name] = builder._sc.num(tree) if start == "expression" else builder._sc.cond(tree)
        except CompileError as exc:
            builder.report(exc, where)
    problems.raise_if_any()
    return rules, compiled


def step_twins(
    effects: list[Effect | None],
    deals: list[tuple[int, str]],
    scopes: Iterable[int],
    first: int,
    abilities: Iterable[tuple[int, str]] = (),
) -> tuple[dict[int, int], list[tuple[int, str]]]:
    """The deal's, the procedures', the card sections' and the cards' abilities' bodies of
    several steps (`scopes`: the procedures' and sections' scopes; `abilities`: (body id,
    name)), each with the id its twin run step by step while a scenario watches
    (control.StepByStep) gets, counting from `first`: ({body id: twin id}, [(body id, name)]
    in the twins' order). A section's name is `CARD LABEL`, an ability's `CARD WHEN MOMENT`
    or `CARD DURING WINDOW`."""
    named = list(deals)
    for eid in scopes:
        proc = effects[eid]
        if isinstance(proc, Scope):
            named.append((proc.body.eid, proc.text))
    named += abilities
    named = [(body, name) for body, name in named if isinstance(effects[body], Block)]
    return {body: first + k for k, (body, _) in enumerate(named)}, named


def loop_twins(effects: list[Effect | None], steps: StepByStep) -> tuple[int, ...]:
    """Append an EachIteration twin for each step of `steps`' block that is a loop; per
    step, its twin's id (-1: not a loop)."""
    block = effects[steps.body]
    assert isinstance(block, Block)
    out = []
    for k, child in enumerate(block.children, 1):
        if not isinstance(child, LOOPS):
            out.append(-1)
            continue
        out.append(len(effects))
        name = f"step {k} of {steps.phase}"
        effects.append(EachIteration(len(effects), f"{name}, iteration by iteration", child.eid, name))
    return tuple(out) if any(t >= 0 for t in out) else ()


class _Builder(PackParts, PackTexts, CardCompiling, GameLoopCompiling, PackChecks):
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
                        voc.member_locs.get((group, zone), part.loc),
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
        self._wild_grants: list[WildGrant] = []
        self._card_now = ""
        sc.card_ids = {c.id for c in cards}
        sc.broken_procedures = set(self.composed.procedures) - set(self._proc_trees)
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
        coop_win = self.compile_coop(sc)
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
        sc.finish_declinable()  # blocks that compiled once, again with a pass label
        self.check_names(set(params) | BUILTIN_PARAMS, lets)
        if not self.problems.items:
            self.find_warnings(voc, choosable, evaluation_tree, evaluation_part)
        players = self.player_range()
        bodies = tuple(e.body.eid for _, eid in phases if isinstance(e := effects[eid], Scope))
        # the bodies of several steps get a twin a scenario runs step by step, numbered after
        # the game loop so that no other effect's id changes
        names = [name for name, eid in phases if isinstance(effects[eid], Scope)]
        several = [i for i, b in enumerate(bodies) if isinstance(effects[b], Block)]
        # so do a deal's set-up and scoring and the procedures, numbered after those
        deal_body = -1 if deal_setup < 0 else effects[deal_setup].body.eid  # type: ignore[union-attr]
        scoring_body = -1 if deal_scoring < 0 else effects[deal_scoring].body.eid  # type: ignore[union-attr]
        deals = [(b, name) for b, name in ((deal_body, "deal-setup"), (scoring_body, "deal-end")) if b >= 0]
        sections = [eid for ct in card_types for eid in ct.sections.values()]
        abilities = ability_names(card_types)
        first_twin = len(effects) + 1 + len(several)
        twins, twinned = step_twins(effects, deals, [*sc.procs.values(), *sections], first_twin, abilities)
        twins |= {bodies[i]: len(effects) + 1 + k for k, i in enumerate(several)}
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
            watch_sizes=frozenset().union(*(r.sizes for r in reads_of if r is not None)),
            deal_setup=deal_body,
            deal_end=deal_end,
            deal_scoring=scoring_body,
            coop_win=coop_win,
            modes=self._trigger_modes(triggers),
        )
        effects.append(loop)
        for i in several:
            effects.append(StepByStep(len(effects), f"{names[i]} phase, step by step", bodies[i], names[i]))
        for body_eid, name in twinned:
            assert twins[body_eid] == len(effects)  # the id the loop, the calls and the sections were given
            effects.append(StepByStep(len(effects), f"{name}, step by step", body_eid, name))
        # the loops that are steps of those texts get a twin that tells each iteration's
        # end, numbered after them
        for e in list(effects):
            if isinstance(e, StepByStep):
                object.__setattr__(e, "loops", loop_twins(effects, e))
        look = self.read_look(voc)
        if self.problems.items:
            return None
        assert all(e is not None for e in effects)
        link([e for e in effects if e is not None], loop.watch_every)
        blinds = blind.blind_choices(voc.zones, [e for e in effects if e is not None])
        for e in effects:
            if isinstance(e, ChooseCard):
                object.__setattr__(e, "blind", e.eid in blinds)
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
            cooperative=coop_win is not None,
            rotation_word=voc.rotation_word or ("rotation" if deal_end is not None else "round"),
            draw_from=voc.draw[0],
            draw_to=voc.draw[1],
            overrides=tuple(self.composed.overrides),
            additions=tuple(self.composed.additions),
            wild=wild,
            step_twins=twins,
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
            watch_sizes=loop.watch_sizes,
            watch_every=loop.watch_every,
            private_zones=frozenset(
                z.key(p) for z in voc.zones.values() if z.visibility == "owner" for p in range(players[1])
            ),
            views=knowledge.views(voc.zones, players[1]),
            blind_choices=blinds,
            open_zones=frozenset(
                z.key(p) for z in voc.zones.values() if z.visibility == "public" for p in range(players[1])
            ),
            facings={
                z.key(p): (z.facing == "up" if z.facing else None)
                for z in voc.zones.values()
                for p in range(players[1] if z.per_player else 1)
            },
            piles=frozenset(
                z.key(p) for z in voc.zones.values() if z.visibility in ("hidden", "top") for p in range(players[1])
            ),
            warnings=tuple(attrs.evolve(w, severity="warning") for w in self.warnings.items),
            look=look,
        )
