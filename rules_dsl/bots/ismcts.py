"""Information-set Monte Carlo tree search (single observer, with determinization).

Each iteration samples a state consistent with the bot's observation (`Turn.sample`: a new
determinization every iteration, so the tree averages over many), walks one shared tree of
option ids from the root (UCB among the options legal in that sample, counting how often
each was available), adds one node, plays on for at most `rollout` decisions and scores
where it stops: a finished game by its winners, an unfinished one by the pack's evaluation
(each seat's value minus the best other seat's, `bots/evaluate.py`). Every node keeps the
rewards of the seat that chose it. The budget is a number of iterations (reproducible for
a seed; with the other seats modelled, units of work: `Config.unit`) or seconds of CPU per
decision.

Two configurations (`make_bot` names them):

- `ismcts` (the default): each new node is scored at once by the evaluation as a
  probability of winning (the logistic of the lead: tuned weights are log-odds), with no
  playout (`rollout` 0: measured in base 2p at 100 iterations, playouts of 3 or 8 decisions
  lost more to greedy than none, their noise outweighing what they see; a playout, when
  asked for, follows the MAST policy below); UCB with a small exploration constant (0.1,
  the scale of those probabilities' differences); progressive history (the mean reward of
  each seat's option id over the search's iterations, MAST, kept over the game: an option
  that did well elsewhere is expanded first and keeps a bias fading with its visits); the
  option with the best mean reward played (among those visited at least half as often as
  the most visited); and tree reuse when the bot decides again right after its own
  decision (a card asking a follow-up question): the subtree under the option it chose
  holds the statistics of exactly that information set.
  Before searching, each option at the root is given `prior` (4) virtual visits at the
  value the greedy bot would give it (the option applied in one sampled state, the bot's
  own follow-up questions answered one step ahead each, the position then judged): the
  search starts from greedy's judgement of whole moves, which it cannot see at a leaf cut
  half-way through a move (measured in base 2p at 100 iterations against the same search
  without it: 12.5 wins in 20 games, for 10% more CPU). `prior_worlds` (1): the greedy
  moves are judged in that many sampled states and each option gets their mean (4 did
  not beat 1 against `ismcts-ucb` at equal CPU: docs/balance.md).
  `finish_move` (not the default): at a leaf, the last chooser answers its own follow-up
  questions greedily first, so the evaluation sees a whole move.
  `opponents` (12, in games of `opponents_from` = 3 players or more): the other seats'
  decisions in an iteration are answered greedily (one step ahead, by the evaluation)
  instead of being tree nodes, at most that many per iteration (past them the iteration
  stops and is judged): the tree holds only the bot's own choices, against opponents
  modelled as the greedy bot. An iteration's CPU then varies tenfold (the answers it judges,
  replays, or stops at), so a budget of iterations is one of work (`unit` "work"): the
  search counts the moves it applies, the seats it evaluates and the states it samples (the
  prior's included), weighted by what each costs, and stops when that reaches the budget
  times `BUDGET_WORK`: about the CPU of the same budget in seconds, and as reproducible as
  iterations. `unit` "judged" is the count before: an iteration is the positions it judged
  (one, plus `ANSWER_COST` for each option a greedy answer weighed), which in Escalation 4p
  gave most decisions half the iterations a seconds budget of about the same mean CPU gives
  and the costliest tenth of them a third of the CPU (docs/balance.md). With 2 players an
  iteration is one, whatever `unit` says. At equal CPU modelling the opponents loses to the
  plain search in 2-player games (docs/balance.md), hence `opponents_from`.
  Those answers are cheap (issue 37: most of an iteration's CPU went to them): an answer
  is the option best for the answering seat's own value (`answer_by` "own"; greedy's lead
  over the best other seat, "lead", evaluates every seat: four times the work with 4
  players, for the same choice whenever the option leaves the other seats' values as they
  were), and it is judged once per tree node (`answers` "once"): an iteration that meets
  the same seat with the same options at the same point after a node plays the answer
  judged there before, with no evaluation. With the other seats modelled the prior answers
  the bot's own follow-up questions by its own value too (`prior_by` "own").
  `stop` (0.05) and `bank` (0), with a budget of work (`unit` "work", the other seats
  modelled; not with a seconds budget, nor with 2 players, whose games are unchanged): a
  decision's search stops early once the option it would play is settled, that is, once it
  is the option the final rule plays now, the most visited, and every other option trails
  its visits by more than the iterations still affordable (the work left divided by the
  work of an iteration so far, the prior's left out): none could reach them even given
  every one of them, and UCB visits an option only while its mean stays near the best.
  The rule is looked at only once `stop` of the budget is spent (the prior included), and
  never while some sampled state's root options differ from the decision's (an option
  missing from some information sets' samples keeps being explored). What a decision
  leaves of its own budget is banked for the bot's later decisions in the game, at most
  `bank` budgets; a decision not settled when its own budget is spent draws from the bank,
  at most one more budget, if those iterations could still change the option played, and
  goes on (stopping again once settled); with `bank` 0 (the default: measured better and
  cheaper than 4 in Escalation 4p, docs/balance.md) the work saved is saved. Counted in
  work, so a seed still plays one game;
  `stop` 0 is the search of before (every budget spent whole, nothing banked).
  `reward` `pairwise` (the default; it matters with 3 players or more): a seat's reward is
  its mean chance (the logistic of the difference of values) of finishing ahead of each
  other seat, max-n style, instead of the logistic of its lead over the best other seat,
  which is flat near 0 for a seat behind the leader whatever it does. With 2 players the
  two are the same number.
- `ismcts-ucb` (the bot before issue 22): UCB1 with uniformly random playouts of 20
  decisions, scored by `0.5 + 0.5 tanh(lead / 4)`, a new tree every decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

import attrs

from rules_dsl.bots.base import Turn
from rules_dsl.bots.evaluate import evaluator, seat_value, value_of
from rules_dsl.engine import Engine
from rules_dsl.state import GameState

# What one option weighed by an opponent's modelled answer costs, in tree iterations, when a
# budget counts the positions judged (`Config.unit` "judged", the measure before `unit`
# "work"): a clone, a move and one seat's evaluation (`answer_by` "own")
ANSWER_COST = 2

# `Config.unit` "work" (with the other seats modelled): a budget of N iterations is N *
# BUDGET_WORK units of the search's work, counted as it goes (so reproducible for a seed):
# MOVE_WORK a move applied (a forced step, a modelled answer played or replayed, the tree's
# own), EVALUATION_WORK one seat's value computed, SAMPLE_WORK a sampled state with an
# iteration's own bookkeeping. Their ratios are the CPU each took in Escalation 4p (timed one
# by one over the first 109 decisions of seed 6's search seat: about 65 us a move, 56 us a
# seat's evaluation, 265 us a sample and 150 us of the loop's own an iteration, on the
# shared 2-core machine; other ratios fitted no better to 573 decisions' CPU), and
# BUDGET_WORK is set so that `--budget 200` costs about what `--budget 0.045s` does there
# (35-40 us a unit on that machine: docs/balance.md, "A budget of work")
MOVE_WORK = 1.0
EVALUATION_WORK = 1.0
SAMPLE_WORK = 6.0
BUDGET_WORK = 6.0


@attrs.frozen
class Config:
    """How the search runs (see the module's docstring)."""

    rollout: int = 0  # playout decisions before the evaluation scores the position
    exploration: float = 0.1  # UCB's c
    reward: str = "logistic"  # logistic (of the lead) | tanh (of lead / scale)
    scale: float = 4.0  # for tanh
    mast: bool = True  # playouts follow the learned option means
    mast_greedy: float = 0.8  # how often a playout takes the best-looking option
    history: float = 1.0  # progressive-history weight in the tree (0: none)
    reuse: bool = True  # keep the subtree between two decisions of this bot in a row
    skip_forced: bool = True  # a decision with one option is no node and no playout step
    final: str = "mean"  # the option played: the most visited ("visits"), or the best mean reward
    finish_move: int = 0  # at a leaf, the last chooser's follow-ups answered greedily (at most this many)
    prior: int = 4  # virtual visits given to each root option, at the value of its greedy move
    prior_follow_ups: int = 6  # the follow-up decisions the greedy move answers before it is judged
    prior_worlds: int = 1  # sampled states the prior's greedy moves are judged in (their mean)
    prior_by: str = "own"  # with `opponents` modelled: the prior's own follow-ups judged by "own" value or "lead"
    opponents: int = 0  # other seats' decisions answered greedily in an iteration (no nodes); 0: all are nodes
    opponents_from: int = 2  # `opponents` applies in games of at least this many players
    answers: str = "once"  # an opponent's greedy answer: judged "once" per tree node and options, or "always"
    answer_by: str = "own"  # an opponent's answer maximises its "own" value, or its "lead" (greedy's measure)
    unit: str = "work"  # with `opponents` modelled, what an iteration of the budget is: "work" or "judged"
    stop: float = 0.0  # budget of work: stop once the option played is settled, past this share of it (0: never)
    bank: int = 0  # with `stop`: the work a decision saved is kept for later ones, at most this many budgets


CONFIGS = {
    # with 3 players or more the other seats answer greedily and rewards are pairwise (the
    # module's docstring); with 2 the search is as it was, to the bit
    "ismcts": Config(opponents=12, opponents_from=3, reward="pairwise", stop=0.05),
    "ismcts-ucb": Config(
        rollout=20,
        exploration=0.7,
        reward="tanh",
        mast=False,
        history=0.0,
        reuse=False,
        skip_forced=False,
        final="visits",
        prior=0,
        opponents=0,
    ),
}


class _Node:
    __slots__ = ("children", "visits", "available", "reward", "answers")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed, for the seat whose option led here
        # the other seats' greedy answers after this node (`Config.answers` "once"): (how many
        # answers after the node, seat, its options) -> the option it played
        self.answers: dict[tuple[int, int, tuple[str, ...]], str] | None = None


class ISMCTSBot:
    def __init__(
        self,
        engine: Engine,
        seed: int,
        iterations: int = 200,
        seconds: float = 0.0,
        config: Config | None = None,
        weights: Sequence[float] | None = None,
        name: str = "ismcts",
    ) -> None:
        self.engine = engine
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.config = config or CONFIGS["ismcts"]
        self.leads = evaluator(engine.rules, name, weights)
        self.values = value_of(engine.rules, name, weights)
        self.seat_value = seat_value(engine.rules, name, weights)
        # MAST: (seat, option id) -> [reward sum, count], kept over the whole game (a search
        # learns what options tend to lead to; the next decision starts from that)
        self.mast: dict[tuple[int, str], list[float]] = {}
        self._kept: tuple[_Node, int, int] | None = None  # subtree, seat, decisions made then
        # the search's work so far (`Config.unit` "work"): moves, seats evaluated, samples
        self.work = 0.0
        # the work earlier decisions saved by stopping early (`Config.stop`, `bank`), kept over the game
        self.saved = 0.0

    def choose(self, turn: Turn) -> str:
        if len(turn.options) == 1:
            self._kept = None
            return turn.options[0]
        # the CPU time of this thread: a bot thinking in a server's worker thread is not
        # charged for the requests other threads serve meanwhile (the prior counts in it)
        budget_end = time.thread_time() + self.seconds if self.seconds > 0 else 0.0
        cfg = self.config
        # with the other seats modelled an iteration's work varies tenfold (the answers it
        # judges, replays or stops at), so a budget of iterations is one of work (`unit`)
        by_work = budget_end == 0.0 and cfg.unit == "work" and cfg.opponents > 0 and turn.players >= cfg.opponents_from
        start = self.work
        budget = self.iterations * BUDGET_WORK
        work_end = start + budget  # the prior's work counts in it
        root = self._root(turn)
        if cfg.prior > 0:
            self._prior(root, turn)
        done = 0
        if budget_end != 0.0:
            while done == 0 or time.thread_time() < budget_end:
                done += self._iterate(root, turn.sample(self.rng), turn.player)
        elif by_work and cfg.stop > 0:
            self._search_settled(root, turn, start, budget)
        elif by_work:
            while done == 0 or self.work < work_end:
                done += self._iterate(root, turn.sample(self.rng), turn.player)
        else:
            while done < self.iterations:
                # an iteration counts the positions it judged: one, plus ANSWER_COST for each
                # option of the other seats' greedy answers (`opponents`, `unit` "judged"), so
                # that a budget of iterations costs about the same CPU with the opponents
                # modelled as without; with 2 players one
                done += self._iterate(root, turn.sample(self.rng), turn.player)
        best = self._final(root, turn)
        if cfg.reuse and best in root.children:
            self._kept = (root.children[best], turn.player, turn.decided + 1)
        return best

    def _search_settled(self, root: _Node, turn: Turn, start: float, budget: float) -> None:
        """Iterate (a budget of work, `Config.stop`) until the option played is settled, or
        the decision's budget is spent; then, if the work banked by earlier decisions
        (`Config.bank`) could still change the option played, draw up to one more budget from
        it and go on the same way. What the decision did not spend of its own budget is
        banked, at most `bank` budgets; what it spent past it comes out of the bank (its last
        iteration's overshoot aside, as without `stop`)."""
        cfg = self.config
        searched = self.work  # the iterations' work begins here (the prior's is not repeated)
        least = start + cfg.stop * budget  # the least work before the search may stop
        end = start + budget
        drawn = 0.0
        options = set(turn.options)
        mixed = False  # a sampled state whose root options are not the decision's: never settled
        iterations = 0
        while True:
            world = turn.sample(self.rng)
            if not mixed:
                mixed = world.pending is None or set(world.pending.options) != options
            self._iterate(root, world, turn.player)
            iterations += 1
            per = (self.work - searched) / iterations  # the work of an iteration, so far
            if self.work >= end:
                extra = min(self.saved, budget)
                if drawn == 0 and extra > 0 and (mixed or not self._settled(root, turn, extra / per)):
                    drawn = extra
                    end += drawn
                    continue
                break
            if not mixed and self.work >= least and self._settled(root, turn, (end - self.work) / per):
                break
        spent = min(self.work - start, budget + drawn)
        self.saved = min(cfg.bank * budget, self.saved + budget - spent)

    def _final(self, root: _Node, turn: Turn) -> str:
        """The option played: the most visited (ties: the first in option order, which is stable)
        or, `final` "mean", the best mean reward among the options visited at least half as
        often as the most visited one (a mean from a few playouts is not trusted)."""
        if self.config.final == "mean":
            most = max((c.visits for c in root.children.values()), default=0)
            return max(
                turn.options,
                key=lambda o: (
                    root.children[o].reward / root.children[o].visits
                    if o in root.children and 2 * root.children[o].visits >= most > 0
                    else -1.0
                ),
            )
        return max(turn.options, key=lambda o: root.children[o].visits if o in root.children else -1)

    def _settled(self, root: _Node, turn: Turn, left: float) -> bool:
        """Whether the option played is settled (`Config.stop`): it is the one the final rule
        plays now, the most visited, and every other option's visits trail it by more than
        the iterations still affordable (`left`), so that none could reach them even if it
        got every one of them (UCB gives an option visits only while its mean stays near the
        best)."""
        children = root.children
        best = self._final(root, turn)
        lead = children[best].visits if best in children else 0
        for o in turn.options:
            if o != best and lead - (children[o].visits if o in children else 0) <= left:
                return False
        return True

    def _root(self, turn: Turn) -> _Node:
        """The subtree kept from this bot's last decision when it decides again at once."""
        kept, self._kept = self._kept, None
        if kept is not None and kept[1] == turn.player and kept[2] == turn.decided:
            return kept[0]
        return _Node()

    def _prior(self, root: _Node, turn: Turn) -> None:
        """Add to each root option (kept or new) the value the greedy bot would give it (in one sampled
        state, the option applied and the bot's own follow-up questions answered one step
        ahead each, then the position judged), as `prior` visits: the search refines a
        greedy move instead of starting from nothing, and a budget too small to see to the
        end of the bot's own move still plays at least as well as greedy."""
        me = turn.player
        worlds = [turn.sample(self.rng) for _ in range(max(1, self.config.prior_worlds))]
        self.work += SAMPLE_WORK * len(worlds)
        cfg = self.config
        # with the other seats modelled (3 players or more), the bot's own follow-ups are
        # judged as the modelled answers are (`prior_by`)
        own = cfg.prior_by == "own" and cfg.opponents > 0 and worlds[0].players >= cfg.opponents_from
        for option in turn.options:
            value = 0.0
            for world in worlds:
                st = world.clone()
                self._apply(st, option)
                self._finish(st, me, cfg.prior_follow_ups, own)
                value += self._rewards(st)[me]
            child = root.children.get(option)
            if child is None:
                child = root.children[option] = _Node()
            child.visits += self.config.prior
            child.available += self.config.prior
            child.reward += self.config.prior * value / len(worlds)

    def _iterate(self, root: _Node, st: GameState, me: int) -> int:
        """One iteration; returns the positions judged (1, plus the opponents' answers' options)."""
        apply = self._apply
        rng = self.rng
        cfg = self.config
        mast = self.mast
        path: list[tuple[_Node, int]] = []  # node, seat that chose the option leading to it
        played: list[tuple[int, str]] = []  # (seat, option) of the whole iteration, for MAST
        node = root
        answered = 0  # other seats' decisions answered greedily (cfg.opponents)
        model_opponents = cfg.opponents if st.players >= cfg.opponents_from else 0
        once = cfg.answers == "once"
        since = 0  # opponents' answers since `node`
        judged = 1
        self.work += SAMPLE_WORK
        while st.pending is not None:
            d = st.pending
            options = d.options
            seat = d.player
            if cfg.skip_forced and len(options) == 1:  # a forced step: no node (the tree keys on choices)
                apply(st, options[0])
                continue
            if model_opponents and seat != me:
                # an opponent plays as greedy would (a model of the other seats, not a tree of
                # their choices); past the bound the iteration stops here and is judged
                if answered >= model_opponents:
                    break
                answered += 1
                if once:
                    # the answer judged the first time the search met this seat with these
                    # options at this point after the node is played again in later samples:
                    # a greedy answer costs an evaluation per option, the replay one apply
                    if node.answers is None:
                        node.answers = {}
                    key = (since, seat, tuple(options))
                    since += 1
                    option = node.answers.get(key)
                    if option is None:
                        option = node.answers[key] = self._answer(st, seat, cfg.answer_by)
                        judged += ANSWER_COST * len(options)
                    apply(st, option)
                    continue
                apply(st, self._answer(st, seat, cfg.answer_by))
                judged += ANSWER_COST * len(options)
                continue
            untried = [o for o in options if o not in node.children]
            if untried:
                if cfg.history > 0:
                    means = [_mean(mast, seat, o) for o in untried]
                    top = max(means)
                    best_untried = [o for o, m in zip(untried, means, strict=True) if m == top]
                    option = best_untried[rng.randrange(len(best_untried))]
                else:
                    option = untried[rng.randrange(len(untried))]
                child = node.children[option] = _Node()
                for o in options:
                    if o in node.children:
                        node.children[o].available += 1
                apply(st, option)
                path.append((child, seat))
                played.append((seat, option))
                break
            c_explore = cfg.exploration
            best, best_score = options[0], -math.inf
            for o in options:
                c = node.children[o]
                c.available += 1
                score = c.reward / c.visits + c_explore * math.sqrt(math.log(c.available) / c.visits)
                if cfg.history > 0:
                    score += cfg.history * _mean(mast, seat, o) / (c.visits + 1)
                if score > best_score:
                    best, best_score = o, score
            node = node.children[best]
            since = 0
            apply(st, best)
            path.append((node, seat))
            played.append((seat, best))
        steps = 0
        while steps < cfg.rollout:
            pending = st.pending
            if pending is None:
                break
            options = pending.options
            if cfg.skip_forced and len(options) == 1:
                apply(st, options[0])
                continue
            if cfg.mast and rng.random() < cfg.mast_greedy:
                seat = pending.player
                means = [_mean(mast, seat, o) for o in options]
                top = max(means)
                best_options = [o for o, m in zip(options, means, strict=True) if m == top]
                option = best_options[rng.randrange(len(best_options))]  # ties: random, not the first
            else:
                option = options[rng.randrange(len(options))]
            if cfg.mast:
                played.append((pending.player, option))
            apply(st, option)
            steps += 1
        if cfg.finish_move and path and st.pending is not None:
            self._finish(st, path[-1][1], cfg.finish_move)
        rewards = self._rewards(st)
        root.visits += 1
        for n, seat in path:
            n.visits += 1
            n.reward += rewards[seat]
        if cfg.mast or cfg.history > 0:
            for seat, option in played:
                entry = mast.get((seat, option))
                if entry is None:
                    mast[(seat, option)] = [rewards[seat], 1.0]
                else:
                    entry[0] += rewards[seat]
                    entry[1] += 1.0
        return judged

    def _finish(self, st: GameState, seat: int, most: int, own: bool = False) -> None:
        """The seat that chose last answers its own follow-up questions greedily (the
        option whose result the evaluation likes best, one step ahead), up to `most` of
        them, so that a position is scored after a whole move, not half-way through it."""
        apply = self._apply
        for _ in range(most):
            d = st.pending
            if d is None or d.player != seat:
                return
            if len(d.options) == 1:
                apply(st, d.options[0])
                continue
            apply(st, self._answer(st, seat) if own else self._greedy(st, seat))  # own: `prior_by`

    def _greedy(self, st: GameState, seat: int) -> str:
        """The option whose result the evaluation likes best for the seat, one step ahead."""
        options = st.pending.options if st.pending is not None else []
        best, best_value = options[0], -math.inf
        for option in options:
            trial = st.clone()
            self._apply(trial, option)
            v = self._leads(trial)[seat]
            if v > best_value:
                best, best_value = option, v
        return best

    def _answer(self, st: GameState, seat: int, by: str = "own") -> str:
        """A seat's answer one step ahead (another seat's in an iteration, `Config.opponents`;
        the bot's own follow-ups in the prior, `prior_by`): the option that does best by the
        seat's lead over the best other seat (`by` "lead", `_greedy`) or by its own value
        alone ("own": the same choice whenever the option leaves the other seats' values as
        they were, for a quarter of the evaluation's work with 4 players)."""
        if by == "lead":
            return self._greedy(st, seat)
        options = st.pending.options if st.pending is not None else []
        best, best_value = options[0], -math.inf
        for option in options:
            trial = st.clone()
            self._apply(trial, option)
            if trial.over:
                v = self._leads(trial)[seat]
            else:
                self.work += EVALUATION_WORK
                v = self.seat_value(trial, seat)
            if v > best_value:
                best, best_value = option, v
        return best

    def _rewards(self, st: GameState) -> list[float]:
        if st.over:
            if self.engine.rules.cooperative:  # won or lost together: a shared loss is a loss
                return [1.0 if p in st.winners else 0.0 for p in range(st.players)]
            return [1.0 / len(st.winners) if p in st.winners else 0.0 for p in range(st.players)]
        if self.config.reward == "tanh":
            return [0.5 + 0.5 * math.tanh(lead / self.config.scale) for lead in self._leads(st)]
        if self.config.reward == "pairwise" and st.players > 2:
            # each seat's mean chance of finishing ahead of each other seat (max-n with the
            # league's pairwise measure): a seat behind the leader still sees what gains on
            # the others, where the logistic of its lead over the best is flat near 0.
            # With 2 players it is the logistic of the lead (below), to the bit.
            self.work += EVALUATION_WORK * st.players
            values = self.values(st)
            n = len(values) - 1
            return [sum(_logistic(v - w) for j, w in enumerate(values) if j != i) / n for i, v in enumerate(values)]
        return [_logistic(lead) for lead in self._leads(st)]

    def _apply(self, st: GameState, option: str) -> None:
        """A move in a throw-away copy (no undo needed), counted in the search's work."""
        self.work += MOVE_WORK
        self.engine.apply_fast(st, option)

    def _leads(self, st: GameState) -> list[float]:
        """The evaluation's leads (every seat's value; a finished game's only when co-operative), counted."""
        if not st.over or self.engine.rules.cooperative:
            self.work += EVALUATION_WORK * st.players
        return self.leads(st)


def _mean(mast: dict[tuple[int, str], list[float]], seat: int, option: str) -> float:
    """An option's mean reward for the seat over the search so far; 0.5 when never tried."""
    entry = mast.get((seat, option))
    return 0.5 if entry is None else entry[0] / entry[1]


def _logistic(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)
