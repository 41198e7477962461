"""Batches of bot games and their summary table."""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator

import attrs

from rules_dsl.bots.random_bot import RandomBot
from rules_dsl.engine import Engine


@attrs.frozen
class GameResult:
    seed: int
    players: int
    turns: int
    rounds: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    end_trigger: str
    decisions: int
    breakdown: tuple[tuple[str, tuple[int, ...]], ...] = ()


def play_game(engine: Engine, players: int, seed: int, variants: list[str] | None = None) -> GameResult:
    st = engine.new_game(players, seed, variants)
    bots = [RandomBot(seed * 1009 + seat) for seat in range(players)]
    decisions = 0
    while st.pending is not None:
        d = st.pending
        engine.apply_fast(st, bots[d.player].choose(d))  # a failed game is dropped: no undo needed
        decisions += 1
    return GameResult(
        seed,
        players,
        st.turn,
        st.round,
        tuple(st.scores),
        tuple(st.winners),
        st.end_trigger,
        decisions,
        tuple((k, tuple(v)) for k, v in st.breakdown.items()),
    )


_worker_engine: Engine | None = None


def _init_worker(paths: list[str]) -> None:
    global _worker_engine
    _worker_engine = Engine.load(paths)


def _play_in_worker(args: tuple[int, int, list[str] | None]) -> GameResult:
    assert _worker_engine is not None
    players, seed, variants = args
    return play_game(_worker_engine, players, seed, variants)


def run_games(
    paths: list[str],
    players: int,
    games: int,
    seed: int,
    variants: list[str] | None,
    processes: int = 1,
) -> Iterator[GameResult]:
    """Games seed, seed+1, ...: the same results whatever the number of processes."""
    jobs = [(players, seed + i, variants) for i in range(games)]
    if processes <= 1:
        engine = Engine.load(paths)
        for p, s, v in jobs:
            yield play_game(engine, p, s, v)
        return
    with multiprocessing.Pool(processes, initializer=_init_worker, initargs=(paths,)) as pool:
        yield from pool.imap(_play_in_worker, jobs, chunksize=max(1, min(50, games // (processes * 8) or 1)))


class Progress:
    """A progress bar on stderr: redrawn in place on a terminal, a line a tenth otherwise."""

    def __init__(self, total: int, label: str, enabled: bool = True) -> None:
        self.total = total
        self.label = label
        self.enabled = enabled and total > 0
        self.tty = sys.stderr.isatty()
        self.start = time.perf_counter()
        self.done = 0
        self._last_tenth = -1

    def step(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        if self.tty:
            if self.done % max(1, self.total // 200) == 0 or self.done == self.total:
                self._draw()
        else:
            tenth = self.done * 10 // self.total
            if tenth != self._last_tenth:
                self._last_tenth = tenth
                self._draw(newline=True)

    def _draw(self, newline: bool = False) -> None:
        frac = self.done / self.total
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        text = f"{self.label} [{bar}] {self.done}/{self.total} {rate:.0f}/s eta {eta:.0f}s"
        sys.stderr.write(text + ("\n" if newline else "\r"))
        if self.done == self.total and not newline:
            sys.stderr.write("\n")
        sys.stderr.flush()


def summarize(results: list[GameResult], title: str, seconds: float) -> str:
    n = len(results)
    if n == 0:
        return "no games played"
    players = results[0].players
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    all_scores = [s for r in results for s in r.scores]
    winning = [max(r.scores) for r in results]
    triggers = Counter(r.end_trigger or "(none)" for r in results)
    rows = [
        ("games", f"{n}"),
        ("mean turns", f"{sum(r.turns for r in results) / n:.1f}"),
        ("mean rounds", f"{sum(r.rounds for r in results) / n:.1f}"),
        ("mean decisions", f"{sum(r.decisions for r in results) / n:.1f}"),
        ("mean score", f"{sum(all_scores) / len(all_scores):.2f}"),
        ("mean winning score", f"{sum(winning) / n:.2f}"),
        ("max score", f"{max(all_scores)}"),
        ("shared wins", f"{sum(1 for r in results if len(r.winners) > 1)}"),
    ]
    for seat in range(players):
        rows.append((f"win share seat {seat + 1}", f"{100 * wins[seat] / n:.1f}%"))
    for name, count in triggers.most_common():
        rows.append((f"ended by: {name}", f"{count} ({100 * count / n:.1f}%)"))
    # the pack's named parts of the score: mean per player, and share of all points
    parts: dict[str, list[int]] = {}
    for r in results:
        for name, part in r.breakdown:
            parts.setdefault(name, []).extend(part)
    total_points = sum(all_scores) or 1
    for name, points in parts.items():
        mean = sum(points) / len(points)
        rows.append((f"score from {name}", f"{mean:.2f} per player ({100 * sum(points) / total_points:.1f}%)"))
    rows.append(("games per second", f"{n / seconds:.1f}" if seconds > 0 else "-"))
    width = max(len(k) for k, _ in rows)
    lines = [title, "-" * len(title)]
    lines += [f"{k.ljust(width)}  {v}" for k, v in rows]
    return "\n".join(lines)


def simulate(
    paths: list[str],
    players: int,
    games: int,
    seed: int,
    variants: list[str] | None,
    processes: int = 1,
    progress: bool = True,
    on_result: Callable[[GameResult], None] | None = None,
) -> tuple[list[GameResult], float]:
    bar = Progress(games, "simulating", progress)
    start = time.perf_counter()
    results = []
    for r in run_games(paths, players, games, seed, variants, processes):
        results.append(r)
        if on_result is not None:
            on_result(r)
        bar.step()
    return results, time.perf_counter() - start
