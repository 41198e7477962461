"""Bot strength: win rate of one bot against another, with a 95% confidence interval.

    python3 benchmarks/strength.py greedy random --games 200
    python3 benchmarks/strength.py ismcts greedy --games 100 --budget 200 --processes 2

Two-player games of a pack (default: base, full game); the bots swap seats every other
game so seat advantage cancels out. A shared win counts one half. The interval is the
Wilson score interval (statsmodels). Not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import time

from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]

from rules_dsl.engine import pack_paths
from rules_dsl.simulate import Batch, run_local


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bot")
    ap.add_argument("opponent")
    ap.add_argument("--pack", default="base")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", default="200")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="a line per game, as games finish")
    ap.add_argument("--seat", type=int, choices=(1, 2), help="only the games with the bot in this seat")
    args = ap.parse_args()
    paths = tuple(pack_paths(args.pack))
    half = args.games // 2
    first = Batch(paths, args.pack, 2, None, (args.bot, args.opponent), args.budget)
    second = Batch(paths, args.pack, 2, None, (args.opponent, args.bot), args.budget)
    start = time.perf_counter()
    wins = 0.0
    played = 0
    scores: list[int] = []
    for batch, seat in ((first, 0), (second, 1)):
        if args.seat is not None and seat != args.seat - 1:
            continue
        seeds = list(range(args.seed, args.seed + half))
        for r in run_local(batch, seeds, args.processes):  # seeds in completion order
            if "error" in r:
                print(f"seed {r['seed']} failed: {r['error']}")
                continue
            played += 1
            if seat in r["winners"]:
                wins += 1 / len(r["winners"])
            scores.append(r["scores"][seat] - r["scores"][1 - seat])
            if args.verbose:
                elapsed = time.perf_counter() - start
                print(
                    f"game {played}: seed {r['seed']}, {args.bot} in seat {seat + 1}, winners {r['winners']}, "
                    f"{wins:g}/{played} so far, {elapsed:.0f}s",
                    flush=True,
                )
    seconds = time.perf_counter() - start
    low, high = proportion_confint(round(wins), played, alpha=0.05, method="wilson")
    print(
        f"{args.bot} vs {args.opponent} ({args.pack}, 2 players, budget {args.budget}): "
        f"{wins:g}/{played} wins = {100 * wins / played:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%), "
        f"mean score lead {sum(scores) / len(scores):+.2f}; {seconds:.0f}s ({played / seconds:.2f} games/s)"
    )


if __name__ == "__main__":
    main()
