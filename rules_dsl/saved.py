"""Loading a saved game so that it can be trusted.

A saved game carries its packs, player count, seed, variants and decision log, which
reproduce it exactly (docs/architecture.md). Loading checks every field against the
rules (so a wrong file gets a message naming the field, never a crash later), then
replays the log and compares: a state that its own seed and decisions do not give, a
tampered one, is refused with the first difference.

The decision log is the record. A saved game carries the mark of the engine and rules that
wrote it (`saved_by`, `version_mark`); one written by another version (another engine or
pack text, or an older rules-dsl that wrote no mark) whose stored state is not what this
version's replay gives is loaded from that replay, with a notice: only a log that does not
replay (an illegal option at step N) is refused. A file of this very version must match.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import rules_dsl
from rules_dsl import cache, chosen, files, interpreter, numbers, serialize
from rules_dsl.errors import RulesError, StateFormatError
from rules_dsl.rules import Rules
from rules_dsl.state import GameState

MAX_FILE_BYTES = 50_000_000  # a saved game of the longest game is well under a megabyte
MARK = "saved_by"  # the key of the version mark in a saved game's JSON object
MAX_MARK = 200
OTHER_VERSION = "saved by another version; replayed from its decisions"


def version_mark(rules: Rules) -> str:
    """What wrote a saved game: the engine (its version and source, as the cache of compiled
    rules keys it) and these compiled rules (each effect's kind and text, the cards). Any
    change that could make the same decisions give another state gives another mark."""
    h = hashlib.sha256(cache.engine_fingerprint().encode() + b"\0" + repr(rules.packs).encode())
    for e in rules.effects:
        h.update(f"{type(e).__name__}\0{e.text}\0".encode())
    for c in rules.cards:
        h.update(c.id.encode() + b"\0")
    return f"rules-dsl {rules_dsl.__version__} {h.hexdigest()[:16]}"


def dump(st: GameState, mark: str) -> str:
    """A saved game: the state's JSON with the version mark of what wrote it."""
    data = serialize.to_data(st)
    data[MARK] = mark
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


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


def load(
    rules: Rules, text: str, replay: bool = True, mark: str | None = None, notices: list[str] | None = None
) -> GameState:
    """The game saved in `text`; StateFormatError says what is wrong with it.

    `mark`: this version's `version_mark` (worked out if not given). A file with another
    mark (or none) whose state is not what its log gives is loaded from the replay of its
    log, and OTHER_VERSION is added to `notices`.
    `replay=False` skips the replay, for states that no decision log reaches (a scenario's
    position saved half-way); the fields are still checked."""
    data = _parse(text)
    saved_by = data.pop(MARK, None)
    if saved_by is not None and (not isinstance(saved_by, str) or len(saved_by) > MAX_MARK):
        raise StateFormatError(f"not a valid game state: {MARK} is not a version mark")
    other = saved_by != (version_mark(rules) if mark is None else mark)
    try:
        st = serialize.from_data(data)
        problems = interpreter.check_state(rules, st) or check_fields(rules, st)
    except StateFormatError:
        if not (other and replay):
            raise
        return _from_log(rules, data, notices)
    if problems:
        if other and replay:
            return _from_log(rules, data, notices)
        raise StateFormatError("inconsistent game state: " + "; ".join(problems[:5]))
    if replay:
        again, difference = _replay(rules, st.players, st.seed, st.variants, st.log, st)
        if difference:
            if other and again is not None:
                _notice(notices)
                return again
            if other:
                raise StateFormatError(f"{OTHER_VERSION.split(';')[0]}, and its decisions do not replay: {difference}")
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
    asked = [(option, value) for option, value in zip(d.options, d.values)]
    for other in st.also:  # seats deciding at once: each answered as the log writes it
        asked.extend((f"@{other.player + 1}:{option}", value) for option, value in zip(other.options, other.values))
    for option, value in asked:
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
        if cs.allowed and (cs.type not in cs.allowed or not all(0 <= t < len(rules.cards) for t in cs.allowed)):
            problems.append(f"card {i} is not one of the card types pointed out for it")
        if not -1 <= cs.pool < st.pools:
            problems.append(f"card {i} is in pool {cs.pool}, which the game has not made (it made {st.pools})")
    d = st.pending
    if st.over:
        if d is not None or st.frames:
            problems.append("the game is over but a decision or frame is pending")
        if len(st.scores) != n:
            problems.append(f"the game is over with {len(st.scores)} scores for {n} players")
    elif d is not None:
        deciding = [d, *st.also]
        for x in deciding:
            if x.player not in seats:
                problems.append(f"the pending decision is player {x.player}'s, not a seat of {n} players")
            if len(set(x.options)) != len(x.options) or not x.options:
                problems.append("the pending decision's options are empty or repeated")
            if len(x.options) != len(x.values):
                problems.append("a pending decision's options and values do not match")
        if len({x.player for x in deciding}) != len(deciding):
            problems.append("two pending decisions are the same player's")
        top = st.frames[-1].eid if st.frames else -1
        if st.also and not (0 <= top < len(rules.effects) and rules.effects[top].simultaneous):
            problems.append("several decisions are pending but no simultaneous decision asks them")
    elif st.also:
        problems.append("decisions are pending beside none")
    if st.turn < 0 or st.round < 0 or st.turn_decisions < 0 or st.extra_rounds_left < 0 or st.pools < 0:
        problems.append("a count of turns, rounds or decisions is negative")
    return problems


def _parse(text: str) -> dict[str, Any]:
    data = serialize.parse_json(text)
    if not isinstance(data, dict):
        raise StateFormatError(f"not a valid game state: expected a JSON object, got {type(data).__name__}")
    return data


def _notice(notices: list[str] | None) -> None:
    if notices is not None:
        notices.append(OTHER_VERSION)


def _from_log(rules: Rules, data: dict[str, Any], notices: list[str] | None) -> GameState:
    """The game of a saved file of another version, from its packs, players, seed, variants
    and decisions alone (its other fields may be of another shape)."""
    packs, players, seed = data.get("packs"), data.get("players"), data.get("seed")
    variants, log = data.get("variants", []), data.get("log")
    if not (isinstance(packs, list) and all(isinstance(p, str) for p in packs)):
        raise StateFormatError("not a valid game state: its packs are not a list of pack ids")
    if tuple(packs) != rules.packs:
        raise StateFormatError(
            f"inconsistent game state: saved with packs {packs}, but these rules are {list(rules.packs)}"
        )
    if not (isinstance(players, int) and isinstance(seed, int)) or isinstance(players, bool) or isinstance(seed, bool):
        raise StateFormatError("not a valid game state: its players and seed are not whole numbers")
    for name, value in (("variants", variants), ("log", log)):
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise StateFormatError(f"not a valid game state: its {name} is not a list of strings")
    again, difference = _replay(rules, players, seed, list(variants), list(log or []))
    if again is None:
        raise StateFormatError(f"{OTHER_VERSION.split(';')[0]}, and its decisions do not replay: {difference}")
    _notice(notices)
    return again


def _replay(
    rules: Rules, players: int, seed: int, variants: list[str], log: list[str], st: GameState | None = None
) -> tuple[GameState | None, str]:
    """The game a seed and decisions give (None if they do not replay, with why) and its
    first difference from the state `st` ('' when there is none, or no `st`)."""
    if not rules.min_players <= players <= rules.max_players:
        return None, f"{players} players: these rules are for {rules.min_players} to {rules.max_players}"
    try:
        again = interpreter.new_game(rules, players, seed, variants)
        for i, option in enumerate(log):
            try:
                interpreter.apply(rules, again, option)
            except RulesError as exc:
                return None, f"decision {i + 1} of its log ({option!r}) does not replay: {exc}"
    except RulesError as exc:
        return None, f"its game does not start: {exc}"
    if st is None:
        return again, ""
    try:
        return again, _first_difference(serialize.to_data(again), serialize.to_data(st), "state")
    except RecursionError:
        return again, "a value is nested too deeply to compare"


def replay_difference(rules: Rules, st: GameState) -> str:
    """'' if replaying the state's own log gives it exactly, else the first difference."""
    return _replay(rules, st.players, st.seed, st.variants, st.log, st)[1]


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
