"""Which choices of cards may offer a card the chooser cannot identify, worked out once
from the compiled rules (the chooser's own zones show it their cards; a public zone shows
face-up cards to everyone). `Rules.blind_choices` lets a choice that never can skip the
per-card question (`effects.choices.card_options`), and the environments' action catalogue
lists the places such a card can be offered from (`envs.catalogue`)."""

from __future__ import annotations

from collections.abc import Iterable

from rules_dsl.effects import choices, primitives, values
from rules_dsl.rules import ZoneType


def turns_cards_down(effects: Iterable[object]) -> bool:
    """Whether a rule can turn a card face down where it lies."""
    return any(isinstance(e, primitives.Flip) and not e.up for e in effects)


def hidden_zones(zones: dict[str, ZoneType], flips: bool, query: object) -> tuple[list[str], list[str]]:
    """The zones `query` looks in where a card may be hidden from the chooser, and those
    whose tucked cards may be: (zones, tucked zones)."""

    def blind(name: str, facing: int, own: bool) -> bool:
        z = zones[name]
        if own:  # the chooser's own: shown to it unless nobody, or only the others, see them
            return z.visibility in ("hidden", "others", "top")
        return z.visibility != "public" or (facing != 1 and (flips or z.facing != "up"))

    every = [name for name in zones if blind(name, -1, False)]
    found: dict[str, None] = {}
    tucked: dict[str, None] = {}

    def look(q: object, into: dict[str, None], facing: int = -1) -> None:
        if isinstance(q, values.Query):
            for z in q.zones:
                if isinstance(z, values.PlayerZone | values.SharedZone | values.OpponentZone | values.OpponentsZones):
                    if blind(z.name, q.facing if facing < 0 else facing, isinstance(z, values.PlayerZone)):
                        into[z.name] = None
                else:  # a zone worked out in play
                    into.update(dict.fromkeys(every))
        elif isinstance(q, values.CardsUnderAll):
            look(q.query, tucked, 0)  # tucked cards of those zones, whichever way up
        else:  # cards named by an expression: they may lie anywhere
            (tucked if isinstance(q, values.CardsUnder) else into).update(dict.fromkeys(every))

    look(query, found)
    return list(found), list(tucked)


def blind_choices(zones: dict[str, ZoneType], effects: list[object]) -> frozenset[int]:
    """The effect ids of the choices of cards (and of tokens on cards) that may offer a card
    the chooser cannot identify."""
    flips = turns_cards_down(effects)
    out = set()
    for e in effects:
        if isinstance(e, choices.ChooseCard | choices.TokenChoice):
            query = getattr(e, "query", None)
            if query is None or any(hidden_zones(zones, flips, query)):
                out.add(e.eid)
    return frozenset(out)
