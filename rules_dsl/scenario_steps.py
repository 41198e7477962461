"""Scenario decisions: options named by card instead of by id, and the watch over what
happens inside a decision: the moments it announces, the points of the turn it passes
(`at:` stops) and the choices it takes without asking (`forced:`) (docs/scenarios.md).

`choose: {card: ID}` picks the pending decision's option for that card, wherever the
card is and whatever its option id (`ID`, `ID@discard.p2`, `ID#12`, `ID:KIND`),
so one file can run over many seeds and seats; `zone:` and `player:` narrow it down when
copies of the card are offered from several places.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from rules_dsl.effects.abilities import Announce
from rules_dsl.effects.base import Effect
from rules_dsl.effects.control import LOOPS, Call, ForPlayers, Scope
from rules_dsl.effects.turns import GameLoop
from rules_dsl.engine import Engine
from rules_dsl.errors import suggest
from rules_dsl.rules import ability_names
from rules_dsl.scenario_expect import ScenarioError, check_keys, seat_of, where
from rules_dsl.scenario_phase import phase_steps, steps_listed, steps_of
from rules_dsl.state import GameState, Trace

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


# ---- watching inside a decision: `at:` stops and `forced:` choices -------------------


@attrs.define
class Stop:
    """A point inside a decision that an `at:` step names: a boundary of the turn
    ("start of buy", "end of turn") or a moment announced, by anyone or by one player."""

    text: str  # as the file writes it
    boundary: str = ""  # "start of PHASE", "end of PHASE", "after step N of PHASE", "end of turn", ...
    moment: str = ""
    player: int = -1  # the announcing player's index, -1: anyone

    def matches(self, item: str) -> bool:
        """Whether a trace item ("player N: MOMENT" or a boundary) is this stop."""
        if self.boundary:
            return item == self.boundary
        who, _, moment = item.partition(": ")
        return moment == self.moment and (self.player < 0 or who == f"player {self.player + 1}")


_PLAYER_MOMENT = re.compile(r"player ([0-9]{1,3}): *(\S+)")
_BOUNDARY = re.compile(r"(start|end) of (\S+)")
# a phase, a procedure, `CARD LABEL`, `CARD WHEN MOMENT` or `CARD DURING WINDOW`
_AFTER_STEP = re.compile(r"after step ([0-9]{1,6}) of (\S+(?: \S+){0,3})")
_AFTER_ITERATION = re.compile(r"after iteration ([0-9]{1,6}) of step ([0-9]{1,6}) of (\S+(?: \S+){0,3})")


def texts_of_steps(engine: Engine) -> tuple[dict[str, tuple[Effect, ...]], dict[str, tuple[Effect, ...]]]:
    """The texts whose steps an `at:` step may stand between, each with its steps: the
    turn's phases and the deal's set-up and scoring (`deal-setup`, `deal-end`), which have a
    start and an end of their own; and the procedures the rules call, the cards' sections
    (`merchant PLAY`) and the cards' triggered and activated abilities (`CARD WHEN
    MOMENT`, `CARD DURING WINDOW`), which have not."""
    rules = engine.rules
    parts = {name: phase_steps(engine, name) for name, _ in rules.phases}
    loop = rules.effects[rules.game_loop]
    assert isinstance(loop, GameLoop)
    if loop.deal_end is not None:
        for name, body in (("deal-setup", loop.deal_setup), ("deal-end", loop.deal_scoring)):
            if body >= 0:
                parts[name] = steps_of(rules.effects[body])
    procedures: dict[str, tuple[Effect, ...]] = {}
    for e in rules.effects:
        if isinstance(e, Call):
            procedures.setdefault(rules.effects[e.proc.eid].text, steps_of(e.proc.body))
    for ct in rules.cards:  # a card's section, `CARD LABEL`, wherever `do its LABEL` runs it
        for eid in ct.sections.values():
            scope = rules.effects[eid]
            assert isinstance(scope, Scope)
            procedures[scope.text] = steps_of(scope.body)
    for body, name in ability_names(rules.cards):  # wherever the moment or the window comes
        procedures.setdefault(name, steps_of(rules.effects[body]))
    return parts, procedures


def _after_step(engine: Engine, text: str, step: int, name: str, where: str) -> Stop:
    """`after step N of NAME`: between the Nth and the next step of a phase's text (of the
    deal's set-up or scoring), or right after the Nth step of a procedure's or a card
    section's (`CARD LABEL`)."""
    parts, procedures = texts_of_steps(engine)
    if name in parts:
        steps = parts[name]
        if not 1 <= step < len(steps):
            last = f"after step 1 to {len(steps) - 1} of {name}, or " if len(steps) > 1 else ""
            raise ScenarioError(
                f"{where}: at: {text!r}: phase {name} has {len(steps)} step{'s' if len(steps) > 1 else ''}; "
                f"give {last}'end of {name}' (its steps: {steps_listed(steps)})"
            )
        return Stop(text, boundary=text)
    if name in procedures:
        steps = procedures[name]
        what = "ability" if re.search(" (WHEN|DURING) ", name) else "section" if " " in name else "procedure"
        if len(steps) < 2 or not 1 <= step <= len(steps):
            has = f"has {len(steps)} step{'s' if len(steps) > 1 else ''}"
            give = (
                f"give after step 1 to {len(steps)} of {name}"
                if len(steps) > 1
                else "there is no point inside it: look at the end of the step that runs it"
            )
            raise ScenarioError(
                f"{where}: at: {text!r}: {what} {name} {has}; {give} (its steps: {steps_listed(steps)})"
            )
        return Stop(text, boundary=text)
    raise _no_text(text, name, parts, procedures, where)


def _no_text(text: str, name: str, parts: dict[str, Any], procedures: dict[str, Any], where: str) -> ScenarioError:
    """The error for an `at:` point naming no phase, procedure or card text."""
    hint = suggest(name, [*parts, *procedures])
    called = sorted(p for p in procedures if " " not in p)
    return ScenarioError(
        f"{where}: at: {text!r}: the pack has no phase, procedure or card section {name!r}"
        + (
            f" ({hint})"
            if hint
            else f"; phases: {', '.join(parts)}; procedures: {', '.join(called)}; a card's section is 'CARD LABEL', "
            "its abilities 'CARD WHEN MOMENT' and 'CARD DURING WINDOW'"
        )
    )


def _after_iteration(engine: Engine, text: str, n: int, k: int, name: str, where: str) -> Stop:
    """`after iteration N of step K of NAME`: the Nth iteration of the loop that is step K
    of a text of several steps (a phase's, a deal part's, a procedure's, a card's section
    or ability) has ended, before the next one begins (or the loop ends)."""
    parts, procedures = texts_of_steps(engine)
    steps = parts.get(name, procedures.get(name))
    if steps is None:
        raise _no_text(text, name, parts, procedures, where)
    at = f"{where}: at: {text!r}: "
    if len(steps) < 2:
        raise ScenarioError(
            f"{at}{name} is one step: the iterations of a loop are looked at in a text of several "
            f"steps; look at the end of the step that runs it (its steps: {steps_listed(steps)})"
        )
    if not 1 <= k <= len(steps):
        raise ScenarioError(f"{at}{name} has {len(steps)} steps (its steps: {steps_listed(steps)})")
    loop = steps[k - 1]
    if not isinstance(loop, LOOPS):
        raise ScenarioError(
            f"{at}step {k} of {name} is no loop (repeat, while, any number of times, for each); "
            f"its steps: {steps_listed(steps)}"
        )
    if isinstance(loop, ForPlayers) and loop.whole:
        raise ScenarioError(
            f"{at}step {k} of {name} runs for every player in one go (its text never asks): "
            "there is no point between its iterations; look after the step"
        )
    if n < 1:
        raise ScenarioError(f"{at}iterations are counted from 1")
    return Stop(text, boundary=f"after iteration {n} of step {k} of {name}")


def parse_stop(engine: Engine, players: int, text: Any, where: str) -> Stop:
    """An `at:` value: `start of PHASE`, `end of PHASE`, `after step N of PHASE`, `end of
    turn`, `end of game`, a moment the pack announces (`MOMENT`) or one player's (`player N:
    MOMENT`)."""
    if not isinstance(text, str) or not text.strip():
        raise ScenarioError(f"{where}: at: names a point inside a decision, such as 'end of turn', not {text!r}")
    text = " ".join(text.split())
    rules = engine.rules
    phases = [name for name, _ in rules.phases]
    loop = rules.effects[rules.game_loop]
    assert isinstance(loop, GameLoop)
    if loop.deal_end is not None:  # a game with deals: its scoring and the next deal's set-up
        phases += [p for p, body in (("deal-end", loop.deal_scoring), ("deal-setup", loop.deal_setup)) if body >= 0]
    moments = sorted({e.moment for e in rules.effects if isinstance(e, Announce)})
    points = [*(f"{side} of {p}" for p in phases for side in ("start", "end")), "end of turn", "end of game"]
    if text in points:
        return Stop(text, boundary=text)
    each = _AFTER_ITERATION.fullmatch(text)
    if each:
        return _after_iteration(engine, text, int(each.group(1)), int(each.group(2)), each.group(3), where)
    after = _AFTER_STEP.fullmatch(text)
    if after:
        return _after_step(engine, text, int(after.group(1)), after.group(2), where)
    m = _PLAYER_MOMENT.fullmatch(text)
    player = int(m.group(1)) - 1 if m else -1
    if m and not 0 <= player < players:
        raise ScenarioError(f"{where}: at: {text!r}: players are numbered 1..{players}")
    moment = m.group(2) if m else text
    if moment in moments:
        return Stop(text, moment=moment, player=player)
    b = _BOUNDARY.fullmatch(text)
    if b and b.group(2) not in ("turn", "game"):
        hint = suggest(b.group(2), phases)
        raise ScenarioError(
            f"{where}: at: {text!r}: the pack has no phase {b.group(2)!r}"
            + (f" ({hint})" if hint else f"; phases: {', '.join(phases)}")
        )
    hint = suggest(moment, [*points, *moments])
    known = f"moments announced: {', '.join(moments)}" if moments else "the pack announces no moment"
    raise ScenarioError(
        f"{where}: at: {text!r} is no point inside a decision"
        + (f" ({hint})" if hint else "")
        + "; give 'start of PHASE', 'end of PHASE', 'after step N of PHASE' (or of PROCEDURE, CARD LABEL, "
        + "CARD WHEN MOMENT or CARD DURING WINDOW), 'after iteration N of step K of NAME', "
        + "'end of turn', 'end of game' "
        + f"or a moment ({known})"
    )


def stops_after(engine: Engine, players: int, decisions: list[Any], i: int, path: str) -> list[Stop]:
    """The `at:` stops that follow decision `i` (-1: the position's start), up to the next
    option or checkpoint: the points inside that decision the scenario looks at."""
    stops = []
    for j in range(i + 1, len(decisions)):
        step = decisions[j]
        if isinstance(step, dict) and set(step) == {"forced"}:
            continue
        if not (isinstance(step, dict) and "at" in step):
            break
        stops.append(parse_stop(engine, players, step["at"], f"{where(path, step, 'at')}decision {j + 1}"))
    return stops


def watch_stop(engine: Engine, players: int, decisions: list[Any], i: int, path: str) -> Stop:
    """The stop of the `at:` step `i`, which must follow an option (or the position's start),
    possibly through other `at:` and `forced:` steps."""
    step = decisions[i]
    for j in range(i - 1, -1, -1):
        before = decisions[j]
        if isinstance(before, dict) and ("at" in before or set(before) == {"forced"}):
            continue
        if isinstance(before, dict) and set(before) == {"expect"}:
            raise ScenarioError(
                f"{where(path, step, 'at')}decision {i + 1}: at: looks inside the decision just applied; "
                "it follows an option (or the position's start), not a checkpoint"
            )
        break
    return parse_stop(engine, players, step["at"], f"{where(path, step, 'at')}decision {i + 1}")


def forced_option(value: Any, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ScenarioError(f"{what}: forced: gives the option taken without asking, not {value!r}")
    return str(value)


def same_choice(engine: Engine, taken: str, option: str) -> bool:
    """Whether a forced choice ("player N: OPTION") is `option`, given as the option id
    (`research@hand`) or, for a card, its card id (`research`)."""
    got = taken.partition(": ")[2]
    return got == option or (option in engine.rules.card_index and re.split(r"[@#:]", got)[0] == option)


class Watch(Trace):
    """A scenario's watch over the decisions it applies: the moments announced (the list,
    for `trace:`), every point passed and every forced choice since the last decision, and
    a copy of the game at each `at:` stop it waits for, taken the instant the game passes it."""

    __slots__ = ("st", "stops", "copies", "passed", "forced_choices")

    def __init__(self) -> None:
        super().__init__()
        self.st: GameState | None = None  # the game watched (set by `tracing`)
        self.stops: list[Stop] = []  # the `at:` stops still waited for, in order
        # (the game then, moments announced and choices forced by then)
        self.copies: list[tuple[GameState, int, int]] = []
        self.passed: list[str] = []  # the points passed since the last decision, for messages
        self.forced_choices: list[str] = []  # "player N: OPTION", since the last checkpoint

    def append(self, item: str) -> None:  # a moment announced
        super().append(item)
        if self.st is not None:
            self._point(self.st, item)

    def reached(self, st: GameState, boundary: str) -> None:
        self._point(st, boundary)

    def forced(self, st: GameState, player: int, prompt: str, option: str) -> None:
        self.forced_choices.append(f"player {player + 1}: {option}")

    def _point(self, st: GameState, item: str) -> None:
        if len(self.passed) < MAX_PASSED:
            self.passed.append(item)
        if self.stops and self.stops[0].matches(item):
            self.stops.pop(0)
            self.copies.append((st.clone(), len(self), len(self.forced_choices)))


MAX_PASSED = 1000  # points kept for a message about a stop never reached


@contextmanager
def tracing(st: GameState, trace: Watch) -> Iterator[None]:
    """Watch the game while the block runs: moments, points passed, forced choices and
    the copies at the `at:` stops waited for."""
    previous = st.trace
    st.trace = trace
    trace.st = st
    try:
        yield
    finally:
        st.trace = previous
        trace.st = None
