"""Counting card moves a pack names (`statistics:`), for results files and reports.

A pack declares `statistics: {played: {from: hand, to: action-area}, ...}`; in a game
created with a `Recorder` (`Engine.new_game(..., recorder=)`), every card put from one of
the `from` zones into one of the `to` zones adds one to that statistic, for the seat whose
zone it went to (or came from, or the active player when both zones are shared) and the
card's id. The recorder is held by that game's state only (`GameState.recorder`): a clone
has none, so the games a search bot plays out are not counted; with no recorder the engine
pays one `is None` test per card move.
"""

from __future__ import annotations

from rules_dsl.rules import Rules
from rules_dsl.state import CardState, GameState


class Recorder:
    def __init__(self, rules: Rules, players: int) -> None:
        self.routes: dict[tuple[str, str], list[str]] = {}
        for stat in rules.statistics:
            for a in stat.sources:
                for b in stat.targets:
                    self.routes.setdefault((a, b), []).append(stat.name)
        self.card_ids = [c.id for c in rules.cards]
        # statistic -> seat -> card id -> count
        self.counts: dict[str, list[dict[str, int]]] = {s.name: [{} for _ in range(players)] for s in rules.statistics}

    def moved(self, st: GameState, cs: CardState, dest: str) -> None:
        src_name, _, src_seat = cs.loc.partition(".")
        dest_name, _, dest_seat = dest.partition(".")
        names = self.routes.get((src_name, dest_name))
        if not names:
            return
        seat = int(dest_seat) if dest_seat else int(src_seat) if src_seat else st.active
        card = self.card_ids[cs.type]
        for name in names:
            per_card = self.counts[name][seat]
            per_card[card] = per_card.get(card, 0) + 1
