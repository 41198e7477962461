"""A bot made to follow a rule on top of another bot: the seats of `rules-dsl experiment`.

- `take`: whenever an option names the card (`statistics.ChoiceCounter.card_of`: the id,
  `id@zone`, `id#copy`), the seat takes one of those options; the bot under it chooses
  which (and decides everything else).
- `leave`: the seat never takes an option naming the card while another option remains.
- `policy`: an expression (or condition) in the pack's words, worked out for the seat
  after each option (the option applied in one sampled state, the seat's own follow-up
  questions answered the same way, one option ahead each, up to `follow_ups` of them:
  `rules-dsl experiment --follow-ups N`): only the options with the
  highest value are kept, and the bot under it chooses among them. A condition counts 1
  when it holds. Where every option gives the same value the seat plays as its bot.

It notes the decision (the game's log length) at which each card was first offered to
it (`first_offers`): an experiment's arms go on from there (experiment.py).
"""

from __future__ import annotations

import random
from typing import Any

from rules_dsl.bots.base import Bot, Turn
from rules_dsl.effects.values import Cond
from rules_dsl.engine import Engine
from rules_dsl.state import Frame, GameState
from rules_dsl.statistics import ChoiceCounter

FOLLOW_UPS = 6  # the seat's own follow-up questions answered before an option is judged (a policy's default)
MAX_FOLLOW_UPS = 100


class SteeredBot:
    def __init__(
        self,
        base: Bot,
        engine: Engine,
        seed: int,
        take: str | None = None,
        leave: str | None = None,
        policy: Any = None,
        follow_ups: int = FOLLOW_UPS,
    ) -> None:
        self.base = base
        self.engine = engine
        self.take = take
        self.leave = leave
        self.policy = policy
        self.follow_ups = follow_ups
        self.rng = random.Random(seed ^ 0x5EED)  # its own stream: the bot under it draws as it would
        self.cards = ChoiceCounter(engine.rules, 1)  # only for `card_of`
        self.frame = Frame(engine.rules.game_loop, 0, -1, 0, {}, None)
        self.first_offers: dict[str, int] = {}  # card id -> decisions made before it was first offered

    def choose(self, turn: Turn) -> str:
        options = turn.options
        for option in options:
            card = self.cards.card_of(option)
            if card is not None and card not in self.first_offers:
                self.first_offers[card] = turn.decided
        if len(options) > 1 and (self.take or self.leave):
            card = self.take or self.leave
            naming = [o for o in options if self.cards.card_of(o) == card]
            if naming:
                kept = naming if self.take else [o for o in options if o not in naming] or options
                options = kept
        if len(options) > 1 and self.policy is not None:
            options = self._best(turn, options)
        if len(options) == 1:
            return options[0]
        if len(options) < len(turn.options):
            turn.options = options  # the bot under it chooses among these only
        return self.base.choose(turn)

    def _value(self, st: GameState, seat: int) -> float:
        st.rules = self.engine.rules
        self.frame.player = seat
        if isinstance(self.policy, Cond):
            return 1.0 if self.policy.test(st, self.frame) else 0.0
        return float(self.policy.num(st, self.frame))

    def _best(self, turn: Turn, options: list[str]) -> list[str]:
        world = turn.sample(self.rng)
        me = turn.player
        values = []
        for option in options:
            st = world.clone()
            self.engine.apply_fast(st, option)
            for _ in range(self.follow_ups):
                d = st.pending
                if d is None or d.player != me:
                    break
                self.engine.apply_fast(st, self._one_ahead(st, d.options, me))
            values.append(self._value(st, me))
        top = max(values)
        return [o for o, v in zip(options, values, strict=True) if v == top]

    def _one_ahead(self, world: GameState, options: list[str], me: int) -> str:
        best, best_value = options[0], 0.0
        for i, option in enumerate(options):
            st = world.clone()
            self.engine.apply_fast(st, option)
            v = self._value(st, me)
            if i == 0 or v > best_value:
                best, best_value = option, v
        return best
