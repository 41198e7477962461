"""The names a card's text bound before it started abilities "for the rest of this turn"
(`choose a cost value as the price`, `let BONUS be 2`), which those abilities read later: a
scenario position's `rest-of-turn:` entry states them under `names:`
(docs/scenarios.md#what-this-turn-has-already-done-to-the-abilities).
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.abilities import StartLasting
from rules_dsl.effects.base import Effect
from rules_dsl.effects.choices import ChooseCard, ChooseKind, ChooseZone
from rules_dsl.effects.control import Let, SetVar
from rules_dsl.effects.players import ChoosePlayer, ChooseValue, ChosenWord, ForChosen, SeatOf
from rules_dsl.effects.primitives import MarkValue
from rules_dsl.effects.values import CardVar, TextVar, VarNum, ZoneVar
from rules_dsl.engine import Engine
from rules_dsl.errors import suggest
from rules_dsl.scenario_expect import ScenarioError, key_where, seat_of, where, whole, zone_key
from rules_dsl.scenario_phase import MAX_WALK, within
from rules_dsl.state import GameState

# what binds a name in a card's text, and what reads one
BINDERS = (ChooseCard, ChooseKind, ChooseZone, ChoosePlayer, ChooseValue, Let, SetVar)
READERS = (VarNum, CardVar, ZoneVar, TextVar, ChosenWord, ForChosen, MarkValue)
RULES_NAMES = {"", "it", "kind"}  # bound around the card by the rules: the live ones are read


def lasting_names(
    engine: Engine,
    st: GameState,
    section: Effect,
    start: StartLasting,
    card: str,
    seat: int,
    entry: dict[str, Any],
    path: str,
    at: str,
) -> dict[str, Any]:
    """The names the abilities `start` begins are kept with: those stated under `names:`,
    each a name the card's text (`section`) binds, as its binding would hold it. A name the
    abilities read and the entry leaves out is an error, as is a name the text does not bind."""
    inside = {id(e) for ab in start.abilities for e in within(ab)}
    binders: dict[str, Effect] = {}
    for e in sorted(within(section), key=lambda e: e.eid):  # as the text reads
        name = getattr(e, "name", "")
        if isinstance(e, BINDERS) and id(e) not in inside and name not in RULES_NAMES:
            binders.setdefault(name, e)
    given = entry.get("names", {})
    if not isinstance(given, dict):
        raise ScenarioError(
            f"{where(path, entry, 'names') or at}position: rest-of-turn: names: gives each name the card's text "
            "bound and its value, such as {price: 3}"
        )
    names: dict[str, Any] = {}
    for name, value in given.items():
        place = where(path, given, name) or at
        if name not in binders:
            place = key_where(path, given, name) or place
            hint = suggest(str(name), list(binders))
            bound = f"its text binds: {', '.join(binders)}" if binders else "its text binds no name"
            raise ScenarioError(
                f"{place}position: rest-of-turn: the text of {card!r} binds no name {name!r}"
                + (f" ({hint})" if hint else "")
                + f"; {bound}"
            )
        names[name] = _value(engine, st, binders[name], str(name), value, seat, place)
    read = _read(start) - {n for ab in start.abilities for e in within(ab) if isinstance(e, BINDERS) for n in [e.name]}
    missing = [n for n in binders if n in read and n not in names]
    if missing:
        said = ", ".join(f"{n}: VALUE" for n in missing)
        raise ScenarioError(
            f"{at}position: rest-of-turn: the abilities {card!r} started read {', '.join(missing)}, "
            f"which its text bound before: state {'them' if len(missing) > 1 else 'it'} with names: {{{said}}}"
        )
    return names


def _read(start: StartLasting) -> set[str]:
    """The names the abilities read (not through a procedure they call)."""
    out: set[str] = set()
    todo: list[Any] = list(start.abilities)
    seen = 0
    while todo and seen < MAX_WALK:
        obj = todo.pop()
        seen += 1
        if isinstance(obj, tuple):
            todo.extend(obj)
            continue
        if not attrs.has(type(obj)):
            continue
        if isinstance(obj, READERS) or (isinstance(obj, SeatOf) and obj.how == "named"):
            out.add(obj.name)
        todo.extend(getattr(obj, f.name) for f in attrs.fields(type(obj)))
    return out


def _value(engine: Engine, st: GameState, binder: Effect, name: str, value: Any, seat: int, place: str) -> Any:
    """A stated value as the binder would have bound it."""
    what = f"{place}position: rest-of-turn: names: {name}"
    if isinstance(binder, Let | SetVar):
        return whole(value, what)
    if isinstance(binder, ChoosePlayer):
        try:
            return seat_of(st, value)
        except ScenarioError as exc:
            raise ScenarioError(f"{what}: {exc}") from None
    if isinstance(binder, ChooseValue | ChooseKind):
        allowed = binder.values if isinstance(binder, ChooseValue) else binder.kinds
        for v in allowed:
            if v == value or str(v) == str(value):
                return v
        if isinstance(binder, ChooseKind) and not allowed:
            return str(value)
        hint = suggest(str(value), [str(v) for v in allowed])
        raise ScenarioError(
            f"{what}: {value!r} is not one of its values"
            + (f" ({hint})" if hint else "")
            + f"; they are: {', '.join(str(v) for v in allowed)}"
        )
    if isinstance(binder, ChooseZone):
        zones = [z for z, _ in binder.zones]
        if str(value) not in zones:
            hint = suggest(str(value), zones)
            raise ScenarioError(
                f"{what}: {value!r} is not one of its zones"
                + (f" ({hint})" if hint else "")
                + f"; they are: {', '.join(zones)}"
            )
        zt = engine.rules.zones.get(str(value))
        return zone_key(engine, value, seat if zt is not None and zt.per_player else None)
    assert isinstance(binder, ChooseCard)
    return _card(engine, st, str(value), seat, what)


def _card(engine: Engine, st: GameState, card_id: str, seat: int, what: str) -> int:
    """A copy of the card: the first in the player's zones, else the first anywhere."""
    t = engine.rules.card_index.get(card_id)
    if t is None:
        hint = suggest(card_id, engine.rules.card_index)
        raise ScenarioError(f"{what}: unknown card {card_id!r}" + (f" ({hint})" if hint else ""))
    own = [zt.key(seat) for zt in engine.rules.zones.values() if zt.per_player]
    for key in [*own, *(k for k in st.zones if k not in own)]:
        for c in st.zones[key]:
            if st.cards[c].type == t:
                return c
    raise ScenarioError(f"{what}: no copy of {card_id!r} in the game; list it in the position")
