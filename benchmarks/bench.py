"""The speed figures of issue 10, one line per target, optionally against another revision.

    python3 benchmarks/bench.py                       # every figure, on the working tree
    python3 benchmarks/bench.py --compare 9917db9     # the same on 9917db9 and here, alternately, with ratios
    python3 benchmarks/bench.py --only clone,json     # some figures
    python3 benchmarks/bench.py --profile playouts    # cProfile of one measurement (working tree)
    python3 benchmarks/bench.py --throughput --pack microcosm --players 2   # games/s of any pack
    python3 benchmarks/bench.py --yardstick --players 2 --games 2000   # the engine against a hand-written program
    python3 benchmarks/bench.py --instructions --compare a780eaf   # playouts in instructions (valgrind)

Every measurement runs in a fresh process (`--worker NAME`), so one cannot warm or
slow another. With `--compare REV` the other revision is checked out in a temporary git
worktree and imported from there (its own `rules_dsl` and its own pack files); the two
sides run alternately, `--rounds` times each, and the best round of each side counts, so
a noisy machine slows both the same way. Times are the CPU time of the measuring process
(`time.process_time`), so other work on the machine changes them little (`simulate` also
reports wall-clock games/s, which is what its processes are for). Figures depend on the
machine (the header says which); compare ratios. This is not a test: nothing here can fail.

`--yardstick` plays the Learning Game with the engine (random bots, `apply_fast`) and with
`benchmarks/handcoded/`, an independent plain-Python program of the same game, in this one
process, alternately in `--rounds` rounds (default 5), the same seeds on both sides; it
prints each side's games/s from the CPU time this process spent playing, the ratio, and
both sides' statistics (turns, decisions and scores per game, end reasons) with the
difference in standard errors, so a rules reading that drifts on one side shows.

`--instructions` counts the CPU instructions of the playouts instead of timing them, which
other work on the machine cannot change: each playout (Learning 2p, 40 games; full game
4p, 4 games; Escalation 4p, 3 games; random bots, `apply_fast`, seeds 1..N, `--scale`
scales the games) runs in a fresh process under `valgrind --tool=cachegrind` (its "I refs"
total) with PYTHONHASHSEED=0 and a warm compiled-rules cache, and the same process with no
game measures start-up (import, pack load, one warm-up game), which is subtracted. It prints
instructions per game and per decision, and with `--compare REV` the ratio (how many times
fewer the working tree needs). Counts repeat to about 0.1%, so steps of 1% show; CPython's
speed per instruction is not counted (cache misses, branch prediction). Needs valgrind.

What each line measures:
  playouts   random bots, `apply_fast` (the batch path): Learning Game 2p, full game 4p, Escalation 4p
  search     ismcts iterations per second, base 2p, at 6 positions of random games (200
             iterations each): UCB1 with 20-decision random playouts (`ismcts` at a780eaf,
             `ismcts-ucb` now: the same algorithm, comparable with any revision), and
             today's default `ismcts` (evaluation instead of playouts, its greedy prior)
  clone      `state.clone()` of a 4-player mid-game state (the full game, seed 7, 250 decisions)
  json       of that state: `to_json` + `from_json` (serialize, plain round trip), and
             `Engine.from_json` (checked load: fields checked and the log replayed)
  load       import + load + compile every built-in pack in a fresh process
             (with the compiled-rules cache warm, and with it off, where the revision has one)
  simulate   `simulate` (4p full game, random bots, 100 games): games/s with 2 processes / with 1,
             and the same from CPU time (what it would be with two free cores)
  memory     one 4p mid-game state: bytes that `clone()` allocates (a copy shares the
             immutable strings and numbers), and the deep size of everything it reaches
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MEASUREMENTS = ("playouts", "search", "clone", "json", "load", "simulate", "memory")
MID_SEED, MID_DECISIONS = 7, 250


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


# ---- running against a tree -------------------------------------------------------
class _PackFinder(importlib.abc.MetaPathFinder):
    """The built-in packs' entry points name `rules_dsl.cards` and `rules_dsl.expansions.*`,
    which the editable install maps to the working tree: map them to `tree` instead."""

    def __init__(self, tree: Path) -> None:
        self.places = {"rules_dsl.cards": tree / "cards", "rules_dsl.expansions": tree / "expansions"}

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        for name, folder in self.places.items():
            if fullname == name or fullname.startswith(name + "."):
                place = folder.joinpath(*fullname[len(name) :].split(".")[1:])
                if not place.is_dir():
                    return None
                spec = importlib.machinery.ModuleSpec(fullname, None, is_package=True)
                spec.submodule_search_locations = [str(place)]
                return spec
        return None


TREE: list[Path] = []  # the other revision's tree, when measuring it


def use_tree(tree: Path) -> None:
    """Import `rules_dsl` (and its packs) from `tree`: call before the first import."""
    sys.path.insert(0, str(tree))
    sys.meta_path.insert(0, _PackFinder(tree))
    TREE.append(tree.resolve())


def builtin_pack_folders() -> dict[str, list[str]]:
    """Every built-in pack's folders; on another revision, the packs it has (a pack added
    since is installed from the working tree, which that revision's engine cannot read)."""
    from rules_dsl.engine import builtin_packs

    packs = {pack: [str(p) for p in paths] for pack, paths in builtin_packs().items()}
    if TREE:
        packs = {k: v for k, v in packs.items() if all(Path(p).resolve().is_relative_to(TREE[0]) for p in v)}
    return packs


# ---- the measurements (each in its own process) ------------------------------------
def _play(engine: Any, players: int, seeds: range, variants: list[str] | None) -> int:
    from rules_dsl.bots.random_bot import RandomBot

    decisions = 0
    for seed in seeds:
        st = engine.new_game(players, seed, variants)
        bot = RandomBot(seed)
        while st.pending is not None:
            engine.apply_fast(st, bot.choose(st.pending))
            decisions += 1
    return decisions


def mid_game(engine: Any) -> Any:
    """The 4-player full game, seed 7, after 250 random decisions (about half a game)."""
    from rules_dsl.bots.random_bot import RandomBot

    st = engine.new_game(4, MID_SEED)
    bot = RandomBot(MID_SEED)
    for _ in range(MID_DECISIONS):
        engine.apply_fast(st, bot.choose(st.pending))
    return st


def _best(fn: Any, number: int, repeat: int = 5) -> float:
    """Seconds per call, the best of `repeat` runs of `number` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, time.process_time() - start)
    return best / number


def measure_playouts(scale: float) -> dict[str, Any]:
    from rules_dsl.engine import Engine

    base = Engine.for_pack("base")
    escalation = Engine.for_pack("escalation")
    out: dict[str, Any] = {}
    for key, engine, players, variants, games in (
        ("learning_2p", base, 2, ["learning"], 400),
        ("full_4p", base, 4, None, 40),
        ("escalation_4p", escalation, 4, None, 20),
    ):
        n = max(2, int(games * scale))
        _play(engine, players, range(10**6, 10**6 + max(1, n // 10)), variants)  # warm-up
        start = time.process_time()
        decisions = _play(engine, players, range(1, n + 1), variants)
        seconds = time.process_time() - start
        out[f"{key}_games_per_s"] = n / seconds
        out[f"{key}_decisions_per_s"] = decisions / seconds
    return out


def measure_clone(scale: float) -> dict[str, Any]:
    from rules_dsl.engine import Engine

    st = mid_game(Engine.for_pack("base"))
    return {"clone_us": _best(st.clone, max(100, int(2000 * scale))) * 1e6}


def measure_json(scale: float) -> dict[str, Any]:
    from rules_dsl import serialize
    from rules_dsl.engine import Engine

    engine = Engine.for_pack("base")
    st = mid_game(engine)
    text = serialize.to_json(st)
    n = max(20, int(200 * scale))
    return {
        "to_json_ms": _best(lambda: serialize.to_json(st), n) * 1e3,
        "from_json_ms": _best(lambda: serialize.from_json(text), n) * 1e3,
        "round_trip_ms": _best(lambda: serialize.from_json(serialize.to_json(st)), n) * 1e3,
        "checked_load_ms": _best(lambda: engine.from_json(text), max(5, n // 10)) * 1e3,
        "json_bytes": len(text),
    }


SEARCH_POSITIONS = (20, 60, 100, 140, 180, 220)  # decisions into a base 2p game (seeds 1..)


def measure_search(scale: float) -> dict[str, Any]:
    """ismcts iterations per CPU second, base 2p (full game), at positions reached by random
    play. `ismcts_ucb`: UCB1 with 20-decision random playouts and a new tree every decision,
    the algorithm `ismcts` was at a780eaf (`ismcts-ucb` since issue 22), so comparable with
    any revision; `ismcts`: today's default (no playouts: evaluation, progressive history,
    the greedy prior, counted in its budget), where the revision has it."""
    from rules_dsl.bots import ismcts
    from rules_dsl.bots.base import Turn
    from rules_dsl.bots.random_bot import RandomBot
    from rules_dsl.engine import Engine

    engine = Engine.for_pack("base")
    turns = []
    for i, at in enumerate(SEARCH_POSITIONS):
        st = engine.new_game(2, i + 1)
        bot = RandomBot(i + 1)
        while st.pending is not None and (len(st.log) < at or len(st.pending.options) < 2):
            engine.apply_fast(st, bot.choose(st.pending))
        if st.pending is not None:
            turns.append(Turn(engine, st))
    iterations = max(5, int(200 * scale))
    configs: dict[str, dict[str, Any]] = {"ismcts_ucb": {}}
    if hasattr(ismcts, "CONFIGS"):
        configs = {"ismcts_ucb": {"config": ismcts.CONFIGS["ismcts-ucb"]}, "ismcts": {}}
    out: dict[str, Any] = {"search_positions": len(turns)}
    for key, kwargs in configs.items():
        ismcts.ISMCTSBot(engine, 10**6, iterations=iterations, **kwargs).choose(turns[0])  # warm-up
        start = time.process_time()
        for i, turn in enumerate(turns):
            ismcts.ISMCTSBot(engine, i + 1, iterations=iterations, **kwargs).choose(turn)
        out[f"{key}_iterations_per_s"] = iterations * len(turns) / (time.process_time() - start)
    return out


def measure_load(scale: float) -> dict[str, Any]:
    """Runs first thing in a fresh process: the clock starts before rules_dsl is imported."""
    start = time.process_time()
    from rules_dsl.engine import Engine

    imported = time.process_time()
    packs = builtin_pack_folders()
    for paths in packs.values():
        Engine.load(paths)
    done = time.process_time()
    return {"import_s": imported - start, "load_s": done - start, "packs": sorted(packs)}


def measure_simulate(scale: float) -> dict[str, Any]:
    from rules_dsl.engine import pack_paths
    from rules_dsl.simulate import Batch, simulate

    batch = Batch(tuple(pack_paths("base")), "base", 4, None, ("random",) * 4)
    seeds = list(range(1, max(4, int(100 * scale)) + 1))
    out: dict[str, Any] = {}
    simulate(batch, [10**6], 1, progress=False)  # warm-up: loads the engine, which the pool's workers inherit
    for processes in (1, 2):
        cpu = _cpu_seconds()
        records, seconds = simulate(batch, seeds, processes, progress=False)
        cpu = _cpu_seconds() - cpu
        assert all("error" not in r for r in records)
        out[f"p{processes}_games_per_s"] = len(seeds) / seconds
        out[f"p{processes}_cpu_ms_per_game"] = cpu / len(seeds) * 1e3
    out["speedup"] = out["p2_games_per_s"] / out["p1_games_per_s"]
    # what the speed-up would be with two free cores: 2 x the CPU a game takes alone over
    # what it takes in the pool (pool start-up, passing seeds and results), whatever else runs
    out["speedup_free_cores"] = 2 * out["p1_cpu_ms_per_game"] / out["p2_cpu_ms_per_game"]
    return out


def _cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the pool's workers)."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _deep_size(obj: Any) -> int:
    seen: set[int] = set()
    stack = [obj]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list | tuple | set):
            stack.extend(o)
        elif hasattr(o, "__slots__"):
            stack.extend(getattr(o, s) for s in type(o).__slots__ if s != "__weakref__" and hasattr(o, s))
    return total


def measure_memory(scale: float) -> dict[str, Any]:
    import tracemalloc

    from rules_dsl.engine import Engine

    st = mid_game(Engine.for_pack("base"))
    tracemalloc.start()
    copy = st.clone()
    allocated, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del copy
    return {"clone_bytes": allocated, "deep_bytes": _deep_size(st)}


WORKERS = {
    "playouts": measure_playouts,
    "search": measure_search,
    "clone": measure_clone,
    "json": measure_json,
    "load": measure_load,
    "simulate": measure_simulate,
    "memory": measure_memory,
}


def worker(name: str, tree: str | None, scale: float, play: str | None = None, games: int = 0) -> None:
    if tree:
        use_tree(Path(tree))
    if name == "instructions" and play:
        instruction_worker(play, games)
        return
    print(json.dumps(WORKERS[name](scale)))


# ---- instruction counts (valgrind): playouts that other work on the machine cannot move ----
# key | pack | players | variants | games at scale 1
INSTRUCTION_PLAYS: tuple[tuple[str, str, int, list[str] | None, int], ...] = (
    ("learning_2p", "base", 2, ["learning"], 40),
    ("full_4p", "base", 4, None, 4),
    ("escalation_4p", "escalation", 4, None, 3),
)


def instruction_worker(play: str, games: int) -> None:
    """Start-up (import, pack load, one warm-up game) and then `games` games of `play`: the
    parent runs this under valgrind with games = 0 and with games = N and subtracts."""
    from rules_dsl.engine import Engine

    _, pack, players, variants, _ = next(p for p in INSTRUCTION_PLAYS if p[0] == play)
    engine = Engine.for_pack(pack)
    _play(engine, players, range(10**6, 10**6 + 1), variants)  # warm-up: first-call work out of the count
    print(json.dumps({"decisions": _play(engine, players, range(1, games + 1), variants)}))


def count_instructions(play: str, games: int, tree: Path | None, cache_dir: str) -> tuple[int, int]:
    """Instructions and decisions of one worker under valgrind (cachegrind's I refs)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "instructions", "--play", play]
    cmd += ["--games", str(games), *(["--tree", str(tree)] if tree is not None else [])]
    env = {**os.environ, "PYTHONHASHSEED": "0", "RULES_DSL_CACHE_DIR": cache_dir}
    grind = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    done = subprocess.run(grind + cmd, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    refs = [line for line in done.stderr.splitlines() if "I   refs:" in line or "I refs:" in line]
    if done.returncode != 0 or not refs:
        raise SystemExit(f"{play} on {tree or 'the working tree'} failed under valgrind:\n{done.stderr[-3000:]}")
    decisions = json.loads(done.stdout.strip().splitlines()[-1])["decisions"]
    return int(refs[-1].split(":", 1)[1].strip().replace(",", "")), decisions


def instructions(trees: list[tuple[str, Path | None]], scale: float, tmp: Path) -> dict[str, dict[str, Any]]:
    """Per tree and playout: instructions per game and per decision, start-up subtracted."""
    out: dict[str, dict[str, Any]] = {}
    for label, tree in trees:
        cache_dir = str(tmp / f"cache-{len(out)}")
        out[label] = {}
        for play, _, _, _, games in INSTRUCTION_PLAYS:
            n = max(1, round(games * scale))
            run_plain = [sys.executable, str(Path(__file__).resolve()), "--worker", "instructions", "--play", play]
            run_plain += ["--games", "0", *(["--tree", str(tree)] if tree is not None else [])]
            env = {**os.environ, "RULES_DSL_CACHE_DIR": cache_dir}
            warm = subprocess.run(run_plain, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
            if warm.returncode != 0:  # fills the compiled-rules cache, so no run below compiles
                raise SystemExit(f"{play} on {tree or 'the working tree'} failed:\n{warm.stderr}")
            start, _ = count_instructions(play, 0, tree, cache_dir)
            total, decisions = count_instructions(play, n, tree, cache_dir)
            out[label][play] = {"games": n, "decisions": decisions, "instructions": total - start, "start_up": start}
            print(f"  {play} on {label}: {(total - start) / n / 1e6:,.1f}M instructions/game", file=sys.stderr)
    return out


def print_instructions(figures: dict[str, dict[str, Any]]) -> None:
    labels = list(figures)
    header = ["playout", "games", *(f"{label} M/game" for label in labels)]
    header += [f"{labels[-1]} k/decision", *(["ratio"] if len(labels) == 2 else [])]
    rows = []
    for play, *_ in INSTRUCTION_PLAYS:
        per_game = [figures[label][play]["instructions"] / figures[label][play]["games"] for label in labels]
        mine = figures[labels[-1]][play]
        row = [play, str(mine["games"]), *(f"{g / 1e6:,.2f}" for g in per_game)]
        row.append(f"{mine['instructions'] / mine['decisions'] / 1e3:,.1f}")
        if len(labels) == 2:
            row.append(f"{per_game[0] / per_game[1]:.3f}x")
        rows.append(row)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for i, row in enumerate([header, *rows]):
        print("  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    start = ", ".join(f"{label} {figures[label]['learning_2p']['start_up'] / 1e6:,.0f}M" for label in labels)
    print(f"instructions (valgrind cachegrind, I refs) per game, start-up subtracted (start-up, base: {start})")
    if len(labels) == 2:
        print(f"ratio: how many times fewer instructions the working tree needs than {labels[0]}")


# ---- the parent: run workers, alternate, print -------------------------------------
def run(name: str, tree: Path | None, scale: float, env: dict[str, str] | None = None) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name, "--scale", str(scale)]
    if tree is not None:
        cmd += ["--tree", str(tree)]
    start = time.perf_counter()
    done = subprocess.run(
        cmd, capture_output=True, text=True, env={**os.environ, **(env or {})}, cwd=tempfile.gettempdir()
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{name} on {tree or 'the working tree'} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_s"] = wall
    return result


def best(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per figure, the best of the rounds (most per second, least time); others from the first."""
    out = dict(results[0])
    for key, value in results[0].items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        values = [r[key] for r in results]
        out[key] = max(values) if key.endswith(("per_s", "speedup", "free_cores")) else min(values)
    return out


def has_cache(tree: Path | None) -> bool:
    return ((tree or ROOT) / "rules_dsl" / "cache.py").is_file()


def measure(name: str, tree: Path | None, scale: float, cache_dir: str) -> dict[str, Any]:
    """One round of a measurement; `load` twice where the tree has a compiled-rules cache."""
    if name != "load":
        return run(name, tree, scale)
    env = {"RULES_DSL_CACHE_DIR": cache_dir}
    if not has_cache(tree):
        return run(name, tree, scale, env)
    run(name, tree, scale, env)  # fills the cache
    warm = run(name, tree, scale, env)
    cold = run(name, tree, scale, {**env, "RULES_DSL_NO_CACHE": "1"})
    warm["uncached_load_s"] = cold["load_s"]
    warm["uncached_process_s"] = cold["process_s"]
    return warm


# what | key | unit | format | target (text)
LINES: dict[str, list[tuple[str, str, str, str]]] = {
    "playouts": [
        ("random playouts, Learning 2p", "learning_2p_games_per_s", "games/s", ">= 3x"),
        ("random playouts, full game 4p", "full_4p_games_per_s", "games/s", ">= 3x"),
        ("random playouts, Escalation 4p", "escalation_4p_games_per_s", "games/s", ">= 3x"),
    ],
    "search": [
        ("ismcts iterations, base 2p (UCB, 20-step playouts)", "ismcts_ucb_iterations_per_s", "iter/s", ">= 3x"),
        ("  today's default ismcts (no playouts)", "ismcts_iterations_per_s", "iter/s", ""),
    ],
    "clone": [("state.clone(), 4p mid-game", "clone_us", "us", "<= 1/20")],
    "json": [
        ("to_json + from_json (plain round trip)", "round_trip_ms", "ms", "<= 1 ms"),
        ("  to_json", "to_json_ms", "ms", ""),
        ("  from_json", "from_json_ms", "ms", ""),
        ("Engine.from_json (checked load, replays the log)", "checked_load_ms", "ms", ""),
    ],
    "load": [
        ("import + load + compile all built-in packs", "load_s", "s", "<= 0.3 s"),
        ("  the same, whole process (python startup too)", "process_s", "s", ""),
        ("  with the compiled-rules cache off", "uncached_load_s", "s", ""),
    ],
    "simulate": [
        ("simulate 4p, 1 process", "p1_games_per_s", "games/s", ""),
        ("simulate 4p, 2 processes", "p2_games_per_s", "games/s", ""),
        ("simulate --processes 2 vs 1", "speedup", "x", ">= 1.8x"),
        ("  CPU per game, 1 process", "p1_cpu_ms_per_game", "ms", ""),
        ("  CPU per game, 2 processes (workers too)", "p2_cpu_ms_per_game", "ms", ""),
        ("  2 vs 1 with two free cores (estimated from CPU)", "speedup_free_cores", "x", ">= 1.8x"),
    ],
    "memory": [
        ("memory of a 4p mid-game state: clone() allocates", "clone_bytes", "bytes", "halve if > 50 KB"),
        ("  deep size (shared strings counted too)", "deep_bytes", "bytes", ""),
    ],
}


def fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.4g}" if value < 100 else f"{value:,.0f}"


def print_table(
    names: list[str], mine: dict[str, dict[str, Any]], other: dict[str, dict[str, Any]] | None, rev: str
) -> None:
    rows = []
    header = [
        "what",
        "unit",
        *([rev] if other is not None else []),
        "working tree",
        *(["ratio"] if other else []),
        "target",
    ]
    for name in names:
        for what, key, unit, target in LINES[name]:
            now = mine[name].get(key)
            if other is None:
                rows.append([what, unit, fmt(now), target])
                continue
            before = other[name].get(key)
            ratio = ""
            if isinstance(before, int | float) and isinstance(now, int | float) and before and now:
                # "x faster": more per second is better, less time or memory is better
                better_high = key.endswith(("per_s", "speedup", "free_cores"))
                ratio = f"{now / before:.2f}x" if better_high else f"{before / now:.2f}x"
            rows.append([what, unit, fmt(before), fmt(now), ratio, target])
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for i, row in enumerate([header, *rows]):
        print("  ".join(str(c).ljust(w) if j == 0 else str(c).rjust(w) for j, (c, w) in enumerate(zip(row, widths))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    if other is not None:
        print("ratio: how many times faster (or smaller) the working tree is than " + rev)


def throughput(pack: str, counts: list[int], games: int, variants: list[str] | None) -> None:
    """games/s, decisions/s and decisions/game of any pack, in this process (working tree)."""
    from rules_dsl.engine import Engine

    engine = Engine.for_pack(pack)
    print(f"pack: {engine.rules.name} ({', '.join(engine.rules.packs)}); one process, random bots, apply_fast")
    print(f"{'players':>7} {'games':>6} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}")
    for players in counts:
        _play(engine, players, range(10**6, 10**6 + 20), variants)  # warm-up
        start = time.process_time()
        decisions = _play(engine, players, range(1, games + 1), variants)
        seconds = time.process_time() - start
        print(
            f"{players:>7} {games:>6} {games / seconds:>9.1f} {decisions / seconds:>12.0f} {decisions / games:>15.1f}"
        )


# ---- the yardstick: the engine against a hand-written program of the same game -------
# one game: turns, decisions, scores, end reason, and per player at the end: fighters,
# influence tokens, face-up planets, face-down planets
Record = tuple[int, int, list[int], str, list[tuple[int, int, int, int]]]
PER_PLAYER = ("fighters", "influence tokens", "face-up planets", "face-down planets")


def _engine_records(engine: Any, players: int, seeds: range) -> list[Record]:
    from rules_dsl.bots.random_bot import RandomBot

    out = []
    for seed in seeds:
        st = engine.new_game(players, seed, ["learning"])
        bot = RandomBot(seed)
        decisions = 0
        while st.pending is not None:
            engine.apply_fast(st, bot.choose(st.pending))
            decisions += 1
        ends = []
        for p in range(players):
            empire = st.zones[f"empire.{p}"]
            up = sum(st.cards[c].up for c in empire)
            ends.append((st.counters["fighter"][p], st.counters["influence"][p], up, len(empire) - up))
        out.append((st.turn, decisions, list(st.scores), st.end_trigger, ends))
    return out


def _handcoded_records(players: int, seeds: range) -> list[Record]:
    from handcoded import learning

    out = []
    for seed in seeds:
        game = learning.play(players, seed)
        ends = [(p.fighters, p.influence, len(p.up), len(p.down)) for p in game.players]
        out.append((game.turns, game.decisions, game.scores(), game.end_reason, ends))
    return out


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, (var / n) ** 0.5


def yardstick_statistics(records: list[Record]) -> dict[str, tuple[float, float]]:
    """Mean and standard error of each statistic, and each end reason's share."""
    stats = {
        "turns per game": _mean_se([r[0] for r in records]),
        "decisions per game": _mean_se([r[1] for r in records]),
        "winner's score": _mean_se([max(r[2]) for r in records]),
        # per game, the mean over its players: one value a game, so the standard error holds
        "score (every player)": _mean_se([sum(r[2]) / len(r[2]) for r in records]),
    }
    for i, what in enumerate(PER_PLAYER):
        stats[f"{what} at the end (every player)"] = _mean_se([sum(e[i] for e in r[4]) / len(r[4]) for r in records])
    for reason in sorted({r[3] for r in records}):
        share = sum(r[3] == reason for r in records) / len(records)
        stats[f"ended by: {reason or '(none)'}"] = (share, (share * (1 - share) / len(records)) ** 0.5)
    return stats


def yardstick(counts: list[int], games: int, rounds: int) -> None:
    """Games/s of the engine and of the hand-written Learning Game, alternately in one
    process (CPU time), and the statistics of both."""
    from rules_dsl.engine import Engine

    engine = Engine.for_pack("base")
    rounds = min(rounds, games)
    per_round = games // rounds
    print(f"Learning Game, random players; engine: apply_fast; {rounds} rounds of {per_round} games a side")
    for players in counts:
        _engine_records(engine, players, range(10**6, 10**6 + 20))  # warm-up
        _handcoded_records(players, range(10**6, 10**6 + 20))
        engine_games: list[Record] = []
        handcoded_games: list[Record] = []
        cpu = {"engine": 0.0, "handcoded": 0.0}
        for r in range(rounds):
            seeds = range(1 + r * per_round, 1 + (r + 1) * per_round)
            start = time.process_time()
            handcoded_games += _handcoded_records(players, seeds)
            cpu["handcoded"] += time.process_time() - start
            start = time.process_time()
            engine_games += _engine_records(engine, players, seeds)
            cpu["engine"] += time.process_time() - start
        rate = {side: len(engine_games) / seconds for side, seconds in cpu.items()}
        print()
        print(f"{players} players, {len(engine_games)} games a side")
        rows = [
            ["games/s (CPU time)", f"{rate['engine']:,.0f}", f"{rate['handcoded']:,.0f}", ""],
            ["engine / handcoded", f"{rate['engine'] / rate['handcoded']:.3f}x", "", ""],
        ]
        a, b = yardstick_statistics(engine_games), yardstick_statistics(handcoded_games)
        for key in [*a, *(k for k in b if k not in a)]:
            (ma, sa), (mb, sb) = a.get(key, (0.0, 0.0)), b.get(key, (0.0, 0.0))
            z = abs(ma - mb) / (sa * sa + sb * sb) ** 0.5 if sa or sb else 0.0
            share = key.startswith("ended by")
            rows.append(
                [
                    key,
                    f"{ma:.1%}" if share else f"{ma:.2f} ± {sa:.2f}",
                    f"{mb:.1%}" if share else f"{mb:.2f} ± {sb:.2f}",
                    f"{z:.1f}" if sa or sb else ("same" if ma == mb else "differ"),
                ]
            )
        header = ["", "engine", "handcoded", "difference (SE)"]
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
        for i, row in enumerate([header, *rows]):
            print("  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))))
            if i == 0:
                print("  ".join("-" * w for w in widths))
    print()
    print("± one standard error of the mean; difference: |engine - handcoded| in standard errors")
    print("(above about 3, the two programs probably read a rule differently)")


# Where a playout's time goes, by the engine module a function lives in (its own time, not
# what it calls): the parts a faster design would have to shrink.
PROFILE_GROUPS = (
    ("frame machine: interpreter, control, turns, frames", ("interpreter.py", "control.py", "turns.py", "Frame")),
    ("queries, conditions, numbers (effects/values.py)", ("values.py",)),
    ("building options (effects/choices.py)", ("choices.py",)),
    ("changing the state (effects/primitives.py, base.py)", ("primitives.py", "effects/base.py")),
    ("abilities: triggers, modifiers", ("abilities.py",)),
    ("random bot, shuffles", ("random", "bots/", "rng.py")),
)


def breakdown(stats: dict[Any, Any]) -> list[tuple[str, float]]:
    """Shares of the profiled time per PROFILE_GROUPS entry; the rest is "other"."""
    shares: dict[str, float] = {}
    total = 0.0
    for (file, _, func), (_, _, own, _, _) in stats.items():
        total += own
        where = f"{file}:{func}"
        group = next((g for g, marks in PROFILE_GROUPS if any(m in where for m in marks)), "other: builtins, engine")
        shares[group] = shares.get(group, 0.0) + own
    return sorted(((g, t / total) for g, t in shares.items()), key=lambda gt: -gt[1])


def profile(name: str, scale: float) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    print(json.dumps(WORKERS[name](scale)))
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(30)
    print("own time by part of the engine:")
    for group, share in breakdown(stats.stats):  # type: ignore[attr-defined]
        print(f"  {share:6.1%}  {group}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help=f"comma-separated measurements: {','.join(MEASUREMENTS)} (default: all)")
    parser.add_argument("--compare", metavar="REV", help="also measure this git revision, alternately, with ratios")
    parser.add_argument(
        "--rounds", type=int, default=0, help="rounds per side (default: 1, or 3 with --compare, 5 with --yardstick)"
    )
    parser.add_argument("--scale", type=float, default=1.0, help="more (2) or fewer (0.25) games and repetitions")
    parser.add_argument("--profile", metavar="NAME", help="cProfile one measurement in this process")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--throughput", action="store_true", help="only games/s of --pack, --players, --variant")
    parser.add_argument(
        "--yardstick", action="store_true", help="the engine against benchmarks/handcoded/ (Learning Game)"
    )
    parser.add_argument("--pack", default="base", help="with --throughput (default: base)")
    parser.add_argument(
        "--players", type=int, action="append", help="with --throughput (default: 2 and 4), --yardstick (default: 2)"
    )
    parser.add_argument("--games", type=int, default=1000, help="with --throughput, --yardstick (default: 1000)")
    parser.add_argument("--variant", action="append", help="with --throughput: a variant; repeat for several")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the playouts' instructions under valgrind (with --compare: and the ratio)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--play", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.tree, args.scale, args.play, args.games)
        return
    if args.profile:
        profile(args.profile, args.scale)
        return
    if args.throughput:
        print(f"machine: {machine()}")
        throughput(args.pack, args.players or [2, 4], args.games, args.variant)
        return
    if args.yardstick:
        bad = [n for n in args.players or [] if not 2 <= n <= 4]
        if bad or args.games < 1 or args.rounds < 0:
            parser.error("--yardstick: --players 2 to 4, --games at least 1, --rounds at least 1")
        print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
        yardstick(args.players or [2], args.games, args.rounds or 5)
        return
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit(
            "--instructions counts instructions with valgrind, which is not installed here "
            "(e.g. `apt-get install valgrind`); without it, bench.py measures CPU time"
        )
    names = [n.strip() for n in (args.only or ",".join(MEASUREMENTS)).split(",") if n.strip()]
    unknown = [n for n in names if n not in MEASUREMENTS]
    if unknown:
        parser.error(f"unknown measurement {unknown[0]!r}: choose from {', '.join(MEASUREMENTS)}")
    rounds = args.rounds or (3 if args.compare else 1)
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True).stdout
    print(f"working tree: {head.stdout.strip()}{' (with uncommitted changes)' if dirty.strip() else ''}")
    tmp = Path(tempfile.mkdtemp(prefix="rules-dsl-bench-"))
    other_tree: Path | None = None
    try:
        if args.compare:
            other_tree = tmp / "tree"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(other_tree), args.compare],
                check=True,
            )
            print(f"compared with: {args.compare} (a temporary worktree, imported from there)")
        if args.instructions:
            trees: list[tuple[str, Path | None]] = [("working tree", None)]
            if other_tree is not None:
                trees.insert(0, (args.compare, other_tree))
            figures = instructions(trees, args.scale, tmp)
            print()
            print_instructions(figures)
            if args.json:
                print(json.dumps(figures))
            return
        print(f"rounds: {rounds} per side, the best counts; scale {args.scale}")
        mine: dict[str, dict[str, Any]] = {}
        other: dict[str, dict[str, Any]] = {}
        for name in names:
            mine_rounds, other_rounds = [], []
            for _ in range(rounds):
                if other_tree is not None:
                    other_rounds.append(measure(name, other_tree, args.scale, str(tmp / "cache-other")))
                mine_rounds.append(measure(name, None, args.scale, str(tmp / "cache")))
            mine[name] = best(mine_rounds)
            if other_tree is not None:
                other[name] = best(other_rounds)
            print(f"  {name} done", file=sys.stderr)
        print()
        print_table(names, mine, other if other_tree is not None else None, args.compare or "")
        if "load" in mine:
            print(f"packs loaded: {', '.join(mine['load']['packs'])}", end="")
            print(f" (on {args.compare}: {', '.join(other['load']['packs'])})" if other_tree is not None else "")
        if args.json:
            print(json.dumps({"working_tree": mine, **({args.compare: other} if other_tree is not None else {})}))
    finally:
        if other_tree is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other_tree)], check=False)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
