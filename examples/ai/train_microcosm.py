"""Learn to beat the random bot at Microcosm through the PettingZoo environment.

A linear softmax policy over the action catalogue (numpy only), trained with REINFORCE
(with a running-mean baseline) against a random opponent, the learner's seat alternating;
then evaluated against random on fresh seeds. Needs `pip install 'rules-dsl[ai]'`.

    python examples/ai/train_microcosm.py --minutes 3 --eval 400

Prints the win rate against random before and after training (with a 95% interval) and,
with --curve FILE, writes the win rate of each training block (CSV).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from rules_dsl.envs.pettingzoo import env as make_env


def features(obs: np.ndarray) -> np.ndarray:
    # counts and counters as they come, squashed so a long game's turn count does not dominate
    return np.append(np.tanh(obs / 4.0), 1.0)


class Policy:
    def __init__(self, inputs: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, inputs))
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        legal = np.flatnonzero(mask)
        z = self.w[legal] @ x
        p = np.exp(z - z.max())
        return legal, p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        legal, p = self.probs(x, mask)
        return int(legal[np.argmax(p)] if greedy else self.rng.choice(legal, p=p))


def play(e, policy: Policy, seat: int, seed: int, rng: np.random.Generator, greedy: bool, trace: list | None):
    """One game; the learner at `seat`, random elsewhere. Returns the learner's reward."""
    e.reset(seed=seed)
    me = f"player_{seat}"
    total = 0.0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if agent == me:
            total += reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        if agent == me:
            x = features(obs["observation"])
            a = policy.act(x, mask, greedy)
            if trace is not None:
                trace.append((x, mask, a))
        else:
            a = int(rng.choice(np.flatnonzero(mask)))
        e.step(a)
    return total


def evaluate(e, policy: Policy, games: int, seed0: int, greedy: bool) -> tuple[float, float]:
    rng = np.random.default_rng(seed0)
    wins = sum(play(e, policy, g % 2, seed0 + g, rng, greedy, None) > 0 for g in range(games))
    rate = wins / games
    return rate, 1.96 * math.sqrt(rate * (1 - rate) / games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    ap.add_argument("--eval", type=int, default=400, help="evaluation games against random (default 400)")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", help="write the win rate of each block of training games here (CSV)")
    ap.add_argument("--plot", help="draw that curve into this PNG file (needs matplotlib)")
    args = ap.parse_args()

    e = make_env("microcosm", 2)
    e.reset(seed=0)
    size = e.observation_space("player_0")["observation"].shape[0] + 1
    rng = np.random.default_rng(args.seed)
    policy = Policy(size, e.action_space("player_0").n, rng)

    before = evaluate(e, policy, args.eval, 10**6, greedy=False)
    print(f"before training: wins {before[0]:.1%} +- {before[1]:.1%} of {args.eval} games against random")

    baseline, games, block, curve = 0.0, 0, [], []
    end = time.monotonic() + 60 * args.minutes
    while time.monotonic() < end:
        trace: list = []
        r = play(e, policy, games % 2, 1000 + games, rng, False, trace)
        advantage = r - baseline
        baseline += 0.01 * (r - baseline)
        for x, mask, a in trace:
            legal, p = policy.probs(x, mask)
            # gradient of log softmax over the legal actions: x for the one taken, minus p x for each
            policy.w[legal] -= args.lr * advantage * np.outer(p, x) / len(trace) ** 0.5
            policy.w[a] += args.lr * advantage * x / len(trace) ** 0.5
        games += 1
        block.append(r > 0)
        if len(block) == 200:
            curve.append((games, float(np.mean(block))))
            print(f"  {games} games: won {curve[-1][1]:.1%} of the last 200")
            block = []

    after = evaluate(e, policy, args.eval, 10**6, greedy=False)
    greedy = evaluate(e, policy, args.eval, 10**6, greedy=True)
    print(f"trained on {games} games in {args.minutes:g} min")
    print(
        f"after training: wins {after[0]:.1%} +- {after[1]:.1%} (sampling), {greedy[0]:.1%} +- {greedy[1]:.1%} (greedy)"
    )
    if args.curve:
        with open(args.curve, "w") as f:
            f.write("games,win_rate\n" + "".join(f"{g},{w}\n" for g, w in curve))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot([g for g, _ in curve], [w for _, w in curve], marker=".", label="training games (last 200)")
        ax.axhline(before[0], color="grey", linestyle=":", label=f"untrained: {before[0]:.0%}")
        ax.axhline(after[0], color="green", linestyle="--", label=f"trained, {args.eval} fresh games: {after[0]:.0%}")
        ax.set(xlabel="training games", ylabel="win rate against random", ylim=(0, 1), title="Microcosm")
        ax.legend(loc="lower right")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
