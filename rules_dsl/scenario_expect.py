"""Scenario expectations: what must hold at a checkpoint or at the end (docs/scenarios.md).

Every check becomes a `Check` (passed or failed, with what was expected and what was
found); a mistake in the expectation itself raises `ScenarioError`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import attrs

from rules_dsl.effects.primitives import Note
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError, suggest
from rules_dsl.state import GameState

EXPECT_KEYS = {
    "counters",
    "shared",
    "zones",
    "players",
    "together",
    "decision",
    "sees",
    "over",
    "winners",
    "scores",
    "tiebreaks",
    "current-scores",
    "current-tiebreaks",
    "current-breakdown",
    "phase",
    "active",
    "start-player",
    "out",
    "next-turns",
    "turn",
    "round",
    "end-trigger",
    "log",
    "invariants",
    "option-facts",
    "trace",
    "forced",
    "notes",
}
CARD_KEYS = {"card", "face", "under", "tokens", "marks", "peeked-by"}
LIST_FORMS = "a list, a size, {in-order: [...]}, {contains: [...], excludes: [...]} or {one-of: [...]}"
HIDDEN = "?"  # a card a player sees only the back of (or not at all, in a hidden zone)


class ScenarioError(RulesError):
    pass


@attrs.define
class Check:
    name: str
    ok: bool
    detail: str = ""


def check_keys(node: Any, known: set[str], where: str) -> dict[str, Any]:
    """The node as a mapping whose keys are all known; a clear error otherwise."""
    if node is None:
        return {}
    if not isinstance(node, dict):
        raise ScenarioError(f"{where} must be a mapping ({', '.join(sorted(known))})")
    for k in node:
        if k not in known:
            hint = suggest(str(k), known)
            raise ScenarioError(
                f"unknown key {k!r} in {where}" + (f" ({hint})" if hint else f"; known: {', '.join(sorted(known))}")
            )
    return node


def where(path: str, node: Any, key: Any) -> str:
    """`FILE:LINE:COL: ` of a value in the file (`key` a mapping's key or a list's index),
    as a message's prefix; "" when the file's positions are not known (data given in code)."""
    lc = getattr(node, "lc", None)
    try:
        line, col = lc.value(key) if isinstance(node, dict) else lc.item(key)  # type: ignore[union-attr]
    except (AttributeError, KeyError, IndexError, TypeError):
        return ""
    return f"{path}:{line + 1}:{col + 1}: " if path else f"line {line + 1}, column {col + 1}: "


def key_where(path: str, node: Any, key: Any) -> str:
    """`FILE:LINE:COL: ` of a mapping's key itself (`where` gives its value's), for a
    message about the key; "" when not known."""
    try:
        line, col = node.lc.key(key)
    except (AttributeError, KeyError, TypeError):
        return ""
    return f"{path}:{line + 1}:{col + 1}: " if path else f"line {line + 1}, column {col + 1}: "


def mapping(node: Any, where: str, example: str) -> dict[Any, Any]:
    if node is None:
        return {}
    if not isinstance(node, dict):
        raise ScenarioError(f"{where} must be a mapping, e.g. {example}")
    return node


def whole(value: Any, where: str) -> int:
    """A whole number from the file: `two`, `'3'`, `1.5` and `true` are mistakes, not numbers."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{where} must be a whole number, not {value!r}")
    return value


def numbers(value: Any, where: str, count: int) -> list[int]:
    if not isinstance(value, list) or len(value) != count:
        raise ScenarioError(f"{where}: give one whole number per player, e.g. {[0] * count}")
    return [whole(v, where) for v in value]


def seat_of(st: GameState, key: Any) -> int:
    """A seat as the file numbers it (1..players) -> the state's index. A seat is a number,
    as everywhere in the file (`active: '1'` is text, refused like `turn: '1'`)."""
    if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= st.players:
        raise ScenarioError(f"players are numbered 1..{st.players}, not {key!r}")
    return key - 1


def zone_key(engine: Engine, name: Any, seat: int | None) -> str:
    zones = engine.rules.zones
    name = str(name)
    if name not in zones:
        hint = suggest(name, zones)
        raise ScenarioError(f"unknown zone {name!r}" + (f" ({hint})" if hint else ""))
    zt = zones[name]
    if zt.per_player and seat is None:
        raise ScenarioError(f"zone {name!r} belongs to each player: give it under players: N:")
    if not zt.per_player and seat is not None:
        raise ScenarioError(f"zone {name!r} is shared: give it under zones:")
    return zt.key(seat if seat is not None else 0)


_COPIES = re.compile(r"([0-9]{1,6}) *x +(\S+)")
MAX_COPIES_SHORTHAND = 10_000


# the key under which `card_entries` keeps where in the file a card was given ("FILE:L:C: ")
AT = "@at"


def card_entries(value: Any, subject: str, path: str = "") -> list[dict[str, Any]]:
    """A list of cards (ids or {card:, face:, under:, tokens:, marks:, peeked-by:} mappings)
    as mappings; with the file's `path`, each also says where it was given (key `AT`)."""
    if isinstance(value, dict) and set(value) == {"in-order"}:
        value = value["in-order"]
    if not isinstance(value, list):
        raise ScenarioError(f"{subject}: expected a list of cards")
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(value):
        if path:
            given = len(out)
            at = where(path, entry, "card") if isinstance(entry, dict) else where(path, value, i)
        copies = _COPIES.fullmatch(entry) if isinstance(entry, str) else None
        if copies is not None:  # "3 x ID": three copies, so a long pile need not be written card by card
            n = int(copies.group(1))
            if not 1 <= n <= MAX_COPIES_SHORTHAND:
                raise ScenarioError(f"{subject}: {entry!r}: from 1 to {MAX_COPIES_SHORTHAND} copies")
            out.extend({"card": copies.group(2)} for _ in range(n))
        elif isinstance(entry, str):
            out.append({"card": entry})
        elif isinstance(entry, dict):
            check_keys(entry, CARD_KEYS, f"a card of {subject}")
            if not isinstance(entry.get("card"), str):
                raise ScenarioError(f"{subject}: a card given as a mapping needs 'card: id'")
            if entry.get("face", "up") not in ("up", "down"):
                raise ScenarioError(f"{subject}: face must be up or down")
            for key, kind in (("tokens", str), ("marks", str), ("peeked-by", int)):
                items = entry.get(key, [])
                if not isinstance(items, list) or not all(
                    isinstance(i, kind) and not isinstance(i, bool) for i in items
                ):
                    what = "token kinds" if key == "tokens" else "mark names" if key == "marks" else "seats (1, 2, ...)"
                    raise ScenarioError(f"{subject}: {key} of {entry['card']} must be a list of {what}")
            out.append(entry)
        else:
            raise ScenarioError(
                f"{subject}: a card is its id or {{card:, face:, under:, tokens:, marks:, peeked-by:}}, not {entry!r}"
            )
        if path and at:
            for k in range(given, len(out)):
                out[k] = {**out[k], AT: at}
    return out


# ---- describing cards ------------------------------------------------------------------


def describe(engine: Engine, st: GameState, card: int, level: int) -> str:
    """A card as an expectation at `level` compares it: 0 its id, 1 also its facing, the
    cards under it and its tokens, 2 also its marks and who has peeked at it."""
    cs = st.cards[card]
    name = engine.rules.cards[cs.type].id
    if not level:
        return name
    parts = ["up" if cs.up else "down"]
    if cs.under:
        parts.append("under: " + " ".join(sorted(describe(engine, st, c, 0) for c in cs.under)))
    if cs.tokens:
        parts.append("tokens: " + " ".join(sorted(cs.tokens)))
    if level > 1 and cs.marks:
        parts.append("marks: " + " ".join(sorted(cs.marks)))
    if level > 1 and cs.seen:
        parts.append("peeked-by: " + " ".join(str(p + 1) for p in sorted(cs.seen)))
    return f"{name}({'; '.join(parts)})"


def describe_entry(entry: dict[str, Any]) -> str:
    parts = [str(entry.get("face", "up"))]
    under = [u if isinstance(u, str) else str(u.get("card")) for u in entry.get("under", [])]
    if under:
        parts.append("under: " + " ".join(sorted(under)))
    if entry.get("tokens"):
        parts.append("tokens: " + " ".join(sorted(str(t) for t in entry["tokens"])))
    if entry.get("marks"):
        parts.append("marks: " + " ".join(sorted(str(m) for m in entry["marks"])))
    if entry.get("peeked-by"):
        parts.append("peeked-by: " + " ".join(str(p) for p in sorted(entry["peeked-by"])))
    return f"{entry['card']}({'; '.join(parts)})"


# ---- comparing a list of cards -----------------------------------------------------------

Levels = tuple[list[str], list[str], list[str]]  # the cards found, top first, at each `describe` level


def compare(actual: Levels, value: Any, where: str) -> tuple[bool, str]:
    """Compare cards found (top first, described at each level) with an expectation.

    The expectation is a size, a multiset, {in-order: [...]}, {contains:, excludes:} or
    {one-of: [...]} of any of those. Returns (ok, what differs).
    """
    short, full = actual[0], actual[1]
    if isinstance(value, bool):
        raise ScenarioError(f"{where}: expected {LIST_FORMS}")
    if isinstance(value, int):
        ok = len(short) == value
        return ok, "" if ok else f"expected {value} cards, got {len(short)}: {short}"
    if isinstance(value, dict) and "one-of" in value:
        if set(value) != {"one-of"} or not isinstance(value["one-of"], list) or not value["one-of"]:
            raise ScenarioError(f"{where}: one-of takes a list of expectations, e.g. {{one-of: [[a, b], [c]]}}")
        misses = []
        for alt in value["one-of"]:
            ok, why = compare(actual, alt, where)
            if ok:
                return True, ""
            misses.append(why)
        return False, "none of the alternatives holds: " + " / ".join(misses)
    if isinstance(value, dict) and set(value) & {"contains", "excludes"}:
        check_keys(value, {"contains", "excludes"}, where)
        problems = []
        if "contains" in value:
            left = list(range(len(short)))
            for e in card_entries(value["contains"], where):
                want, level = _wanted(e)
                found = next((i for i in left if actual[level][i] == want), None)
                if found is None:
                    problems.append(f"does not contain {want}")
                else:
                    left.remove(found)
        for e in card_entries(value.get("excludes", []), where):
            want, level = _wanted(e)
            if want in actual[level]:
                problems.append(f"contains {want}")
        return not problems, "; ".join(problems) + (f" (got {full})" if problems else "")
    if isinstance(value, dict) and set(value) != {"in-order"}:
        raise ScenarioError(f"{where}: expected {LIST_FORMS}")
    ordered = isinstance(value, dict)
    wanted = [_wanted(e) for e in card_entries(value, where)]
    shown = actual[max((level for _, level in wanted), default=0)]
    if ordered:
        got = [(actual[wanted[i][1]][i] if i < len(wanted) else s) for i, s in enumerate(short)]
        ok = got == [w for w, _ in wanted]
        return ok, "" if ok else f"expected (top first) {[w for w, _ in wanted]}, got {shown}"
    left = list(range(len(short)))
    missing = []
    for want, level in wanted:
        found = next((i for i in left if actual[level][i] == want), None)
        if found is None:
            missing.append(want)
        else:
            left.remove(found)
    ok = not missing and not left
    return ok, "" if ok else f"expected {sorted(w for w, _ in wanted)}, got {sorted(shown)}"


def _wanted(entry: dict[str, Any]) -> tuple[str, int]:
    """How a listed card is compared: by id only (level 0), or, a mapping, by its full
    description (1), with its marks and peeks when the mapping states either (2)."""
    if set(entry) == {"card"}:
        return str(entry["card"]), 0
    return describe_entry(entry), 2 if {"marks", "peeked-by"} & set(entry) else 1


def compare_zones(engine: Engine, st: GameState, keys: list[str], value: Any, where: str) -> Check:
    cards = [c for key in keys for c in reversed(st.zones[key])]  # top first, as scenarios list them
    levels = ([describe(engine, st, c, 0) for c in cards], [describe(engine, st, c, 1) for c in cards])
    ok, detail = compare((*levels, [describe(engine, st, c, 2) for c in cards]), value, where)
    return Check(where, ok, detail)


# ---- observations -----------------------------------------------------------------------


def seen_cards(view: Any) -> list[str]:
    """A zone as one player's observation shows it, top first: card ids, '?' for a back."""
    if isinstance(view, dict):  # a hidden zone: its size and the cards the player knows
        shown = [HIDDEN] * view["count"]
        for known in view.get("known", []):
            shown[known["from top"]] = known["card"]
        if "top" in view:  # a zone that shows its top card
            shown[0] = view["top"].get("card", HIDDEN)
        return shown
    return [v.get("card", HIDDEN) for v in reversed(view)]


def seen_backs(view: Any) -> list[str]:
    """Like seen_cards, with each back as `?(PROP: VALUE; ...)`: the properties the pack
    prints on the back of its kind (vocabulary kinds' `back:`)."""
    if isinstance(view, dict):
        return seen_cards(view)
    return [v["card"] if "card" in v else _back(v.get("back", {})) for v in reversed(view)]


def _back(props: Any) -> str:
    if not isinstance(props, dict):
        raise ScenarioError(f"a back is {{back: {{PROPERTY: VALUE, ...}}}}, not {props!r}")
    return HIDDEN + "(" + "; ".join(f"{k}: {props[k]}" for k in sorted(props, key=str)) + ")"


def _mentions_backs(value: Any) -> bool:
    if isinstance(value, dict):
        return "back" in value or any(_mentions_backs(v) for v in value.values())
    if isinstance(value, list):
        return any(_mentions_backs(v) for v in value)
    return False


def _backs_as_ids(value: Any) -> Any:
    """An expectation with each `{back: {...}}` card written as the back's description."""
    if isinstance(value, dict) and set(value) == {"back"}:
        return _back(value["back"])
    if isinstance(value, dict) and "back" in value:
        raise ScenarioError(f"a card seen as its back is {{back: {{PROPERTY: VALUE, ...}}}} alone, not {value!r}")
    if isinstance(value, dict):
        return {k: _backs_as_ids(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_backs_as_ids(v) for v in value]
    return value


SEES_KEYS = {"zones", "players", "decision"}


def check_sees(engine: Engine, st: GameState, value: Any, when: str) -> list[Check]:
    checks = []
    for seat_key, what in mapping(value, "sees", "{2: {players: {1: {hand: 5}}}}").items():
        seat = seat_of(st, seat_key)
        what = check_keys(what, SEES_KEYS, f"sees: {seat_key}")
        obs = engine.observe(st, seat)
        label = f"{when}: player {seat + 1} sees"
        targets: list[tuple[str, Any, str]] = []
        for name, v in mapping(what.get("zones"), f"sees: {seat_key}: zones", "{draw-pile: 3}").items():
            targets.append((zone_key(engine, name, None), v, f"{label} zone {name}"))
        for owner_key, zones in mapping(what.get("players"), f"sees: {seat_key}: players", "{1: {hand: 5}}").items():
            owner = seat_of(st, owner_key)
            for name, v in mapping(zones, f"sees: {seat_key}: players: {owner_key}", "{hand: 5}").items():
                targets.append((zone_key(engine, name, owner), v, f"{label} player {owner + 1}'s {name}"))
        for key, v, where in targets:
            if _mentions_backs(v):  # backs described by what is printed on them, not "?"
                shown = seen_backs(obs["zones"][key])
                v = _backs_as_ids(v)
            else:
                shown = seen_cards(obs["zones"][key])
            ok, detail = compare((shown, shown, shown), v, where)
            checks.append(Check(where, ok, detail))
        if "decision" in what:
            checks.append(_seen_decision(obs["decision"], what["decision"], label))
    return checks


def _seen_decision(got: dict[str, Any] | None, d: Any, label: str) -> Check:
    """`decision: none`, or {options: [...], prompt: ...} as the player's observation shows it."""
    if d is None or d == "none":
        return Check(f"{label} no decision of theirs", got is None, "" if got is None else f"they decide: {got}")
    d = check_keys(d, {"options", "prompt"}, "sees: decision")
    if got is None:
        return Check(f"{label} a decision of theirs", False, "no decision is theirs now")
    want = {k: ([str(o) for o in v] if k == "options" and isinstance(v, list) else v) for k, v in d.items()}
    shown = {k: got[k] for k in want}
    return Check(f"{label} their decision", shown == want, "" if shown == want else f"expected {want}, got {shown}")


# ---- the checks ---------------------------------------------------------------------------


DECISION_KEYS = {"player", "options", "prompt"}


def check_expectations(
    engine: Engine,
    st: GameState,
    exp: Any,
    when: str,
    trace: list[str] | None = None,
    settled: bool = True,
    forced: list[str] | None = None,
) -> list[Check]:
    """`trace` and `forced`: the moments announced and the choices taken without asking
    since the previous checkpoint, where the caller watches; `settled` False: the game is
    looked at inside a decision (an `at:` stop), where no decision is pending yet."""
    exp = check_keys(exp, EXPECT_KEYS, "expect")
    checks: list[Check] = []

    def scalar(name: str, actual: Any, wanted: Any) -> None:
        ok = actual == wanted
        checks.append(Check(f"{when}: {name}", ok, "" if ok else f"expected {wanted!r}, got {actual!r}"))

    for name, values in mapping(exp.get("counters"), "expect: counters", "{coins: [1, 2]}").items():
        if name not in st.counters:
            raise ScenarioError(f"unknown player counter {name!r}")
        scalar(f"counter {name}", st.counters[name], values)
    for name, value in mapping(exp.get("shared"), "expect: shared", "{bank: 20}").items():
        if name not in st.shared:
            raise ScenarioError(f"unknown shared counter {name!r}")
        scalar(f"counter {name}", st.shared[name], value)
    for name, value in mapping(exp.get("zones"), "expect: zones", "{draw-pile: 3}").items():
        key = zone_key(engine, name, None)
        checks.append(compare_zones(engine, st, [key], value, f"{when}: zone {name}"))
    for seat_key, zones in mapping(exp.get("players"), "expect: players", "{1: {hand: 5}}").items():
        seat = seat_of(st, seat_key)
        for name, value in mapping(zones, f"expect: players: {seat_key}", "{hand: [scout], coins: 3}").items():
            if name in st.counters:
                scalar(f"player {seat + 1}'s {name}", st.counters[name][seat], value)
                continue
            key = zone_key(engine, name, seat)
            checks.append(compare_zones(engine, st, [key], value, f"{when}: player {seat + 1}'s {name}"))
    together = exp.get("together", [])
    if not isinstance(together, list):
        raise ScenarioError("together: a list of {player: N, zones: [hand, deck], cards: [...]}")
    for i, group in enumerate(together):
        keys, label = _together_zones(engine, st, group, f"together item {i + 1}")
        cards = group["cards"]
        if isinstance(cards, dict) and "in-order" in cards:
            raise ScenarioError(f"together item {i + 1}: cards over several zones have no order")
        checks.append(compare_zones(engine, st, keys, cards, f"{when}: {label}"))
    if "decision" in exp:
        _check_decision(st, exp["decision"], when, checks, scalar)
    if "sees" in exp:
        checks.extend(check_sees(engine, st, exp["sees"], when))
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
    if "start-player" in exp:
        scalar("start player", st.first + 1, exp["start-player"])
    if "out" in exp:
        scalar("players out of the turn order", [p + 1 for p in st.out], exp["out"])
    if "next-turns" in exp:
        scalar("players to take the next turns", [p + 1 for p in st.next_turns], exp["next-turns"])
    if "winners" in exp:
        scalar("winners", [w + 1 for w in st.winners], exp["winners"])
    if "scores" in exp:
        scalar("scores", st.scores, exp["scores"])
    if "tiebreaks" in exp:
        scalar("tie-breaks", st.tiebreaks, exp["tiebreaks"])
    if {"current-scores", "current-tiebreaks", "current-breakdown"} & set(exp):
        scores, ties, breakdown = engine.score_now(st)
        if "current-scores" in exp:
            scalar("current scores", scores, exp["current-scores"])
        if "current-tiebreaks" in exp:
            scalar("current tie-breaks", ties, exp["current-tiebreaks"])
        for name, parts in mapping(exp.get("current-breakdown"), "current-breakdown", "{cards: [2, 0]}").items():
            if name not in breakdown:
                hint = suggest(str(name), breakdown)
                known = f" ({hint})" if hint else f"; parts: {', '.join(breakdown)}"
                raise ScenarioError(f"the pack's score has no part {name!r}{known}")
            scalar(f"current {name}", breakdown[name], parts)
    if "log" in exp:
        scalar("decision log", st.log, exp["log"])
    if "invariants" in exp:
        checks.extend(_invariant_checks(engine, st, exp["invariants"], when))
    if "option-facts" in exp:
        checks.extend(_option_facts(engine, st, exp["option-facts"], when))
    _check_notes(engine, st, exp.get("notes"), when, scalar)
    if "trace" in exp:
        if trace is None:
            raise ScenarioError("trace: is checked in a scenario's checkpoints and its final expect only")
        _check_list(checks, f"{when}: moments announced", list(trace), exp["trace"], "trace")
    if "forced" in exp:
        if forced is None:
            raise ScenarioError("forced: is checked in a scenario's checkpoints and its final expect only")
        _check_list(checks, f"{when}: choices taken without asking", forced, exp["forced"], "forced")
    problems = engine.check(st, settled=settled)
    checks.append(Check(f"{when}: state consistent", not problems, "; ".join(problems[:3])))
    return checks


def note_name_problem(engine: Engine, name: Any) -> str:
    """Why `name` is no name the pack notes words under (`note the kind as NAME`), or ""."""
    known = sorted({e.name for e in engine.rules.effects if isinstance(e, Note)})
    if name in known:
        return ""
    hint = suggest(str(name), known)
    listed = f"the pack notes: {', '.join(known)}" if known else "the pack notes nothing"
    return f"no card or rule notes anything as {name!r}" + (f" ({hint})" if hint else "") + f"; {listed}"


def noted_words(words: Any, name: Any, what: str) -> list[str]:
    """A `notes:` list of the words noted under `name`, each once, as `note` keeps them."""
    if not isinstance(words, list) or not all(isinstance(w, str | int) and not isinstance(w, bool) for w in words):
        raise ScenarioError(f"{what}: {name} is a list of the words noted, such as [water]")
    return list(dict.fromkeys(str(w) for w in words))


def _check_notes(engine: Engine, st: GameState, given: Any, when: str, scalar: Any) -> None:
    """`notes: {SEAT: {NAME: [WORD, ...]}}`: the words each player has noted under NAME, in
    the order noted (`[]`: none), as a position states them."""
    for seat_key, notes in mapping(given, "expect: notes", "{1: {sold: [water]}}").items():
        seat = seat_of(st, seat_key)
        for name, words in mapping(notes, f"expect: notes: {seat_key}", "{sold: [water]}").items():
            problem = note_name_problem(engine, name)
            if problem:
                raise ScenarioError(f"expect: notes: {problem}")
            wanted = noted_words(words, name, "expect: notes")
            scalar(f"player {seat + 1}'s {name} notes", st.notes.get(f"{name}.{seat}", []), wanted)


def _check_list(checks: list[Check], name: str, got: list[str], wanted: Any, key: str) -> None:
    """`trace:` or `forced:`: the exact list, or {contains: [...]} for some of it in that order."""
    if isinstance(wanted, dict) and set(wanted) == {"contains"}:
        it = iter(got)  # the items listed, in this order, others between them allowed
        ok = all(any(m == str(w) for m in it) for w in _strings(wanted["contains"], f"{key}: contains"))
        checks.append(Check(name, ok, "" if ok else f"expected {wanted['contains']} in this order among {got}"))
        return
    items = _strings(wanted, key)
    ok = got == items
    checks.append(Check(name, ok, "" if ok else f"expected {items!r}, got {got!r}"))


def _together_zones(engine: Engine, st: GameState, group: Any, where: str) -> tuple[list[str], str]:
    """The zones of a `together` item and how the report names them. `player:` is a seat,
    a list of seats or `all`, whose per-player zones count; a zone may also be
    `{zone: NAME, player: SEAT}`, one player's, so a multiset can span players (a hand
    passed on, a card traded)."""
    group = check_keys(group, {"player", "zones", "cards"}, where)
    names = group.get("zones")
    if not isinstance(names, list) or not names or "cards" not in group:
        raise ScenarioError(f"{where}: give zones: [ZONE, ...] and cards: [...]")
    owners: list[int] = []
    if "player" in group:
        value = group["player"]
        if value == "all":
            owners = list(range(st.players))
        elif isinstance(value, list) and value:
            owners = sorted({seat_of(st, v) for v in value})
        else:
            owners = [seat_of(st, value)]
    zts = engine.rules.zones
    keys: list[str] = []
    parts: list[str] = []
    for n in names:
        if isinstance(n, dict):
            n = check_keys(n, {"zone", "player"}, f"a zone of {where}")
            if "zone" not in n or "player" not in n:
                raise ScenarioError(f"{where}: one player's zone is {{zone: NAME, player: SEAT}}")
            seat = seat_of(st, n["player"])
            keys.append(zone_key(engine, n["zone"], seat))
            parts.append(f"player {seat + 1}'s {n['zone']}")
        elif str(n) in zts and zts[str(n)].per_player:
            if not owners:
                raise ScenarioError(f"{where}: zone {n!r} belongs to each player: give player: (a seat, a list or all)")
            keys.extend(zone_key(engine, n, p) for p in owners)
            parts.extend(f"player {p + 1}'s {n}" for p in owners)
        else:
            keys.append(zone_key(engine, n, None))
            parts.append(str(n))
    if len(set(keys)) != len(keys):
        raise ScenarioError(f"{where}: a zone is listed twice")
    if len(owners) == 1 and not any(isinstance(n, dict) for n in names):  # one player's zones
        return keys, f"player {owners[0] + 1}'s " + " + ".join(map(str, names))
    return keys, " + ".join(parts)


def _invariant_checks(engine: Engine, st: GameState, wanted: Any, when: str) -> list[Check]:
    """`invariants: {NAME: WANTED}`: pack or engine invariants (see rules_dsl/checking/expectations.py)."""
    from rules_dsl.checking.expectations import check_named

    wanted = mapping(wanted, "expect: invariants", "{NAME: true} (or a number, {at-least: N}, {at-most: N})")
    out = []
    for name, value in wanted.items():
        ok, detail = check_named(engine, st, str(name), value)
        out.append(Check(f"{when}: invariant {name}", ok, detail))
    return out


def _option_facts(engine: Engine, st: GameState, facts: Any, when: str) -> list[Check]:
    """`option-facts: {OPTION: {...}}`: what an option offered now would cost or do, checked
    on a copy of the game that takes it (and runs to the next decision); the game itself
    goes on untaken."""
    out = []
    d = st.pending
    for option, exp in mapping(facts, "expect: option-facts", "{OPTION: {counters: {coins: [1, 0]}}}").items():
        option = str(option)
        where = f"{when}: if {option!r} were taken"
        if d is None or option not in d.options:
            legal = ", ".join(repr(o) for o in d.options) if d is not None else "none (no decision is pending)"
            out.append(Check(where, False, f"{option!r} is not offered now; the options: {legal}"))
            continue
        copy = st.clone()
        try:
            engine.apply(copy, option)
        except RulesError as exc:
            out.append(Check(where, False, str(exc)))
            continue
        out.extend(check_expectations(engine, copy, exp, where))
    return out


def _check_decision(st: GameState, d: Any, when: str, checks: list[Check], scalar: Any) -> None:
    if d is None or d == "none":
        scalar("no decision pending", st.pending is None, True)
        return
    d = check_keys(d, DECISION_KEYS, "expect: decision")
    if st.pending is None:
        checks.append(Check(f"{when}: decision", False, "expected a decision, but none is pending"))
        return
    if "player" in d:
        scalar("deciding player", st.pending.player + 1, d["player"])
    if "options" in d:
        options = d["options"]
        if isinstance(options, list):
            scalar("options", list(st.pending.options), [str(o) for o in options])
        else:
            options = check_keys(options, {"contains", "excludes"}, "expect: decision: options")
            legal = list(st.pending.options)
            shown = f"options: {legal}"
            for o in _strings(options.get("contains", []), "contains"):
                checks.append(Check(f"{when}: options contain {o!r}", o in legal, "" if o in legal else shown))
            for o in _strings(options.get("excludes", []), "excludes"):
                checks.append(Check(f"{when}: options exclude {o!r}", o not in legal, "" if o not in legal else shown))
    if "prompt" in d:
        scalar("prompt", st.pending.prompt, d["prompt"])


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"options: {where} takes a list of option ids")
    return [str(v) for v in value]


def left_over(engine: Engine, st: GameState, pool: list[int]) -> str:
    left = Counter(engine.rules.cards[st.cards[c].type].id for c in pool)
    return ", ".join(f"{k} x{v}" for k, v in left.items())
