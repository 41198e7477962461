"""Scenario positions that state what this turn has already done to the cards' abilities
(docs/scenarios.md#what-this-turn-has-already-done-to-the-abilities): the once-per-turn
abilities used (`used-this-turn:`) and the abilities a card started "for the rest of this
turn" (`rest-of-turn:`). A position starting mid-turn cannot run the earlier steps that did it.
"""

from __future__ import annotations

from typing import Any

from rules_dsl.effects.abilities import ActivatedAbility, Listeners, StartLasting
from rules_dsl.effects.base import Effect
from rules_dsl.engine import Engine
from rules_dsl.errors import suggest
from rules_dsl.rules import CardType
from rules_dsl.scenario_expect import (
    ScenarioError,
    check_keys,
    key_where,
    note_name_problem,
    noted_words,
    seat_of,
    where,
    zone_key,
)
from rules_dsl.scenario_names import lasting_names
from rules_dsl.scenario_phase import within
from rules_dsl.state import GameState, Lasting

USED_KEYS = {"card", "player", "during"}
LASTING_KEYS = {"card", "player", "section", "zone", "names"}
MAX_ENTRIES = 1000  # per key: far beyond any turn


def set_turn_state(engine: Engine, st: GameState, pos: dict[str, Any], path: str) -> None:
    """Record `used-this-turn:` and `rest-of-turn:` of the position (its cards laid out)."""
    for entry, at in _entries(pos, "used-this-turn", USED_KEYS, path):
        _use(engine, st, entry, at, path)
    for entry, at in _entries(pos, "rest-of-turn", LASTING_KEYS, path):
        _start(engine, st, entry, at, path)
    _notes(engine, st, pos, path)


def _notes(engine: Engine, st: GameState, pos: dict[str, Any], path: str) -> None:
    """`notes: {SEAT: {NAME: [WORD, ...]}}`: what each player has noted (`note the kind as
    sold`), which abilities read later (`if the kind is noted as sold`); given, it replaces
    the player's notes of that name."""
    given = pos.get("notes", {})
    example = "such as {1: {sold: [water]}}"
    if not isinstance(given, dict):
        raise ScenarioError(f"{where(path, pos, 'notes')}position: notes gives each player's notes, {example}")
    for seat_key, notes in given.items():
        place = where(path, given, seat_key)
        try:
            seat = seat_of(st, seat_key)
        except ScenarioError as exc:
            raise ScenarioError(f"{key_where(path, given, seat_key) or place}position: notes: {exc}") from None
        if not isinstance(notes, dict):
            raise ScenarioError(f"{place}position: notes: player {seat_key} has a mapping of notes, {example}")
        for name, words in notes.items():
            at = where(path, notes, name) or place
            problem = note_name_problem(engine, name)
            if problem:
                raise ScenarioError(f"{key_where(path, notes, name) or at}position: notes: {problem}")
            kept = noted_words(words, name, f"{at}position: notes")
            if len(kept) > MAX_ENTRIES:
                raise ScenarioError(f"{at}position: notes: {name} lists more than {MAX_ENTRIES} words")
            if kept:
                st.notes[f"{name}.{seat}"] = kept
            else:
                st.notes.pop(f"{name}.{seat}", None)


def _entries(pos: dict[str, Any], key: str, known: set[str], path: str) -> list[tuple[dict[str, Any], str]]:
    value = pos.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_ENTRIES:
        raise ScenarioError(
            f"{where(path, pos, key)}position: {key} is a list (at most {MAX_ENTRIES}) of cards, "
            "each an id or {card: ID, player: SEAT}"
        )
    out = []
    for i, item in enumerate(value):
        at = where(path, value, i)
        entry = {"card": item} if isinstance(item, str) else item
        try:
            entry = check_keys(entry, known, f"an entry of {key}")
        except ScenarioError as exc:
            raise ScenarioError(f"{at}position: {exc}") from None
        if not isinstance(entry.get("card"), str):
            raise ScenarioError(f"{at}position: an entry of {key} names its card: {{card: ID}}")
        out.append((entry, at))
    return out


def _card_type(engine: Engine, entry: dict[str, Any], at: str) -> CardType:
    card_id = entry["card"]
    t = engine.rules.card_index.get(card_id)
    if t is None:
        hint = suggest(card_id, engine.rules.card_index)
        raise ScenarioError(f"{at}position: unknown card {card_id!r}" + (f" ({hint})" if hint else ""))
    return engine.rules.cards[t]


def _seat(st: GameState, entry: dict[str, Any], path: str, at: str) -> int:
    if "player" not in entry:
        return st.active
    try:
        return seat_of(st, entry["player"])
    except ScenarioError as exc:
        raise ScenarioError(f"{where(path, entry, 'player') or at}position: {exc}") from None


def _listeners(engine: Engine) -> Listeners | None:
    """The pack's ability zone, as the rules' abilities were compiled with it."""
    for e in engine.rules.effects:
        lis = getattr(e, "listeners", None)
        if isinstance(lis, Listeners):
            return lis
    return None


def _use(engine: Engine, st: GameState, entry: dict[str, Any], at: str, path: str) -> None:
    """One copy of the card, in the player's ability zone, has used its once-per-turn
    ability (the one for window `during`, when it has several) this turn."""
    ct = _card_type(engine, entry, at)
    once = [ab for ab in ct.activated if isinstance(ab, ActivatedAbility) and ab.once]
    if not once:
        raise ScenarioError(
            f"{at}position: used-this-turn: {ct.id!r} has no once-per-turn ability "
            "(ONCE PER TURN, during your WINDOW: ...)"
        )
    windows = [ab.window for ab in once]
    if "during" in entry:
        wanted = entry["during"]
        chosen = [ab for ab in once if ab.window == wanted]
        if not chosen:
            raise ScenarioError(
                f"{where(path, entry, 'during') or at}position: used-this-turn: {ct.id!r} has no once-per-turn "
                f"ability during {wanted!r}; its windows: {', '.join(windows)}"
            )
    elif len(once) > 1:
        raise ScenarioError(
            f"{at}position: used-this-turn: {ct.id!r} has once-per-turn abilities during "
            f"{', '.join(windows)}; say which with during: WINDOW"
        )
    else:
        chosen = once
    ability = chosen[0]
    seat = _seat(st, entry, path, at)
    lis = _listeners(engine)
    zone = lis.zone if lis is not None else ""
    copies = [c for c in st.zones.get(f"{zone}.{seat}", []) if st.cards[c].type == engine.rules.card_index[ct.id]]
    free = [c for c in copies if f"{ability.eid}:{c}" not in st.used]
    if not free:
        have = f"only {len(copies)} cop{'y' if len(copies) == 1 else 'ies'}" if copies else "no copy"
        raise ScenarioError(
            f"{at}position: used-this-turn: player {seat + 1} has {have} of {ct.id!r} in their {zone} "
            "(where its abilities work) to have used it; list it there under players:"
        )
    st.used.append(f"{ability.eid}:{free[0]}")


def _starts(engine: Engine, ct: CardType) -> list[tuple[str, StartLasting]]:
    """The `for the rest of this turn:` statements of the card's text, with their section."""
    out = []
    for label, eid in ct.sections.items():
        for e in within(engine.rules.effects[eid]):
            if isinstance(e, StartLasting):
                out.append((label, e))
    return out


def _start(engine: Engine, st: GameState, entry: dict[str, Any], at: str, path: str) -> None:
    """The card's `for the rest of this turn:` abilities are in force for the player, as
    started by a copy of the card (in `zone`, else the first found in the player's zones)."""
    ct = _card_type(engine, entry, at)
    starts = _starts(engine, ct)
    if not starts:
        raise ScenarioError(
            f"{at}position: rest-of-turn: {ct.id!r} starts nothing for the rest of this turn "
            "(its text has no 'for the rest of this turn:')"
        )
    sections = list(dict.fromkeys(label for label, _ in starts))
    if "section" in entry:
        starts = [(label, s) for label, s in starts if label == entry["section"]]
        if not starts:
            raise ScenarioError(
                f"{where(path, entry, 'section') or at}position: rest-of-turn: {ct.id!r} starts nothing for the "
                f"rest of this turn in section {entry['section']!r}; it does in: {', '.join(sections)}"
            )
    if len(starts) > 1:
        raise ScenarioError(
            f"{at}position: rest-of-turn: {ct.id!r} has {len(starts)} 'for the rest of this turn:' statements "
            f"(sections {', '.join(sections)}); say which with section: LABEL"
        )
    seat = _seat(st, entry, path, at)
    src = _copy(engine, st, ct, seat, entry, path, at)
    label, start = starts[0]
    names = lasting_names(engine, st, engine.rules.effects[ct.sections[label]], start, ct.id, seat, entry, path, at)
    abilities: tuple[Effect, ...] = start.abilities
    for ab in abilities:
        st.lasting.append(Lasting(ab.eid, seat, src, dict(names)))


def _copy(engine: Engine, st: GameState, ct: CardType, seat: int, entry: dict[str, Any], path: str, at: str) -> int:
    t = engine.rules.card_index[ct.id]
    if "zone" in entry:
        name = entry["zone"]
        zt = engine.rules.zones.get(str(name))
        try:
            keys = [zone_key(engine, name, seat if zt is not None and zt.per_player else None)]
        except ScenarioError as exc:
            raise ScenarioError(f"{where(path, entry, 'zone') or at}position: rest-of-turn: {exc}") from None
    else:
        zones = engine.rules.zones.values()
        # only the player's own zones: a copy in a shared pile did not start anything (say zone: if one did)
        keys = [zt.key(seat) for zt in zones if zt.per_player]
    for key in keys:
        for c in st.zones[key]:
            if st.cards[c].type == t:
                return c
    place = f"player {seat + 1}'s {keys[0].split('.')[0]}" if "zone" in entry else f"player {seat + 1}'s zones"
    raise ScenarioError(
        f"{at}position: rest-of-turn: no copy of {ct.id!r} in {place} to have started it; list it in the position"
        + ("" if "zone" in entry else " (or say zone: ZONE for a shared zone)")
    )
