"""The stretch issue 38 measured by hand: the Learning Game's cleanup `done` (the last
"choose a card in your hand" of the cleanup answered `done`) through the next player's
action options, on the interpreter and on the generated steps (rules_dsl/codegen), over
the same positions (random 2p games, seeds 1..N). Prints each side's CPU time per
stretch, in rounds taken alternately (the best counts), the ratio, and checks that both
leave the same state (JSON).

    python3 benchmarks/stretch.py --games 100

With `--count SIDE` it runs one pass of one side only, for valgrind: the instructions of
`--count generated` minus those of `--count copies` are the generated side's stretches.
"""

from __future__ import annotations

import argparse
import random
import time

from rules_dsl import serialize
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.state import GameState


def positions(engine: Engine, games: int) -> list[GameState]:
    """States whose pending decision is the cleanup's card choice with `done` among its options."""
    out: list[GameState] = []
    for seed in range(1, games + 1):
        rnd = random.Random(seed)
        st = engine.new_game(2, seed, ["learning"])
        while st.pending is not None:
            d = st.pending
            if st.phase == "cleanup" and d.options[-1] == "done":
                out.append(st.clone())
            engine.apply_fast(st, rnd.choice(d.options))
    return out


def run(engine: Engine, states: list[GameState], apply: bool = True) -> float:
    copies = [s.clone() for s in states]
    start = time.process_time()
    if apply:
        for st in copies:
            engine.apply_fast(st, "done")
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--count",
        choices=("interpreter", "generated", "copies"),
        help="for an instruction count (valgrind): collect the positions, then one pass of this side "
        "only (copies: the states copied, nothing applied), and print nothing",
    )
    args = parser.parse_args()
    paths = pack_paths("base")
    plain, fused = Engine.load(paths, compiled=False), Engine.load(paths, compiled=True)
    states = positions(plain, args.games)
    if args.count:
        run(fused if args.count == "generated" else plain, states, apply=args.count != "copies")
        return
    for st in states:
        a, b = st.clone(), st.clone()
        plain.apply_fast(a, "done")
        fused.apply_fast(b, "done")
        assert serialize.to_json(a) == serialize.to_json(b), "the two sides leave different states"
    best = {"interpreter": float("inf"), "generated": float("inf")}
    for _ in range(args.rounds):
        best["interpreter"] = min(best["interpreter"], run(plain, states))
        best["generated"] = min(best["generated"], run(fused, states))
    n = len(states)
    for side, seconds in best.items():
        print(f"{side}: {seconds / n * 1e6:.1f} µs a stretch ({n} positions)")
    print(f"generated / interpreter: {best['interpreter'] / best['generated']:.2f}x less CPU; same states: yes")


if __name__ == "__main__":
    main()
