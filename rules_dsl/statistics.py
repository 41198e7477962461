"""Counting card moves a pack names (`statistics:`), for results files and reports.

A pack declares `statistics: {played: {from: hand, to: action-area}, ...}`; in a game
created with a `Recorder` (`Engine.new_game(..., recorder=)`), every card put from one of
the `from` zones into one of the `to` zones adds one to that statistic, for the seat whose
zone it went to (or came from, or the active player when both zones are shared) and the
card's id. The recorder is held by that game's state only (`GameState.recorder`): a clone
has none, so the games a search bot plays out are not counted; with no recorder the engine
pays one `is None` test per card move.

A `ChoiceCounter` counts, from the decisions alone, which cards each seat was offered
and which it took: an option names a card when its id is the card's id (or `id@place`,
`id#n`, the ids `card_options` gives copies), so it needs nothing from the pack.
"""

from __future__ import annotations

from rules_dsl.rules import Rules
from rules_dsl.state import CardState, Decision, GameState


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


OFFERED, TAKEN = "offered", "taken"


class ChoiceCounter:
    """Per seat and card id: decisions that offered the card (some option named it) and
    decisions where the option taken named it. Forced moves are no decision: a card that
    could not be refused is never counted as offered."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.card_ids = frozenset(c.id for c in rules.cards)
        self.counts: dict[str, list[dict[str, int]]] = {
            OFFERED: [{} for _ in range(players)],
            TAKEN: [{} for _ in range(players)],
        }

    def card_of(self, option: str) -> str | None:
        """The card id an option names, or None (a pass, a role label, a token `card:kind`)."""
        head = option.partition("@")[0].partition("#")[0]
        return head if head in self.card_ids else None

    def decided(self, decision: Decision, option: str) -> None:
        offered = {c for c in map(self.card_of, decision.options) if c is not None}
        if not offered:
            return
        seen = self.counts[OFFERED][decision.player]
        for card in offered:
            seen[card] = seen.get(card, 0) + 1
        taken = self.card_of(option)
        if taken is not None:
            per_card = self.counts[TAKEN][decision.player]
            per_card[taken] = per_card.get(taken, 0) + 1
