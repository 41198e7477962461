"""The game loop: turns of phases in seat order, the end of the game, the final score.

It is itself an effect at the bottom of the frame stack, so a saved game knows where in
the turn it is without any Python state.
"""

from __future__ import annotations

import attrs

from rules_dsl.effects.base import Effect, frame, game_limit_error, push
from rules_dsl.effects.control import enter
from rules_dsl.effects.values import Cond, NumExpr
from rules_dsl.state import Frame, GameState

# where the game loop is between two deals (its frame's data)
DEAL_SCORED = 1
DEAL_SET_UP = 2


@attrs.frozen(eq=False)
class GameLoop(Effect):
    eid: int
    text: str
    phases: tuple[tuple[str, int], ...]
    triggers: tuple[tuple[str, Cond], ...]
    extra_rounds: NumExpr
    score: NumExpr
    tiebreak: NumExpr
    bodies: tuple[int, ...] = ()  # effect ids of the phases' bodies
    after_turn: bool = False  # the game ends with the triggering turn, not its round
    final_turn: Cond | None = None  # who takes one more turn when the game would end
    breakdown: tuple[tuple[str, NumExpr], ...] = ()
    turn_limit: int = 0  # a safety net: the game ends after this many turns (0: none)
    watched: tuple[tuple[str, Cond], ...] = ()  # triggers checked at once ("checked: at-once")
    # what the watched conditions read (effects/watching.py): an effect that changes one of
    # these tests them at once; with watch_every, they are tested after every step that may
    # change the game
    watch_counters: frozenset[str] = frozenset()
    watch_zones: frozenset[str] = frozenset()
    watch_every: bool = False
    # deals (rounds, hands) above the turns: the deal's set-up and scoring bodies (-1: none)
    # and its end, tested after each turn (None: the game has no deals)
    deal_setup: int = -1
    deal_end: Cond | None = None
    deal_scoring: int = -1
    # a co-operative game: every player wins when this holds at the end, else every player
    # loses; the score is worked out once, with the start player as "you" (None: not co-operative)
    coop_win: Cond | None = None
    # triggers with their own `ends:` (trigger name -> after-round | after-turn | after-rotation);
    # the others end as `after_turn` says. After a trigger that ends after a rotation fired,
    # a trigger that ends after the turn still ends the game sooner (Hanabi's last fuse in the
    # final round)
    modes: tuple[tuple[str, str], ...] = ()
    watch_sizes: frozenset[str] = frozenset()  # of watch_zones, those read beyond emptiness

    def step(self, st: GameState, fr: Frame) -> None:
        st.failed = False
        fr.player = st.active
        if st.trace is not None:  # a scenario watches: the phase that ran is over
            st.trace.ended(st)
        if fr.data is not None:  # between two deals (only a game with deals gets here)
            self.between_deals(st, fr)
            return
        if fr.pc < len(self.phases):
            if st.phase == "setup" and st.next_turns:
                # `take the next turn` before any turn names who starts: that player plays the
                # first turn, once, and rounds end at the seat before theirs
                st.active = st.first = fr.player = st.next_turns.pop(0)
            name, eid = self.phases[fr.pc]
            fr.pc += 1
            st.phase = name
            # the phase's body runs in its own scope; this frame absorbs its failure
            body_eid = self.bodies[fr.pc - 1]
            if st.trace is not None:
                st.trace.began(st, name)
                body_eid = st.rules.step_twins.get(body_eid, body_eid)  # a scenario may stop between its steps
            enter(st, st.rules.effects[body_eid], st.active, -1, {}, False)
            return
        self.end_turn(st, fr)

    def watch(self, st: GameState) -> None:
        """Trigger the end the moment a watched condition holds (not during the set-up of the
        game or of a deal); once triggered it stays triggered, whatever changes later in the turn."""
        if st.end_trigger or st.over or st.phase == "setup" or st.phase == "deal-setup":
            if self.modes and st.end_trigger and not st.over and st.phase != "deal-setup":
                self.sooner(st, frame(self.eid, st.active), self.watched)
            return
        self.test_triggers(st, frame(self.eid, st.active), self.watched)

    def mode(self, trigger: str) -> str:
        """How the game ends after `trigger` fired: after-round, after-turn or after-rotation."""
        for name, mode in self.modes:
            if name == trigger:
                return mode
        return "after-turn" if self.after_turn else "after-round"

    def sooner(self, st: GameState, fr: Frame, triggers: tuple[tuple[str, Cond], ...]) -> None:
        """While a game waits out the rotation a trigger gave it, a trigger that ends the game
        after the turn and holds replaces it."""
        if self.mode(st.end_trigger) != "after-rotation":
            return
        for name, cond in triggers:
            if self.mode(name) == "after-turn" and cond.test(st, fr):
                st.end_trigger = name
                st.extra_rounds_left = 0
                return

    def end_turn(self, st: GameState, fr: Frame) -> None:
        st.turn += 1
        st.turn_decisions = 0
        # a game's decisions counted once a turn, not at each (a turn has its own bound)
        if len(st.log) > st.rules.game_decision_limit:
            raise game_limit_error(st.rules)
        # "for the rest of this turn" and "once per turn" end with the turn
        if st.lasting:
            st.lasting.clear()
        if st.used:
            st.used.clear()
        if st.trace is not None:
            st.trace.reached(st, "end of turn")
        if st.final_turns:
            # a turn the rules grant after the game's end: then the next such turn, or the end
            st.final_turns.pop(0)
            fr.pc = 0
            if st.final_turns:
                st.active = st.final_turns[0]
            else:
                self.score_game(st, fr)
            return
        if self.turn_limit and st.turn >= self.turn_limit and not st.end_trigger:
            st.end_trigger = "turn limit"
            st.active = (st.active + 1) % st.players
            fr.pc = 0
            self.score_game(st, fr)
            return
        if self.deal_end is not None and self.deal_end.test(st, fr):
            # the deal is over: its scoring, then the game's end, then the next deal's set-up
            fr.data = [DEAL_SCORED]
            if self.deal_scoring >= 0:
                st.phase = "deal-end"
                body = self.deal_scoring
                if st.trace is not None:
                    st.trace.began(st, "deal-end")
                    body = st.rules.step_twins.get(body, body)  # a scenario may stop between its steps
                push(st, body, st.active, -1, scope=True)
            return
        self.next_turn(st, fr)

    def between_deals(self, st: GameState, fr: Frame) -> None:
        """After a deal's scoring: the game may end (as after any turn); otherwise the next
        deal is set up, and the turn passes on (to a player the texts queued with `take
        the next turn`, else to the next in the turn order)."""
        if fr.data == [DEAL_SCORED]:
            if not st.end_trigger:
                self.test_triggers(st, fr)
            if not (st.end_trigger and self.mode(st.end_trigger) == "after-turn") and self.deal_setup >= 0:
                fr.data = [DEAL_SET_UP]
                st.phase = "deal-setup"
                body = self.deal_setup
                if st.trace is not None:
                    st.trace.began(st, "deal-setup")
                    body = st.rules.step_twins.get(body, body)
                push(st, body, st.active, -1, scope=True)
                return
        fr.data = None
        self.next_turn(st, fr)

    def test_triggers(self, st: GameState, fr: Frame, triggers: tuple[tuple[str, Cond], ...] | None = None) -> None:
        """The first of the triggers (the pack's, unless given) that holds fires the end."""
        for name, cond in self.triggers if triggers is None else triggers:
            if cond.test(st, fr):
                st.end_trigger = name
                if self.modes and self.mode(name) == "after-rotation":
                    # the turns left: this one (counted down at its end), then one for each player
                    st.extra_rounds_left = st.players + 1
                else:
                    st.extra_rounds_left = self.extra_rounds.num(st, fr)
                break

    def next_turn(self, st: GameState, fr: Frame) -> None:
        """The rest of the end of a turn: the end triggers, the next player, the end of a round."""
        if not st.end_trigger:
            self.test_triggers(st, fr)
        elif self.modes:
            self.sooner(st, fr, self.triggers)
        if st.out or st.next_turns:
            last_seat = self.advance(st)
        else:
            last_seat = (st.active + 1) % st.players == st.first
            st.active = (st.active + 1) % st.players
        fr.pc = 0
        if st.end_trigger and self.modes:
            mode = self.mode(st.end_trigger)
            if mode == "after-rotation":  # the game ends when every player has had one more turn
                if last_seat:
                    st.round += 1
                st.extra_rounds_left -= 1
                if st.extra_rounds_left <= 0:
                    self.finish(st, fr)
                return
            after_turn = mode == "after-turn"
        else:
            after_turn = self.after_turn
        if st.end_trigger and after_turn:
            if last_seat:
                st.round += 1
            self.finish(st, fr)
            return
        if last_seat:
            st.round += 1
            if st.end_trigger:
                if st.extra_rounds_left > 0:
                    st.extra_rounds_left -= 1
                else:
                    self.finish(st, fr)

    def advance(self, st: GameState) -> bool:
        """The next turn's player, with the turn order as data: a seat queued by `take the
        next turn` first, else the next seat clockwise that has not left the order (you
        again if everyone else has; the next seat if everyone has). Returns whether the
        turn passed the start player's seat, which ends a round (an extra turn ends none)."""
        n = st.players
        if st.next_turns:
            nxt = st.next_turns.pop(0)
        else:
            following = [(st.active + i) % n for i in range(1, n + 1)]
            nxt = next((p for p in following if p not in st.out), following[0])
        # the seats passed going clockwise to the next player (none for an extra turn)
        steps = (nxt - st.active) % n
        passed = any((st.active + i) % n == st.first for i in range(1, steps + 1))
        st.active = nxt
        return passed

    def finish(self, st: GameState, fr: Frame) -> None:
        """The game would end: first any final turns the rules grant, then the score."""
        if self.final_turn is not None:
            granted = []
            for i in range(st.players):
                fr.player = i
                if self.final_turn.test(st, fr):
                    granted.append(i)
            if granted:
                st.final_turns = granted
                st.active = granted[0]
                fr.pc = 0
                return
        self.score_game(st, fr)

    def score_now(self, st: GameState) -> tuple[list[int], list[int], dict[str, list[int]]]:
        """Each player's score, tie-break and score breakdown if the game ended now."""
        fr = Frame(self.eid, 0)
        scores, ties = [], []
        if self.coop_win is not None:  # one shared score, everyone's
            fr.player = st.first
            shared = self.score.num(st, fr)
            return [shared] * st.players, [0] * st.players, self._breakdown(st, fr)
        for p in range(st.players):
            fr.player = p
            scores.append(self.score.num(st, fr))
            ties.append(self.tiebreak.num(st, fr))
        return scores, ties, self._breakdown(st, fr)

    def _breakdown(self, st: GameState, fr: Frame) -> dict[str, list[int]]:
        breakdown = {}
        for name, expr in self.breakdown:
            parts = []
            for p in range(st.players):
                fr.player = p
                parts.append(expr.num(st, fr))
            breakdown[name] = parts
        return breakdown

    def won_together(self, st: GameState) -> bool:
        """Whether the players of a co-operative game win (its `win` condition, with the start
        player as "you")."""
        assert self.coop_win is not None
        return self.coop_win.test(st, Frame(self.eid, st.first))

    def score_game(self, st: GameState, fr: Frame) -> None:
        st.phase = "over"
        st.over = True
        scores, ties, breakdown = self.score_now(st)
        st.scores = scores
        st.tiebreaks = ties
        st.breakdown.update(breakdown)
        if self.coop_win is not None:  # all win or all lose together
            st.winners = list(range(st.players)) if self.won_together(st) else []
        else:
            best = max(zip(scores, ties))
            st.winners = [p for p in range(st.players) if (scores[p], ties[p]) == best]
        st.frames.clear()
        if st.trace is not None:
            st.trace.reached(st, "end of game")
