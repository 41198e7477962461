"""Compiled rules: immutable, shared by every game of the same packs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from rules_dsl.effects.base import Effect
    from rules_dsl.effects.values import Cond, NumExpr


@attrs.frozen
class CardType:
    id: str
    name: str
    kind: str
    symbols: dict[str, int]
    slots: dict[str, int]
    props: dict[str, Any]
    sections: dict[str, int]  # section label -> effect id
    text: str
    count: int | str  # copies, or a parameter name
    zone: str  # where the copies start
    public_props: tuple[str, ...]  # what shows on the back of a face-down card


@attrs.frozen
class ZoneType:
    name: str
    per_player: bool
    visibility: str  # public | owner | hidden
    refill_from: str  # zone name shuffled in when this one runs out, or ""
    facing: str  # "" keep | "up" | "down"

    def key(self, player: int) -> str:
        return f"{self.name}.{player}" if self.per_player else self.name


@attrs.frozen
class CounterType:
    name: str
    plural: str
    per_player: bool
    start: int | str
    supply: str  # a shared counter this one is taken from, or ""


@attrs.frozen
class EndTrigger:
    name: str
    cond: Cond


@attrs.frozen
class Statistic:
    """A named count of card moves (for reports): any card moved from one of `sources` to one of `targets`."""

    name: str
    sources: tuple[str, ...]  # zone names
    targets: tuple[str, ...]


@attrs.frozen
class Variant:
    name: str
    description: str
    params: dict[str, Any]


@attrs.frozen
class Rules:
    packs: tuple[str, ...]
    name: str
    min_players: int
    max_players: int
    effects: tuple[Effect, ...]
    cards: tuple[CardType, ...]
    card_index: dict[str, int]
    zones: dict[str, ZoneType]
    zone_groups: dict[str, tuple[tuple[str, str], ...]]
    counters: dict[str, CounterType]
    shared_counters: dict[str, int | str]
    params: dict[str, Any]
    variants: dict[str, Variant]
    default_variants: tuple[str, ...]
    setup: int  # effect id
    game_loop: int  # effect id
    phases: tuple[tuple[str, int], ...]
    end_triggers: tuple[EndTrigger, ...]
    score: NumExpr
    tiebreak: NumExpr
    draw_from: str
    draw_to: str
    overrides: tuple[str, ...] = ()  # what later packs replaced, for the loader's report
    additions: tuple[str, ...] = ()  # what packs added to the packs they require ("added: ...", "extended: ...")
    wild: dict[int, Cond] = attrs.Factory(dict)  # card type -> when it counts as every symbol
    step_limit: int = 20000
    evaluation: NumExpr | None = None  # the pack's `evaluation:`, how good a position is for "you" (for bots)
    statistics: tuple[Statistic, ...] = ()
