"""The rules-dsl command line: simulate, cards, validate, scenario, playthrough, golden."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rules_dsl.engine import Engine, builtin_packs, pack_paths
from rules_dsl.errors import PackError, RulesError

PACK_HELP = f"a built-in pack ({', '.join(builtin_packs())}) or pack folders separated by commas (default: base)"


def _engine(pack: str) -> Engine:
    return Engine.load(pack_paths(pack))


def cmd_simulate(args: argparse.Namespace) -> int:
    from rules_dsl.simulate import command

    return command(args)


def cmd_report(args: argparse.Namespace) -> int:
    from rules_dsl.report import command

    return command(args)


def cmd_cards(args: argparse.Namespace) -> int:
    from rules_dsl.explain import effect_tree

    engine = _engine(args.pack)
    rules = engine.rules
    if not args.card:
        width = max(len(c.id) for c in rules.cards)
        for ct in rules.cards:
            count = ct.count if isinstance(ct.count, int) else f"{ct.count}"
            print(f"{ct.id.ljust(width)}  {ct.kind:<10} x{count:<20} {ct.name}")
        return 0
    status = 0
    for card_id in args.card:
        index = rules.card_index.get(card_id)
        if index is None:
            from rules_dsl.errors import suggest

            hint = suggest(card_id, rules.card_index)
            print(f"no card {card_id!r} in {rules.name}" + (f" ({hint})" if hint else ""), file=sys.stderr)
            status = 1
            continue
        ct = rules.cards[index]
        print(f"{ct.name} ({ct.id}), {ct.kind}, starts in {ct.zone}, copies: {ct.count}")
        if ct.symbols:
            print("  symbols: " + ", ".join(f"{s} x{n}" if n > 1 else s for s, n in ct.symbols.items()))
        if ct.slots:
            print("  slots: " + ", ".join(f"{s} x{n}" if n > 1 else s for s, n in ct.slots.items()))
        props = {
            k: (v if isinstance(v, int | str) else "(an expression)") for k, v in ct.props.items() if v not in (0, "")
        }
        if props:
            print("  " + ", ".join(f"{k}: {v}" for k, v in props.items()))
        if ct.text:
            print(f"  text: {ct.text}")
        for section, eid in ct.sections.items():
            print(f"  compiled {section}:")
            for line in effect_tree(rules.effects[eid], 2):
                print(line)
    return status


def cmd_validate(args: argparse.Namespace) -> int:
    from rules_dsl.compiler import compile_packs
    from rules_dsl.packs.loader import find_pack_folders

    try:
        rules = compile_packs(args.paths)
    except PackError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    folders = ", ".join(str(p) for p in find_pack_folders(args.paths))
    for line in rules.overrides:
        print(f"overridden: {line}")
    if args.explain:
        for line in rules.additions:
            print(line)
    print(f"ok: {folders}: {len(rules.cards)} cards, {len(rules.effects)} effects, packs {', '.join(rules.packs)}")
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

    failed = 0
    total = 0
    for path in args.files:
        report = run_scenario_file(path)
        print(report.render(verbose=args.verbose))
        total += 1
        failed += 0 if report.ok else 1
    print(f"{total - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def cmd_playthrough(args: argparse.Namespace) -> int:
    from rules_dsl.trace import random_chooser, transcript

    engine = _engine(args.pack)
    variants = None if args.variant is None else list(args.variant)
    text = transcript(engine, args.players, args.seed, variants, random_chooser(args.seed), "random playthrough")
    sys.stdout.write(text)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from rules_dsl.play import play

    engine = _engine(args.pack)
    variants = None if args.variant is None else list(args.variant)
    humans = {h - 1 for h in (args.human or [1])}
    play(engine, args.players, args.seed, variants, humans)
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    from rules_dsl.golden import check_golden, golden_games, write_golden

    folder = Path(args.dir)
    if args.check:
        problems = check_golden(folder)
        for p in problems:
            print(p)
        print(f"{len(golden_games(folder)) - len(problems)} passed, {len(problems)} failed")
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

    p = sub.add_parser("report", help="a balance report (PNG plots and one HTML page) from simulate --out results")
    p.add_argument("results", nargs="+", help="results files (JSON lines) written by simulate --out")
    p.add_argument("--out", default="report", metavar="DIR", help="where to write index.html and the plots")
    p.add_argument("--json", action="store_true", help="also print the report's figures as JSON")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("cards", help="list a pack's cards, or show cards' text and compiled effects")
    p.add_argument("card", nargs="*", help="card ids to show (default: list all)")
    p.add_argument("--pack", default="base", help=PACK_HELP)
    p.set_defaults(func=cmd_cards)

    p = sub.add_parser("validate", help="check pack folders and report every problem")
    p.add_argument("paths", nargs="+", help="pack folders (or folders holding pack folders)")
    p.add_argument("--explain", action="store_true", help="also list what each pack adds to the packs it requires")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("schema", help="write JSON Schemas of pack files, for YAML editors")
    p.add_argument("--out", default=".", help="the folder to write them to (default: the current folder)")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("scenario", help="run scenario files and report each expectation")
    p.add_argument("files", nargs="+", help="scenario YAML files")
    p.add_argument("-v", "--verbose", action="store_true", help="show passing expectations too")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("playthrough", help="print a readable transcript of one random-bot game")
    p.add_argument("--pack", default="base", help=PACK_HELP)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", action="append", metavar="NAME")
    p.set_defaults(func=cmd_playthrough)

    p = sub.add_parser("play", help="play a game at the terminal against random bots")
    p.add_argument("--pack", default="base", help=PACK_HELP)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", action="append", metavar="NAME")
    p.add_argument(
        "--human", type=int, action="append", metavar="SEAT", help="a seat you play (default: 1); repeat for hot seat"
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("golden", help="regenerate (or --check) the golden playthroughs")
    p.add_argument("--dir", default="tests/golden", help="where the transcripts live (default: tests/golden)")
    p.add_argument("--check", action="store_true", help="compare instead of writing")
    p.set_defaults(func=cmd_golden)
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
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
