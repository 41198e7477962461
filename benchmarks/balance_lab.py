"""Speed of the balance lab: simulate on 1 and 2 worker processes, and a report of 100,000 games.

    python3 benchmarks/balance_lab.py scaling --games 400          # games/s with 1 and 2 workers
    python3 benchmarks/balance_lab.py report --games 100000        # time to build the report

`report` plays 500 real games (random bots, base pack, 4 players) and repeats them under
new seeds up to --games lines: a valid results file of the real shape and card counts.
Figures depend on the machine and its load. Not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from rules_dsl import results
from rules_dsl.engine import pack_paths
from rules_dsl.simulate import Batch, run_local


def scaling(games: int, pack: str, bots: str) -> None:
    paths = tuple(pack_paths(pack))
    names = tuple(bots.split(","))
    batch = Batch(paths, pack, len(names), None, names)
    rates = {}
    for workers in (1, 2):
        start = time.perf_counter()
        out = [r["seed"] for r in run_local(batch, list(range(1, games + 1)), workers)]
        seconds = time.perf_counter() - start
        assert len(out) == games
        rates[workers] = games / seconds
        print(f"{workers} worker(s): {games} games in {seconds:.1f}s = {rates[workers]:.1f} games/s")
    print(f"speed-up with 2 workers: {rates[2] / rates[1]:.2f}x (cores seen: {os.cpu_count()})")


def report(games: int) -> None:
    from rules_dsl.report import build

    batch = Batch(tuple(pack_paths("base")), "base", 4, None, ("random",) * 4)
    real = list(run_local(batch, list(range(1, 501)), 1))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for i in range(games):
                record = dict(real[i % len(real)])
                record["seed"] = i + 1
                f.write(results.dumps(record) + "\n")
        print(f"results file: {games} games, {path.stat().st_size / 1e6:.0f} MB")
        start = time.perf_counter()
        build([str(path)], Path(tmp) / "report")
        print(f"report of {games} games built in {time.perf_counter() - start:.1f}s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("scaling", "report"))
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--pack", default="base")
    ap.add_argument("--bots", default="random,random")
    args = ap.parse_args()
    if args.what == "scaling":
        scaling(args.games or 400, args.pack, args.bots)
    else:
        report(args.games or 100_000)


if __name__ == "__main__":
    main()
