"""What the AI environments cost over the engine (issue 36): random legal steps per CPU
second, in one process, alternately, the best of `--rounds` rounds of each side.

    python3 benchmarks/envs.py                              # Microcosm and base 2p
    python3 benchmarks/envs.py --games microcosm:2 --rounds 5
    python3 benchmarks/envs.py --profile pettingzoo --games base:2   # cProfile of one side

Sides, each playing the same seeds with a uniformly random legal choice at every decision:

  engine      `Engine.apply_fast` with `Engine.legal_options` (the raw engine, no undo)
  pettingzoo  the AEC loop of docs/ai.md: `last()` (the acting agent's observation array and
              action mask), `flatnonzero(mask)`, `step(action)`
  pettingzoo-mask  the same loop with `last(observe=False)` and the mask of `infos[agent]`
              (no observation built: what a loop that needs only the legal actions pays)
  openspiel   `legal_actions()`, `apply_action(action)` (no observation asked)
  openspiel+obs  the same, with `observation_tensor(player)` of the player to act each step
  gymnasium   the single-agent env against `random` for the other seat: `reset`, then
              `step` with a random legal action from `info["action_mask"]` (counted: the
              learner's steps and the opponents' decisions, every engine decision)

Times are the CPU time of this process (`time.process_time`); figures depend on the
machine, the ratios to `engine` are the comparable figures. Not a test: nothing here fails.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

import numpy as np

from rules_dsl.envs.spec import GameSpec, load_spec

Run = Callable[[range], int]  # plays these seeds, gives the number of decisions taken


def engine_side(spec: GameSpec) -> Run:
    engine = spec.engine

    def run(seeds: range) -> int:
        steps = 0
        for seed in seeds:
            rnd = random.Random(seed)
            st = spec.new_game(seed)
            while st.pending is not None:
                options = engine.legal_options(st)
                engine.apply_fast(st, options[int(rnd.random() * len(options))])
                steps += 1
        return steps

    return run


def pettingzoo_side(spec: GameSpec, observe: bool = True) -> Run:
    from rules_dsl.envs.pettingzoo import env

    e = env(spec.pack, spec.players, spec.variants)

    def run(seeds: range) -> int:
        steps = 0
        for seed in seeds:
            rnd = random.Random(seed)
            e.reset(seed=seed)
            for _agent in e.agent_iter():
                obs, _reward, term, trunc, info = e.last(observe)
                if term or trunc:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"] if observe else info["action_mask"])
                e.step(int(legal[int(rnd.random() * len(legal))]))
                steps += 1
        return steps

    return run


def openspiel_side(spec: GameSpec, observe: bool = False) -> Run:
    from rules_dsl.envs.openspiel import load

    game = load(spec.pack, spec.players, list(spec.variants), chance="explicit", seeds=1000)

    def run(seeds: range) -> int:
        steps = 0
        for seed in seeds:
            rnd = random.Random(seed)
            state = game.new_initial_state()
            state.apply_action(seed)
            while not state.is_terminal():
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rnd.random() * len(legal))])
                steps += 1
        return steps

    return run


def gymnasium_side(spec: GameSpec) -> Run:
    from rules_dsl.envs.gymnasium import SeatEnv

    e = SeatEnv(spec.pack, spec.players, spec.variants, opponents="random")

    def run(seeds: range) -> int:
        steps = 0
        for seed in seeds:
            rnd = random.Random(seed)
            _obs, info = e.reset(seed=seed)
            done = False
            while not done:
                legal = np.flatnonzero(info["action_mask"])
                _obs, _r, term, trunc, info = e.step(int(legal[int(rnd.random() * len(legal))]))
                done = term or trunc
            steps += e.decisions
        return steps

    return run


SIDES: dict[str, Callable[[GameSpec], Run]] = {
    "engine": engine_side,
    "pettingzoo": pettingzoo_side,
    "pettingzoo-mask": lambda spec: pettingzoo_side(spec, observe=False),
    "openspiel": openspiel_side,
    "openspiel+obs": lambda spec: openspiel_side(spec, observe=True),
    "gymnasium": gymnasium_side,
}


def measure(run: Run, seeds: range) -> float:
    start = time.process_time()
    steps = run(seeds)
    return steps / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="microcosm:2,base:2", help="PACK:PLAYERS, comma-separated")
    ap.add_argument("--sides", default=",".join(SIDES), help="comma-separated, of: " + ", ".join(SIDES))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=0, help="games per side per round (default: 20, base 6)")
    ap.add_argument("--profile", metavar="SIDE", help="cProfile one side instead")
    args = ap.parse_args()
    sides = args.sides.split(",")
    for item in args.games.split(","):
        pack, _, players = item.partition(":")
        spec = load_spec(pack, int(players or 2))
        n = args.seeds or (20 if pack == "microcosm" else 6)
        seeds = range(1, n + 1)
        runs = {side: SIDES[side](spec) for side in ([args.profile] if args.profile else sides)}
        for run in runs.values():  # warm up: the first game
            run(range(1, 2))
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(runs[args.profile], seeds)
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)
            continue
        best = dict.fromkeys(sides, 0.0)
        for _ in range(args.rounds):
            for side in sides:
                best[side] = max(best[side], measure(runs[side], seeds))
        print(f"{pack} {spec.players}p: random legal steps per CPU second (best of {args.rounds}, {n} games each)")
        for side in sides:
            print(f"  {side:14} {best[side]:10,.0f}   {best[side] / best['engine']:.3f}x the engine")


if __name__ == "__main__":
    main()
