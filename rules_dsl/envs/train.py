"""Train a policy for one seat of any pack against built-in bots, save it, and play it in
the league (docs/ai.md). Needs the `ai` extra (numpy, gymnasium; matplotlib for --plot).

    python -m rules_dsl.envs.train --pack PACK --opponent greedy --minutes 25 --out runs/PACK
    rules-dsl league runs/PACK/agent.py:agent greedy random --pack PACK --games 500

The policy is linear over the seat's features (rules_dsl/envs/policy.py), learned by
REINFORCE with a learned linear baseline (the critic), in the single-agent environment
(rules_dsl/envs/gymnasium.py): the learner's seat is drawn at each game, the opponent
plays the other seats; `--score-weight` adds the final score lead (squashed) to the win or
loss it learns from. Training stops after `--minutes` of this process's CPU time, or at
Ctrl-C or SIGTERM (what was learned so far is saved). OUT
gets `weights.npz`, `agent.py` (the `MODULE:CALLABLE` agent that loads them), the curve
`curve.csv` (games, win rate of the last `--window` games) and, with --plot, a PNG of it.
At the end the likeliest-action policy plays `--eval` fresh seeds against the opponent:
the win rate with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from rules_dsl.bots import Turn
from rules_dsl.envs.gymnasium import SeatEnv
from rules_dsl.envs.policy import LinearPolicy, squash
from rules_dsl.errors import RulesError

AGENT = '''"""The agent trained by rules_dsl.envs.train: `rules-dsl league {path}:agent ...`."""

from pathlib import Path
from typing import Any

from rules_dsl.envs.policy import load_agent

agent = load_agent(Path(__file__).with_name("weights.npz"))
'''


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (statsmodels' `proportion_confint`)."""
    from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]

    low, high = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return float(low), float(high)


class TeacherEnv(SeatEnv):
    """The single-agent environment that also hands over the opponents' decisions (each
    in the deciding seat's own view: its features, its legal actions, the action taken),
    so the learner can imitate them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown: list[tuple[np.ndarray, np.ndarray, int]] = []

    def _others_play(self, info: dict[str, Any]) -> None:
        st = self.game
        assert st is not None
        spec = self.spec_
        while st.pending is not None and st.pending.player != self.seat:
            seat = st.pending.player
            option = self._bots[seat].choose(Turn(spec.engine, st))
            if len(st.pending.options) > 1:
                legal = np.array(spec.catalogue.actions(st.pending.options))
                self.shown.append((spec.features.vector(st, seat), legal, spec.catalogue.index(option)))
            spec.engine.apply_fast(st, option)
            self.decisions += 1


def imitate(policy: LinearPolicy, shown: list[tuple[np.ndarray, np.ndarray, int]], lr: float) -> None:
    """One cross-entropy step towards each decision shown (behaviour cloning)."""
    for v, legal, action in shown:
        x = squash(v.astype(np.float64))
        p = policy.probabilities(x, legal)
        g = -p
        g[int(np.flatnonzero(legal == action)[0])] += 1.0
        policy.w[legal] += lr * np.outer(g, x)
        policy.b[legal] += lr * g
    shown.clear()


def train(
    policy: LinearPolicy,
    env: TeacherEnv,
    seconds: float,
    seed: int,
    lr: float,
    window: int,
    curve: list[tuple[int, float]],
    imitation: float = 0.0,
    log_every: int = 200,
    score_weight: float = 0.0,
) -> int:
    """REINFORCE with a critic until `seconds` of CPU time are spent (or Ctrl-C, or
    SIGTERM from `main`: learning stops, what was learned is kept and saved), plus imitation of the opponents' decisions
    with weight `imitation` fading to 0 at half time; the games played. The return learned
    from is the game's reward plus `score_weight` times the final score lead (`margin`);
    each update's step is scaled by the running root mean square of the advantages."""
    rng = np.random.default_rng(seed)
    start = time.process_time()
    recent: deque[float] = deque(maxlen=window)
    games = 0
    spread = 1.0  # the running mean of squared advantages
    obs, info = env.reset(seed=seed)
    try:
        while time.process_time() - start < seconds:
            xs: list[np.ndarray] = []
            steps: list[tuple[np.ndarray, np.ndarray, int]] = []
            done = False
            reward = 0.0
            while not done:
                x = squash(obs.astype(np.float64))
                legal = np.flatnonzero(info["action_mask"])
                p = policy.probabilities(x, legal)
                k = int(rng.choice(len(legal), p=p))
                xs.append(x)
                steps.append((legal, p, k))
                obs, reward, term, trunc, info = env.step(int(legal[k]))
                done = term or trunc
            target = reward + score_weight * margin(env)
            for x, (legal, p, k) in zip(xs, steps):
                xb = np.append(x, 1.0)
                baseline = float(policy.value @ xb)
                policy.value += lr * (target - baseline) * xb / len(xs) ** 0.5
                advantage = target - baseline
                spread = 0.99 * spread + 0.01 * advantage * advantage
                advantage /= max(spread, 1e-3) ** 0.5
                if len(legal) > 1:
                    g = -p
                    g[k] += 1.0
                    policy.w[legal] += (lr * advantage) * np.outer(g, x)
                    policy.b[legal] += lr * advantage * g
            fade = max(0.0, 1.0 - 2 * (time.process_time() - start) / seconds)
            if imitation * fade > 0:
                imitate(policy, env.shown, lr * imitation * fade)
            env.shown.clear()
            games += 1
            recent.append(1.0 if reward > 0 else 0.0)
            if games % 50 == 0:
                curve.append((games, sum(recent) / len(recent)))
            if games % log_every == 0:
                spent = time.process_time() - start
                print(f"  {games} games, {spent / 60:.1f} CPU min, last {len(recent)}: {sum(recent) / len(recent):.1%}")
                sys.stdout.flush()
            obs, info = env.reset()
    except KeyboardInterrupt:
        print(f"  interrupted: learning stops after {games} games, {(time.process_time() - start) / 60:.1f} CPU min")
    return games


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM stops learning as Ctrl-C does (a job started with `&` ignores SIGINT)."""
    raise KeyboardInterrupt


def margin(env: SeatEnv) -> float:
    """The learner's score lead over the best other seat at the end, squashed into -1..1
    (`tanh(lead / 10)`): a denser signal than the win alone, from the game's own score."""
    st = env.game
    if st is None or not st.scores:
        return 0.0
    others = [s for p, s in enumerate(st.scores) if p != env.seat]
    return float(np.tanh((st.scores[env.seat] - max(others, default=0)) / 10.0))


def evaluate(policy: LinearPolicy, env: SeatEnv, games: int, seed: int) -> float:
    """The likeliest-action policy's wins (a shared win counts by its reward's sign) over
    `games` fresh seeds, seats alternating."""
    wins = 0.0
    for i in range(games):
        env.fixed_seat = i % env.spec_.players
        obs, info = env.reset(seed=seed + i)
        done = False
        reward = 0.0
        while not done:
            x = squash(obs.astype(np.float64))
            action = policy.act(x, np.flatnonzero(info["action_mask"]))
            obs, reward, term, trunc, info = env.step(action)
            done = term or trunc
        wins += 1.0 if reward > 0 else 0.0
    return wins


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pack", required=True, help="an installed pack id or a pack folder (docs/ai.md trains one)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="greedy", help="a built-in bot or MODULE:CALLABLE agent (default: greedy)")
    ap.add_argument("--minutes", type=float, default=25.0, help="CPU minutes of training (default: 25)")
    ap.add_argument("--out", required=True, help="folder for weights.npz, agent.py, curve.csv")
    ap.add_argument("--start", help="weights to continue from (default: a uniform policy)")
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument(
        "--imitation", type=float, default=1.0, help="weight of imitating the opponent, fading to 0 at half time"
    )
    ap.add_argument(
        "--score-weight",
        type=float,
        default=0.0,
        help="weight of the final score lead (tanh(lead/10)) added to the win/loss return while learning",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--window", type=int, default=500, help="games in the curve's moving win rate (default: 500)")
    ap.add_argument("--eval", type=int, default=500, help="games against the opponent at the end (default: 500)")
    ap.add_argument("--plot", metavar="PNG", help="also draw the curve (needs matplotlib)")
    args = ap.parse_args(argv)
    if not 0 < args.minutes <= 24 * 60:
        raise SystemExit(f"--minutes {args.minutes}: give more than 0 and at most 1440")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        env = TeacherEnv(args.pack, args.players, seat=None, opponents=args.opponent)
        policy = LinearPolicy.load(args.start) if args.start else LinearPolicy(env.spec_)
    except (RulesError, OSError, ValueError) as exc:
        raise SystemExit(f"error: {exc}") from None
    curve: list[tuple[int, float]] = []
    signal.signal(signal.SIGTERM, _stop)
    print(f"training on {args.pack} ({args.players} players) against {args.opponent} for {args.minutes:g} CPU minutes")
    start = time.process_time()
    games = train(
        policy,
        env,
        args.minutes * 60,
        args.seed,
        args.lr,
        args.window,
        curve,
        args.imitation,
        score_weight=args.score_weight,
    )
    spent = time.process_time() - start
    policy.save(out / "weights.npz")
    (out / "agent.py").write_text(AGENT.format(path=out / "agent.py"), encoding="utf-8")
    (out / "curve.csv").write_text("games,win_rate\n" + "".join(f"{g},{r:.4f}\n" for g, r in curve), encoding="utf-8")
    print(f"trained on {games} games in {spent / 60:.1f} CPU minutes; saved {out / 'weights.npz'}")
    if args.plot:
        plot(curve, args.plot, f"{args.pack}: win rate against {args.opponent} while training")
    if args.eval:
        wins = evaluate(policy, SeatEnv(args.pack, args.players, opponents=args.opponent), args.eval, 10**6)
        low, high = wilson(wins, args.eval)
        rate = wins / args.eval
        print(
            f"after training: wins {rate:.1%} (95% interval {low:.1%} to {high:.1%}) of {args.eval} games "
            f"against {args.opponent}, likeliest action"
        )
    return 0


def plot(curve: list[tuple[int, float]], path: str, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("--plot needs matplotlib: pip install 'rules-dsl[ai]'") from None
    fig, ax = plt.subplots(figsize=(6, 3.2))
    if curve:
        ax.plot([g for g, _ in curve], [r for _, r in curve])
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("games")
    ax.set_ylabel("win rate (moving)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
