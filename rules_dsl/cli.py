"""The rules-dsl command line: simulate, league, report, cards, validate, scenario, playthrough, play, golden, packs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs
import shtab

from rules_dsl import results, terminal
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


def cmd_print(args: argparse.Namespace) -> int:
    from rules_dsl.card_sheet import deck, write_deck
    from rules_dsl.card_view import setting

    engine = _engine(args.pack)
    rules = engine.rules
    if args.players is not None:
        terminal.check_players(rules.name, rules.min_players, rules.max_players, args.players)
    only = None
    if args.mod_only:
        from rules_dsl.compiler.build import load_sources
        from rules_dsl.packs.installed import resolve
        from rules_dsl.packs.loader import Problems

        problems = Problems()
        sources = load_sources(resolve(args.pack.split(",")), problems)
        problems.raise_if_any()
        only = {c.id for c in sources[-1].cards}
    # a printed deck holds the copies of the largest game unless told the players
    game = setting(rules, args.players or rules.max_players, args.variant)
    cards = deck(rules, game, only, not args.one_each)
    pages = write_deck(cards, args.out, args.paper, rules.name, args.backs)
    backs = {"duplex": "with backs on alternate pages", "beside": "with backs beside", "none": "without backs"}
    print(
        f"wrote {args.out}: {len(cards)} cards {backs[args.backs]} on {pages} page{'s' if pages != 1 else ''}"
        f" ({args.paper})"
    )
    return 0


def cmd_lsp(args: argparse.Namespace) -> int:
    from rules_dsl.lsp import serve

    return serve()


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
            terminal.echo(exc.render(), stderr=True)
        return 1
    warnings = [w.render() for w in rules.warnings]
    strict = args.strict and bool(warnings)
    if args.json:
        terminal.print_json(
            {
                "ok": not strict,
                "folders": folders,
                "packs": list(rules.packs),
                "cards": len(rules.cards),
                "effects": len(rules.effects),
                "overrides": list(rules.overrides),
                "additions": list(rules.additions),
                "problems": [],
                "warnings": [attrs.asdict(w) for w in rules.warnings],
            }
        )
        return 1 if strict else 0
    for line in warnings:
        terminal.echo(line, stderr=True)
    if strict:
        n = len(warnings)
        print(f"{n} warning{'s' if n != 1 else ''} found (--strict makes them errors)", file=sys.stderr)
        return 1
    for line in rules.overrides:
        terminal.say(f"overridden: {line}", style="yellow")
    if args.explain:
        for line in rules.additions:
            terminal.echo(line)
    counted = f" with {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else ""
    terminal.say(
        f"ok{counted}: {', '.join(folders)}: {len(rules.cards)} cards, {rules.written_effects()} effects, "
        f"packs {', '.join(rules.packs)}",
        style="green",
    )
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from rules_dsl.packs.shape import write_schemas

    schemas = None
    if args.pack:
        from rules_dsl.packs.installed import resolve
        from rules_dsl.packs.pack_schema import pack_file_schema, pack_vocabulary

        ids, voc = pack_vocabulary(resolve([args.pack]))
        schemas = {f"pack-file-{ids[-1]}.schema.json": pack_file_schema(ids, voc)}
    try:
        written = write_schemas(args.out, schemas)
    except OSError as exc:
        raise RulesError(f"cannot write the schemas to {args.out}: {exc.strerror}") from exc
    for path in written:
        terminal.echo(f"wrote {path}")
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
    from rules_dsl.trace import narrated, random_chooser, transcript

    engine = _engine(args.pack)
    terminal.check_players(engine.rules.name, engine.rules.min_players, engine.rules.max_players, args.players)
    variants = _variants(engine, args)
    if args.narrate:
        sys.stdout.write(narrated(engine, args.players, args.seed, variants, random_chooser(args.seed)))
        return 0
    text = transcript(engine, args.players, args.seed, variants, random_chooser(args.seed), "random playthrough", True)
    sys.stdout.write(terminal.printable(text))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from rules_dsl import files, saved
    from rules_dsl.play import play

    engine = _engine(args.pack)
    start = None
    if args.load:
        try:  # read as `rules-dsl load` reads it: a regular file of bounded size
            text = files.read_text(args.load, saved.MAX_FILE_BYTES, "a saved game")
        except files.FileProblem as exc:
            raise RulesError(f"cannot read the saved game {args.load}: {exc.reason}") from None
        notices: list[str] = []
        try:
            start = engine.from_json(text, notices=notices)
        except RulesError as exc:
            raise RulesError(f"{args.load}: {exc}") from None
        for notice in notices:
            terminal.say(f"note: {args.load}: {notice}", stderr=True)
        args.players = start.players
    terminal.check_players(engine.rules.name, engine.rules.min_players, engine.rules.max_players, args.players)
    terminal.check_seats(args.human or [1], args.players)
    variants = _variants(engine, args)
    humans = {h - 1 for h in (args.human or [1])}
    play(engine, args.players, args.seed, variants, humans, start=start)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from rules_dsl.serve import run
    from rules_dsl.serve.table import default_db

    return run(
        args.host,
        args.port,
        Path(args.db) if args.db else default_db(),
        bot_seconds=args.bot_seconds,
        bot_iterations=args.bot_iterations,
        db_wait=args.db_wait,
        access_log=args.access_log,
    )


def cmd_load(args: argparse.Namespace) -> int:
    """`rules-dsl load FILE`: a saved game, checked as every loader checks (rules_dsl/saved.py),
    shown where it stands, or played on with --play."""
    from rules_dsl import saved
    from rules_dsl.play import play, render_observation

    text, packs = saved.read_file(args.file)
    engine = _engine(args.pack or ",".join(packs))
    notices: list[str] = []
    st = engine.from_json(text, replay=not args.no_replay, notices=notices)
    for notice in notices:
        terminal.say(f"note: {args.file}: {notice}", stderr=True)
    if args.play:
        humans = {h - 1 for h in (args.human or [1])}
        terminal.check_seats(args.human or [1], st.players)
        play(engine, st.players, st.seed, list(st.variants), humans, start=st)
        return 0
    d = st.pending
    if args.json:
        terminal.print_json(
            {
                "packs": list(st.packs),
                "players": st.players,
                "seed": st.seed,
                "variants": list(st.variants),
                "decisions": len(st.log),
                "turn": st.turn + 1,
                "round": st.round + 1,
                "phase": st.phase,
                "over": st.over,
                "scores": list(st.scores),
                "winners": [w + 1 for w in st.winners],
                "pending": None
                if d is None
                else {"player": d.player + 1, "prompt": d.prompt, "source": d.source, "options": list(d.options)},
                # every player still deciding (several when they decide at once)
                "waiting": [x.player + 1 for x in engine.decisions(st)],
                "notices": notices,
            }
        )
        return 0
    terminal.say(
        f"{engine.rules.name}: {st.players} players, seed {st.seed}, variants: {', '.join(st.variants) or 'none'}; "
        f"{len(st.log)} decisions made",
        "bold",
    )
    if st.over:
        terminal.say(
            f"game over ({st.end_trigger}): scores "
            + ", ".join(f"player {p + 1} {s}" for p, s in enumerate(st.scores))
            + "; winners "
            + results.winners_text(st.winners, engine.rules.cooperative)
        )
        return 0
    seat = (args.seat - 1) if args.seat else (d.player if d is not None else st.active)
    terminal.check_seats([seat + 1], st.players)
    for line in render_observation(engine.observe(st, seat), seat, engine.rules.rotation_word).splitlines():
        terminal.say(line)
    mine = engine.decision(st, seat)  # several seats may be deciding at once
    if mine is not None:
        from rules_dsl.narrate import option_labels

        d = mine
        terminal.say(f"player {d.player + 1}, {d.source}: {d.prompt}")
        for i, (option, label) in enumerate(zip(d.options, option_labels(engine.rules, st, d)), 1):
            terminal.say(f"  {i}. {label} [{option}]")
    elif d is not None:  # another seat's options are its own to see
        waiting = ", ".join(str(x.player + 1) for x in engine.decisions(st))
        terminal.say(f"waiting for player {waiting} ({d.source})")
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
        terminal.echo(f"wrote {path}")
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

    from rules_dsl.experiment import add_parser as add_experiment_parser

    add_experiment_parser(sub)

    from rules_dsl.tune import add_parser as add_tune_parser

    add_tune_parser(sub)

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
    p.add_argument("--strict", action="store_true", help="warnings (what can never happen) are errors: exit 1")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("schema", help="write JSON Schemas of pack files, for YAML editors")
    p.add_argument("--out", default=".", help="the folder to write them to (default: the current folder)")
    p.add_argument(
        "--pack",
        metavar="ID",
        help="write pack-file-ID.schema.json instead: card entries checked against the words of that pack "
        "(an installed id or a folder) and the packs it requires",
    )
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("scenario", help="run scenario files and report each expectation")
    p.add_argument("files", nargs="+", help="scenario YAML files").complete = shtab.FILE  # type: ignore[attr-defined]
    p.add_argument("-v", "--verbose", action="store_true", help="show passing expectations too")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("playthrough", help="print a readable transcript of one random-bot game")
    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE  # type: ignore[attr-defined]
    p.add_argument("--players", type=terminal.whole_number(1), default=2)
    p.add_argument("--seed", type=terminal.whole_number(None), default=1)
    p.add_argument("--variant", action="append", metavar="NAME")
    p.add_argument(
        "--scenario", action="append", metavar="NAME", help="a scenario card, by name (the choice scenario=NAME)"
    )
    p.add_argument(
        "--narrate",
        action="store_true",
        help="tell the game in words (the log rules-dsl serve shows), not as a transcript",
    )
    p.set_defaults(func=cmd_playthrough)

    p = sub.add_parser("play", help="play a game at the terminal against random bots")
    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE  # type: ignore[attr-defined]
    p.add_argument("--players", type=terminal.whole_number(1), default=2)
    p.add_argument("--seed", type=terminal.whole_number(None), default=1)
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
    p.add_argument(
        "--load", metavar="FILE", help="go on with a game saved at the prompt (save FILE); --pack must be its pack's"
    ).complete = shtab.FILE  # type: ignore[attr-defined]
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "load",
        help="show a saved game where it stands (what the deciding player sees), or --play it on",
        description="Load a saved game (the JSON `save FILE` writes in `rules-dsl play`, or Engine.to_json), "
        "checked field by field and replayed from its seed and decisions; show it, or go on playing it.",
    )
    p.add_argument("file", help="the saved game (JSON)").complete = shtab.FILE  # type: ignore[attr-defined]
    p.add_argument(
        "--pack", help="the packs to load it with (default: the installed packs it names)"
    ).complete = PACK_COMPLETE  # type: ignore[attr-defined]
    p.add_argument(
        "--no-replay",
        action="store_true",
        help="a position no decision log reaches (set up by hand): check its fields, do not replay",
    )
    p.add_argument("--seat", type=terminal.whole_number(1), help="show what this seat sees (default: who decides)")
    p.add_argument("--play", action="store_true", help="go on playing it at the terminal against random bots")
    p.add_argument(
        "--human",
        type=terminal.whole_number(1),
        action="append",
        metavar="SEAT",
        help="with --play: a seat you play (default: 1); repeat for hot seat",
    )
    p.add_argument("--json", action="store_true", help="print where it stands as JSON")
    p.set_defaults(func=cmd_load)

    from rules_dsl.checking.command import add_parser as add_check_parser

    add_check_parser(sub)

    p = sub.add_parser("serve", help="a playtest table in the browser: people and bots at one game (docs/serve.md)")
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1, this machine only)"
    )
    p.add_argument("--port", type=terminal.whole_number(1), default=8000, help="the port (default: 8000)")
    p.add_argument(
        "--db", metavar="FILE", help="the SQLite file of the games (default: ~/.local/share/rules-dsl/games.sqlite)"
    ).complete = shtab.FILE  # type: ignore[attr-defined]
    p.add_argument(
        "--bot-seconds",
        type=float,
        default=5.0,
        metavar="S",
        help="the largest search-bot budget a seat may ask for, in seconds per decision (default: 5)",
    )
    p.add_argument(
        "--bot-iterations",
        type=terminal.whole_number(1, 10_000_000),
        default=10_000,
        metavar="N",
        help="the largest search-bot budget in iterations per decision (default: 10000)",
    )
    p.add_argument(
        "--db-wait",
        type=float,
        default=5.0,
        metavar="S",
        help="how long a write waits for another program's lock on the database before the request "
        "is answered 503 (default: 5)",
    )
    p.add_argument(
        "--access-log",
        metavar="FILE",
        default="-",
        help="one line per request, seat tokens left out: appended to FILE, '-' standard error (the "
        "default), 'off' none",
    ).complete = shtab.FILE  # type: ignore[attr-defined]
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "golden",
        help="developer: regenerate (or --check) the golden playthroughs of a checkout, or of any --dir",
    )
    p.add_argument(
        "--dir",
        default="tests/golden",
        help="the folder holding games.yaml and the transcripts, from any folder (default: tests/golden)",
    )
    p.add_argument("--check", action="store_true", help="compare instead of writing")
    p.set_defaults(func=cmd_golden)

    p = sub.add_parser("print", help="print a pack's deck at playing-card size, with backs and crop marks, in a PDF")
    p.add_argument("pack", help="an installed pack id or a pack folder (with the packs it requires)")
    p.add_argument("--out", default="cards.pdf", help="the PDF to write (default: cards.pdf)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4")
    p.add_argument("--mod-only", action="store_true", help="only the cards the named pack itself defines")
    p.add_argument("--one-each", action="store_true", help="one card per card type, not every copy")
    p.add_argument("--copies", action="store_true", help=argparse.SUPPRESS)  # every copy is the default now
    p.add_argument(
        "--backs",
        choices=["duplex", "beside", "none"],
        default="duplex",
        help="backs on alternate pages for double-sided printing (default), beside each front, or none",
    )
    p.add_argument(
        "--players", type=terminal.whole_number(1), help="the copies and facts of this many players (default: the most)"
    )
    p.add_argument("--variant", action="append", metavar="NAME")
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("lsp", help="a language server for pack files, over stdin/stdout (docs/editor.md)")
    p.set_defaults(func=cmd_lsp)

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
        terminal.echo(exc.render(), stderr=True)
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
