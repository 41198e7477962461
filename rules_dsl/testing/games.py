"""Hypothesis strategies for games of any pack: game set-ups, decisions, playthroughs, positions.

Every choice is drawn as an index into the pending decision's legal options, so hypothesis
shrinks a failing game towards earlier options and shorter logs. Long games are handed to
a seeded random player after `drawn` decisions: hypothesis still chooses the seed, and
the test stays within hypothesis's data budget.

```python
from hypothesis import given
from rules_dsl.engine import Engine
from rules_dsl.testing import playthroughs

ENGINE = Engine.for_pack("base")

@given(playthroughs(ENGINE, players=[2, 3]))
def test_scores_are_never_negative(game):
    assert min(game.final.scores) >= 0
```
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import attrs
from hypothesis import strategies as st

from rules_dsl.engine import Engine
from rules_dsl.state import GameState

Chooser = Callable[[GameState], str]
MAX_DECISIONS = 5000  # a game longer than this is taken not to end
DRAWN = 150  # decisions hypothesis draws before a seeded random player takes over


@attrs.frozen
class GameSpec:
    """How a game starts: players, seed and variants (None: the pack's defaults)."""

    players: int
    seed: int
    variants: tuple[str, ...] | None = None

    def new_game(self, engine: Engine) -> GameState:
        return engine.new_game(self.players, self.seed, None if self.variants is None else list(self.variants))


@attrs.frozen
class Playthrough:
    spec: GameSpec
    log: tuple[str, ...]
    final: GameState  # over, unless the game took more than max_decisions


def game_specs(
    engine: Engine,
    players: Sequence[int] | None = None,
    variants: Sequence[Sequence[str] | None] | None = None,
    seeds: st.SearchStrategy[int] | None = None,
    variant_mixes: bool = False,
) -> st.SearchStrategy[GameSpec]:
    """Game set-ups: a player count from `players` (default: every count the pack allows),
    a variant set from `variants` (default: the pack's defaults only) and a seed. With
    `variant_mixes`, the pack's defaults or any mix of its variants."""
    rules = engine.rules
    counts = list(players) if players else list(range(rules.min_players, rules.max_players + 1))
    sets: st.SearchStrategy[tuple[str, ...] | None] = st.sampled_from(
        [None if v is None else tuple(v) for v in (variants if variants else [None])]
    )
    if variant_mixes and rules.variants:
        names = sorted(rules.variants)
        sets = st.one_of(sets, st.lists(st.sampled_from(names), unique=True, max_size=len(names)).map(tuple))
    return st.builds(
        GameSpec,
        players=st.sampled_from(counts),
        seed=seeds if seeds is not None else st.integers(min_value=0, max_value=2**31 - 1),
        variants=sets,
    )


def options(state: GameState) -> st.SearchStrategy[str]:
    """One legal option of the pending decision, drawn by index (shrinks to the first)."""
    assert state.pending is not None, "the game is over: nothing to decide"
    legal = list(state.pending.options)
    return st.integers(min_value=0, max_value=len(legal) - 1).map(legal.__getitem__)


def seeded_chooser(seed: int) -> Chooser:
    """A random player: picks uniformly among the pending options with its own stream."""
    rnd = random.Random(seed)

    def choose(state: GameState) -> str:
        assert state.pending is not None
        return rnd.choice(state.pending.options)

    return choose


def drawing_chooser(data: st.DataObject, drawn: int = DRAWN) -> Chooser:
    """Inside a `@given(st.data())` test: hypothesis picks the first `drawn` decisions of a
    game, then a random player whose seed hypothesis also picks plays on."""
    count = [0]
    bot: list[Chooser] = []

    def choose(state: GameState) -> str:
        count[0] += 1
        if count[0] <= drawn:
            return data.draw(options(state))
        if not bot:
            bot.append(seeded_chooser(data.draw(st.integers(min_value=0, max_value=2**31 - 1))))
        return bot[0](state)

    return choose


def play(
    engine: Engine,
    state: GameState,
    choose: Chooser,
    on_step: Callable[[GameState, int], None] | None = None,
    max_decisions: int = MAX_DECISIONS,
    before_apply: Callable[[GameState, str], None] | None = None,
) -> list[str]:
    """Play `state` on with legal options only, to its end or `max_decisions` decisions.

    `on_step(state, i)` runs at the start (i = 0) and after the i-th decision;
    `before_apply(state, option)` just before an option is applied. Returns the options
    applied; the game is over unless the bound was reached.
    """
    log: list[str] = []
    if on_step is not None:
        on_step(state, 0)
    while state.pending is not None and len(log) < max_decisions:
        option = choose(state)
        if before_apply is not None:
            before_apply(state, option)
        engine.apply(state, option)
        log.append(option)
        if on_step is not None:
            on_step(state, len(log))
    return log


def playthroughs(
    engine: Engine,
    players: Sequence[int] | None = None,
    variants: Sequence[Sequence[str] | None] | None = None,
    drawn: int = DRAWN,
    max_decisions: int = MAX_DECISIONS,
) -> st.SearchStrategy[Playthrough]:
    """Whole games of legal decisions (see `drawing_chooser`), with their logs."""

    @st.composite
    def build(draw: st.DrawFn) -> Playthrough:
        spec = draw(game_specs(engine, players, variants))
        data = draw(st.data())
        state = spec.new_game(engine)
        log = play(engine, state, drawing_chooser(data, drawn), max_decisions=max_decisions)
        return Playthrough(spec, tuple(log), state)

    return build()


def decision_sequences(
    engine: Engine,
    players: Sequence[int] | None = None,
    variants: Sequence[Sequence[str] | None] | None = None,
    max_length: int = 60,
) -> st.SearchStrategy[tuple[GameSpec, tuple[str, ...]]]:
    """A game set-up and a sequence of legal decisions from its start (at most `max_length`,
    fewer if the game ends): replay it with `engine.replay`."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[GameSpec, tuple[str, ...]]:
        spec = draw(game_specs(engine, players, variants))
        length = draw(st.integers(min_value=0, max_value=max_length))
        state = spec.new_game(engine)
        log: list[str] = []
        while state.pending is not None and len(log) < length:
            option = draw(options(state))
            engine.apply(state, option)
            log.append(option)
        return spec, tuple(log)

    return build()


def positions(
    engine: Engine,
    players: Sequence[int] | None = None,
    variants: Sequence[Sequence[str] | None] | None = None,
    max_length: int = 60,
) -> st.SearchStrategy[GameState]:
    """Positions reached by legal decisions from a game's start (possibly over)."""
    return decision_sequences(engine, players, variants, max_length).map(
        lambda pair: engine.replay(
            pair[0].players, pair[0].seed, None if pair[0].variants is None else list(pair[0].variants), list(pair[1])
        )
    )
