"""A game state one player could be in: what they cannot identify dealt again from where it
could have come from (`knowledge.sample`; this module keeps the name search code uses).

Search bots must not read hidden information, yet they need a whole state to apply
options to. `determinize` clones the state and deals every card the player cannot
identify again from its pool (the cards it was mixed up with by shuffles and by choices
the player did not see), keeping what the player can see of it (a face-down card's kind
and back), canonically: the same information and random draws give the same sample,
whatever the hidden cards really are. The copy's random generator is reseeded, so later
shuffles are not the real ones.
"""

from __future__ import annotations

import random

from rules_dsl.knowledge import Pool, sample, unknown_pools
from rules_dsl.rules import Rules
from rules_dsl.state import GameState

__all__ = ["Pool", "determinize", "unknown_pools"]


def determinize(
    rules: Rules, st: GameState, player: int, rnd: random.Random, pools: list[Pool] | None = None
) -> GameState:
    """A copy of `st` that `player` cannot tell from it (see the module docstring).

    `pools`: `unknown_pools(rules, st, player)`, worked out once by a caller that samples
    the same state many times (`bots.base.Turn`); they depend on the state only."""
    return sample(rules, st, player, rnd, pools)
