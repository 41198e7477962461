"""`rules-dsl experiment`: what a card (or a way of playing) is worth, measured by
playing the same games with one seat made to take it and made to leave it.

For each card: game seed `s` is played twice with the same line-up (`--bots`), once with
the seat `s mod players` taking the card whenever an option names it (the "take" arm) and
once with that seat never taking it while it may refuse (the "leave" arm); every other
decision is its bot's (`bots/steer.py`). The steered seat rotates with the seed. For each
policy (`--policy NAME=EXPR`, an expression or condition in the pack's words, compiled by
the pack's grammar) the arms are "policy" (the seat keeps the options that make EXPR
largest for it, its bot choosing among them) and "plain" (the bot alone). With cards and
one policy, the steered seat follows the policy in both arms of every card. `--follow-ups N`:
how many of its own follow-up decisions the seat following a policy answers before it
judges an option (bots/steer.py; recorded in the results only when not the default 6).

The figures per card: the steered seat's win rate in each arm and their difference (95%
Newcombe interval for paired proportions, a seed's two arms being a pair), its mean score
difference over the paired seeds (95% t interval), how often the card was offered to it
and taken, and the card's natural pick rate (the other seats' decisions that offered it).
Records are the `simulate` records plus an `experiment` key; the results file (JSON
lines) is written as games finish and read back by `--resume` and `rules-dsl report`.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import attrs

from rules_dsl import files, results
from rules_dsl.bots.steer import FOLLOW_UPS, MAX_FOLLOW_UPS
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError, suggest
from rules_dsl.simulate import Batch, Writer, map_dask, map_local, play_game, progress_bar

ARMS = {"card": ("take", "leave"), "policy": ("policy", "plain"), "baseline": ("plain",)}
MAX_GAMES = 1_000_000  # all arms of all subjects together
MAX_POLICY = 8000  # characters of one policy's text (benchmarks/policies/base-research-advanced.txt: 4,691)


@attrs.frozen
class Arm:
    """One arm of one subject: what every game of it shares (sent to the workers)."""

    batch: Batch
    kind: str  # "card" or "policy"
    subject: str  # the card id or the policy's name
    arm: str  # take / leave, policy / plain
    policy: tuple[str, str] | None = None  # (name, text) the steered seat follows (a policy arm, or every card arm)
    follow_ups: int = FOLLOW_UPS  # the seat's own follow-up decisions it looks ahead through, with a policy

    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.subject, self.arm)

    def tag(self, seat: int) -> dict[str, Any]:
        tag = {
            "kind": self.kind,
            "subject": self.subject,
            "arm": self.arm,
            "seat": seat,
            "policy": None if self.policy is None else f"{self.policy[0]}={self.policy[1]}",
        }
        if self.policy is not None and self.follow_ups != FOLLOW_UPS:
            tag["follow_ups"] = self.follow_ups  # absent at the default: older results files stay as they were
        return tag


# ---- the engine of a worker (with the policy compiled against its rules) ----------------
_engines: dict[tuple[tuple[str, ...], tuple[str, str] | None], tuple[Engine, Any]] = {}
_lock = threading.Lock()


def engine_for(paths: tuple[str, ...], policy: tuple[str, str] | None) -> tuple[Engine, Any]:
    """The engine and the compiled policy (None without one), once per worker process."""
    with _lock:
        key = (paths, policy)
        if key not in _engines:
            if policy is None:
                _engines[key] = (Engine.load(paths), None)
            else:
                from rules_dsl.compiler.build import compile_with_expressions
                from rules_dsl.packs.installed import with_requirements

                label = f"--policy {policy[0]}"
                rules, compiled = compile_with_expressions(with_requirements(paths), {label: policy[1]})
                _engines[key] = (Engine(rules), compiled[label])
        return _engines[key]


def play_arm(arm: Arm, seed: int, prefix: tuple[str, ...] = ()) -> dict[str, Any]:
    """One game of an arm: the seat `seed mod players` steered. `prefix`: the decisions of
    the unsteered game up to the one that first offered the arm's card to that seat (the
    arm's game is that game until then); the bots are made afresh there, the same in
    both arms. An unsteered game (kind "baseline") records its log and, per card, the
    decision that first offered it to the steered seat (`first_offered`)."""
    from rules_dsl.bots import make_bot
    from rules_dsl.bots.steer import SteeredBot

    engine, policy = engine_for(arm.batch.paths, arm.policy)
    batch = arm.batch
    steered = seed % batch.players
    bots = [make_bot(name, engine, seed * 1009 + seat, batch.budget) for seat, name in enumerate(batch.bots)]
    take = arm.subject if arm.arm == "take" else None
    leave = arm.subject if arm.arm == "leave" else None
    baseline = arm.kind == "baseline"
    steer = SteeredBot(bots[steered], engine, seed * 1009 + steered, take, leave, policy, arm.follow_ups)
    if take or leave or policy is not None or baseline:
        bots[steered] = steer
    record = play_game(engine, batch, seed, bots, prefix, keep_log=baseline)
    record["experiment"] = arm.tag(steered)
    if baseline and "error" not in record:
        record["experiment"]["first_offered"] = dict(sorted(steer.first_offers.items()))
    if prefix:
        record["experiment"]["branch"] = len(prefix)
    return record


def _job(args: tuple[Arm, int, tuple[str, ...]]) -> dict[str, Any]:
    return play_arm(*args)


def branch_of(base: dict[str, Any], card: str) -> tuple[str, ...]:
    """The decisions an arm of `card` shares with the unsteered game `base` (a results
    record): its log up to the decision that first offered the card to the steered seat.
    Nothing (the arm plays from the start) when the record does not say (an older file)."""
    e, log = base["experiment"], base.get("log")
    at = e.get("first_offered", {}).get(card) if isinstance(e.get("first_offered"), dict) else None
    if not isinstance(log, list) or not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= len(log):
        return ()
    prefix = log[:at]
    return tuple(prefix) if all(isinstance(o, str) for o in prefix) else ()


# ---- figures ------------------------------------------------------------------------
def _won(record: dict[str, Any], seat: int) -> float:
    return 1 / len(record["winners"]) if seat in record["winners"] else 0.0


def impact(games: list[dict[str, Any]], kind: str, subject: str) -> dict[str, Any]:
    """The figures of one subject from its games (both arms)."""
    from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]
    from statsmodels.stats.weightstats import DescrStatsW  # type: ignore[import-untyped]

    from rules_dsl.report.figures import paired_diff_interval

    treat, control = ARMS[kind]
    arms: dict[str, dict[int, dict[str, Any]]] = {treat: {}, control: {}}
    for g in games:
        e = g["experiment"]
        if e["kind"] == kind and e["subject"] == subject and e["arm"] in arms:
            arms[e["arm"]][g["seed"]] = g
    out: dict[str, Any] = {"kind": kind, "subject": subject, "treatment": treat, "control": control}
    for name, by_seed in arms.items():
        n = len(by_seed)
        wins = sum(_won(g, g["experiment"]["seat"]) for g in by_seed.values())
        low, high = proportion_confint(round(wins), n, alpha=0.05, method="wilson") if n else (None, None)
        offered = taken = offered_games = 0
        for g in by_seed.values():
            seat = g["experiment"]["seat"]
            o = g.get("choices", {}).get("offered", [{}] * g["players"])[seat].get(subject, 0)
            offered += o
            offered_games += o > 0
            taken += g.get("choices", {}).get("taken", [{}] * g["players"])[seat].get(subject, 0)
        out[name] = {
            "games": n,
            "wins": wins,
            "win_rate": wins / n if n else None,
            "low": None if low is None else float(min(low, wins / n)),
            "high": None if high is None else float(max(high, wins / n)),
            "score": sum(g["scores"][g["experiment"]["seat"]] for g in by_seed.values()) / n if n else None,
            "offered": offered,
            "offered_games": offered_games,
            "taken": taken,
        }
    seeds = sorted(set(arms[treat]) & set(arms[control]))
    # both arms of a seed are the same game up to the first offer: the paired interval
    out["win_difference"] = None
    if seeds:
        diff, low, high = paired_diff_interval(
            [(_won(arms[treat][s], arms[treat][s]["experiment"]["seat"]),
              _won(arms[control][s], arms[control][s]["experiment"]["seat"])) for s in seeds]
        )  # fmt: skip
        out["win_difference"] = {"diff": diff, "low": low, "high": high, "pairs": len(seeds)}
    diffs = [
        arms[treat][s]["scores"][arms[treat][s]["experiment"]["seat"]]
        - arms[control][s]["scores"][arms[control][s]["experiment"]["seat"]]
        for s in seeds
    ]
    out["score_difference"] = None
    if len(diffs) >= 2:
        stats = DescrStatsW(diffs)
        mean = float(stats.mean)
        if stats.std == 0:
            low = high = mean
        else:
            low, high = (float(x) for x in stats.tconfint_mean(alpha=0.05))
        out["score_difference"] = {"diff": mean, "low": low, "high": high, "pairs": len(diffs)}
    elif diffs:
        out["score_difference"] = {"diff": float(diffs[0]), "low": None, "high": None, "pairs": 1}
    # the card as the other seats met it, in the same games: its natural pick rate
    if kind == "card":
        offered = taken = 0
        for by_seed in arms.values():
            for g in by_seed.values():
                for seat in range(g["players"]):
                    if seat != g["experiment"]["seat"]:
                        offered += g.get("choices", {}).get("offered", [{}] * g["players"])[seat].get(subject, 0)
                        taken += g.get("choices", {}).get("taken", [{}] * g["players"])[seat].get(subject, 0)
        low, high = proportion_confint(taken, offered, alpha=0.05, method="wilson") if offered else (None, None)
        out["natural"] = {
            "offered": offered,
            "taken": taken,
            "pick_rate": taken / offered if offered else None,
            "low": None if low is None else float(low),
            "high": None if high is None else float(high),
        }
        out["never_offered"] = out[treat]["games"] > 0 and out[treat]["offered"] == 0
    return out


def subjects_of(games: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The (kind, subject) pairs of experiment records, in the order first seen."""
    seen: dict[tuple[str, str], None] = {}
    for g in games:
        e = g.get("experiment")
        if isinstance(e, dict) and e.get("kind") in ("card", "policy") and isinstance(e.get("subject"), str):
            seen[(e["kind"], e["subject"])] = None
    return list(seen)


def well_formed(record: dict[str, Any]) -> bool:
    """An experiment tag the figures can read (a results line may be anything)."""
    e = record.get("experiment")
    return bool(
        isinstance(e, dict)
        and e.get("kind") in ARMS
        and e.get("arm") in ARMS[e["kind"]]
        and isinstance(e.get("subject"), str)
        and len(e["subject"]) <= results.MAX_NAME
        and isinstance(e.get("seat"), int)
        and 0 <= e["seat"] < record["players"]
    )


def describe(row: dict[str, Any]) -> str:
    """One line for the terminal's last column: why a row has no figure."""
    if row.get("never_offered"):
        return f"never offered to the steered seat in {row[row['treatment']]['games']} games"
    return ""


# ---- the command ------------------------------------------------------------------
def add_parser(sub: Any) -> None:
    from rules_dsl import terminal
    from rules_dsl.bots import BOT_NAMES
    from rules_dsl.cli import PACK_COMPLETE, PACK_HELP

    p = sub.add_parser(
        "experiment",
        help="what a card or a way of playing is worth: the same games with a seat made to take it and to leave it",
        description="For each card, play the same seeds with one seat (rotated) that takes the card whenever "
        "an option names it, and with that seat never taking it; for each --policy, a seat following the "
        "policy against the same seat playing as its bot. Win rate and score differences with 95%% intervals.",
    )
    p.add_argument("cards", nargs="*", metavar="CARD", help="card ids of the pack")
    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE
    p.add_argument("--players", type=terminal.whole_number(2), default=2, help="players per game (default: 2)")
    p.add_argument(
        "--bots",
        default="greedy",
        metavar="BOT,...",
        help=f"the line-up: one bot per seat or one for all ({', '.join(BOT_NAMES)}, with options as "
        "NAME:key=value,...) (default: greedy)",
    )
    p.add_argument("--games", type=terminal.whole_number(1), default=40, help="games per arm (default: 40)")
    p.add_argument("--seed", type=terminal.whole_number(None), default=1, help="seed of the first game (default: 1)")
    p.add_argument("--variant", action="append", metavar="NAME", help="a pack variant; repeat for several")
    p.add_argument(
        "--policy",
        action="append",
        metavar="NAME=EXPR",
        help="a way of playing in the pack's words: the steered seat keeps the options after which EXPR "
        "(an expression or condition for 'you') is largest; repeat for several",
    )
    p.add_argument(
        "--follow-ups",
        type=terminal.whole_number(0, MAX_FOLLOW_UPS),
        metavar="N",
        help="with --policy: how many of its own follow-up decisions the steered seat answers (one option "
        f"ahead each) before it judges an option (0 to {MAX_FOLLOW_UPS}; default: {FOLLOW_UPS})",
    )
    p.add_argument("--budget", default="200", help="search bots' budget unless their spec gives one (default: 200)")
    p.add_argument(
        "--processes",
        type=terminal.whole_number(1, terminal.MAX_PROCESSES),
        default=1,
        help="worker processes (default: 1); results do not depend on it",
    )
    p.add_argument("--backend", choices=("local", "dask"), default="local", help="local process pool or dask")
    p.add_argument("--scheduler", metavar="ADDRESS", help="with --backend dask: the scheduler (default: a local one)")
    p.add_argument("--out", metavar="FILE", help="write one game per line (JSON) as games finish")
    p.add_argument("--resume", action="store_true", help="with --out: play only the games missing from FILE")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=command)


def parse_policy(text: str) -> tuple[str, str]:
    name, eq, expr = text.partition("=")
    name, expr = name.strip(), expr.strip()
    if not eq or not name or not expr:
        raise RulesError(f"--policy {text!r}: give NAME=EXPR, e.g. --policy hoard='the number of cards in your hand'")
    if len(expr) > MAX_POLICY or len(name) > 100:
        raise RulesError(f"--policy {name!r}: at most 100 characters of name and {MAX_POLICY} of expression")
    return name, expr


def plan(args: Any, engine: Engine, batch: Batch) -> list[Arm]:
    """Every arm to play, checked: card ids, policies (compiled here: an error before any game)."""
    from rules_dsl.compiler.build import compile_with_expressions
    from rules_dsl.packs.installed import with_requirements

    rules = engine.rules
    policies = [parse_policy(t) for t in args.policy or []]
    names = [n for n, _ in policies]
    for n in names:
        if names.count(n) > 1:
            raise RulesError(f"--policy {n!r} is given {names.count(n)} times: name each policy once")
    if policies:
        # a policy that does not compile: a PackError at `--policy NAME:1:col`, before any game
        compile_with_expressions(with_requirements(list(batch.paths)), {f"--policy {n}": t for n, t in policies})
    if not args.cards and not policies:
        raise RulesError(
            "name cards to test (e.g. rules-dsl experiment CARD-ID --pack PACK) or give --policy NAME=EXPR"
        )
    for card in args.cards:
        if card not in rules.card_index:
            hint = suggest(card, rules.card_index)
            raise RulesError(f"{rules.name} has no card {card!r}" + (f" ({hint})" if hint else ""))
    if args.cards and len(policies) > 1:
        raise RulesError(
            "with cards, give at most one --policy (the steered seat follows it in both arms of every card)"
        )
    follow_ups = FOLLOW_UPS if args.follow_ups is None else args.follow_ups
    if args.follow_ups is not None and not policies:
        raise RulesError(f"--follow-ups {args.follow_ups} is for --policy: only a seat following a policy looks ahead")
    arms: list[Arm] = []
    for card in dict.fromkeys(args.cards):
        for a in ARMS["card"]:
            arms.append(Arm(batch, "card", card, a, policies[0] if policies else None, follow_ups))
    if not args.cards:
        for policy in policies:
            arms.append(Arm(batch, "policy", policy[0], "policy", policy, follow_ups))
            arms.append(Arm(batch, "policy", policy[0], "plain", None))
    return arms


def _key(record: dict[str, Any]) -> tuple[str, str, str]:
    e = record["experiment"]
    return (e["kind"], e["subject"], e["arm"])


def _resume(path: Path, arms: list[Arm], batch: Batch) -> list[dict[str, Any]]:
    from rules_dsl import terminal

    if not path.exists():
        return []
    loaded = results.load(path)
    for line, why in loaded.skipped:
        terminal.echo(f"{path}:{line}: skipped: {why}", stderr=True)
    keys = {a.key(): a for a in arms}
    kept = []
    for r in loaded.games:
        if not well_formed(r) or not batch.matches(r):
            raise RulesError(
                f"{path} holds games of other settings (pack {r['pack']}, {r['players']} players, bots "
                f"{','.join(r.get('lineup', r['bots']))}): resume with the same options, or write to another --out"
            )
        if r["experiment"]["kind"] == "baseline":
            if arms[0].kind == "card" and r["experiment"].get("policy") == arms[0].tag(0)["policy"]:
                _same_follow_ups(path, r, arms[0])
                kept.append(r)  # the unsteered game of its seed
            continue
        arm = keys.get(_key(r))
        if arm is not None and r["experiment"]["policy"] == arm.tag(0)["policy"]:
            _same_follow_ups(path, r, arm)
            kept.append(r)
    return kept


def _same_follow_ups(path: Path, record: dict[str, Any], arm: Arm) -> None:
    """A game of the same policy looked ahead as far as this run does, or the run stops."""
    if arm.policy is None:
        return
    theirs = record["experiment"].get("follow_ups", FOLLOW_UPS)
    if isinstance(theirs, bool) or not isinstance(theirs, int) or not 0 <= theirs <= MAX_FOLLOW_UPS:
        raise RulesError(
            f"{path} holds a game (seed {record['seed']}) whose follow_ups is not a number from 0 to "
            f"{MAX_FOLLOW_UPS}: write to another --out"
        )
    if theirs != arm.follow_ups:
        raise RulesError(
            f"{path} holds games whose steered seat looked {theirs} follow-ups ahead (--follow-ups {theirs}), "
            f"not {arm.follow_ups}: resume with --follow-ups {theirs}, or write to another --out"
        )


def command(args: Any) -> int:
    from rules_dsl import terminal
    from rules_dsl.bots import make_bot, parse_bots, parse_budget, searches
    from rules_dsl.engine import pack_paths

    if args.resume and not args.out:
        raise RulesError("--resume needs --out FILE (the results to continue)")
    if args.scheduler and args.backend != "dask":
        raise RulesError("--scheduler is for --backend dask")
    if args.out:
        files.output_file(args.out, "the results")
    paths = pack_paths(args.pack)
    engine = Engine.load(paths)
    rules = engine.rules
    terminal.check_players(rules.name, rules.min_players, rules.max_players, args.players)
    bots = parse_bots(args.bots, args.players)
    if any(searches(b) for b in bots):
        parse_budget(args.budget)
    variants = None if args.variant is None else tuple(terminal.with_scenarios(rules, None, args.variant) or ())
    batch = Batch(tuple(paths), args.pack, args.players, variants, tuple(bots), args.budget, False)
    engine.new_game(args.players, args.seed, None if variants is None else list(variants))
    for name in set(bots):
        make_bot(name, engine, 0, args.budget)
    arms = plan(args, engine, batch)
    seeds = list(range(args.seed, args.seed + args.games))
    if len(arms) * len(seeds) > MAX_GAMES:
        raise RulesError(
            f"--games {args.games}: {len(arms)} arms would play {len(arms) * len(seeds)} games; the most is {MAX_GAMES}"
        )
    order = {a.key(): i for i, a in enumerate(arms)}

    def position(r: dict[str, Any]) -> tuple[int, int]:
        e = r["experiment"]
        return (
            order.get((e["kind"], e["subject"], e["arm"]), -1 if e["kind"] == "baseline" else len(order)),
            r["seed"],
        )

    writer = None
    done: set[tuple[tuple[str, str, str], int]] = set()
    if args.out:
        out = Path(args.out)
        kept = _resume(out, arms, batch) if args.resume else []
        done = {(_key(r), r["seed"]) for r in kept}
        if args.resume:
            terminal.echo(f"resuming {out}: {len(done)} games there", stderr=True)
        try:
            writer = Writer(out, kept, position)
        except OSError as exc:
            raise RulesError(f"cannot write {out}: {exc.strerror or exc}") from None
    games = list(writer.records) if writer is not None else []
    failures: list[dict[str, Any]] = []
    start = time.perf_counter()
    played = 0

    def play(jobs: list[tuple[Arm, int, tuple[str, ...]]], label: str) -> list[dict[str, Any]]:
        source = (
            map_dask(_job, jobs, args.scheduler, args.processes)
            if args.backend == "dask"
            else map_local(_job, jobs, args.processes)
        )
        new = []
        with progress_bar(not args.quiet and not args.json and bool(jobs), label) as bar:
            task = bar.add_task("games", total=len(jobs), rate="-")
            began = time.perf_counter()
            for finished, r in enumerate(source, 1):
                if "error" in r:
                    failures.append(r)
                else:
                    new.append(r)
                    add(r)
                elapsed = time.perf_counter() - began
                bar.update(task, advance=1, rate=f"{finished / elapsed:.1f}" if elapsed > 0 else "-")
        return new

    def add(r: dict[str, Any]) -> None:
        games.append(r)
        if writer is not None:
            writer.add(r)

    try:
        if arms[0].kind == "card":
            # Until its card is first offered to the steered seat, an arm plays exactly the game
            # of that seat's bot (following the policy, if any) without the card rule: the
            # steering only ever removes options naming the card. So each seed is first played
            # once unsteered; both arms of a card go on from the decision of that game where
            # the card was first offered (its log replayed up to there, the bots made afresh),
            # and where it never was they are that game, recorded under the arm.
            base = Arm(batch, "baseline", "", "plain", arms[0].policy, arms[0].follow_ups)
            have = {r["seed"]: r for r in games if r["experiment"]["kind"] == "baseline"}
            new = play([(base, s, ()) for s in seeds if s not in have], "unsteered games")
            played += len(new)
            have.update({r["seed"]: r for r in new})
            jobs = []
            for a in arms:
                for seed in seeds:
                    if (a.key(), seed) in done or seed not in have:
                        continue
                    plain = have[seed]
                    seat = plain["experiment"]["seat"]
                    if plain["choices"]["offered"][seat].get(a.subject, 0):
                        jobs.append((a, seed, branch_of(plain, a.subject)))
                    else:
                        game = {k: v for k, v in plain.items() if k != "log"}
                        add({**game, "experiment": {**a.tag(seat), "unsteered": True}})
        else:
            jobs = [(a, s, ()) for a in arms for s in seeds if (a.key(), s) not in done]
        played += len(play(jobs, "experimenting"))
    finally:
        if writer is not None:
            writer.close()
    for r in failures:
        terminal.echo(f"game seed {r['seed']} failed after {len(r['log'])} decisions: {r['error']}", stderr=True)
    subjects = list(dict.fromkeys((a.kind, a.subject) for a in arms))
    wanted = set(seeds)  # a resumed file may hold more seeds: they stay in it, out of these figures
    rows = [impact([g for g in games if g["seed"] in wanted], kind, subject) for kind, subject in subjects]
    unsteered = sum(1 for g in games if g["seed"] in wanted and g["experiment"].get("unsteered"))
    seconds = time.perf_counter() - start
    data = {
        "pack": args.pack,
        "players": args.players,
        "bots": bots,
        "games_per_arm": args.games,
        "seeds": [args.seed, args.seed + args.games - 1],
        "policy": arms[0].tag(0)["policy"] if args.cards else None,
        "follow_ups": arms[0].follow_ups if any(a.policy is not None for a in arms) else None,
        "subjects": rows,
        "failed_games": [r["seed"] for r in failures],
        "games_played": played,
        "arm_games_unsteered": unsteered,
        "seconds": seconds,
    }
    if args.json:
        terminal.print_json(data)
        return 1 if failures else 0
    followed = arms[0].policy
    title = (
        f"{rules.name}: experiment, {args.players} players, bots {','.join(bots)}, {args.games} games an arm "
        f"(seeds {args.seed}..{args.seed + args.games - 1}, the steered seat rotated)"
        # the policy by its name: its text (maybe long, maybe several lines) is in --json and the results
        + (f", the steered seat playing the policy {followed[0]!r}" if followed and args.cards else "")
    )
    terminal.say(title, "bold")
    terminal.say("-" * len(title))
    terminal.table(
        ("subject", "arms", "win rate (95%)", "win difference", "score difference", "offered / taken", "natural", ""),
        [table_row(r) for r in rows],
        ("bold cyan",),
    )
    terminal.say(
        f"{played} games played in {seconds:.0f} s; {unsteered} arm games were the unsteered game of their seed "
        "(the card never offered to the steered seat)"
    )
    return 1 if failures else 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def table_row(r: dict[str, Any]) -> tuple[str, ...]:
    a, b = r[r["treatment"]], r[r["control"]]
    wd, sd = r["win_difference"], r["score_difference"]
    nat = r.get("natural")
    return (
        r["subject"],
        f"{r['treatment']} / {r['control']}",
        f"{_pct(a['win_rate'])} ({_pct(a['low'])}-{_pct(a['high'])}) / {_pct(b['win_rate'])}",
        "-" if wd is None else f"{100 * wd['diff']:+.1f} pt ({100 * wd['low']:+.1f} to {100 * wd['high']:+.1f})",
        "-"
        if sd is None
        else f"{sd['diff']:+.2f}" + ("" if sd["low"] is None else f" ({sd['low']:+.2f} to {sd['high']:+.2f})"),
        f"{a['offered']} / {a['taken']}" if r["kind"] == "card" else "-",
        "-" if not nat or nat["pick_rate"] is None else f"{_pct(nat['pick_rate'])} of {nat['offered']}",
        describe(r),
    )
