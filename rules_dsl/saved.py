"""Loading a saved game so that it can be trusted.

A saved game carries its packs, player count, seed, variants and decision log, which
reproduce it exactly (docs/architecture.md). Loading checks every field against the
rules (so a wrong file gets a message naming the field, never a crash later), then
replays the log and compares: a state that its own seed and decisions do not give, a
tampered one, is refused with the first difference.
"""

from __future__ import annotations

from typing import Any

from rules_dsl import chosen, files, interpreter, numbers, serialize
from rules_dsl.errors import RulesError, StateFormatError
from rules_dsl.rules import Rules
from rules_dsl.state import GameState

MAX_FILE_BYTES = 50_000_000  # a saved game of the longest game is well under a megabyte


def read_file(path: str) -> tuple[str, list[str]]:
    """A saved game file's text and the packs it names (to load them), read as every
    user's file is (rules_dsl/files.py); StateFormatError for a file that names none."""
    text = files.read_text(path, MAX_FILE_BYTES, "a saved game")
    try:
        data = numbers.json_loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError, as is NumberError
        raise StateFormatError(f"{path} is not a saved game: {exc}") from None
    packs = data.get("packs") if isinstance(data, dict) else None
    if not isinstance(packs, list) or not packs or not all(isinstance(p, str) and p for p in packs):
        raise StateFormatError(f"{path} is not a saved game: it names no packs (a list of pack ids)")
    return text, packs


def load(rules: Rules, text: str, replay: bool = True) -> GameState:
    """The game saved in `text`; StateFormatError says what is wrong with it.

    `replay=False` skips the replay, for states that no decision log reaches (a scenario's
    position saved half-way); the fields are still checked."""
    st = serialize.from_json(text)
    problems = interpreter.check_state(rules, st) or check_fields(rules, st)
    if problems:
        raise StateFormatError("inconsistent game state: " + "; ".join(problems[:5]))
    if replay:
        difference = replay_difference(rules, st)
        if difference:
            raise StateFormatError(f"the saved state is not the game its seed and decisions give: {difference}")
    else:
        problem = pending_problem(rules, st)
        if problem:
            raise StateFormatError(f"inconsistent game state: {problem}")
    return st


def pending_problem(rules: Rules, st: GameState) -> str:
    """Why the pending decision's values are not ones its rules can take, or ''.

    Without a replay nothing says what the values should be, and only the effect that
    asked knows their type (a card, a count, a pair, an alternative's index): so each
    option is applied to a copy. A rules error is the game's own (a limit, say) and is
    reported when it is played; anything else means the saved values are wrong."""
    d = st.pending
    if d is None:
        return ""
    for option, value in zip(d.options, d.values):
        try:
            interpreter.apply(rules, st.clone(), option)
        except RulesError:
            continue
        except Exception:  # noqa: BLE001 - the saved value, not the engine, is wrong: refuse the file
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            return f"the pending decision's value for option {option!r} ({shown}) is not one it can take"
    return ""


def check_fields(rules: Rules, st: GameState) -> list[str]:
    """Every field of a state against the rules: players, variants, parameters, zones,
    counters, who is active or deciding, phase, frames."""
    problems: list[str] = []
    if tuple(st.packs) != rules.packs:
        problems.append(f"saved with packs {st.packs}, but these rules are {list(rules.packs)}")
    n = st.players
    if not rules.min_players <= n <= rules.max_players:
        problems.append(f"{n} players: these rules are for {rules.min_players} to {rules.max_players}")
        return problems  # everything below depends on the player count
    unknown = [v for v in st.variants if v not in rules.variants and not chosen.is_choice(v)]
    if unknown:
        problems.append(f"unknown variants {unknown}")
    else:
        try:
            if st.params != interpreter.resolve_params(rules, n, st.variants):
                problems.append("the parameters are not the ones of these players and variants")
        except RulesError as exc:
            problems.append(str(exc))
    zones = {z.key(p) for z in rules.zones.values() for p in (range(n) if z.per_player else [0])}
    for key in sorted(zones - set(st.zones)):
        problems.append(f"zone {key} is missing")
    for key in sorted(set(st.zones) - zones):
        problems.append(f"zone {key!r} is not a zone of these rules for {n} players")
    per_player = {c.name for c in rules.counters.values() if c.per_player}
    for name in sorted(per_player ^ set(st.counters)):
        problems.append(f"counter {name} is {'missing' if name in per_player else 'not a counter of these rules'}")
    for name, values in st.counters.items():
        if len(values) != n:
            problems.append(f"counter {name} has {len(values)} values for {n} players")
    for name in sorted(set(rules.shared_counters) ^ set(st.shared)):
        problems.append(f"shared counter {name} is {'missing' if name in rules.shared_counters else 'unknown'}")
    seats = range(n)
    if st.active not in seats:
        problems.append(f"the active player is {st.active}, not a seat of {n} players")
    if st.first not in seats:
        problems.append(f"the start player is {st.first}, not a seat of {n} players")
    if any(p not in seats for p in st.final_turns + st.winners):
        problems.append("final turns or winners name a seat that is not in the game")
    if any(p not in seats for p in st.out + st.next_turns):
        problems.append("the turn order names a seat that is not in the game")
    phases = {"setup", "over", *(name for name, _ in rules.phases)}
    if rules.effects[rules.game_loop].deal_end is not None:  # type: ignore[attr-defined]
        phases |= {"deal-end", "deal-setup"}  # between two deals
    if st.phase not in phases:
        problems.append(f"phase {st.phase!r} is not a phase of these rules ({', '.join(sorted(phases))})")
    for i, fr in enumerate(st.frames):
        if fr.player not in seats or not -1 <= fr.src < len(st.cards) or fr.pc < 0:
            problems.append(f"frame {i} names player {fr.player}, card {fr.src} or step {fr.pc}, which do not exist")
    for used in st.used:
        eid, _, card = used.partition(":")
        if not (eid.isdigit() and card.lstrip("-").isdigit() and int(eid) < len(rules.effects)):
            problems.append(f"used ability {used!r} is not EFFECT:CARD of these rules")
    for i, cs in enumerate(st.cards):
        if any(p not in seats for p in cs.seen):
            problems.append(f"card {i} was seen by a player who is not in the game")
        if not -1 <= cs.pool < st.pools:
            problems.append(f"card {i} is in pool {cs.pool}, which the game has not made (it made {st.pools})")
    d = st.pending
    if st.over:
        if d is not None or st.frames:
            problems.append("the game is over but a decision or frame is pending")
        if len(st.scores) != n:
            problems.append(f"the game is over with {len(st.scores)} scores for {n} players")
    elif d is not None:
        if d.player not in seats:
            problems.append(f"the pending decision is player {d.player}'s, not a seat of {n} players")
        if len(set(d.options)) != len(d.options) or not d.options:
            problems.append("the pending decision's options are empty or repeated")
    if st.turn < 0 or st.round < 0 or st.turn_decisions < 0 or st.extra_rounds_left < 0 or st.pools < 0:
        problems.append("a count of turns, rounds or decisions is negative")
    return problems


def replay_difference(rules: Rules, st: GameState) -> str:
    """'' if replaying the state's own log gives it exactly, else the first difference."""
    try:
        again = interpreter.new_game(rules, st.players, st.seed, st.variants)
        for i, option in enumerate(st.log):
            try:
                interpreter.apply(rules, again, option)
            except RulesError as exc:
                return f"decision {i + 1} of its log ({option!r}) does not replay: {exc}"
    except RulesError as exc:
        return f"its game does not start: {exc}"
    try:
        return _first_difference(serialize.to_data(again), serialize.to_data(st), "state")
    except RecursionError:
        return "a value is nested too deeply to compare"


def _first_difference(want: Any, got: Any, path: str) -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got), key=str):
            if key not in got:
                return f"{path}.{key} is missing (the replay has {_short(want[key])})"
            if key not in want:
                return f"{path}.{key} should not be there"
            found = _first_difference(want[key], got[key], f"{path}.{key}")
            if found:
                return found
        return ""
    if isinstance(want, list) and isinstance(got, list):
        for i, (w, g) in enumerate(zip(want, got)):
            found = _first_difference(w, g, f"{path}[{i}]")
            if found:
                return found
        if len(want) != len(got):
            return f"{path} has {len(got)} items, the replay {len(want)}"
        return ""
    if want != got or isinstance(want, bool) != isinstance(got, bool):
        return f"{path} is {_short(got)}, the replay gives {_short(want)}"
    return ""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
