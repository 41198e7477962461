"""`rules-dsl tune PACK`: learn the weights of a pack's evaluation features from games.

The games are self-play of the greedy bot with exploration: each decision is the greedy
bot's (judging by the weights so far) or, with probability `explore`, a random legal
option, so that every feature varies (self-play that never takes some kind of option
could never learn what it is worth). Every `stride` decisions, each seat's features are noted as their
difference from the other seats' mean; when the game ends, each row is labelled with
whether that seat won. A logistic regression (statsmodels, with a small ridge penalty on
standardized features) of winning on those differences gives one weight per feature: a
position is worth the weighted sum, in log-odds of winning. `rounds` repeat this, each
round's games played with the weights the previous round learned.

The weights are written as the `weights:` part of a pack file (the one the pack reads its
weights from, or --out), keeping the rest of the file as it was.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from rules_dsl import files
from rules_dsl.bots.base import Turn
from rules_dsl.bots.evaluate import feature_values
from rules_dsl.bots.greedy import GreedyBot
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError
from rules_dsl.rules import Rules

MISSING = "rules-dsl tune needs the optional extra 'tune': pip install 'rules-dsl[tune]'"
MAX_GAMES = 100_000
RIDGE = 0.001  # the penalty on standardized weights
RARE = 0.01  # a feature whose seats differ in fewer rows than this share (or 20) keeps weight 0


@attrs.frozen
class Fit:
    """What a tuning run learned."""

    names: tuple[str, ...]
    weights: tuple[float, ...]
    spread: tuple[float, ...]  # each feature difference's standard deviation in the rows
    support: tuple[int, ...]  # rows where the seats' values of the feature differ
    rows: int
    games: int
    accuracy: float  # rows where the seat with the highest value is a winner, per position
    late_accuracy: float  # the same over the last quarter of each game's positions
    seconds: float


def no_features_error(rules: Rules, folder: str) -> RulesError:
    """A pack without features: where to add them."""
    manifest = Path(folder) / "pack.yaml"
    line, col = 1, 1
    try:
        for i, text in enumerate(files.read_text(manifest, 1_000_000, "the manifest").split("\n"), 1):
            if text.startswith("files:"):
                line, col = i, 1
                break
    except (RulesError, OSError):
        pass
    return RulesError(
        f"{manifest}:{line}:{col}: {rules.name} declares no evaluation features, so there is nothing to tune: "
        "add a file with a features: part (named expressions for 'you', e.g. 'cards: the number of "
        "cards in your hand') to the pack's files:, then run tune again "
        "(docs/modding.md#evaluation-and-statistics)"
    )


def play_rows(
    engine: Engine,
    players: int,
    seed: int,
    weights: Sequence[float],
    explore: float,
    stride: int,
    variants: list[str] | None = None,
    plans: float = 0.0,
) -> tuple[list[list[float]], list[int], list[bool]]:
    """One exploring self-play game: the feature-difference rows, their labels (1: that seat
    won) and whether each row is from the game's last quarter.

    A seat explores by a plan with probability `plans` (drawn per seat and game): its
    exploring decisions, instead of a uniformly random option, take the option it ranks
    highest in a random order of option ids fixed for the game (`plan_rank`), so that it
    follows one course (the same option, the same kind of card taken) again and again,
    far enough for what that course leads to to show in the features and the result."""
    rules = engine.rules
    rng = random.Random(seed * 7919 + 17)
    planners = [rng.random() < plans for _ in range(players)] if plans > 0 else [False] * players
    bots = [GreedyBot(engine, seed * 1009 + seat, weights=weights) for seat in range(players)]
    values = feature_values(rules)
    st = engine.new_game(players, seed, variants)
    noted: list[list[list[int]]] = []
    n = 0
    while st.pending is not None:
        if n % stride == 0:
            noted.append(values(st))
        d = st.pending
        if len(d.options) == 1:
            option = d.options[0]
        elif rng.random() < explore:
            if planners[d.player]:
                option = max(d.options, key=lambda o: plan_rank(seed, d.player, o))
            else:
                option = d.options[rng.randrange(len(d.options))]
        else:
            option = bots[d.player].choose(Turn(engine, st))
        engine.apply_fast(st, option)
        n += 1
    noted.append(values(st))
    rows: list[list[float]] = []
    labels: list[int] = []
    late: list[bool] = []
    winners = set(st.winners)
    cut = len(noted) * 3 // 4
    for k, seats in enumerate(noted):
        for p in range(players):
            others = [seats[q] for q in range(players) if q != p]
            rows.append([seats[p][i] - sum(o[i] for o in others) / len(others) for i in range(len(seats[p]))])
            labels.append(1 if p in winners else 0)
            late.append(k >= cut)
    return rows, labels, late


def plan_rank(seed: int, seat: int, option: str) -> float:
    """A seat's fixed random liking for an option id in one game; copies of a card
    (`id#2`, `id@hand`) and a card's parts (`id:part`) are liked as the card."""
    stem = re.split(r"[#@:]", option, maxsplit=1)[0]
    return random.Random(f"{seed}/{seat}/{stem}").random()


def fit(rows: list[list[float]], labels: list[int], players: int) -> tuple[list[float], list[float], list[int]]:
    """Logistic regression of winning on the feature differences (ridge on standardized
    features; an intercept for more than 2 players, where a seat wins 1 time in P):
    the weights per unit of each feature, each feature's standard deviation and the rows
    where it differs. A feature too rare to learn from (differing in fewer than 1% of the
    rows, or 20) is left out and weighs 0: one lucky game must not set its weight."""
    try:
        import numpy as np
        import statsmodels.api as sm  # type: ignore[import-untyped]
    except ImportError as exc:
        raise RulesError(f"{MISSING} ({exc.name} is missing)") from None
    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=float)
    spread = x.std(axis=0)
    support = (x != 0).sum(axis=0)
    used = [i for i in range(x.shape[1]) if support[i] >= max(20, RARE * len(rows)) and spread[i] > 0]
    weights = [0.0] * x.shape[1]
    if used:
        xs = x[:, used] / spread[used]
        if players > 2:
            xs = np.column_stack([np.ones(len(xs)), xs])
        model = sm.GLM(y, xs, family=sm.families.Binomial())
        params = np.asarray(model.fit_regularized(alpha=RIDGE, L1_wt=0.0).params, dtype=float)
        if players > 2:
            params = params[1:]
        for i, w in zip(used, params / spread[used], strict=True):
            weights[i] = float(w)
    return weights, [float(s) for s in spread], [int(n) for n in support]


def accuracy(rows: list[list[float]], labels: list[int], weights: Sequence[float], players: int) -> float:
    """Over positions (each `players` consecutive rows), how often a seat with the highest
    weighted value is a winner."""
    hits = total = 0
    for i in range(0, len(rows) - players + 1, players):
        vals = [sum(w * v for w, v in zip(weights, rows[i + p], strict=True)) for p in range(players)]
        top = max(range(players), key=lambda p: vals[p])
        if any(labels[i + p] for p in range(players)):
            total += 1
            hits += labels[i + top]
    return hits / total if total else math.nan


def tune(
    engine: Engine,
    players: int,
    games: int,
    seed: int = 1,
    rounds: int = 2,
    explore: float = 0.25,
    stride: int = 8,
    variants: list[str] | None = None,
    on_game: Callable[[], None] | None = None,
    plans: float = 0.0,
) -> Fit:
    """Play `games` exploring self-play games in `rounds` rounds and fit the weights."""
    rules = engine.rules
    names = tuple(f.name for f in rules.features)
    weights: list[float] = list(rules.weights) if rules.weights is not None else [0.0] * len(names)
    start = time.process_time()
    per_round = [games // rounds + (1 if r < games % rounds else 0) for r in range(rounds)]
    rows: list[list[float]] = []
    labels: list[int] = []
    late: list[bool] = []
    spread: list[float] = [0.0] * len(names)
    support: list[int] = [0] * len(names)
    s = seed
    for count in per_round:
        if count == 0:
            continue
        rows, labels, late = [], [], []
        for _ in range(count):
            r, lab, lt = play_rows(engine, players, s, weights, explore, stride, variants, plans)
            rows += r
            labels += lab
            late += lt
            s += 1
            if on_game is not None:
                on_game()
        if not any(labels) or all(labels):
            raise RulesError(f"tune: the {count} games give no winner to learn from; play more games (--games)")
        weights, spread, support = fit(rows, labels, players)
    late_rows = [r for r, keep in zip(rows, late, strict=True) if keep]
    late_labels = [v for v, keep in zip(labels, late, strict=True) if keep]
    return Fit(
        names,
        tuple(round(w, 4) for w in weights),
        tuple(spread),
        tuple(support),
        len(rows),
        games,
        accuracy(rows, labels, weights, players),
        accuracy(late_rows, late_labels, weights, players),
        time.process_time() - start,
    )


# ---- writing the weights --------------------------------------------------------------
_TOP_KEY = re.compile(r"^[A-Za-z0-9_-]+:")


def weights_block(fit: Fit, command: str) -> list[str]:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    lines = [
        f"# Tuned by `{command}` ({stamp}): {fit.games} games, {fit.rows} rows; the seat valued",
        f"# highest is a winner at {fit.accuracy:.0%} of positions "
        f"({fit.late_accuracy:.0%} in each game's last quarter).",
        "weights:",
    ]
    lines += [f"  {name}: {_number(w)}" for name, w in zip(fit.names, fit.weights, strict=True)]
    return lines


def _number(w: float) -> str:
    text = f"{w:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def with_weights(text: str, block: list[str]) -> str:
    """A pack file's text with its `weights:` part (and the comment right above it) replaced
    by block, or block added at the end; every other line kept as it was."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("weights:")), None)
    if at is None:
        while lines and lines[-1] == "":
            lines.pop()
        return "\n".join([*lines, "", *block, ""])
    start = at
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    end = at + 1
    while end < len(lines) and not _TOP_KEY.match(lines[end]) and not lines[end].startswith("#"):
        end += 1
    tail = lines[end:]
    while tail and tail[0] == "":
        tail.pop(0)
    body = lines[:start] + block
    return "\n".join(body + ([""] + tail if tail else [""]))


def top_folder(rules: Rules, paths: Sequence[str]) -> str:
    """The folder of the pack loaded last (the one named, not a pack it requires)."""
    for folder in paths:
        try:
            text = files.read_text(Path(folder) / "pack.yaml", 1_000_000, "the manifest")
        except (RulesError, OSError):
            continue
        found = re.search(r"^id:\s*['\"]?([^'\"\s#]+)", text, re.MULTILINE)
        if found and found.group(1) == rules.packs[-1]:
            return folder
    return paths[0]


def default_out(rules: Rules, folder: str) -> Path:
    """Where the tuned pack reads its weights: its own file with weights:, else its evaluation.yaml."""
    if rules.weights_place:
        file = rules.weights_place.rsplit(":", 2)[0]
        if Path(file).resolve().parent == Path(folder).resolve():
            return Path(file)
    return Path(folder) / "evaluation.yaml"


def write_weights(path: Path, fit: Fit, command: str) -> Path:
    old = ""
    if path.exists():
        old = files.read_text(path, 10_000_000, "the weights file")
    else:
        old = "# Evaluation weights learned by rules-dsl tune (docs/balance.md#tuned-evaluations).\n"
    return files.write_text(path, with_weights(old, weights_block(fit, command)), "the weights")


# ---- the command ------------------------------------------------------------------------
def add_parser(sub: Any) -> None:
    from rules_dsl import terminal
    from rules_dsl.cli import PACK_COMPLETE, PACK_HELP

    p = sub.add_parser(
        "tune",
        help="learn the weights of a pack's evaluation features from self-play games",
        description="Play exploring self-play games of the greedy bot, note every seat's evaluation features "
        "along each game, fit a logistic regression of winning on them (statsmodels) and write the "
        "weights as the weights: part of the pack's evaluation file (or --out).",
    )
    p.add_argument("pack", help=PACK_HELP).complete = PACK_COMPLETE
    p.add_argument("--games", type=terminal.whole_number(1, MAX_GAMES), default=60, help="games (default: 60)")
    p.add_argument("--players", type=terminal.whole_number(1), help="players per game (default: the fewest)")
    p.add_argument("--rounds", type=terminal.whole_number(1, 20), default=2, help="fits, each playing with the "
                   "last one's weights (default: 2)")  # fmt: skip
    p.add_argument("--explore", type=float, default=0.25, help="share of random decisions (default: 0.25)")
    p.add_argument("--plans", type=float, default=0.0, help="share of seats that explore by a plan (a random "
                   "order of option ids fixed for the game: a course followed to its end) (default: 0)")  # fmt: skip
    p.add_argument("--stride", type=terminal.whole_number(1, 1000), default=8,
                   help="decisions between two noted positions (default: 8)")  # fmt: skip
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default: 1)")
    p.add_argument("--variant", action="append", metavar="NAME", help="a pack variant; repeat for several")
    p.add_argument("--out", metavar="FILE", help="the pack file to write the weights: into (default: the "
                   "file the pack reads them from, else evaluation.yaml in its folder)")  # fmt: skip
    p.add_argument("--dry-run", action="store_true", help="print the weights, write nothing")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=command)


def command(args: Any) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from rules_dsl import terminal
    from rules_dsl.engine import pack_paths
    from rules_dsl.terminal import UsageError

    if not 0.0 <= args.explore <= 1.0:
        raise UsageError(f"--explore {args.explore}: give a share from 0 to 1")
    if not 0.0 <= args.plans <= 1.0:
        raise UsageError(f"--plans {args.plans}: give a share from 0 to 1")
    try:
        import statsmodels  # noqa: F401
    except ImportError as exc:
        raise RulesError(f"{MISSING} ({exc.name} is missing)") from None
    paths = pack_paths(args.pack)
    engine = Engine.load(paths)
    rules = engine.rules
    players = args.players or rules.min_players
    terminal.check_players(rules.name, rules.min_players, rules.max_players, players)
    if players < 2:
        raise UsageError("--players 1: tuning compares seats, give 2 or more")
    top = top_folder(rules, paths)
    if not rules.features:
        raise no_features_error(rules, top)
    out = Path(args.out) if args.out else default_out(rules, top)
    if not args.dry_run:
        files.output_file(out, "the weights")
    engine.new_game(players, args.seed, args.variant)  # a bad variant: a clear error before any game
    shown = ["rules-dsl", "tune", args.pack, "--games", str(args.games), "--players", str(players)]
    if args.rounds != 2:
        shown += ["--rounds", str(args.rounds)]
    if args.seed != 1:
        shown += ["--seed", str(args.seed)]
    if args.explore != 0.25:
        shown += ["--explore", f"{args.explore:g}"]
    if args.plans:
        shown += ["--plans", f"{args.plans:g}"]
    for v in args.variant or []:
        shown += ["--variant", v]
    progress = Progress(
        TextColumn("tuning"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeRemainingColumn(),
        console=terminal.console(stderr=True),
        disable=args.quiet,
    )
    with progress:
        task = progress.add_task("tune", total=args.games)
        result = tune(
            engine,
            players,
            args.games,
            args.seed,
            args.rounds,
            args.explore,
            args.stride,
            args.variant,
            on_game=lambda: progress.advance(task),
            plans=args.plans,
        )
    table = Table(title=f"{rules.name}, {players} players: weights learned from {result.games} games")
    table.add_column("feature")
    table.add_column("weight", justify="right")
    table.add_column("spread", justify="right")
    table.add_column("weight x spread", justify="right")
    table.add_column("rows differing", justify="right")
    rare = max(20, RARE * result.rows)
    for name, w, s, n in zip(result.names, result.weights, result.spread, result.support, strict=True):
        note = f"{n} (too rare: weight 0)" if n < rare else str(n)
        table.add_row(terminal.printable(name), _number(w), f"{s:.2f}", f"{w * s:+.2f}", note)
    terminal.console().print(table)
    terminal.echo(
        f"{result.rows} rows; the seat valued highest is a winner at {result.accuracy:.0%} of positions "
        f"({result.late_accuracy:.0%} in each game's last quarter); {result.seconds:.0f} s of CPU"
    )
    if args.dry_run:
        return 0
    written = write_weights(out, result, " ".join(shown))
    terminal.echo(f"wrote the weights to {terminal.printable(str(written))}")
    if not _listed(Path(top), out):
        terminal.echo(f"note: add {out.name} to files: in {Path(top) / 'pack.yaml'} so that the pack reads it")
    return 0


def _listed(folder: Path, out: Path) -> bool:
    try:
        if out.resolve().parent != folder.resolve():
            return False
        text = files.read_text(folder / "pack.yaml", 1_000_000, "the manifest")
    except (RulesError, OSError):
        return False
    return out.name in text
