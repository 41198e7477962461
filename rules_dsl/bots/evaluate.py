"""The pack's `evaluation:` expression as a function of (state, seat), for search bots."""

from __future__ import annotations

from collections.abc import Callable

from rules_dsl.errors import RulesError
from rules_dsl.rules import Rules
from rules_dsl.state import Frame, GameState

WIN = 1_000_000  # a finished game outweighs any evaluation


def evaluator(rules: Rules, bot: str) -> Callable[[GameState], list[int]]:
    """How good a state is for each seat: the pack's evaluation for it minus the best other seat's.

    A finished game counts as WIN for a sole winner, WIN // len(winners) for a shared win and
    -WIN for a loss.
    """
    expr = rules.evaluation
    if expr is None:
        raise RulesError(
            f"bot {bot!r} needs the pack key 'evaluation:' (an expression saying how good a position is "
            f"for 'you'), and {rules.name} has none; see docs/modding.md#evaluation-and-statistics"
        )
    frame = Frame(rules.game_loop, 0, -1, 0, {}, None)

    def leads(st: GameState) -> list[int]:
        if st.over:
            return [WIN // len(st.winners) if p in st.winners else -WIN for p in range(st.players)]
        st.rules = rules
        values = []
        for p in range(st.players):
            frame.player = p
            values.append(expr.num(st, frame))
        if len(values) == 1:
            return values
        top = max(values)
        second = sorted(values)[-2]
        return [v - (second if v == top else top) for v in values]

    return leads
