"""Simultaneous decisions: every seat of a set chooses, hidden from the others, then all
choices are revealed and acted on.

`for each player at once: CHOICE then: BODY`. Every seat's question is worked out from
the same state before anyone answers (a choice only binds a name, so nobody's answer can
change another's options), all of them are pending together (`GameState.pending` and
`GameState.also`), and a seat may answer in any order. An answer is kept in this effect's
frame, which no seat's view shows (`observation`, `narrate`), and which a sample for a
search (`knowledge.sample`) forgets for every other seat. Once every seat has answered,
BODY runs for each of them in seat order from "you", with its answer bound.

Frame data (JSON like all frame data): `[next, seats, answers, state]`, `next` ANSWERING
(-1) while answers come, then the index of the next seat BODY runs for; `answers[i]` the
value the i-th seat answered; `state[i]` ASKED, ANSWERED or FAILED (nothing to choose).
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.base import Effect
from rules_dsl.effects.players import as_player, seats
from rules_dsl.effects.values import Cond
from rules_dsl.errors import RulesError
from rules_dsl.state import Decision, Frame, GameState

ASKED, ANSWERED, FAILED = 0, 1, 2
ANSWERING = -1


@attrs.frozen(eq=False)
class AtOnce(Effect):
    """`for each player at once: choose ... as the pick then: ...` (see the module docstring)."""

    eid: int
    text: str
    who: str  # "player" | "opponent"
    cond: Cond | None  # `where COND`: only the seats for which it holds when asked
    choice: Effect  # one choice that only binds a name (`Effect.secret` is True)
    body: Effect
    simultaneous = True

    def step(self, st: GameState, fr: Frame) -> None:
        st.failed = False
        data = fr.data
        if data is None:
            chosen = [s for s in seats(st, fr, self.who) if self.cond is None or self.cond.test(st, as_player(fr, s))]
            data = fr.data = [ANSWERING, chosen, [None] * len(chosen), [ASKED] * len(chosen)]
            self.ask(st, fr, list(range(len(chosen))))
            if st.pending is not None:
                return
            data[0] = 0
        elif data[0] == ANSWERING:  # every seat has answered
            data[0] = 0
        i = data[0]
        seats_, answers, states = data[1], data[2], data[3]
        while i < len(seats_) and states[i] == FAILED:
            i += 1
        if i >= len(seats_):
            st.frames.pop()
            return
        data[0] = i + 1
        self.reveal(st, fr, seats_[i], answers[i])

    def ask(self, st: GameState, fr: Frame, which: list[int]) -> None:
        """Work out the questions of these seats (indices into the frame's seats) on the
        state as it is, and leave them all pending; a question with no options fails the
        seat, a forced one is answered at once."""
        data = _own(fr)
        decisions: list[Decision] = []
        for i in which:
            seat = data[1][i]
            value, decision = self._question(st, fr, seat)
            if decision is not None:
                data[3][i] = ASKED
                decisions.append(decision)
            elif value is _FAILED:
                data[3][i] = FAILED
            else:
                data[2][i] = value
                data[3][i] = ANSWERED
        st.failed = False
        if decisions:
            st.pending = decisions[0]
            st.also = decisions[1:]

    def _question(self, st: GameState, fr: Frame, seat: int) -> tuple[Any, Decision | None]:
        """(value, None) for a forced answer, (_FAILED, None) when there is nothing to
        choose, (None, decision) for a question."""
        frames = st.frames
        depth = len(frames)
        # a scope for the choice to bind into (popped below), then the choice itself
        holder = Frame(self.eid, seat, fr.src, 0, {}, None)
        frames.append(holder)
        frames.append(Frame(self.choice.eid, seat, fr.src, 0, None, None))
        st.failed = False
        self.choice.step(st, frames[-1])
        d = st.pending
        st.pending = None
        failed = st.failed
        del frames[depth:]
        if d is not None:
            return None, d
        if failed:
            return _FAILED, None
        return _answer(holder), None

    def answer(self, st: GameState, fr: Frame, seat: int, value: Any) -> None:
        """Keep a seat's answer until every seat has answered (the decision is already
        taken off `pending`/`also` by the interpreter)."""
        data = _own(fr)
        try:
            i = data[1].index(seat)
        except ValueError:
            raise RulesError(f"player {seat + 1} is not asked by {self.text!r}") from None
        data[2][i] = value
        data[3][i] = ANSWERED

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        """The answer of the one seat still asked, given as a plain option (the interpreter's
        way for a single pending decision, which asks nothing of the effect it resumes)."""
        data = fr.data
        assert data is not None
        asked = [seat for seat, state in zip(data[1], data[3]) if state == ASKED]
        if len(asked) != 1:
            raise RulesError(f"{self.text!r}: {len(asked)} seats are still asked, not one")
        self.answer(st, fr, asked[0], value)

    def reveal(self, st: GameState, fr: Frame, seat: int, value: Any) -> None:
        """Run BODY for one seat with its answer bound as the choice binds it."""
        frames = st.frames
        body = Frame(self.body.eid, seat, fr.src, 0, {}, None)
        frames.append(body)
        choice = Frame(self.choice.eid, seat, fr.src, 0, None, None)
        frames.append(choice)
        self.choice.resume(st, choice, value)  # binds into BODY's scope, pops itself
        if st.failed:  # passed ("you may choose"): nothing to do for this seat
            st.failed = False
            frames.pop()

    def forget(self, st: GameState, fr: Frame, seat: int) -> None:
        """Ask every seat but `seat` again, as if none had answered: a sample for `seat`'s
        search must not hold the others' answers, and their questions are worked out on
        the sample's cards. `seat`'s own question comes first."""
        data = fr.data
        if data is None or data[0] != ANSWERING:
            return
        data = _own(fr)
        others = [i for i, s in enumerate(data[1]) if s != seat]
        mine = [d for d in [st.pending, *st.also] if d is not None and d.player == seat]
        st.pending = None
        st.also = []
        for i in others:
            data[2][i] = None
        self.ask(st, fr, others)
        asked = [d for d in [st.pending, *st.also] if d is not None]
        everyone = mine + asked
        st.pending = everyone[0] if everyone else None
        st.also = everyone[1:]


class _Failed:
    """The marker of a seat with nothing to choose."""


_FAILED = _Failed()


def _own(fr: Frame) -> list[Any]:
    """The frame's data, its answers and states lists this frame's own: a clone of the game
    copies the data list but shares the lists in it (`GameState.clone`), so changing them
    in place would change the state it was cloned from (a bot's trial answer would become
    the real game's)."""
    data = fr.data
    assert data is not None
    data[2] = data[2].copy()
    data[3] = data[3].copy()
    return data


def _answer(holder: Frame) -> Any:
    names = holder.vars or {}
    for name, value in names.items():
        if name != "it":
            return value
    return names.get("it")
