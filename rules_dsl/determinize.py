"""A game state one player could be in: what they cannot see resampled, consistently.

Search bots must not read hidden information, yet they need a whole state to apply
options to. `determinize` clones the state and shuffles the *fronts* of every card the
player cannot see (as `observation.observe` defines it) among the places that hold such
cards, keeping what the player can tell apart: each card stays with the same owner (the
seat whose zone holds it, or the shared zones), the same kind and, for a face-down card
shown as its back, the same back. So an opponent's hand and deck are dealt again from
the cards they hold between them, a face-down card stays one with that back, and the
player's own deck is reshuffled. Cards the player has peeked at stay as they are. The
random generator of the copy is reseeded too, so later shuffles are not the real ones.
"""

from __future__ import annotations

import random

from rules_dsl.rules import Rules
from rules_dsl.state import GameState

GroupKey = tuple[int, str, tuple[object, ...] | None]


def unseen_groups(rules: Rules, st: GameState, player: int) -> dict[GroupKey, list[int]]:
    """The cards `player` cannot see, grouped by what they can tell about each (owner, kind, back)."""
    groups: dict[GroupKey, list[int]] = {}
    cards = st.cards
    types = rules.cards

    def visit(card: int, owner: int, count_only: bool) -> None:
        cs = cards[card]
        if player not in cs.seen:
            ct = types[cs.type]
            if count_only:
                groups.setdefault((owner, ct.kind, None), []).append(card)
            elif not cs.up and owner != player:
                back = tuple(ct.props[p] for p in ct.public_props)
                groups.setdefault((owner, ct.kind, back), []).append(card)
        for u in cs.under:
            visit(u, owner, count_only)

    for key, zone in st.zones.items():
        name, _, seat = key.partition(".")
        zt = rules.zones[name]
        owner = int(seat) if seat else -1
        count_only = zt.visibility == "hidden" or (zt.visibility == "owner" and owner != player)
        if zt.visibility == "top":  # all but the top card are unseen
            for c in zone[:-1]:
                visit(c, owner, True)
            zone = zone[-1:]
        for c in zone:
            visit(c, owner, count_only)
    return groups


def shuffled_groups(rules: Rules, st: GameState, player: int) -> list[list[int]]:
    """The groups of `unseen_groups` that a deal can change (two cards or more), in its order."""
    return [group for group in unseen_groups(rules, st, player).values() if len(group) >= 2]


def determinize(
    rules: Rules, st: GameState, player: int, rnd: random.Random, groups: list[list[int]] | None = None
) -> GameState:
    """A copy of `st` that `player`'s observation cannot tell from it (see the module docstring).

    `groups`: `shuffled_groups(rules, st, player)` when the caller has them (a search samples
    one state many times and the groups depend only on the state and the player)."""
    copy = st.clone()
    for group in shuffled_groups(rules, st, player) if groups is None else groups:
        kinds = [copy.cards[c].type for c in group]
        rnd.shuffle(kinds)
        for c, t in zip(group, kinds):
            copy.card_to_change(c).type = t
    copy.rng = rnd.getrandbits(64)
    return copy
