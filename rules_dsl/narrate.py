"""Words for what happens in a game: options as card names and phrases, and a narrated log.

The engine has no event stream, so each step of the log is told from what the engine
gives: the decision (who, the rules or card text asking, the value the option stands for)
and what changed in the public view (`observation.observe` for no seat) between the
states before and after it: counters, cards that moved between zones, hidden piles that
grew or shrank, tokens and marks. Everything told is public: a chosen card is named only
when the public can see it before or after the decision, so every seat reads the same log.
Nothing here knows any game: the words are the pack's zone, counter and card names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from rules_dsl.observation import observe
from rules_dsl.rules import Rules
from rules_dsl.state import Decision, GameState

if TYPE_CHECKING:
    from rules_dsl.engine import Engine

PUBLIC = -1  # the seat of nobody: what every player may see


def seat_name(player: int) -> str:
    return f"Player {player + 1}"


def words(option_id: str) -> str:
    """An id written with hyphens, as words: `take-one-back` -> `take one back`."""
    return option_id.replace("-", " ")


def zone_name(key: str) -> str:
    name, _, seat = key.partition(".")
    return f"{seat_name(int(seat))}'s {words(name)}" if seat else f"the {words(name)}"


def card_of(rules: Rules, st: GameState, decision: Decision, index: int) -> int | None:
    """The card an option stands for, when it is one: its value is a card and its id the card's id
    (with `@zone` when the same card id is offered from several zones)."""
    value = decision.values[index]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(st.cards):
        return None
    if decision.options[index].partition("@")[0] != rules.cards[st.cards[value].type].id:
        return None
    return value


def card_label(rules: Rules, card_type: int) -> str:
    """A card's name with the facts printed on it: `Name (kind: colour red, cost 3)`."""
    ct = rules.cards[card_type]
    facts = [f"{words(k)} {v}" for k, v in ct.props.items() if isinstance(v, int | str) and v not in (0, "")]
    if ct.symbols:
        facts.append("symbols " + ", ".join(f"{s} x{n}" if n > 1 else s for s, n in ct.symbols.items()))
    return f"{ct.name} ({words(ct.kind)}{': ' + ', '.join(facts) if facts else ''})"


def option_labels(rules: Rules, st: GameState, decision: Decision) -> list[str]:
    """The legal options in words, as the deciding seat may see them: a card it can see by
    its name and printed facts, a card it cannot (face down, in a hidden pile) by its back,
    where it lies, any other option as words. Labels that would be the same are numbered."""
    seen = {card for card, _ in visible_cards(observe(rules, st, decision.player))}
    labels = [_option_label(rules, st, decision, i, seen) for i in range(len(decision.options))]
    total = {label: labels.count(label) for label in labels}
    counted: dict[str, int] = {}
    out = []
    for label in labels:
        if total[label] > 1:
            counted[label] = counted.get(label, 0) + 1
            label = f"{label} #{counted[label]}"
        out.append(label)
    return out


def _option_label(rules: Rules, st: GameState, decision: Decision, index: int, seen: set[int]) -> str:
    card = card_of(rules, st, decision, index)
    if card is None:
        return words(decision.options[index]).capitalize()
    where = st.cards[card].loc
    place = "" if where.startswith("^") else f", from {_your(zone_name(where), decision.player)}"
    if card in seen:
        return card_label(rules, st.cards[card].type) + place
    ct = rules.cards[st.cards[card].type]
    back = ", ".join(f"{words(p)} {ct.props[p]}" for p in ct.public_props)
    return f"A face-down {words(ct.kind)}" + (f" ({back})" if back else "") + place


def _your(text: str, player: int) -> str:
    return text.replace(f"{seat_name(player)}'s ", "your ")


@attrs.define(slots=True)
class _Public:
    """The parts of a public view the narration compares."""

    where: dict[int, str]  # visible card -> zone key
    looks: dict[int, tuple[tuple[str, ...], tuple[str, ...]]]  # visible card -> (tokens, marks)
    counts: dict[str, int]  # hidden zone -> cards in it
    counters: dict[str, list[int]]
    shared: dict[str, int]


def _public(rules: Rules, st: GameState) -> _Public:
    view = observe(rules, st, PUBLIC)
    where: dict[int, str] = {}
    looks: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    counts: dict[str, int] = {}
    for key, zone in view["zones"].items():
        if isinstance(zone, dict):
            counts[key] = zone["count"]
            continue
        for card in zone:
            if "id" in card:
                where[card["id"]] = key
                looks[card["id"]] = (tuple(card.get("tokens", ())), tuple(card.get("marks", ())))
    return _Public(where, looks, counts, view["counters"], view["shared"])


class Narrator:
    """Tells a game step by step: `step(before, option)` after each decision is applied."""

    def __init__(self, rules: Rules, st: GameState) -> None:
        self.rules = rules
        # a card's type never changes: its name is known from the start
        self._names = [rules.cards[c.type].name for c in st.cards]

    def opening(self, st: GameState) -> list[str]:
        return [f"The game begins: {st.players} players, {', '.join(st.packs)}", *self.turn_line(st)]

    def turn_line(self, st: GameState) -> list[str]:
        if st.over:
            return []
        return [f"Turn {st.turn + 1} (round {st.round + 1}): {seat_name(st.active)}"]

    def snapshot(self, st: GameState) -> _Public:
        return _public(self.rules, st)

    def step(self, before: GameState, seen: _Public, after: GameState, option: str) -> list[str]:
        """The lines for one decision: `before` is the state it was taken in (`seen` its public
        view, from `snapshot`), `after` the state it led to."""
        rules = self.rules
        d = before.pending
        assert d is not None
        index = d.options.index(option)
        now = _public(rules, after)
        card = card_of(rules, before, d, index)
        if card is not None:
            choice = (
                "chooses " + rules.cards[before.cards[card].type].name
                if card in seen.where or card in now.where
                else "chooses a card"
            )
        else:
            choice = words(option)
        source = f" ({d.source})" if d.source else ""
        lines = [f"{seat_name(d.player)}{source}: {choice}"]
        lines.extend(self._changes(before, seen, after, now))
        if after.turn != before.turn or after.over:
            if after.over:
                lines.append(self.ending(after))
            else:
                lines.extend(self.turn_line(after))
        return lines

    def _place(self, st: GameState, card: int) -> str:
        """Where a card is: public even when the card's face is not (a card drawn goes to a hand)."""
        return st.cards[card].loc

    def _zone(self, key: str) -> str:
        if key.startswith("^"):
            return "under " + self._name(int(key[1:]))
        return zone_name(key)

    def _changes(self, before: GameState, old: _Public, after: GameState, new: _Public) -> list[str]:
        out: list[str] = []
        for name, values in new.counters.items():
            was = old.counters.get(name, [0] * len(values))
            for p, (a, b) in enumerate(zip(was, values)):
                if a != b:
                    out.append(f"  {seat_name(p)}: {words(name)} {a} -> {b}")
        for name, value in new.shared.items():
            if old.shared.get(name, 0) != value:
                out.append(f"  {words(name)} {old.shared.get(name, 0)} -> {value}")
        moves: dict[tuple[str, str], list[str]] = {}
        for card, zone in new.where.items():
            was_in = old.where.get(card) or self._place(before, card)
            if was_in != zone:
                moves.setdefault((was_in, zone), []).append(self._name(card))
        for card, zone in old.where.items():
            if card not in new.where:
                moves.setdefault((zone, self._place(after, card)), []).append(self._name(card))
        for (src, dst), names in moves.items():
            out.append(f"  {', '.join(names)}: {self._zone(src)} -> {self._zone(dst)}")
        for key, count in new.counts.items():
            if old.counts.get(key, 0) != count:
                out.append(f"  {zone_name(key)}: {old.counts.get(key, 0)} -> {count} card{'' if count == 1 else 's'}")
        for card, (tokens, marks) in new.looks.items():
            looked = old.looks.get(card)
            if looked is not None and looked != (tokens, marks):
                out.append(f"  {self._name(card)}: " + _looks(tokens, marks))
        return out

    def _name(self, card: int) -> str:
        return self._names[card] if card < len(self._names) else f"card {card}"

    def ending(self, st: GameState) -> str:
        scores = ", ".join(f"{seat_name(p)} {s}" for p, s in enumerate(st.scores))
        winners = ", ".join(seat_name(w) for w in st.winners) or "nobody"
        end = f" ({words(st.end_trigger)})" if st.end_trigger else ""
        return f"Game over{end}: {scores}; winner: {winners}"


def _looks(tokens: tuple[str, ...], marks: tuple[str, ...]) -> str:
    parts = []
    if tokens:
        parts.append("tokens " + ", ".join(tokens))
    if marks:
        parts.append("marked " + ", ".join(marks))
    return "; ".join(parts) or "no tokens or marks"


def visible_cards(view: dict[str, Any]) -> set[tuple[int, str]]:
    """Every card a seat's view shows by identity: (card, card id), including cards it knows
    in hidden piles and cards tucked under others."""
    seen: set[tuple[int, str]] = set()

    def walk(card: dict[str, Any]) -> None:
        if "id" in card:
            seen.add((card["id"], card["card"]))
        for under in card.get("under", ()):
            walk(under)

    for zone in view["zones"].values():
        if isinstance(zone, dict):
            seen.update((k["id"], k["card"]) for k in zone.get("known", ()))
        else:
            for card in zone:
                walk(card)
    return seen


def reveals(rules: Rules, before: GameState, after: GameState) -> bool:
    """Did going from `before` to `after` show anyone something that was hidden, or draw on
    chance? Then taking the decision back would let its player choose again knowing it."""
    if before.rng != after.rng:
        return True
    for p in range(before.players):
        if not visible_cards(observe(rules, after, p)) <= visible_cards(observe(rules, before, p)):
            return True
    return False


@attrs.frozen
class Told:
    """One decision applied: the narrated lines, who took it, whether it showed anything hidden."""

    lines: list[str]
    player: int
    reveals: bool


def why_no_undo(taken: Sequence[Told], player: int) -> str:
    """Why `player` may not take back the last of the decisions `taken`, or "" when they may:
    only their own, while nobody has decided since and it showed nothing hidden."""
    if not taken:
        return "nothing has been decided yet"
    if taken[-1].player != player:
        return "the last decision was not yours: others have decided since"
    if taken[-1].reveals:
        return "your last decision showed something hidden or drew on chance"
    return ""


def card_notes(view: dict[str, Any]) -> list[str]:
    """What a card in a view carries besides its face: facing, cards under it, tokens, marks."""
    notes = []
    if view.get("up") is False:
        notes.append("face down")
    if view.get("under"):
        notes.append(f"{len(view['under'])} under it")
    if view.get("tokens"):
        notes.append("tokens: " + ", ".join(view["tokens"]))
    if view.get("marks"):
        notes.append("marked " + ", ".join(view["marks"]))
    return notes


def apply_told(engine: Engine, narrator: Narrator, st: GameState, option: str) -> Told:
    """Apply one option through the Engine (all or nothing) and tell it."""
    before = st.clone()
    seen = narrator.snapshot(before)
    engine.apply(st, option)
    assert before.pending is not None
    return Told(narrator.step(before, seen, st, option), before.pending.player, reveals(engine.rules, before, st))
