"""Counting card moves a pack names (`statistics:`), for results files and reports.

A pack declares `statistics: {played: {from: hand, to: action-area}, ...}`; while a
`Recorder` is installed, every card put from one of the `from` zones into one of the `to`
zones adds one to that statistic, for the seat whose zone it went to (or came from, or the
active player when both zones are shared) and the card's id. Only the one game the
recorder is bound to is counted (the first it sees), so the clones a search bot plays
out are not; with no recorder the engine pays one `is None` test per card move.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rules_dsl.effects.base import CURRENT
from rules_dsl.rules import Rules
from rules_dsl.state import CardState, GameState


class Recorder:
    def __init__(self, rules: Rules, players: int) -> None:
        self.state: GameState | None = None
        self.routes: dict[tuple[str, str], list[str]] = {}
        for stat in rules.statistics:
            for a in stat.sources:
                for b in stat.targets:
                    self.routes.setdefault((a, b), []).append(stat.name)
        self.card_ids = [c.id for c in rules.cards]
        # statistic -> seat -> card id -> count
        self.counts: dict[str, list[dict[str, int]]] = {s.name: [{} for _ in range(players)] for s in rules.statistics}

    def moved(self, st: GameState, cs: CardState, dest: str) -> None:
        if self.state is not st:
            if self.state is not None:
                return
            self.state = st
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


@contextmanager
def recording(rules: Rules, players: int) -> Iterator[Recorder]:
    """Count the next game created or played in this block (see the module docstring)."""
    recorder = Recorder(rules, players)
    previous = CURRENT.recorder
    CURRENT.recorder = recorder if rules.statistics else None
    try:
        yield recorder
    finally:
        CURRENT.recorder = previous
