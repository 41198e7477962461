"""Words for what happens in a game: options as card names and phrases, and a narrated log.

The engine has no event stream, so each step of the log is told from what the engine
gives: the decision (who, the rules or card text asking, the value the option stands for)
and what changed in one seat's view (`observation.observe`) between the states before and
after it: counters, cards that moved between zones, hidden piles that grew or shrank,
tokens and marks. A step is told to one seat at a time (or to nobody in particular,
`PUBLIC`, for a public replay): a card is named only where that seat can identify it
(`knowledge`), and a card it loses track of (shuffled away) is not followed.
Nothing here knows any game: the words are the pack's zone, counter and card names.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from rules_dsl import knowledge
from rules_dsl.effects.choices import hidden_id
from rules_dsl.interpreter import addressed, deciding_at_once
from rules_dsl.knowledge import PUBLIC as PUBLIC  # the seat of nobody, re-exported for callers
from rules_dsl.observation import observe
from rules_dsl.rules import Rules
from rules_dsl.state import Decision, GameState

if TYPE_CHECKING:
    from rules_dsl.engine import Engine


def seat_name(player: int) -> str:
    return f"Player {player + 1}"


def words(option_id: str) -> str:
    """An id written with hyphens, as words: `take-one-back` -> `take one back`."""
    return option_id.replace("-", " ")


def zone_name(key: str) -> str:
    name, _, seat = key.partition(".")
    return f"{seat_name(int(seat))}'s {words(name)}" if seat else f"the {words(name)}"


def card_of(rules: Rules, st: GameState, decision: Decision, index: int) -> int | None:
    """The card an option stands for, when it is one: its value is a card and its id the
    card's id (with `@zone` when the same card id is offered from several zones) or the
    card's place (`choices.hidden_id`, for a card the deciding seat cannot identify)."""
    value = decision.values[index]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(st.cards):
        return None
    option = decision.options[index]
    if option.partition("@")[0] != rules.cards[st.cards[value].type].id and option != hidden_id(st, value):
        return None
    return value


def card_label(rules: Rules, card_type: int) -> str:
    """A card's name with the facts printed on it: `Name (kind: colour red, cost 3)`."""
    ct = rules.cards[card_type]
    facts = [f"{words(k)} {v}" for k, v in ct.props.items() if isinstance(v, int | str) and v not in (0, "")]
    if ct.symbols:
        facts.append("symbols " + ", ".join(f"{s} x{n}" if n > 1 else s for s, n in ct.symbols.items()))
    return f"{ct.name} ({words(ct.kind)}{': ' + ', '.join(facts) if facts else ''})"


def option_labels(rules: Rules, st: GameState, decision: Decision, facts: bool = True) -> list[str]:
    """The legal options in words, as the deciding seat may see them: a card it can identify
    by its name and printed facts (only its name without `facts`: the table shows its face
    beside it), a card it cannot (face down, in a hidden pile) by its back and place, any
    other option as words. Labels that would be the same are numbered."""
    st.rules = rules
    labels = [_option_label(rules, st, decision, i, facts) for i in range(len(decision.options))]
    total = {label: labels.count(label) for label in labels}
    counted: dict[str, int] = {}
    out = []
    for label in labels:
        if total[label] > 1:
            counted[label] = counted.get(label, 0) + 1
            label = f"{label} #{counted[label]}"
        out.append(label)
    return out


def _option_label(rules: Rules, st: GameState, decision: Decision, index: int, facts: bool = True) -> str:
    card = card_of(rules, st, decision, index)
    if card is None:
        return words(decision.options[index]).capitalize()
    if knowledge.identifies(rules, st, card, decision.player):
        where = st.cards[card].loc
        place = "" if where.startswith("^") else f", from {_your(zone_name(where), decision.player)}"
        name = card_label(rules, st.cards[card].type) if facts else rules.cards[st.cards[card].type].name
        return name + place
    return unseen_label(rules, st, card, decision.player)


def option_cards(rules: Rules, st: GameState, decision: Decision) -> list[str]:
    """For each option, the id of the card it names when the deciding seat can identify
    that card (knowledge.identifies), else "": what the table shows a face of."""
    st.rules = rules
    out = []
    for i in range(len(decision.options)):
        card = card_of(rules, st, decision, i)
        known = card is not None and knowledge.identifies(rules, st, card, decision.player)
        out.append(rules.cards[st.cards[card].type].id if known and card is not None else "")
    return out


def unseen_label(rules: Rules, st: GameState, card: int, seat: int) -> str:
    """A card `seat` cannot identify, in words: its back where the seat sees it, else "a
    card", and its place (`choices.hidden_id` in words: the Nth from the top of a zone)."""
    kind, back = knowledge.back_of(rules, st.cards[card].type)
    ct = rules.cards[st.cards[card].type]
    shown = knowledge.listed(rules, st, card, seat)
    if shown is not None:
        facts = ", ".join(f"{words(p)} {v}" for p, v in zip(ct.public_props, back))
        held = shown == knowledge.BACKS  # held facing the others
        what = (f"A {words(kind)} you cannot see" if held else f"A face-down {words(kind)}") + (
            f" ({facts})" if facts else ""
        )
    else:
        what = "A card"
    where, _, nth = hidden_id(st, card).rpartition("#")
    tucked = where.startswith("under-")
    name, _, seat_no = where.removeprefix("under-").partition(".p")
    key = f"{name}.{int(seat_no) - 1}" if seat_no else name
    zone = _your(zone_name(key), seat)
    place = "top" if nth == "1" else f"{_ordinal(int(nth))} from the top"
    return f"{what}, {place} of {'the cards under ' if tucked else ''}{zone}"


def _ordinal(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _your(text: str, player: int) -> str:
    return text.replace(f"{seat_name(player)}'s ", "your ")


@attrs.define(slots=True)
class _View:
    """The parts of one seat's view the narration compares."""

    where: dict[int, str]  # card it identifies -> zone key
    peeked: set[int]  # those it identifies only because it peeked at them
    looks: dict[int, tuple[tuple[str, ...], tuple[str, ...]]]  # card it identifies -> (tokens, marks)
    counts: dict[str, int]  # zone it only counts -> cards in it
    counters: dict[str, list[int]]
    shared: dict[str, int]
    # a card it cannot identify, by zone and place from the top -> the card ids it could be,
    # by what was pointed out of it (`point out`)
    told: dict[tuple[str, int], tuple[str, ...]] = attrs.Factory(dict)


def _view(rules: Rules, st: GameState, seat: int) -> _View:
    view = observe(rules, st, seat)
    where: dict[int, str] = {}
    looks: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    counts: dict[str, int] = {}

    def walk(card: dict[str, Any], key: str) -> None:
        if "id" in card:
            where[card["id"]] = key
            looks[card["id"]] = (tuple(card.get("tokens", ())), tuple(card.get("marks", ())))
        for under in card.get("under", ()):
            walk(under, key)

    told: dict[tuple[str, int], tuple[str, ...]] = {}
    for key, zone in view["zones"].items():
        if isinstance(zone, dict):
            counts[key] = zone["count"]
            for known in zone.get("known", ()):
                where[known["id"]] = key
            if "top" in zone:
                walk(zone["top"], key)
            continue
        for i, card in enumerate(zone):
            walk(card, key)
            if "could-be" in card:
                told[key, len(zone) - i] = tuple(card["could-be"])
    peeked = {c for c in where if not knowledge.sees_front(rules, st, c, seat)}
    return _View(where, peeked, looks, counts, view["counters"], view["shared"], told)


class Narrator:
    """Tells a game step by step, to one seat or to nobody in particular (`PUBLIC`):
    `step(before, snapshot, after, option)` after each decision is applied."""

    def __init__(self, rules: Rules, st: GameState, seat: int = PUBLIC) -> None:
        self.rules = rules
        self.seat = seat
        # a card's type never changes: its name is known from the start
        self._names = [rules.cards[c.type].name for c in st.cards]

    def at(self, seat: int) -> Narrator:
        """The same narrator telling `seat` instead."""
        other = copy.copy(self)
        other.seat = seat
        return other

    def opening(self, st: GameState) -> list[str]:
        return [f"The game begins: {st.players} players, {', '.join(st.packs)}", *self.turn_line(st)]

    def turn_line(self, st: GameState) -> list[str]:
        if st.over:
            return []
        return [f"Turn {st.turn + 1} ({self.rules.rotation_word} {st.round + 1}): {seat_name(st.active)}"]

    def snapshot(self, st: GameState) -> _View:
        return _view(self.rules, st, self.seat)

    def step(self, before: GameState, seen: _View, after: GameState, option: str) -> list[str]:
        """The lines for one decision: `before` is the state it was taken in (`seen` the
        seat's view of it, from `snapshot`), `after` the state it led to."""
        rules = self.rules
        d, option = addressed(before, option)
        index = d.options.index(option)
        now = _view(rules, after, self.seat)
        card = card_of(rules, before, d, index)
        if self.seat != d.player and deciding_at_once(before):
            choice = "has chosen"  # hidden from the others until every seat has answered
        elif card is not None:
            if card in seen.where or card in now.where:
                choice = "chooses " + rules.cards[before.cards[card].type].name
            else:
                choice = "chooses a card in " + zone_name(knowledge.root(before, card)[1])
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

    def _zone(self, key: str, st: GameState) -> str:
        """A zone, or the card a card is tucked under, as this seat may name it."""
        if key.startswith("^"):
            host = int(key[1:])
            if knowledge.identifies(self.rules, st, host, self.seat):
                return "under " + self._name(host)
            return "under a card in " + zone_name(knowledge.root(st, host)[1])
        return zone_name(key)

    def _changes(self, before: GameState, old: _View, after: GameState, new: _View) -> list[str]:
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
        # where a card is, is public even when its face is not (a card drawn from a deck)
        for card in new.where:
            src, dst = before.cards[card].loc, after.cards[card].loc
            if src != dst:
                moves.setdefault((self._zone(src, before), self._zone(dst, after)), []).append(self._name(card))
        for card in old.where:
            if card in new.where:
                continue
            if card in old.peeked:
                continue  # known only by a peek, and lost track of: the counts tell the rest
            if after.cards[card].pool != before.cards[card].pool:
                dst = "shuffled away"  # where it went is not followed past a shuffle
            else:
                dst = self._zone(after.cards[card].loc, after)
            moves.setdefault((self._zone(before.cards[card].loc, before), dst), []).append(self._name(card))
        # a card this seat cannot identify, tucked under a card or taken from under one: which
        # card is not told, but that a card went there is (where a card lies is public)
        for card, cs in enumerate(after.cards):
            src = before.cards[card].loc if card < len(before.cards) else ""
            if src == cs.loc or card in new.where or card in old.where or not (src[:1] == "^" or cs.loc[:1] == "^"):
                continue
            moves.setdefault((self._zone(src, before), self._zone(cs.loc, after)), []).append("a card")
        for (src, dst), names in moves.items():
            out.append(f"  {', '.join(names)}: {src} -> {dst}")
        for key, count in new.counts.items():
            if old.counts.get(key, 0) != count:
                out.append(f"  {zone_name(key)}: {old.counts.get(key, 0)} -> {count} card{'' if count == 1 else 's'}")
        for card, (tokens, marks) in new.looks.items():
            looked = old.looks.get(card)
            if looked is not None and looked != (tokens, marks):
                out.append(f"  {self._name(card)}: " + _looks(tokens, marks))
        for (key, place), could in new.told.items():
            if old.told.get((key, place)) != could:
                names = sorted({self.rules.cards[self.rules.card_index[i]].name for i in could})
                out.append(f"  {zone_name(key)}, card {place} from the top: could be {', '.join(names)}")
        return out

    def _name(self, card: int) -> str:
        return self._names[card] if card < len(self._names) else f"card {card}"

    def ending(self, st: GameState) -> str:
        scores = ", ".join(f"{seat_name(p)} {s}" for p, s in enumerate(st.scores))
        winners = ", ".join(seat_name(w) for w in st.winners) or "nobody"
        if st.rules.cooperative:  # the players won or lost together
            winners = "everyone, together" if st.winners else "nobody: everyone lost together"
        end = f" ({words(st.end_trigger)})" if st.end_trigger else ""
        return f"Game over{end}: {scores}; winner: {winners}"


def _looks(tokens: tuple[str, ...], marks: tuple[str, ...]) -> str:
    parts = []
    if tokens:
        parts.append("tokens " + ", ".join(tokens))
    if marks:
        parts.append("marked " + ", ".join(marks))
    return "; ".join(parts) or "no tokens or marks"


def reveals(rules: Rules, before: GameState, after: GameState) -> bool:
    """Did going from `before` to `after` show anyone something that was hidden, or draw on
    chance? Then taking the decision back would let its player choose again knowing it."""
    if before.rng != after.rng:
        return True
    for p in range(before.players):
        if not knowledge.identified_cards(rules, after, p) <= knowledge.identified_cards(rules, before, p):
            return True
    return False


@attrs.frozen
class Told:
    """One decision applied: the narrated lines (told to nobody in particular: what a public
    replay shows), who took it, whether it showed anything hidden, and the lines told to
    each seat (`to`)."""

    lines: list[str]
    player: int
    reveals: bool
    seats: tuple[list[str], ...] = ()

    def to(self, seat: int) -> list[str]:
        """The lines as told to `seat` (PUBLIC, or a seat this was not told to: the public lines)."""
        return self.seats[seat] if 0 <= seat < len(self.seats) else self.lines


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
    """Apply one option through the Engine (all or nothing) and tell it to nobody in
    particular and to each seat."""
    before = st.clone()
    tellers = [narrator.at(PUBLIC), *(narrator.at(p) for p in range(st.players))]
    seen = [t.snapshot(before) for t in tellers]
    engine.apply(st, option)
    decider = addressed(before, option)[0].player
    told = [t.step(before, v, st, option) for t, v in zip(tellers, seen)]
    return Told(told[0], decider, reveals(engine.rules, before, st), tuple(told[1:]))
