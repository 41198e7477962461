"""Scenario files: a position, decisions to apply, and expectations on the result.

See docs/scenarios.md for the format. Running one never raises for a user's mistake: a
bad file, an unknown card or an illegal decision is reported as a failed check.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import attrs
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError

from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import RulesError, suggest
from rules_dsl.interpreter import run
from rules_dsl.state import Frame, GameState

SCENARIO_KEYS = {
    "name",
    "description",
    "pack",
    "players",
    "seed",
    "variants",
    "unused",
    "position",
    "decisions",
    "expect",
}
POSITION_KEYS = {"active", "phase", "turn", "round", "counters", "shared", "zones", "players"}
EXPECT_KEYS = {
    "counters",
    "shared",
    "zones",
    "players",
    "decision",
    "over",
    "winners",
    "scores",
    "tiebreaks",
    "phase",
    "active",
    "turn",
    "round",
    "end-trigger",
    "log",
    "invariants",
}
CARD_KEYS = {"card", "face", "under", "tokens"}


class ScenarioError(RulesError):
    pass


@attrs.define
class Check:
    name: str
    ok: bool
    detail: str = ""


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
    elif isinstance(pack, list):
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
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
        report.checks.append(Check("read the file", False, f"not valid YAML at {where}: {exc.problem}"))
        return report
    except OSError as exc:
        report.checks.append(Check("read the file", False, str(exc)))
        return report
    return run_scenario(data, path.parent, report)


def run_scenario(data: Any, base: Path, report: Report) -> Report:
    try:
        if not isinstance(data, dict):
            raise ScenarioError("a scenario must be a mapping (name:, pack:, position:, decisions:, expect:)")
        _check_keys(data, SCENARIO_KEYS, "scenario")
        report.name = str(data.get("name", report.name))
        engine = _engine_for(data.get("pack", "base"), base)
        players = data.get("players", 2)
        variants = data.get("variants")
        st = engine.new_game(int(players), int(data.get("seed", 1)), variants)
        if "position" in data:
            set_position(engine, st, data["position"], data.get("unused"))
        report.checks.append(Check("set up the position", True))
        for i, step in enumerate(data.get("decisions") or []):
            if isinstance(step, dict):
                if set(step) != {"expect"}:
                    raise ScenarioError(f"decision {i + 1}: a step is an option id or {{expect: ...}}")
                report.checks.extend(check_expectations(engine, st, step["expect"], f"at step {i + 1}"))
                continue
            option = str(step)
            try:
                engine.apply(st, option)
            except RulesError as exc:
                report.checks.append(Check(f"step {i + 1} ({option})", False, str(exc)))
                return report
            report.checks.append(Check(f"step {i + 1} ({option})", True))
        if "expect" in data:
            report.checks.extend(check_expectations(engine, st, data["expect"], "at the end"))
    except RulesError as exc:
        report.checks.append(Check("scenario", False, str(exc)))
    return report


def _check_keys(node: dict[str, Any], known: set[str], where: str) -> None:
    for k in node:
        if k not in known:
            hint = suggest(str(k), known)
            raise ScenarioError(
                f"unknown key {k!r} in {where}" + (f" ({hint})" if hint else f"; known: {', '.join(sorted(known))}")
            )


# ---- building a position -------------------------------------------------------------


def _seat(engine: Engine, st: GameState, key: Any) -> int:
    try:
        seat = int(key)
    except (TypeError, ValueError):
        raise ScenarioError(f"players are numbered 1..{st.players}, not {key!r}") from None
    if not 1 <= seat <= st.players:
        raise ScenarioError(f"players are numbered 1..{st.players}, not {seat}")
    return seat - 1


def _zone_key(engine: Engine, st: GameState, name: str, seat: int | None) -> str:
    zones = engine.rules.zones
    if name not in zones:
        hint = suggest(name, zones)
        raise ScenarioError(f"unknown zone {name!r}" + (f" ({hint})" if hint else ""))
    zt = zones[name]
    if zt.per_player and seat is None:
        raise ScenarioError(f"zone {name!r} belongs to each player: give it under players: N:")
    if not zt.per_player and seat is not None:
        raise ScenarioError(f"zone {name!r} is shared: give it under zones:")
    return zt.key(seat if seat is not None else 0)


def _card_entries(value: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(value, dict) and set(value) == {"in-order"}:
        value = value["in-order"]
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list of cards")
    out = []
    for entry in value:
        if isinstance(entry, str):
            out.append({"card": entry})
        elif isinstance(entry, dict):
            _check_keys(entry, CARD_KEYS, f"a card of {where}")
            if "card" not in entry:
                raise ScenarioError(f"{where}: a card given as a mapping needs 'card: id'")
            if entry.get("face", "up") not in ("up", "down"):
                raise ScenarioError(f"{where}: face must be up or down")
            out.append(entry)
        else:
            raise ScenarioError(f"{where}: a card is its id or {{card:, face:, under:, tokens:}}")
    return out


def set_position(engine: Engine, st: GameState, pos: Any, unused: Any) -> None:
    rules = engine.rules
    if not isinstance(pos, dict):
        raise ScenarioError("position must be a mapping")
    _check_keys(pos, POSITION_KEYS, "position")
    wanted: dict[str, list[dict[str, Any]]] = {}
    for name, value in (pos.get("zones") or {}).items():
        wanted[_zone_key(engine, st, str(name), None)] = _card_entries(value, f"zone {name}")
    for seat_key, zones in (pos.get("players") or {}).items():
        seat = _seat(engine, st, seat_key)
        if not isinstance(zones, dict):
            raise ScenarioError(f"players: {seat_key}: expected zones such as hand: [...]")
        for name, value in zones.items():
            wanted[_zone_key(engine, st, str(name), seat)] = _card_entries(value, f"player {seat + 1}'s {name}")
    # empty the listed zones into a pool
    pool: list[int] = []

    def release(card: int) -> None:
        cs = st.cards[card]
        for c in cs.under:
            release(c)
        cs.under.clear()
        cs.tokens.clear()
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
                    st.zones[key].remove(c)
                    return c
        raise ScenarioError(f"not enough copies of {card_id!r} for this position")

    def place(entry: dict[str, Any], dest: str) -> int:
        c = take(str(entry["card"]))
        cs = st.cards[c]
        zt = rules.zones.get(dest.split(".")[0])
        default_up = zt is None or zt.facing != "down"
        cs.up = entry.get("face", "up" if default_up else "down") == "up"
        for sub in _card_entries(entry.get("under", []), f"cards under {entry['card']}"):
            u = place(sub, f"^{c}")
            cs.under.append(u)
            st.cards[u].loc = f"^{c}"
        tokens = entry.get("tokens", [])
        if not isinstance(tokens, list):
            raise ScenarioError(f"tokens of {entry['card']} must be a list")
        cs.tokens = [str(x) for x in tokens]
        return c

    for key, entries in wanted.items():
        placed = [place(e, key) for e in entries]
        placed.reverse()  # the scenario lists top first; zones keep the top last
        for c in placed:
            st.cards[c].loc = key
        st.zones[key] = placed
    if pool:
        if not unused:
            left = Counter(rules.cards[st.cards[c].type].id for c in pool)
            raise ScenarioError(
                "these cards were taken out of the listed zones and not placed again: "
                + ", ".join(f"{k} x{v}" for k, v in left.items())
                + "; say where they go with 'unused: ZONE'"
            )
        ukey = _zone_key(engine, st, str(unused), None)
        for c in pool:
            st.cards[c].loc = ukey
            st.cards[c].up = True
            st.zones[ukey].append(c)
    for name, values in (pos.get("counters") or {}).items():
        if name not in st.counters:
            hint = suggest(str(name), st.counters)
            raise ScenarioError(f"unknown player counter {name!r}" + (f" ({hint})" if hint else ""))
        if not isinstance(values, list) or len(values) != st.players:
            raise ScenarioError(f"counter {name}: give one number per player, e.g. [0, 0]")
        st.counters[name] = [int(v) for v in values]
    for name, value in (pos.get("shared") or {}).items():
        if name not in st.shared:
            hint = suggest(str(name), st.shared)
            raise ScenarioError(f"unknown shared counter {name!r}" + (f" ({hint})" if hint else ""))
        st.shared[name] = int(value)
    active = _seat(engine, st, pos.get("active", 1))
    phases = [name for name, _ in rules.phases]
    phase = str(pos.get("phase", phases[0]))
    if phase not in phases:
        hint = suggest(phase, phases)
        raise ScenarioError(f"unknown phase {phase!r}" + (f" ({hint})" if hint else f"; phases: {', '.join(phases)}"))
    st.active = active
    st.turn = int(pos.get("turn", st.turn))
    st.round = int(pos.get("round", st.round))
    st.pending = None
    st.failed = False
    st.frames = [Frame(rules.game_loop, active, -1, phases.index(phase), {}, None)]
    problems = engine.check(st, settled=False)
    if problems:
        raise ScenarioError("the position is inconsistent: " + "; ".join(problems[:3]))
    run(rules, st)


# ---- expectations --------------------------------------------------------------------


def _describe(engine: Engine, st: GameState, card: int, full: bool) -> str:
    cs = st.cards[card]
    name = engine.rules.cards[cs.type].id
    if not full:
        return name
    parts = ["up" if cs.up else "down"]
    if cs.under:
        parts.append("under: " + " ".join(sorted(_describe(engine, st, c, False) for c in cs.under)))
    if cs.tokens:
        parts.append("tokens: " + " ".join(sorted(cs.tokens)))
    return f"{name}({'; '.join(parts)})"


def _describe_entry(entry: dict[str, Any]) -> str:
    parts = [str(entry.get("face", "up"))]
    under = [u if isinstance(u, str) else str(u.get("card")) for u in entry.get("under", [])]
    if under:
        parts.append("under: " + " ".join(sorted(under)))
    if entry.get("tokens"):
        parts.append("tokens: " + " ".join(sorted(str(t) for t in entry["tokens"])))
    return f"{entry['card']}({'; '.join(parts)})"


def _compare_cards(engine: Engine, st: GameState, key: str, value: Any, where: str) -> Check:
    ordered = isinstance(value, dict) and set(value) == {"in-order"}
    entries = _card_entries(value, where)
    actual = list(reversed(st.zones[key]))  # top first, as scenarios list them
    full = [isinstance(e, dict) and set(e) != {"card"} for e in entries]
    want = [_describe_entry(e) if f else str(e["card"]) for e, f in zip(entries, full)]
    got_short = [_describe(engine, st, c, False) for c in actual]
    got_full = [_describe(engine, st, c, True) for c in actual]
    if ordered:
        got = [gf if f else gs for gf, gs, f in zip(got_full, got_short, full + [False] * len(actual))]
        ok = len(got) == len(want) and got == want
        return Check(where, ok, "" if ok else f"expected (top first) {want}, got {got_full}")
    remaining = list(range(len(actual)))
    missing = []
    for w, f in zip(want, full):
        found = next((i for i in remaining if (got_full[i] if f else got_short[i]) == w), None)
        if found is None:
            missing.append(w)
        else:
            remaining.remove(found)
    extra = [got_full[i] for i in remaining]
    ok = not missing and not extra
    detail = ""
    if not ok:
        shown = got_full if any(full) else got_short
        detail = f"expected {sorted(want)}, got {sorted(shown)}"
    return Check(where, ok, detail)


def check_expectations(engine: Engine, st: GameState, exp: Any, when: str) -> list[Check]:
    if not isinstance(exp, dict):
        raise ScenarioError("expect must be a mapping")
    _check_keys(exp, EXPECT_KEYS, "expect")
    checks: list[Check] = []

    def scalar(name: str, actual: Any, wanted: Any) -> None:
        ok = actual == wanted
        checks.append(Check(f"{when}: {name}", ok, "" if ok else f"expected {wanted!r}, got {actual!r}"))

    for name, values in (exp.get("counters") or {}).items():
        if name not in st.counters:
            raise ScenarioError(f"unknown player counter {name!r}")
        scalar(f"counter {name}", st.counters[name], values)
    for name, value in (exp.get("shared") or {}).items():
        if name not in st.shared:
            raise ScenarioError(f"unknown shared counter {name!r}")
        scalar(f"counter {name}", st.shared[name], value)
    for name, value in (exp.get("zones") or {}).items():
        key = _zone_key(engine, st, str(name), None)
        if isinstance(value, int):
            scalar(f"size of {name}", len(st.zones[key]), value)
        else:
            checks.append(_compare_cards(engine, st, key, value, f"{when}: zone {name}"))
    for seat_key, zones in (exp.get("players") or {}).items():
        seat = _seat(engine, st, seat_key)
        for name, value in zones.items():
            if name in st.counters:
                scalar(f"player {seat + 1}'s {name}", st.counters[name][seat], value)
                continue
            key = _zone_key(engine, st, str(name), seat)
            if isinstance(value, int):
                scalar(f"size of player {seat + 1}'s {name}", len(st.zones[key]), value)
            else:
                checks.append(_compare_cards(engine, st, key, value, f"{when}: player {seat + 1}'s {name}"))
    if "decision" in exp:
        d = exp["decision"]
        if d is None or d == "none":
            scalar("no decision pending", st.pending is None, True)
        else:
            if st.pending is None:
                checks.append(Check(f"{when}: decision", False, "expected a decision, but none is pending"))
            else:
                if "player" in d:
                    scalar("deciding player", st.pending.player + 1, d["player"])
                if "options" in d:
                    scalar("options", list(st.pending.options), list(d["options"]))
                if "prompt" in d:
                    scalar("prompt", st.pending.prompt, d["prompt"])
    for key, attr in (
        ("over", "over"),
        ("phase", "phase"),
        ("turn", "turn"),
        ("round", "round"),
        ("end-trigger", "end_trigger"),
    ):
        if key in exp:
            scalar(key, getattr(st, attr), exp[key])
    if "active" in exp:
        scalar("active player", st.active + 1, exp["active"])
    if "winners" in exp:
        scalar("winners", [w + 1 for w in st.winners], exp["winners"])
    if "scores" in exp:
        scalar("scores", st.scores, exp["scores"])
    if "tiebreaks" in exp:
        scalar("tie-breaks", st.tiebreaks, exp["tiebreaks"])
    if "log" in exp:
        scalar("decision log", st.log, exp["log"])
    if "invariants" in exp:
        checks.extend(_invariant_checks(engine, st, exp["invariants"], when))
    problems = engine.check(st)
    checks.append(Check(f"{when}: state consistent", not problems, "; ".join(problems[:3])))
    return checks


def _invariant_checks(engine: Engine, st: GameState, wanted: Any, when: str) -> list[Check]:
    """`invariants: {NAME: WANTED}`: pack or engine invariants (see rules_dsl/checking/expectations.py)."""
    from rules_dsl.checking.expectations import check_named

    if not isinstance(wanted, dict):
        raise ScenarioError("invariants: give {NAME: true} (or a number, {at-least: N}, {at-most: N})")
    out = []
    for name, value in wanted.items():
        ok, detail = check_named(engine, st, str(name), value)
        out.append(Check(f"{when}: invariant {name}", ok, detail))
    return out
