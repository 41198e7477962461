"""Batches of bot games: play them (here, in a process pool or on a dask cluster), write
each result as it finishes, and summarize.

Game i of a batch uses seed `seed + i`; every bot's random stream is derived from the
game's seed and its seat, so a game's result depends only on its seed and the options,
never on which worker played it or when.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from rules_dsl import chosen, files, results, trajectories
from rules_dsl.bots import Bot, Turn, make_bot
from rules_dsl.bots.agents import AgentFault
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError
from rules_dsl.statistics import ChoiceCounter, Recorder


@attrs.frozen
class Batch:
    """What every game of a batch shares."""

    paths: tuple[str, ...]
    pack: str  # as the user named it, for the results
    players: int
    variants: tuple[str, ...] | None  # None: the pack's defaults
    bots: tuple[str, ...]  # the line-up: one per seat, in this order unless rotated
    budget: str = "200"
    rotate: bool = False  # every distinct seat order of the line-up in turn
    trajectories: str | None = None  # a folder for every decision's columns (rules_dsl/trajectories.py)

    def matches(self, record: dict[str, Any]) -> bool:
        return bool(
            record["pack"] == self.pack
            and record["players"] == self.players
            and record.get("lineup", record["bots"]) == list(self.bots)
            and record.get("rotate_seats", False) == self.rotate
            and (self.variants is None or record["variants"] == list(self.variants))
            and record.get("budget") == self.budget
        )

    def seat_orders(self) -> list[tuple[int, ...]]:
        """The line-up positions seated in each seat, for every distinct seat order (the
        line-up as given first); one order unless rotated."""
        return seat_orders(self.bots) if self.rotate else [tuple(range(len(self.bots)))]

    def seating(self, seed: int) -> tuple[int, ...]:
        """The seat order of game `seed`: it depends on the seed alone, so consecutive
        seeds cycle through every order and a resumed batch seats each game as before."""
        orders = self.seat_orders()
        return orders[seed % len(orders)]


MAX_ROTATED_PLAYERS = 8  # 8! = 40320 seat orders; more cannot be played equally often anyway


def seat_orders(lineup: tuple[str, ...]) -> list[tuple[int, ...]]:
    """Every distinct seat order of a line-up: two seats of the same bot swapped are one order."""
    if len(lineup) > MAX_ROTATED_PLAYERS:
        raise RulesError(
            f"--rotate-seats: {len(lineup)} players have too many seat orders; rotate at most {MAX_ROTATED_PLAYERS}"
        )
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[int, ...]] = []
    for order in itertools.permutations(range(len(lineup))):
        seated = tuple(lineup[i] for i in order)
        if seated not in seen:
            seen.add(seated)
            out.append(order)
    return out


def play_game(
    engine: Engine,
    batch: Batch,
    seed: int,
    players: list[Bot] | None = None,
    prefix: Sequence[str] = (),
    keep_log: bool = False,
) -> dict[str, Any]:
    """One game as a results record; an error in the rules gives a record with `error` and the log.
    `players`: the bots of each seat, when the caller made them (an experiment's steered seat);
    `prefix`: the game's first decisions, already made (an experiment's arm goes on from the
    decision of the unsteered game where its card was first offered), counted like the rest;
    `keep_log`: the record holds every decision (`log`), so a game can start from its prefix."""
    variants = None if batch.variants is None else list(batch.variants)
    order = batch.seating(seed)
    seated = [batch.bots[i] for i in order]
    bots = players or [make_bot(name, engine, seed * 1009 + seat, batch.budget) for seat, name in enumerate(seated)]
    log: list[str] = []
    forfeit: dict[str, Any] | None = None
    try:
        recorder = Recorder(engine.rules, batch.players)
        choices = ChoiceCounter(engine.rules, batch.players)
        st = engine.new_game(batch.players, seed, variants, recorder)
        log = st.log
        steps = None if batch.trajectories is None else trajectories.Recorder(engine.rules, batch.players, st.variants)
        for option in prefix:
            if st.pending is None or option not in st.pending.options:
                raise RulesError(f"decision {len(st.log) + 1} of the game's prefix, {option!r}, is not an option")
            if steps is not None:
                steps.decided(st, option)
            choices.decided(st.pending, option)
            engine.apply_fast(st, option)
        while st.pending is not None:
            try:
                option = bots[st.pending.player].choose(Turn(engine, st))
            except AgentFault as fault:  # the agent's seat forfeits; the others share the win
                forfeit = {"seat": st.pending.player, "agent": fault.agent, "reason": str(fault)}
                break
            if steps is not None:
                steps.decided(st, option)
            choices.decided(st.pending, option)
            # a game that fails is dropped and replayed from its log: no undo needed
            engine.apply_fast(st, option)
    except Exception as exc:  # noqa: BLE001 - reported with the seed and a replay file, see write_replay
        return {"seed": seed, "error": f"{type(exc).__name__}: {exc}", "log": list(log)}
    record: dict[str, Any] = {
        "seed": seed,
        "pack": batch.pack,
        "packs": list(engine.rules.packs),
        "variants": list(st.variants),
        "scenario": ", ".join(v for v in st.variants if chosen.is_choice(v)) or None,  # the chosen cards
        "players": batch.players,
        "bots": seated,
        "lineup": list(batch.bots),
        "seat_order": list(order),
        "rotate_seats": batch.rotate,
        "budget": batch.budget,
        "scores": list(st.scores),
        "tiebreaks": list(st.tiebreaks),
        "breakdown": {k: list(v) for k, v in st.breakdown.items()},
        "winners": list(st.winners),
        "end_trigger": st.end_trigger,
        "turns": st.turn,
        "rounds": st.round,
        "decisions": len(st.log),
        "counts": recorder.counts,
        "choices": choices.counts,
    }
    if keep_log:
        record["log"] = list(st.log)
    if forfeit is not None:  # the scores so far (the pack's scoring, now), the forfeiting seat last
        scores, tiebreaks, breakdown = engine.score_now(st)
        record.update(
            scores=list(scores), tiebreaks=list(tiebreaks), breakdown={k: list(v) for k, v in breakdown.items()}
        )
        record["winners"] = [p for p in range(batch.players) if p != forfeit["seat"]]
        record["end_trigger"] = "forfeit"
        record["forfeit"] = forfeit
    if steps is not None and batch.trajectories is not None:
        from rules_dsl.envs.spec import returns

        ended = st.clone()
        ended.over, ended.winners = True, list(record["winners"])
        steps.write(Path(batch.trajectories), seed, returns(ended))
    if engine.rules.cooperative:  # all won or all lost together (older files lack the key)
        record["cooperative"] = True
    return record


# ---- where games are played -------------------------------------------------------
_engines: dict[tuple[str, ...], Engine] = {}
_lock = threading.Lock()


def _engine(paths: tuple[str, ...]) -> Engine:
    """One engine per pack set in a worker process (pool or dask), loaded by the first game."""
    with _lock:
        if paths not in _engines:
            _engines[paths] = Engine.load(paths)
        return _engines[paths]


def play_seed(batch: Batch, seed: int) -> dict[str, Any]:
    """A game in a worker process (pool or dask); games in threads of one worker run side by
    side, as each state carries its own rules."""
    return play_game(_engine(batch.paths), batch, seed)


def _pool_job(args: tuple[Batch, int]) -> dict[str, Any]:
    return play_seed(*args)


def run_local(batch: Batch, seeds: list[int], processes: int) -> Iterator[dict[str, Any]]:
    """In this process, or a pool of processes; results as games finish."""
    return map_local(_pool_job, [(batch, s) for s in seeds], processes)


def map_local(job: Callable[[Any], dict[str, Any]], args: list[Any], processes: int) -> Iterator[dict[str, Any]]:
    """`job` (a module-level function) of each argument, here or in a pool; results as they finish."""
    if processes <= 1 or len(args) <= 1:
        for a in args:
            yield job(a)
        return
    ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    chunk = max(1, min(20, len(args) // (processes * 8) or 1))
    with ctx.Pool(processes) as pool:
        yield from pool.imap_unordered(job, args, chunksize=chunk)


def run_dask(batch: Batch, seeds: list[int], scheduler: str | None, processes: int) -> Iterator[dict[str, Any]]:
    """On a dask cluster (`scheduler` address), or a local one of `processes` workers."""
    return map_dask(_pool_job, [(batch, s) for s in seeds], scheduler, processes)


def map_dask(
    job: Callable[[Any], dict[str, Any]], args: list[Any], scheduler: str | None, processes: int
) -> Iterator[dict[str, Any]]:
    """`job` of each argument on a dask cluster (`scheduler` address), or a local one of
    `processes` workers; results as they finish."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RulesError("--backend dask needs dask.distributed: pip install 'rules-dsl[cluster]'") from None
    cluster = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout="5s")  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError) as exc:
                raise RulesError(
                    f"cannot reach the dask scheduler at {scheduler!r} ({exc}); no game was played"
                ) from None
        else:
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=max(1, processes), threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = Client(cluster)  # type: ignore[no-untyped-call]
        with client:
            futures = client.map(job, args, pure=False)
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
    finally:
        if cluster is not None:
            cluster.close()


# ---- results files ----------------------------------------------------------------
class Writer:
    """Appends each finished game to the results file at once (a dead worker loses no
    finished game), then rewrites the file in seed order, so the bytes do not depend on
    the number of workers."""

    def __init__(
        self, path: Path, keep: list[dict[str, Any]], order: Callable[[dict[str, Any]], Any] = lambda r: r["seed"]
    ) -> None:
        self.path = path
        self.order = order
        self.records = list(keep)
        self.handle = path.open("w", encoding="utf-8")
        for r in keep:
            self.handle.write(results.dumps(r) + "\n")
        self.handle.flush()

    def add(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        self.handle.write(results.dumps(record) + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text("".join(results.dumps(r) + "\n" for r in sorted(self.records, key=self.order)))
        tmp.replace(self.path)


def resume_from(path: Path, batch: Batch) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """The games already in a results file for this batch; other batches' games are an error."""
    if not path.exists():
        return [], []
    loaded = results.load(path)
    for r in loaded.games:
        if not batch.matches(r):
            raise RulesError(
                f"{path} holds games of other settings (pack {r['pack']}, {r['players']} players, bots "
                f"{','.join(r['bots'])}, variants {','.join(r['variants']) or 'none'}): resume with the same "
                "options, or write to another --out"
            )
    return loaded.games, loaded.skipped


def write_replay(engine: Engine, batch: Batch, record: dict[str, Any], folder: Path) -> Path:
    """A scenario file that replays a failed game up to the decision that broke it."""
    from ruamel.yaml import YAML

    from rules_dsl.engine import builtin_packs

    path = folder / f"failed-game-seed-{record['seed']}.yaml"
    pack: Any = batch.pack if batch.pack in builtin_packs() else [str(Path(p).resolve()) for p in batch.paths]
    data: dict[str, Any] = {
        "name": f"simulate: game seed {record['seed']} failed",
        "description": f"{record['error']} (bots {','.join(batch.bots)}); replays the game's decisions",
        "pack": pack,
        "players": batch.players,
        "seed": record["seed"],
    }
    if batch.variants is not None:
        data["variants"] = list(batch.variants)
    data["decisions"] = record["log"]
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(data, f)
    return path


# ---- summaries --------------------------------------------------------------------
def summary(games: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """Plain data for `--json` and the table."""
    n = len(games)
    if n == 0:
        return {"games": 0}
    players = games[0]["players"]
    wins = [0.0] * players
    bot_wins: dict[str, float] = {}
    bot_seats: Counter[str] = Counter()
    for g in games:
        for w in g["winners"]:
            wins[w] += 1 / len(g["winners"])
            bot_wins[g["bots"][w]] = bot_wins.get(g["bots"][w], 0.0) + 1 / len(g["winners"])
        bot_seats.update(g["bots"])
    all_scores = [s for g in games for s in g["scores"]]
    parts: dict[str, list[int]] = {}
    for g in games:
        for name, part in g["breakdown"].items():
            parts.setdefault(name, []).extend(part)
    if any(g.get("cooperative") for g in games):
        return _coop_summary(games, seconds, parts)
    # a part's share of all points scored: none when no points were scored (every score 0) or
    # a part takes points away (penalties), where a share over 100% or below 0 would mislead
    total_points = sum(all_scores)
    shares = total_points > 0 and all(sum(p) >= 0 for p in parts.values())
    return {
        "games": n,
        "mean_turns": sum(g["turns"] for g in games) / n,
        "mean_rounds": sum(g.get("rounds", 0) for g in games) / n,
        "mean_decisions": sum(g["decisions"] for g in games) / n,
        "mean_score": sum(all_scores) / len(all_scores),
        "mean_winning_score": sum(max(g["scores"]) for g in games) / n,
        "max_score": max(all_scores),
        "shared_wins": sum(1 for g in games if len(g["winners"]) > 1),
        "win_share_by_seat": [w / n for w in wins],
        "win_rate_by_bot": {b: bot_wins.get(b, 0.0) / bot_seats[b] for b in sorted(bot_seats)},
        "end_triggers": dict(Counter(g["end_trigger"] or "(none)" for g in games).most_common()),
        "seat_orders": dict(sorted(Counter(",".join(g["bots"]) for g in games).items())),
        "rotated": any(g.get("rotate_seats") for g in games),
        "score_parts": {
            name: {"mean": sum(p) / len(p), "share": sum(p) / total_points if shares else None}
            for name, p in parts.items()
        },
        "seconds": seconds,
        "games_per_second": n / seconds if seconds > 0 else None,
    }


def _coop_summary(games: list[dict[str, Any]], seconds: float, parts: dict[str, list[int]]) -> dict[str, Any]:
    """A co-operative game's summary: the seats win or lose together and share one score, so
    there are no shares of wins between seats, only how often the table won and what it scored."""
    n = len(games)
    shared = [g["scores"][0] for g in games]
    won = sum(1 for g in games if g["winners"])
    bot_games: Counter[str] = Counter()
    bot_won: Counter[str] = Counter()
    for g in games:
        for b in set(g["bots"]):
            bot_games[b] += 1
            bot_won[b] += 1 if g["winners"] else 0
    return {
        "games": n,
        "cooperative": True,
        "mean_turns": sum(g["turns"] for g in games) / n,
        "mean_rounds": sum(g.get("rounds", 0) for g in games) / n,
        "mean_decisions": sum(g["decisions"] for g in games) / n,
        "won_together": won,
        "win_rate": won / n,
        "mean_shared_score": sum(shared) / n,
        "max_shared_score": max(shared),
        "win_rate_by_bot": {b: bot_won[b] / bot_games[b] for b in sorted(bot_games)},
        "end_triggers": dict(Counter(g["end_trigger"] or "(none)" for g in games).most_common()),
        "seat_orders": dict(sorted(Counter(",".join(g["bots"]) for g in games).items())),
        "rotated": any(g.get("rotate_seats") for g in games),
        "score_parts": {name: {"mean": sum(p) / len(p)} for name, p in parts.items()},
        "seconds": seconds,
        "games_per_second": n / seconds if seconds > 0 else None,
    }


def _coop_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    n = data["games"]
    rows = [
        ("games", str(n)),
        ("co-operative", "the players win or lose together and share one score"),
        ("mean turns", f"{data['mean_turns']:.1f}"),
        (f"mean {data.get('rotation_word', 'round')}s", f"{data['mean_rounds']:.1f}"),
        ("mean decisions", f"{data['mean_decisions']:.1f}"),
        ("won together", f"{data['won_together']} ({100 * data['win_rate']:.1f}%)"),
        ("mean shared score", f"{data['mean_shared_score']:.2f}"),
        ("max shared score", str(data["max_shared_score"])),
    ]
    if len(data["win_rate_by_bot"]) > 1:
        for bot, rate in data["win_rate_by_bot"].items():
            rows.append((f"won together with {bot}", f"{100 * rate:.1f}%"))
    for name, count in data["end_triggers"].items():
        rows.append((f"ended by: {name}", f"{count} ({100 * count / n:.1f}%)"))
    for name, part in data["score_parts"].items():
        rows.append((f"score from {name}", f"{part['mean']:.2f} (shared)"))
    if data["games_per_second"]:
        rows.append(("games per second", f"{data['games_per_second']:.1f}"))
    return rows


def summary_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    """`summary` data as (what, value) rows for the terminal."""
    rows: list[tuple[str, str]] = []
    n = data["games"]
    if n == 0:
        rows.append(("games", "0"))
        return rows
    if data.get("cooperative"):
        return _coop_rows(data)
    rows.append(("games", str(n)))
    rows.append(("mean turns", f"{data['mean_turns']:.1f}"))
    rows.append((f"mean {data.get('rotation_word', 'round')}s", f"{data['mean_rounds']:.1f}"))
    rows.append(("mean decisions", f"{data['mean_decisions']:.1f}"))
    rows.append(("mean score", f"{data['mean_score']:.2f}"))
    rows.append(("mean winning score", f"{data['mean_winning_score']:.2f}"))
    rows.append(("max score", str(data["max_score"])))
    rows.append(("shared wins", str(data["shared_wins"])))
    orders = data["seat_orders"]
    if data["rotated"]:
        counts = set(orders.values())
        each = f"{counts.pop()} games each" if len(counts) == 1 else "unequal: " + ", ".join(map(str, orders.values()))
        rows.append(("seats rotated", f"{len(orders)} seat orders, {each}"))
    elif len(orders) == 1 and len(set(next(iter(orders)).split(","))) > 1:
        rows.append(("seats fixed", "each bot always in the same seat: seat and bot are confounded"))
    for seat, share in enumerate(data["win_share_by_seat"]):
        rows.append((f"win share seat {seat + 1}", f"{100 * share:.1f}%"))
    if len(data["win_rate_by_bot"]) > 1:
        for bot, rate in data["win_rate_by_bot"].items():
            rows.append((f"win rate of {bot} seats", f"{100 * rate:.1f}%"))
    for name, count in data["end_triggers"].items():
        rows.append((f"ended by: {name}", f"{count} ({100 * count / n:.1f}%)"))
    for name, part in data["score_parts"].items():
        share = "" if part["share"] is None else f" ({100 * part['share']:.1f}%)"
        rows.append((f"score from {name}", f"{part['mean']:.2f} per player{share}"))
    if data["games_per_second"]:
        rows.append(("games per second", f"{data['games_per_second']:.1f}"))
    return rows


# ---- the whole run ----------------------------------------------------------------
def progress_bar(enabled: bool, label: str = "simulating") -> Any:
    """A rich progress bar on stderr: games done, games/s, time left."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )


def simulate(
    batch: Batch,
    seeds: list[int],
    processes: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: bool = True,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[list[dict[str, Any]], float]:
    """Play the seeds; every record (games and failures) goes to `on_result` as it finishes."""
    start = time.perf_counter()
    records = []
    source = run_dask(batch, seeds, scheduler, processes) if backend == "dask" else run_local(batch, seeds, processes)
    with progress_bar(progress) as bar:
        task = bar.add_task("games", total=len(seeds), rate="-")
        for r in source:
            records.append(r)
            if on_result is not None:
                on_result(r)
            elapsed = time.perf_counter() - start
            bar.update(task, advance=1, rate=f"{len(records) / elapsed:.1f}" if elapsed > 0 else "-")
    records.sort(key=lambda r: r["seed"])
    return records, time.perf_counter() - start


# ---- the command ------------------------------------------------------------------
def add_arguments(p: Any) -> None:
    """The `rules-dsl simulate` options (an argparse parser)."""
    from rules_dsl import terminal
    from rules_dsl.bots import BOT_NAMES
    from rules_dsl.cli import PACK_COMPLETE, PACK_HELP

    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE
    p.add_argument("--players", type=terminal.whole_number(1), default=2, help="players per game (default: 2)")
    p.add_argument("--games", type=terminal.whole_number(1), default=100, help="number of games (default: 100)")
    p.add_argument(
        "--seed",
        type=terminal.whole_number(None),
        default=1,
        help="seed of the first game; game i uses seed+i (default: 1)",
    )
    p.add_argument(
        "--variant", action="append", metavar="NAME", help="a pack variant; repeat for several (default: the pack's)"
    )
    p.add_argument(
        "--scenario",
        action="append",
        metavar="NAME",
        help="a scenario card of the pack, by name (the choice scenario=NAME); repeat for several",
    )
    p.add_argument(
        "--bots",
        default="random",
        metavar="BOT,...",
        help=f"one bot per seat, or one for all: {', '.join(BOT_NAMES)}, each with options as "
        "NAME:key=value,... (ismcts:budget=200,opponents=12; docs/balance.md#bots), or your agent "
        "MODULE:CALLABLE (docs/ai.md) (default: random)",
    )
    p.add_argument(
        "--budget",
        default="200",
        help="ismcts thinking per decision, unless a bot's spec gives budget=: iterations (200, reproducible) "
        "or seconds (0.5s) (default: 200)",
    )
    p.add_argument(
        "--processes",
        type=terminal.whole_number(1, terminal.MAX_PROCESSES),
        default=1,
        help="worker processes (default: 1); results do not depend on it",
    )
    p.add_argument(
        "--backend",
        choices=("local", "dask"),
        default="local",
        help="local: a process pool (default); dask: a dask cluster (pip install 'rules-dsl[cluster]')",
    )
    p.add_argument(
        "--scheduler", metavar="ADDRESS", help="with --backend dask: the scheduler (default: start a local cluster)"
    )
    p.add_argument(
        "--rotate-seats",
        action="store_true",
        help="seat the line-up in every distinct seat order equally often (--games a multiple of their number)",
    )
    p.add_argument("--out", metavar="FILE", help="write one game per line (JSON) as games finish")
    p.add_argument(
        "--trajectories",
        metavar="DIR",
        help="also write every decision (observation, legal actions, action, reward) as one NPZ per game "
        "(docs/ai.md; needs numpy)",
    )
    p.add_argument("--resume", action="store_true", help="with --out: play only the games missing from FILE")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def check_rotation(batch: Batch, games: int) -> None:
    """With rotated seats, a number of games that gives every seat order the same share."""
    k = len(batch.seat_orders())
    if games % k:
        from rules_dsl.terminal import UsageError

        fewer = games - games % k
        raise UsageError(
            f"--rotate-seats: {games} games cannot seat the line-up {','.join(batch.bots)} in each of its {k} "
            f"seat orders equally often: give --games {fewer + k}" + (f" or {fewer}" if fewer else "")
        )


def command(args: Any) -> int:
    """`rules-dsl simulate`: check every option, play, write, summarize."""
    import json

    from rules_dsl import terminal
    from rules_dsl.bots import parse_bots, parse_budget, searches
    from rules_dsl.engine import pack_paths

    if args.games > 10_000_000:  # the least (1) is checked by argparse
        raise RulesError(f"--games {args.games}: give 1 to 10000000 games")
    if args.resume and not args.out:
        raise RulesError("--resume needs --out FILE (the results to continue)")
    if args.scheduler and args.backend != "dask":
        raise RulesError("--scheduler is for --backend dask")
    if args.out:
        files.output_file(args.out, "the results")  # before any game is played
    paths = pack_paths(args.pack)
    engine = Engine.load(paths)  # pack problems before any worker starts
    rules = engine.rules
    terminal.check_players(rules.name, rules.min_players, rules.max_players, args.players)
    bots = parse_bots(args.bots, args.players)  # every bot's options checked (bots/spec.py)
    if any(searches(b) for b in bots):
        parse_budget(args.budget)
    picked = terminal.with_scenarios(rules, args.scenario, args.variant)
    variants = None if picked is None else tuple(picked)
    batch = Batch(tuple(paths), args.pack, args.players, variants, tuple(bots), args.budget, args.rotate_seats)
    if args.trajectories:
        chosen_variants = list(rules.default_variants if variants is None else variants)
        trajectories.start(args.trajectories, rules, args.players, chosen_variants, args.pack)
        batch = attrs.evolve(batch, trajectories=str(Path(args.trajectories).resolve()))
    check_rotation(batch, args.games)
    # a bad variant or a pack without an evaluation for greedy/ismcts: a clear error now
    engine.new_game(args.players, args.seed, None if variants is None else list(variants))
    for name in set(bots):
        make_bot(name, engine, 0, args.budget)

    seeds = list(range(args.seed, args.seed + args.games))
    writer = None
    if args.out:
        out = Path(args.out)
        kept: list[dict[str, Any]] = []
        if args.resume:
            kept, skipped = resume_from(out, batch)
            for line, why in skipped:
                terminal.echo(f"{out}:{line}: skipped: {why}", stderr=True)
            have = {r["seed"] for r in kept}
            kept = [r for r in kept if r["seed"] in set(seeds)] + [r for r in kept if r["seed"] not in set(seeds)]
            seeds = [s for s in seeds if s not in have]
            terminal.echo(f"resuming {out}: {len(have)} games there, {len(seeds)} to play", stderr=True)
        try:
            writer = Writer(out, kept)
        except OSError as exc:
            raise RulesError(f"cannot write {out}: {exc.strerror or exc}") from None

    failures: list[dict[str, Any]] = []

    def on_result(record: dict[str, Any]) -> None:
        if "error" in record:
            failures.append(record)
        elif writer is not None:
            writer.add(record)

    try:
        try:
            records, seconds = simulate(
                batch, seeds, args.processes, args.backend, args.scheduler, not args.quiet and not args.json, on_result
            )
        finally:
            if writer is not None:
                writer.close()
    except OSError as exc:  # a full disk (/dev/full is refused above), a folder made read-only meanwhile
        raise RulesError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    games = [r for r in records if "error" not in r]
    if writer is not None:
        games = [r for r in writer.records if r["seed"] in range(args.seed, args.seed + args.games)]
    folder = Path(args.out).parent if args.out else Path(".")
    for record in failures:
        try:
            path = write_replay(engine, batch, record, folder)
        except OSError as exc:
            raise RulesError(f"cannot write the replay of game seed {record['seed']}: {exc.strerror or exc}") from None
        terminal.echo(
            f"game seed {record['seed']} failed after {len(record['log'])} decisions: {record['error']}\n"
            f"  replay it: rules-dsl scenario {path}",
            stderr=True,
        )
    for record in games:
        if "forfeit" in record:
            terminal.echo(f"game seed {record['seed']}: {record['forfeit']['reason']}", stderr=True)
    data = summary(games, seconds)
    data["failed_games"] = [r["seed"] for r in failures]
    data["forfeited_games"] = [r["seed"] for r in games if "forfeit" in r]
    if rules.rotation_word != "round":  # the pack's word for one turn of every seat
        data["rotation_word"] = rules.rotation_word
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        chosen = rules.default_variants if variants is None else variants
        title = (
            f"{rules.name}: {len(games)} games, {args.players} players, bots {','.join(bots)}"
            f"{' (seats rotated)' if args.rotate_seats else ''}, "
            f"seeds {args.seed}..{args.seed + args.games - 1}, variants: {', '.join(chosen) or 'none'}"
        )
        terminal.say(title, "bold")
        terminal.say("-" * len(title))
        terminal.table(("", ""), summary_rows(data), ("bold", ""), show_header=False)
    return 1 if failures else 0
