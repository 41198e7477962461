"""Scenario decisions: options named by card instead of by id, and the trace of the
moments a decision announces (docs/scenarios.md).

`choose: {card: ID}` picks the pending decision's option for that card, wherever the
card is and whatever its option id (`ID`, `ID@discard.p2`, `ID#12`, `ID:KIND`),
so one file can run over many seeds and seats; `zone:` and `player:` narrow it down when
copies of the card are offered from several places.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rules_dsl.engine import Engine
from rules_dsl.errors import suggest
from rules_dsl.scenario_expect import ScenarioError, check_keys, seat_of
from rules_dsl.state import GameState

CHOOSE_KEYS = {"card", "zone", "player"}


def _option_card(value: Any) -> int | None:
    """The card an option's value stands for: a card, or (card, token kind); else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, list | tuple) and value and isinstance(value[0], int) and not isinstance(value[0], bool):
        return value[0]
    return None


def chosen_option(engine: Engine, st: GameState, spec: Any, where: str) -> str:
    """The option id that `choose: {card: ID, zone: ZONE, player: SEAT}` names now."""
    spec = check_keys(spec, CHOOSE_KEYS, f"{where}: choose")
    if "card" not in spec:
        raise ScenarioError(f"{where}: choose needs card: ID (and may give zone: and player:)")
    card_id = str(spec["card"])
    rules = engine.rules
    if card_id not in rules.card_index:
        raise ScenarioError(f"{where}: choose: no card {card_id!r}{suggest(card_id, list(rules.card_index))}")
    zone = spec.get("zone")
    if zone is not None and str(zone) not in rules.zones:
        raise ScenarioError(f"{where}: choose: no zone {zone!r}{suggest(str(zone), list(rules.zones))}")
    seat = None if spec.get("player") is None else seat_of(st, spec["player"])
    d = st.pending
    if d is None:
        raise ScenarioError(f"{where}: choose {card_id}: no decision is pending (the game is over)")
    found = []
    for option, value in zip(d.options, d.values):
        card = _option_card(value)
        if card is None or not 0 <= card < len(st.cards):
            continue
        cs = st.cards[card]
        if rules.cards[cs.type].id != card_id:
            continue
        loc = cs.loc
        while loc[0] == "^":  # a card tucked under another is where that card is
            loc = st.cards[int(loc[1:])].loc
        name, _, owner = loc.partition(".")
        if zone is not None and name != str(zone):
            continue
        if seat is not None and owner != str(seat):
            continue
        found.append(option)
    legal = ", ".join(repr(o) for o in d.options)
    if not found:
        raise ScenarioError(f"{where}: choose {card_id}: no option for that card now; legal options: {legal}")
    if len(found) > 1:
        many = ", ".join(repr(o) for o in found)
        raise ScenarioError(
            f"{where}: choose {card_id}: {len(found)} options are that card ({many}); "
            "say which with zone: or player:, or give the option id"
        )
    return found[0]


@contextmanager
def tracing(st: GameState, trace: list[str]) -> Iterator[None]:
    """Record the moments announced in the game while the block runs (`trace:` in a checkpoint)."""
    previous = st.trace
    st.trace = trace
    try:
        yield
    finally:
        st.trace = previous
