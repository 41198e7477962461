"""Players as values: choosing a player, naming a chosen player's zones and counters,
questions asked of every player, and the turn order as data.

A chosen player is bound by name like a chosen card, as a seat (an int). Whatever is asked
"of a player" (a `where` condition, the expression of `the highest ... among players`) is
worked out with that player as "you": a frame like the running one but for that seat, so
the names bound around it stay visible.
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.base import Effect, bind, frame, lookup, push, source_of
from rules_dsl.effects.control import Guard
from rules_dsl.effects.values import CardSet, Cond, NumExpr, TextExpr, ZoneExpr, group_zones
from rules_dsl.errors import RulesError
from rules_dsl.state import Decision, Frame, GameState


def seat_of(st: GameState, name: str) -> int:
    """The seat a name is bound to (`the target`)."""
    value = lookup(st, name)
    if value.__class__ is not int or not 0 <= value < st.players:
        raise RulesError(f"'the {name}' is not a player here")
    return int(value)


def seats(st: GameState, fr: Frame, who: str) -> list[int]:
    """The players meant by `player` (everyone, from 'you') or `opponent`/`another`
    (everyone but 'you'), clockwise from 'you'."""
    n = st.players
    start = 0 if who in ("player", "players") else 1
    return [(fr.player + i) % n for i in range(start, n)]


def as_player(fr: Frame, seat: int) -> Frame:
    """The running frame as `seat` sees it ('you' is that player); never pushed."""
    return frame(fr.eid, seat, fr.src)


def player_option(seat: int) -> str:
    return f"player {seat + 1}"


# ---- statements ----------------------------------------------------------------------


class _ChooseOne:
    """A choice of one value bound by name (a player, a property value): none to choose
    from fails, a single one is taken without asking."""

    __slots__ = ()
    text: str
    name: str
    secret = True

    def _options(self, st: GameState, fr: Frame) -> list[Any]:
        raise NotImplementedError

    def _label(self, value: Any) -> str:
        raise NotImplementedError

    def step(self, st: GameState, fr: Frame) -> None:
        opts = self._options(st, fr)
        if not opts:
            st.failed = True
            st.frames.pop()
            return
        if len(opts) == 1:
            if st.trace is not None:  # a scenario watches (`forced:`)
                st.trace.forced(st, fr.player, self.text, self._label(opts[0]))
            self.resume(st, fr, opts[0])
            return
        st.pending = Decision(fr.player, self.text, [self._label(v) for v in opts], opts, source_of(st, fr))

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        bind(st, self.name, value)
        st.frames.pop()

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return bool(self._options(st, fr))


@attrs.frozen(eq=False)
class ChoosePlayer(_ChooseOne, Guard):
    """`choose an opponent where C as the target`: options `player N` (seats from 1)."""

    eid: int
    text: str
    who: str
    cond: Cond | None
    name: str

    def _options(self, st: GameState, fr: Frame) -> list[int]:
        found = seats(st, fr, self.who)
        if self.cond is None:
            return found
        cond = self.cond
        return [p for p in found if cond.test(st, as_player(fr, p))]

    def _label(self, value: Any) -> str:
        return player_option(value)


@attrs.frozen(eq=False)
class ForChosen(Effect):
    """`for the target: BODY`: the body with the chosen player as 'you'; it fails if the
    body does."""

    eid: int
    text: str
    name: str
    body: Effect

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 1:
            st.frames.pop()
            return
        fr.pc = 1
        push(st, self.body.eid, seat_of(st, self.name), fr.src, scope=True)


@attrs.frozen
class SeatOf:
    """A player named by where they sit (`the player to your left`), as a seat. "Left" is
    the next seat clockwise (seat + 1), "right" the one before (seat - 1); `the previous
    player` is the nearest seat to the right that has not left the turn order (you, if
    everyone else has); `the start player` is the seat whose turn opens each round."""

    how: str  # "left" | "right" | "previous" | "start" | "named"
    of: SeatOf | None  # whose left or right (None: you)
    name: str = ""  # "named": the chosen player's bound name

    def seat(self, st: GameState, fr: Frame) -> int:
        how = self.how
        if how == "named":
            return seat_of(st, self.name)
        if how == "start":
            return st.first
        base = fr.player if self.of is None else self.of.seat(st, fr)
        n = st.players
        if how == "left":
            return (base + 1) % n
        if how == "right":
            return (base - 1) % n
        for i in range(1, n):  # previous
            p = (base - i) % n
            if p not in st.out:
                return p
        return base


@attrs.frozen(eq=False)
class ForSeat(Effect):
    """`for the player to your left: BODY`: the body with that player as 'you'; it fails
    if the body does."""

    eid: int
    text: str
    who: SeatOf
    body: Effect

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 1:
            st.frames.pop()
            return
        fr.pc = 1
        push(st, self.body.eid, self.who.seat(st, fr), fr.src, scope=True)


@attrs.frozen(eq=False)
class ForPlayersWhere(Effect):
    """`for each player where C: BODY`: in turn from 'you' (the active player in rules
    text), each player for whom C holds when their turn in the loop comes."""

    eid: int
    text: str
    who: str
    cond: Cond
    body: Effect

    def step(self, st: GameState, fr: Frame) -> None:
        st.failed = False
        if fr.data is None:
            fr.data = [0, *seats(st, fr, self.who)]
        while True:
            i = fr.data[0] + 1
            if i >= len(fr.data):
                st.frames.pop()
                return
            fr.data[0] = i
            player = fr.data[i]
            if self.cond.test(st, as_player(fr, player)):
                push(st, self.body.eid, player, fr.src, scope=True)
                return


@attrs.frozen(eq=False)
class ChooseValue(_ChooseOne, Effect):
    """`choose a rank value other than 1 as the guess`: one of the property's values (the
    declared ones, or for a number the values printed on the pack's cards), bound as a
    number or a word."""

    eid: int
    text: str
    values: tuple[Any, ...]
    other_than: NumExpr | TextExpr | None
    name: str
    where: Cond | None = None  # `where COND`: the values for which it holds, each bound as `name`

    def _options(self, st: GameState, fr: Frame) -> list[Any]:
        if self.where is not None:
            return self._where(st, fr)
        if self.other_than is None:
            return list(self.values)
        other = self.other_than
        skip = other.num(st, fr) if isinstance(other, NumExpr) else other.text(st, fr)
        return [v for v in self.values if v != skip]

    def _where(self, st: GameState, fr: Frame) -> list[Any]:
        """Each value tested with it bound as `the NAME`, in a scope of its own on top of the
        running frames (popped again: nothing of it stays)."""
        probe = push(st, fr.eid, fr.player, fr.src, scope=True)
        assert probe.vars is not None
        try:
            out = []
            for v in self.values:
                probe.vars[self.name] = v
                if self.where is not None and self.where.test(st, probe):
                    out.append(v)
            return out
        finally:
            st.frames.pop()

    def _label(self, value: Any) -> str:
        return str(value)


@attrs.frozen(eq=False)
class TurnOrder(Effect):
    """`leave the turn order` (your turns are skipped until you join it again), `join the
    turn order`, `take the next turn` (you play the turn after this one, then the order
    goes on from you: an extra turn for the active player)."""

    eid: int
    text: str
    action: str
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        p = fr.player
        if self.action == "leave":
            if p not in st.out:
                st.out.append(p)
                st.out.sort()
        elif self.action == "join":
            if p in st.out:
                st.out.remove(p)
        elif self.action == "start":  # rounds now end at the seat before yours
            st.first = p
        else:
            st.next_turns.append(p)
        return True


# ---- values and conditions --------------------------------------------------------------


@attrs.frozen
class SeatZone(ZoneExpr):
    """`the player to your left's hand`, `the target's hand`: that zone of a player named
    by where they sit or chosen."""

    name: str
    who: SeatOf

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        return f"{self.name}.{self.who.seat(st, fr)}"


@attrs.frozen
class SeatCounter(NumExpr):
    """`the player to your left's coins`, `the target's coins`."""

    counter: str
    who: SeatOf

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return st.counters[self.counter][self.who.seat(st, fr)]


@attrs.frozen
class SeatNumber(NumExpr):
    """`the previous player's seat`, `the target's seat`: 1 for the start player, as `your seat`."""

    who: SeatOf

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        return (self.who.seat(st, fr) - st.first) % st.players + 1


@attrs.frozen
class PlayersCond(Cond):
    """`any player where C` / `every opponent where C` / `no player where C`."""

    quantifier: str
    who: str
    cond: Cond

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        cond = self.cond
        found = (cond.test(st, as_player(fr, p), cand) for p in seats(st, fr, self.who))
        if self.quantifier == "any":
            return any(found)
        if self.quantifier == "every":
            return all(found)
        return not any(found)


@attrs.frozen
class InOrder(Cond):
    """`you are in the turn order`: you have not left it."""

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        return fr.player not in st.out


@attrs.frozen
class AmongPlayers(NumExpr):
    """`the highest EXPR among players where C`: 0 when no player is meant."""

    highest: bool
    expr: NumExpr
    who: str
    cond: Cond | None

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        values = []
        for p in seats(st, fr, self.who):
            as_p = as_player(fr, p)
            if self.cond is None or self.cond.test(st, as_p, cand):
                values.append(self.expr.num(st, as_p, cand))
        if not values:
            return 0
        return max(values) if self.highest else min(values)


@attrs.frozen
class CountPlayers(NumExpr):
    """`the number of players where C` (also `of opponents`)."""

    who: str
    cond: Cond | None

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        found = seats(st, fr, self.who)
        if self.cond is None:
            return len(found)
        cond = self.cond
        return sum(1 for p in found if cond.test(st, as_player(fr, p), cand))


@attrs.frozen
class HighestProp(NumExpr):
    """`the highest rank of cards in your hand`: 0 for no card; an expression property is
    worked out for each card, as `the total` does."""

    highest: bool
    prop: str
    cset: CardSet

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        types = st.rules.cards
        values = []
        for c in self.cset.cards(st, fr, cand):
            value = types[st.cards[c].type].props.get(self.prop, 0)
            values.append(value if value.__class__ is int else value.num(st, fr, c))
        if not values:
            return 0
        return max(values) if self.highest else min(values)


@attrs.frozen
class GroupZones(ZoneExpr):
    """`cards in a supply-pile`: the zones of a zone group in this game, in a query."""

    name: str
    members: tuple[tuple[str, str], ...]

    def key(self, st: GameState, fr: Frame, cand: int = -1) -> str:
        raise RulesError(f"'a {self.name}' names several zones; use it where cards are chosen or counted")

    def keys(self, st: GameState, fr: Frame, cand: int = -1) -> list[str]:
        return group_zones(st, self.members, fr.player)


@attrs.frozen
class ChosenWord:
    """`whose colour is the pick`: a word bound by `choose a colour value as the pick`, in
    a query's `whose` filter (which asks its `value`, as of a card's property)."""

    name: str

    def value(self, st: GameState, fr: Frame, cand: int) -> Any:
        return lookup(st, self.name)
