"""How good a position is, for search bots: the pack's weighted features (`features:` and
`weights:`, compiler/features.py) or, for a pack without weights, its `evaluation:` expression."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules_dsl.errors import RulesError
from rules_dsl.rules import Rules
from rules_dsl.state import Frame, GameState

WIN = 1_000_000  # a finished game outweighs any evaluation


def feature_values(rules: Rules) -> Callable[[GameState], list[list[int]]]:
    """Each seat's value of every feature (in `rules.features` order), for tuning."""
    exprs = [f.expr for f in rules.features]
    frame = Frame(rules.game_loop, 0, -1, 0, {}, None)

    def values(st: GameState) -> list[list[int]]:
        st.rules = rules
        out = []
        for p in range(st.players):
            frame.player = p
            out.append([e.num(st, frame) for e in exprs])
        return out

    return values


def value_of(rules: Rules, bot: str, weights: Sequence[float] | None = None) -> Callable[[GameState], list[float]]:
    """Each seat's value of a position: the weighted sum of its features (weights: the
    pack's, unless given), else the pack's `evaluation:` expression."""
    one = seat_value(rules, bot, weights)

    def values(st: GameState) -> list[float]:
        return [one(st, p) for p in range(st.players)]

    return values


def seat_value(rules: Rules, bot: str, weights: Sequence[float] | None = None) -> Callable[[GameState, int], float]:
    """One seat's value of a position (`value_of`'s, for that seat alone: a quarter of the
    work in a 4-player game, for a search that models how another seat answers)."""
    if weights is None:
        weights = rules.weights
    if weights is not None and rules.features:
        pairs = [(f.expr, w) for f, w in zip(rules.features, weights, strict=True) if w]
        frame = Frame(rules.game_loop, 0, -1, 0, {}, None)

        def weighted(st: GameState, p: int) -> float:
            st.rules = rules
            frame.player = p
            return sum(w * e.num(st, frame) for e, w in pairs)

        return weighted
    expr = rules.evaluation
    if expr is None:
        if rules.features:
            raise RulesError(
                f"bot {bot!r} needs weights for the features of {rules.name}: run 'rules-dsl tune "
                f"{rules.packs[-1]}' to learn them, or give a weights: part "
                "(docs/modding.md#evaluation-and-statistics)"
            )
        raise RulesError(
            f"bot {bot!r} needs the pack key 'evaluation:' (an expression saying how good a position is "
            f"for 'you') or features: with weights:, and {rules.name} has none; "
            "see docs/modding.md#evaluation-and-statistics"
        )
    eframe = Frame(rules.game_loop, 0, -1, 0, {}, None)

    def plain(st: GameState, p: int) -> float:
        st.rules = rules
        eframe.player = p
        return expr.num(st, eframe)

    return plain


def evaluator(rules: Rules, bot: str, weights: Sequence[float] | None = None) -> Callable[[GameState], list[float]]:
    """How good a state is for each seat: its value minus the best other seat's.

    A finished game counts as WIN for a sole winner, WIN // len(winners) for a shared win and
    -WIN for a loss. In a co-operative game (`rules.cooperative`) the seats share one goal:
    a position is worth its value itself, not a lead over the others, and a finished game
    WIN for all if they won together, -WIN if they lost (plus the final value, so a better
    loss is still better): a shared end is never a win in itself.
    """
    value = value_of(rules, bot, weights)
    coop = rules.cooperative

    def leads(st: GameState) -> list[float]:
        if st.over:
            if coop:
                return [(WIN if p in st.winners else -WIN) + v for p, v in enumerate(value(st))]
            return [WIN // len(st.winners) if p in st.winners else -WIN for p in range(st.players)]
        values = value(st)
        if coop or len(values) == 1:
            return values
        top = max(values)
        second = sorted(values)[-2]
        return [v - (second if v == top else top) for v in values]

    return leads
