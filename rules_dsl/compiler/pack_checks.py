"""Checks over the whole compiled pack: names used before they are given, and what can
never happen (warnings)."""

from __future__ import annotations

from typing import Any

from rules_dsl import ast
from rules_dsl.compiler import names, never
from rules_dsl.compiler.build_base import BuilderBase, text_pos
from rules_dsl.compiler.statements import CompileError
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.errors import suggest
from rules_dsl.packs.model import Loc, Located
from rules_dsl.rules import Choosable


class PackChecks(BuilderBase):
    def find_warnings(
        self, voc: Vocabulary, choosable: dict[str, Choosable], evaluation: Any, evaluation_part: Located | None
    ) -> None:
        """What the packs write that can never happen (compiler/never.py), as warnings."""
        texts = [never.Text(tree, self._card_text_locs[cid], cid) for cid, tree in self._card_trees.items()]
        texts += [never.Text(tree, loc, procedure=name) for name, (tree, loc) in self._proc_trees.items()]
        texts += [never.Text(tree, loc) for _, tree, loc in self._phase_trees]
        if "setup" in self._script_trees and self._setup_loc is not None:
            texts.append(never.Text(self._script_trees["setup"], self._setup_loc))
        texts += [never.Text(tree, loc) for _, tree, loc, _, _ in self._end_trees]
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
        roots += [(tree, loc) for _, tree, loc, _, _ in self._end_trees]
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
