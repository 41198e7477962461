"""The rules-dsl command line: simulate, league, report, cards, validate, scenario, playthrough, play, golden, packs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs
import shtab

from rules_dsl import terminal
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import PackError, RulesError

PACK_HELP = "installed pack ids (`rules-dsl packs`) or pack folders, separated by commas (default: base)"
# shell completion of --pack: installed pack ids and folders in bash, folders elsewhere
PACK_COMPLETE = {"bash": "_rules_dsl_packs", "zsh": "_files -/", "tcsh": "d"}
COMPLETION_PREAMBLE = {
    "bash": "_rules_dsl_packs() {\n"
    '  compgen -W "$(rules-dsl packs --ids 2>/dev/null)" -- "$1"\n'
    '  compgen -d -- "$1"\n'
    "}\n"
}


def _engine(pack: str) -> Engine:
    return Engine.load(pack_paths(pack))


def cmd_simulate(args: argparse.Namespace) -> int:
    from rules_dsl.simulate import command

    return command(args)


def cmd_report(args: argparse.Namespace) -> int:
    from rules_dsl.report import command

    return command(args)


def cmd_cards(args: argparse.Namespace) -> int:
    from rules_dsl.card_view import show_cards

    rules = _engine(args.pack).rules
    if args.players is not None:
        terminal.check_players(rules.name, rules.min_players, rules.max_players, args.players)
    return show_cards(rules, args.card, args.players, args.variant, args.json)


def cmd_packs(args: argparse.Namespace) -> int:
    from rules_dsl.packs.installed import installed_packs

    packs = list(installed_packs().values())
    if args.ids:
        sys.stdout.write("".join(f"{p.id}\n" for p in packs if not p.problem))
    elif args.json:
        terminal.print_json([attrs.asdict(p) for p in packs])
    else:
        rows = [
            (
                p.id,
                p.version,
                ", ".join(p.requires) or "-",
                terminal.player_range(*p.players) if p.players else "-",
                p.engine or "any",
                p.distribution,
                p.problem or p.folder,
            )
            for p in packs
        ]
        headers = ("id", "version", "requires", "players", "engine", "installed by", "folder")
        terminal.table(headers, rows, styles=("bold cyan",))
    return 1 if any(p.problem for p in packs) else 0


def cmd_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(shtab.complete(build_parser(), args.shell, preamble=COMPLETION_PREAMBLE.get(args.shell, "")))
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from rules_dsl.compiler import compile_packs
    from rules_dsl.packs.installed import resolve
    from rules_dsl.packs.loader import find_pack_folders

    paths = resolve(args.paths)
    folders = [str(p) for p in find_pack_folders(paths)]
    try:
        rules = compile_packs(paths)
    except PackError as exc:
        if args.json:
            terminal.print_json({"ok": False, "folders": folders, "problems": [attrs.asdict(p) for p in exc.problems]})
        else:
            print(exc.render(), file=sys.stderr)
        return 1
    if args.json:
        terminal.print_json(
            {
                "ok": True,
                "folders": folders,
                "packs": list(rules.packs),
                "cards": len(rules.cards),
                "effects": len(rules.effects),
                "overrides": list(rules.overrides),
                "additions": list(rules.additions),
                "problems": [],
            }
        )
        return 0
    for line in rules.overrides:
        terminal.say(f"overridden: {line}", style="yellow")
    if args.explain:
        for line in rules.additions:
            print(line)
    terminal.say(
        f"ok: {', '.join(folders)}: {len(rules.cards)} cards, {len(rules.effects)} effects, "
        f"packs {', '.join(rules.packs)}",
        style="green",
    )
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from rules_dsl.packs.shape import write_schemas

    try:
        written = write_schemas(args.out)
    except OSError as exc:
        raise RulesError(f"cannot write the schemas to {args.out}: {exc.strerror}") from exc
    for path in written:
        print(f"wrote {path}")
    return 0


def cmd_scenario(args: argparse.Namespace) -> int:
    from rules_dsl.scenario import run_scenario_file

    reports = [run_scenario_file(path) for path in args.files]
    failed = sum(0 if report.ok else 1 for report in reports)
    if args.json:
        terminal.print_json(
            {
                "passed": len(reports) - failed,
                "failed": failed,
                "scenarios": [
                    {"path": r.path, "name": r.name, "ok": r.ok, "checks": [attrs.asdict(c) for c in r.checks]}
                    for r in reports
                ],
            }
        )
        return 0 if failed == 0 else 1
    for report in reports:
        for i, line in enumerate(report.render(verbose=args.verbose).splitlines()):
            ok = report.ok if i == 0 else not line.startswith("  FAIL")
            terminal.say(line, style="" if ok and i else "green" if ok else "red")
    terminal.say(f"{len(reports) - failed} passed, {failed} failed", style="bold red" if failed else "bold green")
    return 0 if failed == 0 else 1


def _variants(engine: Engine, args: argparse.Namespace) -> list[str] | None:
    """`--variant` and `--scenario` (the choice scenario=NAME, rules_dsl/chosen.py)."""
    return terminal.with_scenarios(engine.rules, args.scenario, args.variant)


def cmd_playthrough(args: argparse.Namespace) -> int:
    from rules_dsl.trace import random_chooser, transcript

    engine = _engine(args.pack)
    terminal.check_players(engine.rules.name, engine.rules.min_players, engine.rules.max_players, args.players)
    variants = _variants(engine, args)
    text = transcript(engine, args.players, args.seed, variants, random_chooser(args.seed), "random playthrough")
    sys.stdout.write(text)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from rules_dsl.play import play

    engine = _engine(args.pack)
    terminal.check_players(engine.rules.name, engine.rules.min_players, engine.rules.max_players, args.players)
    terminal.check_seats(args.human or [1], args.players)
    variants = _variants(engine, args)
    humans = {h - 1 for h in (args.human or [1])}
    play(engine, args.players, args.seed, variants, humans)
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    from rules_dsl.golden import check_golden, golden_games, write_golden

    folder = Path(args.dir)
    if args.check:
        problems = check_golden(folder)
        for p in problems:
            terminal.say(p, style="red")
        summary = f"{len(golden_games(folder)) - len(problems)} passed, {len(problems)} failed"
        terminal.say(summary, style="bold red" if problems else "bold green")
        return 1 if problems else 0
    for path in write_golden(folder):
        print(f"wrote {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-dsl",
        description=(
            "Play card games whose rules live in data: simulate bot games, "
            "inspect and validate card packs, run scenarios."
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    from rules_dsl import simulate

    p = sub.add_parser("simulate", help="play a batch of bot games, write results, print a summary")
    simulate.add_arguments(p)
    p.set_defaults(func=cmd_simulate)

    from rules_dsl.league import add_parser as add_league_parser

    add_league_parser(sub)

    p = sub.add_parser("report", help="a balance report (PNG plots and one HTML page) from simulate --out results")
    p.add_argument("results", nargs="+", help="results files (JSON lines) written by simulate --out")
    p.add_argument("--out", default="report", metavar="DIR", help="where to write index.html and the plots")
    p.add_argument(
        "--label",
        action="append",
        metavar="NAME",
        help="name each results file, in order (one --label per file): compare the runs side by side "
        "instead of pooling them",
    )
    p.add_argument(
        "--min-sample",
        type=terminal.whole_number(1),
        default=20,
        metavar="N",
        help="grey a card's pick-rate row with fewer than N decisions or players on a side (default: 20)",
    )
    p.add_argument("--json", action="store_true", help="also print the report's figures as JSON")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser(
        "cards",
        help="list a pack's cards, or show cards' facts, source and canonical text and compiled effects",
    )
    p.add_argument("card", nargs="*", help="card ids to show (default: list all)")
    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE  # type: ignore[attr-defined]
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.add_argument(
        "--players", type=terminal.whole_number(1), help="work the facts out for this many players (default: 2)"
    )
    p.add_argument(
        "--variant", action="append", metavar="NAME", help="a pack variant; repeat for several (default: the pack's)"
    )
    p.set_defaults(func=cmd_cards)

    p = sub.add_parser("validate", help="check packs, by installed id or folder, and report every problem")
    p.add_argument(
        "paths", nargs="+", help="installed pack ids or pack folders (or folders holding pack folders)"
    ).complete = shtab.DIRECTORY  # type: ignore[attr-defined]
    p.add_argument("--explain", action="store_true", help="also list what each pack adds to the packs it requires")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("schema", help="write JSON Schemas of pack files, for YAML editors")
    p.add_argument("--out", default=".", help="the folder to write them to (default: the current folder)")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("scenario", help="run scenario files and report each expectation")
    p.add_argument("files", nargs="+", help="scenario YAML files").complete = shtab.FILE  # type: ignore[attr-defined]
    p.add_argument("-v", "--verbose", action="store_true", help="show passing expectations too")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("playthrough", help="print a readable transcript of one random-bot game")
    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE  # type: ignore[attr-defined]
    p.add_argument("--players", type=terminal.whole_number(1), default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", action="append", metavar="NAME")
    p.add_argument(
        "--scenario", action="append", metavar="NAME", help="a scenario card, by name (the choice scenario=NAME)"
    )
    p.set_defaults(func=cmd_playthrough)

    p = sub.add_parser("play", help="play a game at the terminal against random bots")
    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE  # type: ignore[attr-defined]
    p.add_argument("--players", type=terminal.whole_number(1), default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", action="append", metavar="NAME")
    p.add_argument(
        "--scenario", action="append", metavar="NAME", help="a scenario card, by name (the choice scenario=NAME)"
    )
    p.add_argument(
        "--human",
        type=terminal.whole_number(1),
        action="append",
        metavar="SEAT",
        help="a seat you play (default: 1); repeat for hot seat",
    )
    p.set_defaults(func=cmd_play)

    from rules_dsl.checking.command import add_parser as add_check_parser

    add_check_parser(sub)

    p = sub.add_parser("golden", help="regenerate (or --check) the golden playthroughs")
    p.add_argument("--dir", default="tests/golden", help="where the transcripts live (default: tests/golden)")
    p.add_argument("--check", action="store_true", help="compare instead of writing")
    p.set_defaults(func=cmd_golden)

    p = sub.add_parser("packs", help="list every installed pack: id, version, requirements, where it came from")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.add_argument("--ids", action="store_true", help="print only the ids of the usable packs, one a line")
    p.set_defaults(func=cmd_packs)

    p = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description="Print a completion script; enable it with e.g. "
        "`rules-dsl completion bash > ~/.local/share/bash-completion/completions/rules-dsl` "
        'or `eval "$(rules-dsl completion bash)"` in ~/.bashrc.',
    )
    p.add_argument("shell", choices=shtab.SUPPORTED_SHELLS, help="the shell")
    p.set_defaults(func=cmd_completion)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except PackError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except terminal.UsageError as exc:
        terminal.say(f"{parser.prog}: error: {exc}", style="red", stderr=True)
        return 2
    except RulesError as exc:
        terminal.say(f"error: {exc}", style="red", stderr=True)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
