"""Parsing every rules text of the packs once (cards, set-up, phases, procedures, deal,
end, scoring) before anything is compiled."""

from __future__ import annotations

from textwrap import shorten
from typing import Any

from rules_dsl import ast
from rules_dsl.compiler.build_base import BuilderBase, _Text, text_pos
from rules_dsl.packs import shape
from rules_dsl.packs.check import check as check_shape
from rules_dsl.packs.loader import key_loc, value_loc
from rules_dsl.packs.model import CardSource, Loc, Located


class PackTexts(BuilderBase):
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
        self._end_trees: list[tuple[str, Any, Loc, bool, str]] = []
        self._end_after_turn = False
        self._end_rotation = False  # game-end's ends: after-rotation
        self._turn_limit = 0
        self._final_turn_tree: tuple[Any, Loc] | None = None
        end = self.composed.game_end
        self._extra_rounds: Any = 0
        if end is not None:
            node = end.value
            if not hasattr(node, "items"):
                self.problems.add(end.loc, "game-end must be {triggers: [...], extra-rounds: N}")
            else:
                self.unknown_keys(node, end.loc.file, shape.GAME_END, "game-end")
                self._extra_rounds = node.get("extra-rounds", 0)
                ends = node.get("ends", "after-round")
                if ends not in shape.END_ENDS:
                    self.problems.add(
                        value_loc(node, "ends", end.loc.file),
                        f"ends must be after-round (equal turns), after-turn or after-rotation, not {ends!r}",
                        expected=list(shape.END_ENDS),
                    )
                self._end_after_turn = ends == "after-turn"
                self._end_rotation = ends == "after-rotation"
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
                    own = trig.get("ends", "")
                    if own and own not in shape.END_ENDS:
                        self.problems.add(
                            value_loc(trig, "ends", tloc.file),
                            f"a trigger's ends must be after-round, after-turn or after-rotation, not {own!r}",
                            expected=list(shape.END_ENDS),
                        )
                        continue
                    t = Located(trig["when"], Loc(tloc.file, *self._text_loc(trig, "when", tloc)))
                    tree = self.parse_text(t, "condition")
                    if tree is not None:
                        self._end_trees.append((str(trig["name"]), tree, t.loc, checked == "at-once", str(own)))
        self._score_trees: dict[str, tuple[Any, Loc]] = {}
        self._coop_tree: tuple[Any, Loc] | None = None
        scoring = self.composed.scoring
        if scoring is not None:
            node = scoring.value
            if not hasattr(node, "items"):
                self.problems.add(scoring.loc, "scoring must be {score: expression, tiebreak: expression}")
            else:
                if "breakdown" in node and not hasattr(node["breakdown"], "items"):
                    self.problems.add(scoring.loc, "breakdown must map a name to an expression")
                self.unknown_keys(node, scoring.loc.file, shape.SCORING, "scoring")
                self._coop_tree = self._parse_coop(node, scoring.loc)
                if self._coop_tree is not None:
                    texts.append(_Text(*self._coop_tree))
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

    def _parse_coop(self, node: Any, loc: Loc) -> tuple[Any, Loc] | None:
        """`co-operative: {win: CONDITION}` of the scoring part, parsed (None: not given)."""
        if "co-operative" not in node:
            return None
        coop = node["co-operative"]
        where = value_loc(node, "co-operative", loc.file)
        if not hasattr(coop, "items") or "win" not in coop:
            self.problems.add(where, "co-operative must be {win: CONDITION}: when every player wins together")
            return None
        self.unknown_keys(coop, loc.file, shape.COOPERATIVE, "co-operative")
        text = Located(coop["win"], value_loc(coop, "win", loc.file))
        tree = self.parse_text(text, "condition")
        return None if tree is None else (tree, text.loc)

    def procedures(self) -> dict[str, tuple[Any, Loc]]:
        return self._proc_trees

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
