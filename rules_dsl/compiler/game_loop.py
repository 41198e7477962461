"""The game loop: set-up and other scripts, the deal, the turn's phases, the end of the
game, wild symbols, the final turn and scoring."""

from __future__ import annotations

from typing import Any

from rules_dsl.compiler.build_base import BuilderBase
from rules_dsl.compiler.statements import CompileError, StatementCompiler
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.effects.abilities import WildWhile
from rules_dsl.effects.control import Scope
from rules_dsl.effects.values import Num, NumExpr, VarNum
from rules_dsl.errors import suggest
from rules_dsl.packs.model import CardSource, Loc, Located
from rules_dsl.rules import EndTrigger


class GameLoopCompiling(BuilderBase):
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
        for name, tree, loc, at_once, ends in self._end_trees:
            try:
                triggers.append(EndTrigger(name, sc.cond(tree), at_once, ends))
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
        # cards' continuous abilities that make copies of a card wild
        grants: dict[int, list[tuple[int, str, str, Any]]] = {}
        for g in self._wild_grants:
            grants.setdefault(index[g.card], []).append((index[g.source], g.zone, g.facing, g.cond))
        for target, made in grants.items():
            wild[target] = WildWhile(tuple(made), wild.get(target))
        return wild

    def _trigger_modes(self, triggers: list[EndTrigger]) -> tuple[tuple[str, str], ...]:
        """How the game ends after each trigger, when a trigger says its own or the game-end
        says after-rotation (empty otherwise: every trigger ends as `ends` says)."""
        if not self._end_rotation and not any(t.ends for t in triggers):
            return ()
        default = "after-rotation" if self._end_rotation else "after-turn" if self._end_after_turn else "after-round"
        return tuple((t.name, t.ends or default) for t in triggers)

    def compile_coop(self, sc: StatementCompiler) -> Any:
        """The condition under which every player of a co-operative game wins (None: the
        game is not co-operative)."""
        if self._coop_tree is None:
            return None
        tree, loc = self._coop_tree
        try:
            return sc.cond(tree)
        except CompileError as exc:
            self.report(exc, loc)
            return None

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
