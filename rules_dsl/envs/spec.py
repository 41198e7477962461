"""What both wrappers share: one pack's engine for one player count and set of variants,
its action catalogue, its observation layout, and the rewards at the end of a game."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from rules_dsl.engine import Engine
from rules_dsl.envs.catalogue import Catalogue
from rules_dsl.envs.features import Features
from rules_dsl.errors import RulesError
from rules_dsl.interpreter import resolve_params
from rules_dsl.state import GameState


@attrs.frozen
class GameSpec:
    pack: str
    players: int
    variants: tuple[str, ...]
    engine: Engine
    catalogue: Catalogue
    features: Features

    def new_game(self, seed: int) -> GameState:
        return self.engine.new_game(self.players, seed, self.variants)

    @property
    def cooperative(self) -> bool:
        """Whether the seats win or lose together (rewards shared, not zero-sum)."""
        return self.engine.rules.cooperative


def load_spec(pack: str, players: int, variants: Iterable[str] | str = ()) -> GameSpec:
    """The engine of `pack` (installed pack ids or folders, separated by commas) for this
    many players and these variants; RulesError names what is allowed when one is wrong."""
    if isinstance(variants, str):
        variants = [variants] if variants else []
    if not isinstance(players, int) or isinstance(players, bool):
        raise RulesError(f"players must be a whole number, not {players!r}")
    engine = Engine.for_pack(pack)
    rules = engine.rules
    if not rules.min_players <= players <= rules.max_players:
        fewest, most = rules.min_players, rules.max_players
        allowed = f"exactly {fewest}" if fewest == most else f"{fewest} to {most}"
        raise RulesError(f"{rules.name} (pack {pack!r}) is for {allowed} players, not {players}")
    names = tuple(rules.default_variants) if not variants else tuple(variants)
    resolve_params(rules, players, names)  # an unknown variant is refused here, naming the known ones
    return GameSpec(pack, players, names, engine, Catalogue(rules, players, names), Features(rules, players))


def returns(st: GameState) -> list[float]:
    """Each seat's reward at the end, from the pack's scoring (its winners, with its
    tie-break): a sole winner gets 1, the others -1/(players-1); winners who tie share the
    win. The rewards sum to zero; before the end (or with no winner) they are all 0.

    A co-operative pack (`scoring: co-operative`) has no winner among the seats: they all
    share the result, 1 each when the table won together and -1 each when it lost."""
    n = st.players
    if not st.over:
        return [0.0] * n
    if is_cooperative(st):
        return [1.0 if st.winners else -1.0] * n
    if not st.winners:
        return [0.0] * n
    if n == 1:
        return [1.0 if 0 in st.winners else 0.0]
    share = 1.0 / len(st.winners)
    return [n / (n - 1) * ((share if p in st.winners else 0.0) - 1.0 / n) for p in range(n)]


def is_cooperative(st: GameState) -> bool:
    """Whether the state's pack is co-operative: every seat wins or loses together."""
    return st.rules is not None and st.rules.cooperative
