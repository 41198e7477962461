"""Scenario files: a position, decisions to apply, and expectations on the result.

See docs/scenarios.md for the format. Running one never raises for a user's mistake: a
bad file, an unknown card or an illegal decision is reported as a failed check.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs

from rules_dsl import files, yaml_data
from rules_dsl import numbers as number_text
from rules_dsl.bots.random_bot import RandomBot
from rules_dsl.effects.turns import GameLoop
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import RulesError, suggest
from rules_dsl.interpreter import run
from rules_dsl.scenario_expect import (
    AT,
    Check,
    ScenarioError,
    card_entries,
    check_expectations,
    check_keys,
    left_over,
    mapping,
    numbers,
    seat_of,
    where,
    whole,
    zone_key,
)
from rules_dsl.scenario_phase import start_inside, start_step
from rules_dsl.scenario_steps import Watch, chosen_option, forced_option, same_choice, stops_after, tracing, watch_stop
from rules_dsl.scenario_turn import set_turn_state
from rules_dsl.state import Frame, GameState

__all__ = [
    "Check",
    "Report",
    "ScenarioError",
    "check_expectations",
    "run_scenario",
    "run_scenario_file",
    "set_position",
]

SCENARIO_KEYS = {
    "name",
    "description",
    "pack",
    "players",
    "seed",
    "seeds",
    "variants",
    "unused",
    "position",
    "decisions",
    "expect",
    "then",
}
POSITION_KEYS = {
    "active",
    "out",
    "next-turns",
    "start-player",
    "phase",
    "turn",
    "round",
    "end-trigger",
    "extra-rounds-left",
    "counters",
    "shared",
    "zones",
    "players",
    "complete",
    "step",
    "used-this-turn",
    "rest-of-turn",
    "notes",
}
MAX_FILE_BYTES = 1_000_000  # as for a pack file: a scenario is read whole
MAX_SEEDS = 1000  # `seeds: 1..N`: each seed replays the whole scenario
MAX_RANDOM_GAMES = 1000
MAX_RANDOM_DECISIONS = 20000  # per random continuation: far beyond any real game


@attrs.define
class Report:
    path: str
    name: str
    checks: list[Check] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def render(self, verbose: bool = False) -> str:
        head = f"{'PASS' if self.ok else 'FAIL'} {self.path}: {self.name}"
        lines = [head]
        for c in self.checks:
            if verbose or not c.ok:
                lines.append(f"  {'ok  ' if c.ok else 'FAIL'} {c.name}" + (f": {c.detail}" if c.detail else ""))
        return "\n".join(lines)


_engines: dict[tuple[str, ...], Engine] = {}


def _engine_for(pack: Any, base: Path) -> Engine:
    if isinstance(pack, str):
        paths = pack_paths(pack) if "/" not in pack else [str(base / pack)]
    elif isinstance(pack, list) and pack and all(isinstance(p, str) for p in pack):
        paths = [str(base / p) for p in pack]
    else:
        raise ScenarioError("pack must be a pack id such as 'base' or a list of pack folders")
    key = tuple(paths)
    if key not in _engines:
        _engines[key] = Engine.load(paths)
    return _engines[key]


def run_scenario_file(path: str | Path) -> Report:
    path = Path(path)
    report = Report(str(path), path.stem)
    try:
        raw = files.read_bytes(path, MAX_FILE_BYTES, "a scenario file")
    except files.FileProblem as exc:
        report.checks.append(Check("read the file", False, str(exc)))
        return report
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        report.checks.append(
            Check(
                "read the file",
                False,
                f"{path} is not UTF-8 text: byte 0x{raw[exc.start]:02x} on line {line}; save the file as UTF-8",
            )
        )
        return report
    try:
        data = yaml_data.load(text, "a scenario", typ="rt")  # "rt" keeps positions for messages
    except yaml_data.YamlProblem as exc:
        place = f"line {exc.line}, column {exc.column}"
        invalid = "not valid YAML: "
        detail = (
            f"not valid YAML on {place}: {exc.message.removeprefix(invalid)}"
            if exc.message.startswith(invalid)
            else f"{place}: {exc.message}"
        )
        report.checks.append(Check("read the file", False, detail))
        return report
    return run_scenario(data, path.parent, report)


def run_scenario(data: Any, base: Path, report: Report) -> Report:
    try:
        if not isinstance(data, dict):
            raise ScenarioError("a scenario must be a mapping (name:, pack:, position:, decisions:, expect:)")
        check_keys(data, SCENARIO_KEYS, "scenario")
        report.name = str(data.get("name", report.name))
        engine = _engine_for(data.get("pack", "base"), base)
        seeds = _seeds(data)
        games = _random_games(data.get("then"))
        decisions = data.get("decisions") or []
        if not isinstance(decisions, list):
            raise ScenarioError("decisions must be a list of option ids and {expect: ...} checkpoints")
        for seed in seeds:
            prefix = f"seed {seed}: " if len(seeds) > 1 else ""
            checks = _run_once(engine, data, seed, decisions, games, report.path)
            report.checks.extend(Check(prefix + c.name, c.ok, c.detail) for c in checks)
    except RulesError as exc:
        report.checks.append(Check("scenario", False, str(exc)))
    return report


def _seeds(data: dict[str, Any]) -> list[int]:
    if "seeds" in data and "seed" in data:
        raise ScenarioError("give seed: N or seeds: A..B, not both")
    if "seeds" not in data:
        return [whole(data.get("seed", 1), "seed")]
    value = data["seeds"]
    if isinstance(value, list):
        seeds = [whole(v, "seeds") for v in value]
    elif isinstance(value, str) and (m := re.fullmatch(r"\s*([0-9]+)\s*\.\.\s*([0-9]+)\s*", value)):
        first, last = number_text.whole(m.group(1), "seeds"), number_text.whole(m.group(2), "seeds")
        if last < first:
            raise ScenarioError(f"seeds: {value!r} is empty; write the smaller seed first (1..30)")
        seeds = list(range(first, min(last, first + MAX_SEEDS) + 1))
    else:
        raise ScenarioError(f"seeds must be a range such as 1..30 or a list of seeds, not {value!r}")
    if not seeds or len(seeds) > MAX_SEEDS:
        raise ScenarioError(f"seeds: give 1 to {MAX_SEEDS} seeds")
    return seeds


def _random_games(value: Any) -> int:
    """`then: random-games N` (or {random-games: N}): random continuations to play."""
    if value is None:
        return 0
    if isinstance(value, str) and (m := re.fullmatch(r"\s*random-games\s+([0-9]+)\s*", value)):
        n = number_text.whole(m.group(1), "then: random-games")
    elif isinstance(value, dict) and set(value) == {"random-games"}:
        n = whole(value["random-games"], "then: random-games")
    else:
        raise ScenarioError(f"then: expected 'random-games N', not {value!r}")
    if not 1 <= n <= MAX_RANDOM_GAMES:
        raise ScenarioError(f"then: random-games takes 1 to {MAX_RANDOM_GAMES} games, not {n}")
    return n


def _variants(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [value]  # one variant by name; a list gives several
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ScenarioError(f"variants must be a variant name or a list of names, not {value!r}")


def _run_once(
    engine: Engine, data: dict[str, Any], seed: int, decisions: list[Any], games: int, path: str = ""
) -> list[Check]:
    checks: list[Check] = []
    try:
        players = whole(data.get("players", 2), "players")
        watch = Watch()  # moments, points passed and forced choices; copies at `at:` stops
        seen = [0, 0]  # moments and forced choices already checked (by a checkpoint or `at:`)
        looked = first_forced = 0  # forced choices before the last decision's; those matched by `forced:`
        watch.stops = stops_after(engine, players, decisions, -1, path)
        if "position" in data:
            # laid out on the game as set-up leaves it, before the first turn starts
            st = engine.set_up(players, seed, _variants(data.get("variants")))
            with tracing(st, watch):
                note = set_position(engine, st, data["position"], data.get("unused"), path)
        else:
            st = engine.new_game(players, seed, _variants(data.get("variants")))
            note = ""
        checks.append(Check("set up the position", True, note))
        copies = iter(watch.copies)  # the copies taken at this decision's `at:` stops
        for i, step in enumerate(decisions):
            if isinstance(step, dict) and "at" in step:
                check_keys(step, {"at", "expect"}, f"decision {i + 1}")
                stop = watch_stop(engine, st.players, decisions, i, path)
                copy = next(copies, None)
                if copy is None:
                    passed = ", ".join(watch.passed) or "none"
                    checks.append(
                        Check(
                            f"at step {i + 1} ({stop.text})",
                            False,
                            f"{where(path, step, 'at')}the game did not pass {stop.text!r} (after the stops "
                            f"before it) before the next decision; it passed: {passed}",
                        )
                    )
                    continue
                at, moments, forced = copy
                expect = step.get("expect") or {}
                checks.extend(
                    check_expectations(
                        engine,
                        at,
                        expect,
                        f"at step {i + 1} ({stop.text})",
                        watch[seen[0] : moments],
                        settled=False,
                        forced=watch.forced_choices[seen[1] : forced],
                    )
                )
                if expect:
                    seen = [moments, forced]
                continue
            if isinstance(step, dict) and set(step) == {"forced"}:
                option = forced_option(step["forced"], f"{where(path, step, 'forced')}decision {i + 1}")
                taken = watch.forced_choices[looked:]
                ok = bool(taken) and same_choice(engine, taken[0], option)
                detail = ""
                if not ok:
                    found = f"the next one was {taken[0]!r}" if taken else "none was left"
                    detail = (
                        f"{where(path, step, 'forced')}expected a choice with one legal option, {option!r}, "
                        f"taken without asking; {found} (taken without asking in that decision: "
                        f"{watch.forced_choices[first_forced:] or 'none'})"
                    )
                checks.append(Check(f"step {i + 1} (forced: {option})", ok, detail))
                looked += 1
                continue
            if isinstance(step, dict) and set(step) == {"choose"}:
                option = chosen_option(engine, st, step["choose"], f"decision {i + 1}")
            elif isinstance(step, dict):
                if set(step) != {"expect"}:
                    raise ScenarioError(
                        f"{where(path, decisions, i)}decision {i + 1}: a step is an option id, "
                        "{choose: {card: ID}}, {expect: ...}, {at: POINT, expect: ...} or {forced: OPTION}"
                    )
                checks.extend(
                    check_expectations(
                        engine,
                        st,
                        step["expect"],
                        f"at step {i + 1}",
                        watch[seen[0] :],
                        forced=watch.forced_choices[seen[1] :],
                    )
                )
                seen = [len(watch), len(watch.forced_choices)]
                continue
            elif not isinstance(step, str | int) or isinstance(step, bool):
                raise ScenarioError(f"decision {i + 1}: an option id, not {step!r}")
            else:
                option = str(step)
                d = st.pending
                if d is not None and option not in d.options and option in engine.rules.card_index:
                    # a card offered by its place (the player cannot identify it): the
                    # file, which sees everything, may name it by what it is
                    option = chosen_option(engine, st, {"card": option}, f"decision {i + 1}")
            watch.stops = stops_after(engine, players, decisions, i, path)
            watch.copies = []
            watch.passed = []
            looked = first_forced = len(watch.forced_choices)
            try:
                with tracing(st, watch):
                    engine.apply(st, option)
            except RulesError as exc:
                checks.append(Check(f"step {i + 1} ({option})", False, str(exc)))
                return checks
            copies = iter(watch.copies)
            checks.append(Check(f"step {i + 1} ({option})", True))
        if "expect" in data:
            checks.extend(
                check_expectations(
                    engine,
                    st,
                    data["expect"],
                    "at the end",
                    watch[seen[0] :],
                    forced=watch.forced_choices[seen[1] :],
                )
            )
        if games:
            checks.append(random_continuations(engine, st, games, seed))
    except RulesError as exc:
        checks.append(Check("scenario", False, str(exc)))
    return checks


def random_continuations(engine: Engine, start: GameState, games: int, seed: int) -> Check:
    """Play random legal decisions from a position to the end, `games` times, checking the
    engine's invariants (every card in one place, no negative counter, a legal option
    always applies) after every decision."""
    name = f"then: {games} random games"
    for g in range(games):
        st = start.clone()
        bot = RandomBot(seed * 7919 + g)
        for n in range(MAX_RANDOM_DECISIONS):
            d = st.pending
            if d is None:
                break
            option = bot.choose(d)
            try:
                engine.apply(st, option)
            except RulesError as exc:
                return Check(name, False, f"game {g + 1}, decision {n + 1} ({option!r}): {exc}")
            problems = engine.check(st)
            if problems:
                return Check(name, False, f"game {g + 1}, after {option!r}: " + "; ".join(problems[:3]))
        else:
            return Check(name, False, f"game {g + 1} did not end within {MAX_RANDOM_DECISIONS} decisions")
        if not st.over:
            return Check(name, False, f"game {g + 1} stopped with no decision pending but is not over")
    return Check(name, True)


# ---- building a position -------------------------------------------------------------


def set_position(engine: Engine, st: GameState, pos: Any, unused: Any, path: str = "") -> str:
    """Lay the position out; returns what it took from zones it does not list, in words
    (or "" when nothing), which the report shows. `complete: true` makes such a take an
    error: the position then states every card it uses."""
    rules = engine.rules
    pos = check_keys(pos, POSITION_KEYS, "position")
    complete = pos.get("complete", False)
    if not isinstance(complete, bool):
        raise ScenarioError("position: complete is true or false")
    taken: dict[tuple[str, str], int] = {}  # (card id, unlisted zone) -> copies taken
    wanted: dict[str, list[dict[str, Any]]] = {}
    for name, value in mapping(pos.get("zones"), "position: zones", "{supply: [a, b]}").items():
        wanted[zone_key(engine, name, None)] = card_entries(value, f"zone {name}", path)
    for seat_key, zones in mapping(pos.get("players"), "position: players", "{1: {hand: [a]}}").items():
        seat = seat_of(st, seat_key)
        for name, value in mapping(zones, f"position: players: {seat_key}", "{hand: [a]}").items():
            wanted[zone_key(engine, name, seat)] = card_entries(value, f"player {seat + 1}'s {name}", path)
    # empty the listed zones into a pool
    pool: list[int] = []

    def release(card: int) -> None:
        cs = st.card_to_change(card)
        for c in cs.under:
            release(c)
        cs.under = ()
        cs.tokens = ()
        cs.marks = ()
        cs.seen = ()
        cs.loc = "?"
        pool.append(card)

    for key in wanted:
        for c in st.zones[key]:
            release(c)
        st.zones[key].clear()
    unlisted = [k for k in st.zones if k not in wanted]

    def take(card_id: str) -> int:
        t = rules.card_index.get(card_id)
        if t is None:
            hint = suggest(card_id, rules.card_index)
            raise ScenarioError(f"unknown card {card_id!r}" + (f" ({hint})" if hint else ""))
        for i, c in enumerate(pool):
            if st.cards[c].type == t:
                return pool.pop(i)
        for key in unlisted:
            for c in st.zones[key]:
                if st.cards[c].type == t and not st.cards[c].under:
                    if complete:
                        raise ScenarioError(
                            f"position: {card_id!r} is not in the zones the position lists (a copy is in "
                            f"{key!r}); with 'complete: true' list the zone it comes from, or drop 'complete'"
                        )
                    st.zones[key].remove(c)
                    taken[(card_id, key)] = taken.get((card_id, key), 0) + 1
                    return c
        raise ScenarioError(f"not enough copies of {card_id!r} for this position")

    def place(entry: dict[str, Any], dest: str) -> int:
        try:
            return lay(entry, dest)
        except ScenarioError as exc:  # said where the card is given, once (cards under cards nest)
            at = entry.get(AT, "")
            if not at or str(exc).startswith(path + ":"):
                raise
            raise ScenarioError(f"{at}{exc}") from None

    def lay(entry: dict[str, Any], dest: str) -> int:
        c = take(str(entry["card"]))
        cs = st.card_to_change(c)
        zt = rules.zones.get(dest.split(".")[0])
        default_up = zt is None or zt.facing != "down"
        cs.up = entry.get("face", "up" if default_up else "down") == "up"
        for sub in card_entries(entry.get("under", []), f"cards under {entry['card']}", path):
            u = place(sub, f"^{c}")
            cs.under = (*cs.under, u)
            st.card_to_change(u).loc = f"^{c}"
        cs.tokens = tuple(entry.get("tokens", []))
        cs.marks = tuple(dict.fromkeys(entry.get("marks", [])))
        cs.seen = tuple(dict.fromkeys(seat_of(st, p) for p in entry.get("peeked-by", [])))
        return c

    for key, entries in wanted.items():
        placed = [place(e, key) for e in entries]
        placed.reverse()  # the scenario lists top first; zones keep the top last
        for c in placed:
            st.card_to_change(c).loc = key
        st.zones[key] = placed
    note = ""
    if taken:
        note = "taken from zones the position does not list: " + ", ".join(
            f"{card} x{n} from {key}" for (card, key), n in taken.items()
        )
    if pool:
        if not unused:
            raise ScenarioError(
                "these cards were taken out of the listed zones and not placed again: "
                + left_over(engine, st, pool)
                + "; say where they go with 'unused: ZONE'"
            )
        ukey = zone_key(engine, unused, None)
        note += ("; " if note else "") + f"put in {unused}: " + left_over(engine, st, pool)
        for c in pool:
            cs = st.card_to_change(c)
            cs.loc = ukey
            cs.up = True
            st.zones[ukey].append(c)
    for name, values in mapping(pos.get("counters"), "position: counters", "{coins: [3, 0]}").items():
        if name not in st.counters:
            hint = suggest(str(name), st.counters)
            raise ScenarioError(f"unknown player counter {name!r}" + (f" ({hint})" if hint else ""))
        st.counters[name] = numbers(values, f"counter {name}", st.players)
    for name, value in mapping(pos.get("shared"), "position: shared", "{bank: 10}").items():
        if name not in st.shared:
            hint = suggest(str(name), st.shared)
            raise ScenarioError(f"unknown shared counter {name!r}" + (f" ({hint})" if hint else ""))
        st.shared[name] = whole(value, f"shared counter {name}")
    first = seat_of(st, pos.get("start-player", 1))
    active = seat_of(st, pos.get("active", first + 1))
    phases = [name for name, _ in rules.phases]
    phase = str(pos.get("phase", phases[0]))
    if phase not in phases:
        hint = suggest(phase, phases)
        raise ScenarioError(
            f"{where(path, pos, 'phase')}position: unknown phase {phase!r}"
            + (f" ({hint})" if hint else f"; phases: {', '.join(phases)}")
        )
    step = start_step(engine, pos, phase, path)
    _set_end(engine, st, pos)
    if "out" in pos:
        out = pos["out"]
        if not isinstance(out, list):
            raise ScenarioError("position: out is a list of seats, such as [2]")
        st.out = sorted({seat_of(st, p) for p in out})
    # the position says who plays now: a turn the set-up queued (its start player) is replaced
    queued = pos.get("next-turns", [])
    if not isinstance(queued, list):
        raise ScenarioError("position: next-turns is a list of seats, such as [2]")
    st.next_turns = [seat_of(st, p) for p in queued]
    st.first = first
    st.active = active
    st.turn = whole(pos.get("turn", st.turn), "position: turn")
    st.round = whole(pos.get("round", st.round), "position: round")
    st.pending = None
    st.failed = False
    st.phase = phase  # the game is under way (not in its set-up): the position says who plays
    st.frames = [Frame(rules.game_loop, active, -1, phases.index(phase), {}, None)]
    set_turn_state(engine, st, pos, path)
    start_inside(engine, st, pos, phase, step, path)
    problems = engine.check(st, settled=False)
    if problems:
        raise ScenarioError("the position is inconsistent: " + "; ".join(problems[:3]))
    run(rules, st)
    return note


def _set_end(engine: Engine, st: GameState, pos: dict[str, Any]) -> None:
    """`end-trigger: NAME`: the game's end is already triggered, by that trigger."""
    if "end-trigger" not in pos:
        if "extra-rounds-left" in pos:
            raise ScenarioError("extra-rounds-left needs end-trigger: the game's end must be triggered")
        return
    name = pos["end-trigger"]
    names = [t.name for t in engine.rules.end_triggers] + ["turn limit"]
    if name not in names:
        hint = suggest(str(name), names)
        known = f" ({hint})" if hint else f"; triggers: {', '.join(names)}"
        raise ScenarioError(f"end-trigger: the pack has no trigger {name!r}{known}")
    st.end_trigger = name
    if "extra-rounds-left" in pos:
        st.extra_rounds_left = whole(pos["extra-rounds-left"], "extra-rounds-left")
    else:  # as many as the pack grants when the trigger fires
        st.rules = engine.rules
        loop = engine.rules.effects[engine.rules.game_loop]
        assert isinstance(loop, GameLoop)
        st.extra_rounds_left = loop.extra_rounds.num(st, Frame(loop.eid, st.active))
