"""`rules-dsl check PACK...`: the command line around the runner, with a progress bar and summary."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from rules_dsl.checking.runner import CheckOptions, Failure, Outcome, run_check
from rules_dsl.checking.scenario_file import write_scenario
from rules_dsl.engine import Engine, builtin_packs, pack_paths
from rules_dsl.files import check_output_dir
from rules_dsl.terminal import MAX_PROCESSES, check_players, echo, table, whole_number
from rules_dsl.terminal import console as terminal_console
from rules_dsl.testing.games import DRAWN, MAX_DECISIONS

DESCRIPTION = """\
Play random legal games of each PACK through hypothesis and check, at every position, the
engine's invariants (every card in one place, no negative counter, a decision always has
an option, no step limit, the game ends, replay and JSON round trips are identical,
observations hide what they must) and the pack's own `invariants:`. A failing game is
shrunk to a minimal decision log, printed, and written as a scenario file that fails
until the problem is fixed (run it with `rules-dsl scenario FILE`)."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="property-check packs with random legal games; shrink and save any failure as a scenario",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("packs", nargs="+", metavar="PACK", help="a built-in pack id or pack folders separated by commas")
    p.add_argument(
        "--players",
        type=whole_number(1),
        action="extend",
        nargs="+",
        metavar="N",
        help="player counts, e.g. --players 2 3 (default: every count the pack allows)",
    )
    p.add_argument("--variant", action="append", metavar="NAME", help="a variant for every game; repeat for several")
    p.add_argument("--variant-mixes", action="store_true", help="also play games with any mix of the pack's variants")
    p.add_argument("--games", type=whole_number(1), default=100, metavar="N", help="games per pack (default: 100)")
    p.add_argument(
        "--seed",
        type=whole_number(None),
        default=1,
        metavar="S",
        help="hypothesis seed: the same seed checks the same games",
    )
    p.add_argument(
        "--processes", type=whole_number(1, MAX_PROCESSES), default=1, metavar="N", help="worker processes (default: 1)"
    )
    p.add_argument(
        "--max-decisions",
        type=whole_number(1),
        metavar="N",
        default=MAX_DECISIONS,
        help=f"a game not over after this many decisions does not end (default: {MAX_DECISIONS})",
    )
    p.add_argument(
        "--drawn",
        type=whole_number(0),
        metavar="N",
        default=DRAWN,
        help=f"decisions hypothesis picks in each game before a seeded random player goes on (default: {DRAWN})",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        default="check-failures",
        help="folder for the scenario files of failures (default: check-failures)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_output_dir(args.out, "the failures' scenarios")  # before any game is played
    console = terminal_console(stderr=True)
    builtin = set(builtin_packs())
    rows: list[tuple[str, Outcome, int]] = []
    status = 0
    for pack in args.packs:
        paths = pack_paths(pack)
        engine = Engine.load(paths)
        outcome = _check_pack(engine, pack, paths, _options(engine, args), args, console)
        rows.append((pack, outcome, len(engine.rules.invariants)))
        if outcome.failure is not None:
            status = 1
            name = _checked_name(pack, builtin)
            target = Path(args.out) / f"{_slug(name)}-{_slug(outcome.failure.invariant)[:40].strip('-')}.yaml"
            written = write_scenario(outcome.failure, pack, paths, builtin, target)
            echo(render_failure(pack, outcome.failure, written))
    summary(rows)
    return status


def _check_pack(
    engine: Engine, pack: str, paths: list[str], opts: CheckOptions, args: argparse.Namespace, console: Console
) -> Outcome:
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=args.quiet,
    ) as bar:
        task = bar.add_task(f"checking {pack}", total=opts.games)
        shrinks = 0

        def progress(kind: str) -> None:
            nonlocal shrinks
            if kind == "game":
                bar.advance(task)
            else:
                shrinks += 1
                bar.update(task, description=f"checking {pack}: shrinking a failure ({shrinks} runs)")

        return run_check(engine, paths, opts, args.processes, progress)


def _options(engine: Engine, args: argparse.Namespace) -> CheckOptions:
    rules = engine.rules
    players = tuple(args.players or ())
    for n in players:
        check_players(rules.name, rules.min_players, rules.max_players, n)
    variants: tuple[str, ...] | None = None
    if args.variant:
        variants = tuple(args.variant)
        engine.new_game(players[0] if players else rules.min_players, 1, list(variants))  # unknown: clear error
    return CheckOptions(
        players=players,
        variants=(variants,),
        variant_mixes=args.variant_mixes,
        games=args.games,
        seed=args.seed,
        max_decisions=args.max_decisions,
        drawn=args.drawn,
    )


def _checked_name(pack: str, builtin: set[str]) -> str:
    """The name of what was checked, for the failure's file: the pack as given (its folder's
    name), never a pack it requires (those come after it in the folders to load)."""
    if pack in builtin:
        return pack
    return "-".join(Path(item.strip()).name or item.strip() for item in pack.split(",") if item.strip())


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "pack"


def render_failure(pack: str, failure: Failure, scenario: Path) -> str:
    spec = failure.spec
    what = "an invariant of the pack cannot be worked out" if failure.of_invariant else "an invariant is broken"
    lines = [
        f"FAIL {pack}: {what}",
        f"  invariant: {failure.invariant}",
        f"  problem:   {failure.detail}",
        f"  where:     {failure.where}",
        f"  game:      {spec.players} players, seed {spec.seed}, variants: "
        + ("the pack's defaults" if spec.variants is None else ", ".join(spec.variants) or "none"),
        f"  shrunk decision log ({len(failure.log)} decision{'s' * (len(failure.log) != 1)}):",
    ]
    if failure.applied < len(failure.log):
        lines.append("    (the last one fails when applied)")
    width = len(str(len(failure.log)))
    lines += [f"    {str(i + 1).rjust(width)}. {option}" for i, option in enumerate(failure.log)]
    lines.append(f"  scenario:  {scenario}  (rules-dsl scenario {scenario})")
    return "\n".join(lines)


def summary(rows: list[tuple[str, Outcome, int]]) -> None:
    headers = ("pack", "result", "games", "decisions", "checks", "invariants", "shrinking runs", "time")
    lines = []
    for pack, outcome, declared in rows:
        st = outcome.stats
        result = "ok" if outcome.failure is None else ("INVARIANT PROBLEM" if outcome.failure.of_invariant else "FAIL")
        lines.append(
            (
                pack,
                result,
                st.games,
                f"{st.decisions:,}",
                f"{st.checks:,}",
                declared,
                st.shrink_runs,
                f"{st.seconds:.1f}s",
            )
        )
    table(headers, lines)
