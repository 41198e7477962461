"""The search bot (`ismcts`, and `ismcts-ucb` kept for comparison) plays whole games of
every built-in pack through the one decision API, the same game for the same seed."""

from __future__ import annotations

import math
from unittest import mock

import attrs
import pytest

from rules_dsl.bots import BOT_NAMES, SEARCH_BOTS, Turn, make_bot
from rules_dsl.bots.ismcts import CONFIGS, Config, ISMCTSBot
from rules_dsl.engine import Engine
from rules_dsl.state import GameState

PACKS = [("base", 2), ("base-scenarios", 2), ("escalation", 3), ("microcosm", 2)]


def play(engine: Engine, names: list[str], seed: int, budget: str) -> tuple[GameState, list[str]]:
    bots = [make_bot(name, engine, seed * 1009 + seat, budget) for seat, name in enumerate(names)]
    st = engine.new_game(len(names), seed)
    for _ in range(5000):
        if st.pending is None:
            break
        engine.apply(st, bots[st.pending.player].choose(Turn(engine, st)))
    assert st.over
    return st, list(st.log)


@pytest.mark.parametrize(("pack", "players"), PACKS)
def test_the_search_bot_plays_every_pack_to_the_end_the_same_way_for_a_seed(pack: str, players: int) -> None:
    engine = Engine.for_pack(pack)
    names = ["ismcts"] + ["greedy"] * (players - 1)
    first, log = play(engine, names, 7, "6")
    again, log_again = play(engine, names, 7, "6")
    assert log == log_again
    assert first.scores == again.scores and first.winners == again.winners


def test_the_old_search_is_kept_as_a_named_configuration() -> None:
    assert {"ismcts", "ismcts-ucb"} <= set(BOT_NAMES) and set(CONFIGS) == {"ismcts", "ismcts-ucb"} == set(SEARCH_BOTS)
    old = CONFIGS["ismcts-ucb"]
    assert (old.rollout, old.reward, old.mast, old.history, old.reuse) == (20, "tanh", False, 0.0, False)
    engine = Engine.for_pack("microcosm")
    first, log = play(engine, ["ismcts-ucb", "ismcts"], 3, "5")
    assert play(engine, ["ismcts-ucb", "ismcts"], 3, "5")[1] == log


def test_the_playout_policy_learns_option_means_during_the_search() -> None:
    engine = Engine.for_pack("microcosm")
    st = engine.new_game(2, 5)
    while st.pending is not None and len(st.pending.options) < 2:
        engine.apply(st, st.pending.options[0])
    bot = ISMCTSBot(engine, 1, iterations=30)
    option = bot.choose(Turn(engine, st))
    assert option in st.pending.options
    assert bot.mast  # (seat, option) -> [reward sum, count], every mean a probability
    assert all(0.0 <= total / count <= 1.0 for total, count in bot.mast.values())
    old = ISMCTSBot(engine, 1, iterations=30, config=CONFIGS["ismcts-ucb"])
    old.choose(Turn(engine, st))
    assert old.mast == {}


def test_the_subtree_is_kept_only_for_the_bots_next_decision_at_once() -> None:
    engine = Engine.for_pack("base")
    st = engine.new_game(2, 2)
    bot = ISMCTSBot(engine, 1, iterations=20)
    kept_roots = 0
    for _ in range(60):
        d = st.pending
        assert d is not None
        if d.player != 0:
            engine.apply(st, d.options[0])
            continue
        turn = Turn(engine, st)
        kept = bot._kept
        option = bot.choose(turn)
        if kept is not None and kept[1] == turn.player and kept[2] == turn.decided and len(turn.options) > 1:
            kept_roots += 1
            assert kept[0].visits > 0  # the subtree's statistics carried over
        engine.apply(st, option)
    assert kept_roots > 0


def test_finishing_the_move_before_scoring_plays_to_the_end_the_same_way() -> None:
    import attrs

    engine = Engine.for_pack("microcosm")
    config = attrs.evolve(CONFIGS["ismcts"], finish_move=6)

    def game() -> list[str]:
        bots = [ISMCTSBot(engine, 11, iterations=5, config=config), ISMCTSBot(engine, 12, iterations=5)]
        st = engine.new_game(2, 4)
        while st.pending is not None:
            engine.apply(st, bots[st.pending.player].choose(Turn(engine, st)))
        return list(st.log)

    assert game() == game()


def test_opponents_answered_greedily_are_no_nodes_and_bounded_per_iteration() -> None:
    import attrs

    engine = Engine.for_pack("escalation")
    st = engine.new_game(3, 2)
    while st.pending is not None and len(st.pending.options) < 2:
        engine.apply(st, st.pending.options[0])
    assert st.pending is not None
    me = st.pending.player
    # (`prior_by=lead`: the prior's own follow-ups are then not answered by `_answer`)
    config = attrs.evolve(CONFIGS["ismcts"], opponents=4, answers="always", prior_by="lead")
    bot = ISMCTSBot(engine, 1, iterations=6, config=config)
    answered: list[int] = []
    answer = bot._answer

    def spy(state: GameState, seat: int, by: str = "own") -> str:
        answered.append(seat)
        return answer(state, seat, by)

    bot._answer = spy  # type: ignore[method-assign]
    option = bot.choose(Turn(engine, st))
    assert option in st.pending.options
    assert answered and me not in answered  # only the other seats are answered by greedy
    assert len(answered) <= 4 * 6  # at most `opponents` of them in each of the 6 iterations

    def game() -> list[str]:
        config = attrs.evolve(CONFIGS["ismcts"], opponents=3)
        bots = [ISMCTSBot(engine, 20 + seat, iterations=3, config=config) for seat in range(3)]
        g = engine.new_game(3, 5)
        while g.pending is not None:
            engine.apply(g, bots[g.pending.player].choose(Turn(engine, g)))
        return list(g.log)

    assert game() == game()


def test_each_root_option_starts_at_the_value_of_its_greedy_move() -> None:
    import random

    from rules_dsl.bots.greedy import GreedyBot
    from rules_dsl.bots.ismcts import _Node

    engine = Engine.for_pack("base")
    st = engine.new_game(2, 3)
    checked = 0
    for _ in range(200):
        d = st.pending
        if d is None:
            break
        if len(d.options) > 2:
            turn = Turn(engine, st)
            bot = ISMCTSBot(engine, 1, iterations=1)
            greedy = GreedyBot(engine, 1)
            bot.rng, greedy.rng = random.Random(5), random.Random(5)  # the same sampled world
            root = _Node()
            bot._prior(root, turn)
            assert set(root.children) == set(d.options)
            assert all(c.visits == CONFIGS["ismcts"].prior and 0.0 <= c.reward / c.visits <= 1.0
                       for c in root.children.values())  # fmt: skip
            means = {o: c.reward / c.visits for o, c in root.children.items()}
            top = max(means.values())
            assert greedy.choose(turn) in [o for o, m in means.items() if m == top]
            checked += 1
        engine.apply(st, d.options[-1])
    assert checked >= 5


def test_the_prior_judged_in_several_worlds_is_the_mean_of_each_worlds_greedy_move() -> None:
    import random

    import attrs

    from rules_dsl.bots.ismcts import _Node

    engine = Engine.for_pack("base")
    st = engine.new_game(2, 3)
    while st.pending is not None and len(st.pending.options) < 3:
        engine.apply(st, st.pending.options[-1])
    turn = Turn(engine, st)
    config = attrs.evolve(CONFIGS["ismcts"], prior_worlds=3)
    bot = ISMCTSBot(engine, 1, iterations=1, config=config)
    bot.rng = random.Random(9)
    root = _Node()
    bot._prior(root, turn)
    # the same three worlds, each judged alone by a one-world prior
    single = ISMCTSBot(engine, 1, iterations=1)
    rng = random.Random(9)
    worlds = [turn.sample(rng) for _ in range(3)]
    means = {o: 0.0 for o in turn.options}
    for world in worlds:
        for option in turn.options:
            trial = world.clone()
            engine.apply_fast(trial, option)
            single._finish(trial, turn.player, config.prior_follow_ups)
            means[option] += single._rewards(trial)[turn.player] / 3
    assert set(root.children) == set(turn.options)
    for option, child in root.children.items():
        assert child.visits == config.prior
        assert child.reward / child.visits == pytest.approx(means[option])


def test_pairwise_rewards_are_the_logistic_of_the_lead_with_two_players() -> None:
    """`reward=pairwise` (each seat's mean chance of finishing ahead of each other seat)
    changes nothing in 2-player games, to the bit, and differs with more players."""
    import random

    for players, same in ((2, True), (4, False)):
        engine = Engine.for_pack("base")
        st = engine.new_game(players, 3)
        rng = random.Random(1)
        for _ in range(40):  # a position where the seats' values differ
            engine.apply(st, st.pending.options[rng.randrange(len(st.pending.options))])  # type: ignore[union-attr]
        plain = ISMCTSBot(engine, 1, config=attrs.evolve(CONFIGS["ismcts"], reward="logistic"))
        pairwise = ISMCTSBot(engine, 1, config=attrs.evolve(CONFIGS["ismcts"], reward="pairwise"))
        assert (plain._rewards(st) == pairwise._rewards(st)) is same
        values = pairwise.values(st)
        mean_ahead = [
            sum(1 / (1 + math.exp(w - v)) for j, w in enumerate(values) if j != i) / (players - 1)
            for i, v in enumerate(values)
        ]
        assert pairwise._rewards(st) == pytest.approx(mean_ahead)


def _escalation_decision(players: int, seed: int) -> tuple[Engine, GameState]:
    """An Escalation game at its first decision with a choice."""
    engine = Engine.for_pack("escalation")
    st = engine.new_game(players, seed)
    while st.pending is not None and len(st.pending.options) < 2:
        engine.apply(st, st.pending.options[0])
    assert st.pending is not None
    return engine, st


def test_an_opponents_answer_is_judged_once_per_node_and_options_then_replayed() -> None:
    """`answers=once` (the default): the first time an iteration meets another seat's
    decision at a point after a tree node, its modelled answer is worked out and kept on the
    node; a later iteration meeting the same seat with the same options there plays it
    again without judging the options. `answers=always` judges every time."""
    from rules_dsl.bots.ismcts import _Node

    def nodes(node: _Node) -> list[_Node]:
        return [node, *(n for c in node.children.values() for n in nodes(c))]

    counts = {}
    for mode in ("once", "always"):
        engine, st = _escalation_decision(4, 3)
        bot = ISMCTSBot(engine, 1, iterations=300, config=attrs.evolve(CONFIGS["ismcts"], answers=mode))
        judged: list[int] = []
        answer = bot._answer

        def spy(state: GameState, seat: int, by: str = "own", answer=answer, judged=judged) -> str:  # type: ignore[no-untyped-def]
            judged.append(seat)
            return answer(state, seat, by)

        bot._answer = spy  # type: ignore[method-assign]
        kept: list[_Node] = []
        real = bot._root

        def root(turn: Turn, real=real, kept=kept) -> _Node:  # type: ignore[no-untyped-def]
            kept.append(real(turn))
            return kept[-1]

        bot._root = root  # type: ignore[method-assign]
        bot.choose(Turn(engine, st))
        stored = [n.answers for n in nodes(kept[0]) if n.answers]
        if mode == "once":
            # every answer judged is kept, each (node, point, seat, options) judged once
            assert stored and len(judged) == sum(len(a) for a in stored)
            assert all(opt in key[2] and key[1] != st.pending.player for a in stored for key, opt in a.items())
        else:
            assert not stored
        counts[mode] = len(judged)
    assert counts["always"] > counts["once"] > 0


def test_an_opponent_answers_by_its_own_value_unless_told_to_judge_its_lead() -> None:
    """`answer_by=own` (the default): another seat's modelled answer is the option with the
    best value for that seat alone (`evaluate.seat_value`); `answer_by=lead` is greedy's
    measure, its lead over the best other seat."""
    from rules_dsl.bots.evaluate import seat_value, value_of

    engine, st = _escalation_decision(4, 5)
    one, every = seat_value(engine.rules, "t"), value_of(engine.rules, "t")
    assert [one(st, p) for p in range(4)] == every(st)
    seat = st.pending.player
    own = ISMCTSBot(engine, 1)
    lead = ISMCTSBot(engine, 1, config=attrs.evolve(CONFIGS["ismcts"], answer_by="lead"))

    def value(option: str) -> float:
        trial = st.clone()
        engine.apply_fast(trial, option)
        return one(trial, seat)

    values = [value(o) for o in st.pending.options]
    assert own._answer(st, seat) == st.pending.options[values.index(max(values))]
    assert lead._answer(st, seat, lead.config.answer_by) == lead._greedy(st, seat)
    assert own.config.answer_by == "own"


def test_with_opponents_modelled_the_prior_judges_its_own_follow_ups_by_its_own_value() -> None:
    """`prior_by=own` (the default; only with the other seats modelled, 3 players or more):
    the prior's follow-up questions are answered by the bot's own value, as the other seats'
    answers are; with 2 players, or `prior_by=lead`, by greedy's lead."""
    import random

    from rules_dsl.bots.ismcts import _Node

    def picks(engine: Engine, turn: Turn, config: Config) -> set[str]:
        """Which one-step answer the prior used for the bot's own follow-ups."""
        bot = ISMCTSBot(engine, 1, iterations=1, config=config)
        used: list[str] = []
        for name in ("_answer", "_greedy"):
            real = getattr(bot, name)

            def spy(state: GameState, seat: int, *rest: str, real=real, name=name) -> str:  # type: ignore[no-untyped-def]
                assert seat == turn.player
                used.append(name)
                return real(state, seat, *rest)

            setattr(bot, name, spy)
        bot.rng = random.Random(2)
        bot._prior(_Node(), turn)
        return set(used)

    for players, pick in ((4, "_answer"), (2, "_greedy")):
        engine = Engine.for_pack("escalation")
        st = engine.new_game(players, 6)
        checked = 0
        for _ in range(300):
            if st.pending is None or checked >= 3:
                break
            if len(st.pending.options) > 1:
                turn = Turn(engine, st)
                used = picks(engine, turn, CONFIGS["ismcts"])
                if used:  # some option asks a follow-up question
                    assert used == {pick}
                    assert picks(engine, turn, attrs.evolve(CONFIGS["ismcts"], prior_by="lead")) == {"_greedy"}
                    checked += 1
            engine.apply(st, st.pending.options[0])
        assert checked == 3, players


class _Counted:
    """The engine's moves, counted (the search's moves all go through `apply_fast`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine, self.rules, self.moves = engine, engine.rules, 0

    def apply_fast(self, st: GameState, option: str, player: int | None = None) -> None:
        self.moves += 1
        self.engine.apply_fast(st, option, player)


def test_with_opponents_modelled_a_budget_is_the_work_counted_moves_evaluations_and_samples() -> None:
    """`unit=work` (the default): with the other seats modelled the search counts its moves,
    the seats it evaluates and the states it samples, and iterates until that work (the
    prior's included) reaches the budget's iterations times `BUDGET_WORK`."""
    from rules_dsl.bots import ismcts

    engine, st = _escalation_decision(4, 3)
    # the whole budget spent (`stop=0`: this decision's search would stop early, settled)
    bot = ISMCTSBot(engine, 1, iterations=40, config=attrs.evolve(CONFIGS["ismcts"], stop=0.0))
    counted = _Counted(engine)
    bot.engine = counted  # type: ignore[assignment]
    seats = [0]
    samples = [0]
    one, every = bot.seat_value, bot.values

    def seat_value(state: GameState, seat: int) -> float:
        seats[0] += 1
        return one(state, seat)

    def values(state: GameState) -> list[float]:
        seats[0] += state.players
        return every(state)

    bot.seat_value, bot.values = seat_value, values
    before: list[float] = []  # the work done when each iteration began
    iterate = bot._iterate

    def spy(root: object, state: GameState, me: int) -> int:
        before.append(bot.work)
        samples[0] += 1
        return iterate(root, state, me)  # type: ignore[arg-type]

    bot._iterate = spy  # type: ignore[method-assign,assignment]
    turn = Turn(engine, st)
    bot.choose(turn)
    samples[0] += bot.config.prior_worlds  # the prior's sampled states
    assert bot.work == (
        counted.moves * ismcts.MOVE_WORK + seats[0] * ismcts.EVALUATION_WORK + samples[0] * ismcts.SAMPLE_WORK
    )
    budget = 40 * ismcts.BUDGET_WORK
    assert before[0] > 0  # the prior's work counts in the budget
    assert all(w < budget for w in before) and bot.work >= budget  # no iteration begun past it
    # counting positions judged instead (`unit=judged`, the measure before): other iterations
    judged = ISMCTSBot(engine, 1, iterations=40, config=attrs.evolve(CONFIGS["ismcts"], unit="judged"))
    calls: list[int] = []
    real = judged._iterate

    def count(root: object, state: GameState, me: int) -> int:
        calls.append(1)
        return real(root, state, me)  # type: ignore[arg-type]

    judged._iterate = count  # type: ignore[method-assign,assignment]
    judged.choose(Turn(engine, st))
    assert len(calls) != len(before)


def test_a_budget_of_work_plays_the_same_game_for_a_seed_however_busy_the_machine() -> None:
    """The work is counted, not timed: a clock running ten times as fast (a loaded machine)
    changes nothing in a game of `ismcts` with the other seats modelled; a seconds budget it
    changes."""
    import itertools

    engine = Engine.for_pack("escalation")
    names = ["ismcts", "greedy", "greedy"]

    def game(budget: str, busy: bool) -> list[str]:
        if not busy:
            return play(engine, names, 4, budget)[1]
        fake = itertools.count(0.0, 0.01)  # each look at the clock: another 10 ms
        with mock.patch("rules_dsl.bots.ismcts.time.thread_time", lambda: next(fake)):
            return play(engine, names, 4, budget)[1]

    assert game("4", busy=False) == game("4", busy=True)
    assert game("0.05s", busy=False) != game("0.05s", busy=True)


def test_with_two_players_the_unit_changes_nothing() -> None:
    """Nothing is modelled with 2 players: an iteration is one, whatever `unit` says."""
    engine = Engine.for_pack("microcosm")
    logs = []
    for unit in ("work", "judged"):
        config = attrs.evolve(CONFIGS["ismcts"], unit=unit)
        bots = [ISMCTSBot(engine, 11, iterations=8, config=config), make_bot("greedy", engine, 12)]
        st = engine.new_game(2, 4)
        while st.pending is not None:
            engine.apply(st, bots[st.pending.player].choose(Turn(engine, st)))
        logs.append(list(st.log))
    assert logs[0] == logs[1]


def _decisions(config: Config, decisions: int, saved: float = 0.0) -> list[tuple[float, float]]:
    """The first decisions with a choice of an `ismcts` seat (40 iterations of work) in an
    Escalation 4p game against `greedy`: the work each spent and the work banked after it."""
    engine, st = _escalation_decision(4, 3)
    bot = ISMCTSBot(engine, 1, iterations=40, config=config)
    bot.saved = saved
    others = [make_bot("greedy", engine, 10 + seat) for seat in range(4)]
    rows: list[tuple[float, float]] = []
    while st.pending is not None and len(rows) < decisions:
        if st.pending.player == 0:
            work = bot.work
            option = bot.choose(Turn(engine, st))
            if len(st.pending.options) > 1:
                rows.append((bot.work - work, bot.saved))
        else:
            option = others[st.pending.player].choose(Turn(engine, st))
        engine.apply(st, option)
    return rows


def test_the_search_stops_once_the_option_played_is_settled() -> None:
    """`stop` (0.05 in `ismcts`): with a budget of work and 3 players or more, the search of a
    decision stops once the option it plays is the most visited and no other could reach its
    visits with the iterations still affordable; `stop=0` spends the whole budget."""
    from rules_dsl.bots.ismcts import _Node

    engine, st = _escalation_decision(4, 3)
    found = {}
    for stop in (0.05, 0.0):
        config = attrs.evolve(CONFIGS["ismcts"], stop=stop, bank=4)
        bot = ISMCTSBot(engine, 1, iterations=40, config=config)
        calls: list[int] = []
        roots: list[_Node] = []
        iterate, real_root = bot._iterate, bot._root

        def count(root: object, state: GameState, me: int, iterate=iterate, calls=calls) -> int:  # type: ignore[no-untyped-def]
            calls.append(1)
            return iterate(root, state, me)  # type: ignore[arg-type]

        def keep(turn: Turn, real_root=real_root, roots=roots) -> _Node:  # type: ignore[no-untyped-def]
            roots.append(real_root(turn))
            return roots[-1]

        bot._iterate, bot._root = count, keep  # type: ignore[method-assign,assignment]
        option = bot.choose(Turn(engine, st))
        visits = [roots[0].children[o].visits for o in st.pending.options]  # type: ignore[union-attr]
        found[stop] = (option, len(calls), bot.work, bot.saved, visits)
    first = st.pending.options[0]  # type: ignore[union-attr]
    # settled after 5 iterations (visits 9 against the other option's 4 virtual ones, with
    # about 4 more iterations affordable): 139 of the 240 units, the 101 left banked
    assert found[0.05] == (first, 5, 139.0, 101.0, [9, 4])
    assert found[0.0] == (first, 11, 248.0, 0.0, [15, 4])  # the same choice, the whole budget


def test_the_work_saved_is_banked_and_spent_by_later_decisions_up_to_bank_budgets() -> None:
    """What a decision saves by stopping early is banked (`bank`: at most that many budgets);
    a later decision not settled when its own budget is spent draws from the bank, at most
    one budget, and goes on until settled again; `bank=0` (the default) keeps nothing."""
    config = attrs.evolve(CONFIGS["ismcts"], bank=4)
    # the first three decisions settle early (139, 220 and 235 of their 240 units: 126 banked);
    # the fourth is not settled after its 240 and draws all 126 (366, overshot by its last
    # iteration to 438); the fifth has nothing left to draw
    assert _decisions(config, 5) == [(139.0, 101.0), (220.0, 121.0), (235.0, 126.0), (438.0, 0.0), (264.0, 0.0)]
    saving = [(139.0, 0.0), (220.0, 0.0), (235.0, 0.0), (247.0, 0.0)]
    assert _decisions(attrs.evolve(config, bank=0), 4) == _decisions(CONFIGS["ismcts"], 4) == saving
    # with 200 units in the bank the first decision still settles at 139, and its 101 saved
    # are banked up to `bank` budgets: one (240) or four (all of them)
    assert _decisions(attrs.evolve(config, bank=1), 1, saved=200.0) == [(139.0, 240.0)]
    assert _decisions(attrs.evolve(config, bank=4), 1, saved=200.0) == [(139.0, 301.0)]
    # at most one budget is drawn a decision, however much is banked: a decision never
    # settled spends its 240, draws 240 of the 600 banked, spends them and leaves the rest
    with mock.patch.object(ISMCTSBot, "_settled", return_value=False):
        [(spent, saved)] = _decisions(config, 1, saved=600.0)
    assert spent >= 480 and saved == 600 - 240


def test_stop_0_spends_every_budget_and_banks_nothing() -> None:
    """`stop=0` is the search of before: every decision spends its whole budget of work (its
    last iteration's overshoot aside) and nothing is banked, whatever `bank` says."""
    config = attrs.evolve(CONFIGS["ismcts"], stop=0.0)
    rows = _decisions(config, 6)
    assert all(240 <= spent < 300 for spent, _ in rows) and all(saved == 0 for _, saved in rows)
    assert _decisions(attrs.evolve(config, bank=1000), 6) == rows


def test_stopping_early_plays_the_same_game_for_a_seed_and_leaves_two_player_games_alone() -> None:
    """A 3-player game with early stops and a bank is reproducible for a seed (work, not
    time) and another game than `stop=0`'s; with 2 players nothing stops early (`stop`
    applies with the other seats modelled), so the games are those of `stop=0`, to the bit."""
    escalation = Engine.for_pack("escalation")
    first, log = play(escalation, ["ismcts:stop=0.05,bank=4", "greedy", "greedy"], 5, "20")
    again, log_again = play(escalation, ["ismcts:stop=0.05,bank=4", "greedy", "greedy"], 5, "20")
    assert log == log_again and first.scores == again.scores
    assert play(escalation, ["ismcts:stop=0", "greedy", "greedy"], 5, "20")[1] != log
    for pack in ("base", "microcosm"):
        engine = Engine.for_pack(pack)
        assert play(engine, ["ismcts", "greedy"], 3, "12")[1] == play(engine, ["ismcts:stop=0", "greedy"], 3, "12")[1]
