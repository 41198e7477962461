"""Throughput of random-bot games on one core: games/s, decisions/s, decisions per game.

    python3 benchmarks/bench.py                    # base pack, 2 and 4 players
    python3 benchmarks/bench.py --players 2 --games 2000 --profile

Figures depend on the machine; the header says which one. Compare runs on the same
machine, as ratios. This is not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time

from rules_dsl.bots.random_bot import RandomBot
from rules_dsl.engine import Engine, pack_paths


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}; {os.cpu_count()} cores; Python {platform.python_version()} ({platform.python_implementation()})"


def bench(engine: Engine, players: int, games: int, seed: int, variants: list[str] | None) -> tuple[float, int]:
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        st = engine.new_game(players, seed + g, variants)
        bot = RandomBot(seed + g)
        while st.pending is not None:
            engine.apply_fast(st, bot.choose(st.pending))  # the batch path, as simulate uses
            decisions += 1
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pack", default="base")
    parser.add_argument("--players", type=int, action="append", help="player counts (default: 2 and 4)")
    parser.add_argument("--games", type=int, default=1000, help="games per player count (default: 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--profile", action="store_true", help="print the 25 most expensive functions")
    args = parser.parse_args()
    engine = Engine.load(pack_paths(args.pack))
    print(f"machine: {machine()}")
    print(f"pack: {engine.rules.name} ({', '.join(engine.rules.packs)}); one process, random bots")
    print(f"{'players':>7} {'games':>6} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}")
    for players in args.players or [2, 4]:
        bench(engine, players, 20, args.seed + 10**6, args.variant)  # warm-up
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        seconds, decisions = bench(engine, players, args.games, args.seed, args.variant)
        if profiler:
            profiler.disable()
        print(
            f"{players:>7} {args.games:>6} {args.games / seconds:>9.1f} {decisions / seconds:>12.0f} "
            f"{decisions / args.games:>15.1f}"
        )
        if profiler:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
