"""`rules-dsl league`: every line-up of the bots, seats rotated, rated and tabulated.

The line-ups of N seats: with at least N bots, every set of N different bots; with fewer,
every line-up that seats each bot at least once. Each line-up plays the same seeds (so
line-ups meet the same deals) with its seats rotated (`simulate.Batch.rotate`). Ratings
come from openskill's Plackett-Luce model, fed the games seed by seed (every line-up's
game of a seed before the next seed, so no line-up comes last); the pairwise table counts,
for every two bots in a game, which finished ahead. Needs the optional extra `league`.
"""

from __future__ import annotations

import itertools
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from rules_dsl.errors import RulesError

MISSING = "rules-dsl league needs openskill and statsmodels: pip install 'rules-dsl[league]'"
MAX_GAMES = 1_000_000  # all line-ups together


def lineups(bots: list[str], players: int, cooperative: bool = False) -> list[tuple[str, ...]]:
    """Every line-up of `players` seats (as multisets, in the order the bots were named). In a
    co-operative game a line-up is a team and teams are compared with each other, so every
    team is played, a bot's team of its own included."""
    if cooperative:
        return list(itertools.combinations_with_replacement(bots, players))
    if players <= len(bots):
        return list(itertools.combinations(bots, players))
    return [c for c in itertools.combinations_with_replacement(bots, players) if set(c) == set(bots)]


def _result(record: dict[str, Any]) -> tuple[bool, float]:
    """A co-operative game's result for its whole team: won together, then the shared score."""
    return bool(record["winners"]), record["scores"][0]


def _teams(games: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A co-operative league's games grouped by seed: the teams that played the same deal,
    in the order given (groups of one team compare nothing and are left out)."""
    by_seed: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        by_seed[g["seed"]].append(g)
    return [group for group in by_seed.values() if len(group) > 1]


def _ranks(results: list[Any]) -> list[int]:
    better = sorted(set(results), reverse=True)
    return [better.index(r) for r in results]


def placing(record: dict[str, Any]) -> list[int]:
    """Each seat's rank in a game, 0 best: the winners first, then by score; equal is a tie."""
    winners = set(record["winners"])
    keys = [(seat in winners, record["scores"][seat]) for seat in range(record["players"])]
    better = sorted(set(keys), reverse=True)
    return [better.index(k) for k in keys]


def rate(games: list[dict[str, Any]], bots: list[str]) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings (openskill) from games in the order given. A bot in several
    seats of one game is rated in each seat from its rating before the game, and takes the
    mean of the seats' new ratings."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    if any(g.get("cooperative") for g in games):
        # teams, not seats, are ranked: every team that played the same deal, by its result
        for group in _teams(games):
            teams = [[model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma, name=b) for b in g["bots"]] for g in group]
            rated = model.rate(teams, ranks=[float(r) for r in _ranks([_result(g) for g in group])])
            grouped: dict[str, list[Any]] = defaultdict(list)
            for g, team in zip(group, rated):
                for bot, r in zip(g["bots"], team):
                    grouped[bot].append(r)
            for bot, rs in grouped.items():
                ratings[bot] = model.rating(
                    mu=sum(r.mu for r in rs) / len(rs), sigma=sum(r.sigma for r in rs) / len(rs), name=bot
                )
        return {b: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for b, r in ratings.items()}
    for g in games:
        seats = g["bots"]
        teams = [[model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma, name=b)] for b in seats]
        rated = model.rate(teams, ranks=[float(r) for r in placing(g)])
        new: dict[str, list[Any]] = defaultdict(list)
        for bot, (r,) in zip(seats, rated):
            new[bot].append(r)
        for bot, rs in new.items():
            ratings[bot] = model.rating(
                mu=sum(r.mu for r in rs) / len(rs), sigma=sum(r.sigma for r in rs) / len(rs), name=bot
            )
    return {b: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for b, r in ratings.items()}


def pairwise(games: list[dict[str, Any]], bots: list[str]) -> list[dict[str, Any]]:
    """For every ordered pair of bots: in the games both played, how often a seat of the
    first finished ahead of a seat of the second (a tie counts one half), with a 95%
    Wilson interval (statsmodels)."""
    from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]

    wins: dict[tuple[str, str], float] = defaultdict(float)
    meetings: dict[tuple[str, str], int] = defaultdict(int)
    if any(g.get("cooperative") for g in games):
        # a co-operative game has no seat ahead of another: two teams on the same deal are
        # compared, each bot of one that is not in the other against each such bot of the other
        for group in _teams(games):
            for ga, gb in itertools.permutations(group, 2):
                ahead = _result(ga) > _result(gb)
                tie = _result(ga) == _result(gb)
                for x in set(ga["bots"]) - set(gb["bots"]):
                    for y in set(gb["bots"]) - set(ga["bots"]):
                        meetings[x, y] += 1
                        wins[x, y] += 1.0 if ahead else 0.5 if tie else 0.0
    for g in [] if any(g.get("cooperative") for g in games) else games:
        rank = placing(g)
        for a, b in itertools.permutations(range(g["players"]), 2):
            x, y = g["bots"][a], g["bots"][b]
            if x == y:
                continue
            meetings[x, y] += 1
            wins[x, y] += 1.0 if rank[a] < rank[b] else 0.5 if rank[a] == rank[b] else 0.0
    rows = []
    for x, y in itertools.permutations(bots, 2):
        n, w = meetings[x, y], wins[x, y]
        low, high = proportion_confint(round(w), n, alpha=0.05, method="wilson") if n else (None, None)
        rate_ = w / n if n else None
        rows.append(
            {
                "bot": x,
                "opponent": y,
                "meetings": n,
                "ahead": w,
                "rate": rate_,
                "low": None if low is None else float(min(low, rate_)),
                "high": None if high is None else float(max(high, rate_)),
            }
        )
    return rows


def standings(games: list[dict[str, Any]], bots: list[str]) -> list[dict[str, Any]]:
    """One row per bot, best first (by the conservative rating mu - 3 sigma)."""
    ratings = rate(games, bots)
    rows: list[dict[str, Any]] = []
    for bot in bots:
        seats = [(g, s) for g in games for s, b in enumerate(g["bots"]) if b == bot]
        # a co-operative game won together is a whole win for each of its seats
        won = sum(1.0 if g.get("cooperative") else 1 / len(g["winners"]) for g, s in seats if s in g["winners"])
        r = ratings[bot]
        rows.append(
            {
                "bot": bot,
                "mu": r["mu"],
                "sigma": r["sigma"],
                "low": r["mu"] - 1.96 * r["sigma"],
                "high": r["mu"] + 1.96 * r["sigma"],
                "ordinal": r["ordinal"],
                "seats": len(seats),
                "wins": won,
                "win_rate": won / len(seats) if seats else None,
            }
        )
    rows.sort(key=lambda r: -r["ordinal"])
    return rows


# ---- the command ------------------------------------------------------------------
def add_parser(sub: Any) -> None:
    from rules_dsl import terminal
    from rules_dsl.bots import BOT_NAMES
    from rules_dsl.cli import PACK_COMPLETE, PACK_HELP

    p = sub.add_parser(
        "league",
        help="play every line-up of the bots with seats rotated; ratings and a pairwise win table",
        description="Play every line-up of the bots named, each with its seats rotated, and report "
        "openskill ratings with their uncertainty and a pairwise table of who finished ahead of whom.",
    )
    p.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help=f"two or more of: {', '.join(BOT_NAMES)}, each with options as NAME:key=value,... "
        "(ismcts:budget=0.05s,opponents=12), or your agents as MODULE:CALLABLE (docs/ai.md)",
    )
    p.add_argument("--pack", default="base", help=PACK_HELP).complete = PACK_COMPLETE
    p.add_argument("--players", type=terminal.whole_number(2), default=2, help="players per game (default: 2)")
    p.add_argument(
        "--games",
        type=terminal.whole_number(1),
        default=20,
        help="games per line-up, rounded up to a whole number of seat rotations (default: 20)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of each line-up's first game (default: 1)")
    p.add_argument("--variant", action="append", metavar="NAME", help="a pack variant; repeat for several")
    p.add_argument("--scenario", action="append", metavar="NAME", help="a scenario card of the pack, by name")
    p.add_argument(
        "--budget",
        default="200",
        help="ismcts thinking per decision unless a bot gives budget=: 200 or 0.5s (default: 200)",
    )
    p.add_argument("--processes", type=terminal.whole_number(1), default=1, help="worker processes (default: 1)")
    p.add_argument("--out", metavar="FILE", help="also write every game (JSON lines, for rules-dsl report)")
    p.add_argument("--json", action="store_true", help="print the league as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=command)


def _lineups(n: int) -> str:
    return "1 line-up" if n == 1 else f"{n} line-ups"


def check_bots(names: list[str]) -> list[str]:
    """Each bot's spec checked (bots/spec.py) and written the one way: `NAME[:key=value,...]`;
    an agent (`MODULE:CALLABLE`, bots/agents.py) must load."""
    from rules_dsl.bots import BOT_NAMES, parse_bot
    from rules_dsl.bots.agents import is_agent, load_agent
    from rules_dsl.terminal import UsageError

    try:
        checked = []
        for n in names:
            if is_agent(n):
                load_agent(n)  # one that does not load: a clear error before any game
                checked.append(n)
            else:
                checked.append(parse_bot(n).text)
        names = checked
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    for n in names:
        if names.count(n) > 1:
            raise UsageError(f"bot {n!r} is named {names.count(n)} times: name each bot once")
    if len(names) < 2:
        raise UsageError(
            f"a league needs two or more bots to play each other (got only {names[0]}): "
            f"e.g. rules-dsl league {names[0]} {next(b for b in BOT_NAMES if b != names[0])}"
        )
    return names


def command(args: Any) -> int:
    from rules_dsl import terminal
    from rules_dsl.bots import make_bot, parse_budget, searches
    from rules_dsl.engine import Engine, pack_paths
    from rules_dsl.simulate import Batch, Writer, simulate, write_replay
    from rules_dsl.terminal import UsageError

    bots = check_bots(list(args.bots))
    if args.processes > 1024:
        raise UsageError(f"--processes {args.processes}: give 1 to 1024")
    try:
        import openskill  # noqa: F401
        import statsmodels  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as exc:
        raise RulesError(f"{MISSING} ({exc.name} is missing)") from None
    if any(searches(b) for b in bots):
        try:
            parse_budget(args.budget)
        except RulesError as exc:
            raise UsageError(str(exc)) from None
    paths = pack_paths(args.pack)
    engine = Engine.load(paths)
    rules = engine.rules
    terminal.check_players(rules.name, rules.min_players, rules.max_players, args.players)
    picked = terminal.with_scenarios(rules, args.scenario, args.variant)
    variants = None if picked is None else tuple(picked)
    engine.new_game(args.players, args.seed, None if variants is None else list(variants))
    for name in bots:
        make_bot(name, engine, 0, args.budget)  # a pack without an evaluation: a clear error now

    batches = [Batch(tuple(paths), args.pack, args.players, variants, lineup, args.budget, True) for lineup in
               lineups(bots, args.players, rules.cooperative)]  # fmt: skip
    plan = []
    for batch in batches:
        k = len(batch.seat_orders())
        plan.append((batch, -(-args.games // k) * k))
    total = sum(n for _, n in plan)
    if total > MAX_GAMES:
        raise UsageError(
            f"--games {args.games}: {_lineups(len(plan))} would play {total} games; the most is {MAX_GAMES}"
        )
    writer = None
    if args.out:
        try:
            writer = Writer(Path(args.out), [])
        except OSError as exc:
            raise RulesError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    played: list[tuple[int, int, dict[str, Any]]] = []  # (seed, line-up, record)
    failures = []
    try:
        for i, (batch, n) in enumerate(plan):
            seeds = list(range(args.seed, args.seed + n))
            records, _ = simulate(batch, seeds, args.processes, progress=not args.quiet and not args.json)
            for r in records:
                if "error" in r:
                    failures.append((batch, r))
                    continue
                played.append((r["seed"], i, r))
                if writer is not None:
                    writer.add(r)
    finally:
        if writer is not None:
            writer.close()
    folder = Path(args.out).parent if args.out else Path(".")
    for batch, record in failures:
        path = write_replay(engine, batch, record, folder)
        print(
            f"game seed {record['seed']} of {','.join(batch.bots)} failed: {record['error']}\n"
            f"  replay it: rules-dsl scenario {path}",
            file=sys.stderr,
        )
    games = [r for _, _, r in sorted(played, key=lambda t: (t[0], t[1]))]
    for r in games:
        if "forfeit" in r:  # rated as played: the forfeiting seat last
            print(f"game seed {r['seed']} of {','.join(r['bots'])}: {r['forfeit']['reason']}", file=sys.stderr)
    table = standings(games, bots)
    pairs = pairwise(games, bots)
    data = {
        "pack": args.pack,
        "players": args.players,
        "bots": bots,
        "lineups": [{"bots": list(b.bots), "seat_orders": len(b.seat_orders()), "games": n} for b, n in plan],
        "games": len(games),
        "failed_games": [{"bots": list(b.bots), "seed": r["seed"]} for b, r in failures],
        "forfeited_games": [
            {"bots": r["bots"], "seed": r["seed"], "agent": r["forfeit"]["agent"]} for r in games if "forfeit" in r
        ],
        "ratings": table,
        "pairwise": pairs,
        "rating_model": "openskill PlackettLuce (mu 25, sigma 25/3 at the start); interval mu +- 1.96 sigma",
    }
    if args.json:
        terminal.print_json(data)
        return 1 if failures else 0
    title = (
        f"{rules.name}: league of {', '.join(bots)}, {args.players} players, {_lineups(len(plan))}, "
        f"{len(games)} games (seats rotated, seeds from {args.seed})"
    )
    terminal.say(title, "bold")
    terminal.say("-" * len(title))
    rows = [
        (i + 1, r["bot"], f"{r['mu']:.1f}", f"{r['sigma']:.1f}", f"{r['low']:.1f} - {r['high']:.1f}",
         f"{r['ordinal']:.1f}", r["seats"], f"{100 * r['win_rate']:.1f}%" if r["win_rate"] is not None else "-")
        for i, r in enumerate(table)
    ]  # fmt: skip
    terminal.table(("rank", "bot", "rating", "sigma", "95% interval", "mu-3sigma", "seats", "win rate"), rows,
                   ("bold", "bold cyan"))  # fmt: skip
    terminal.say("")
    if rules.cooperative:
        terminal.say(
            "co-operative: teams that played the same deal compared (won together, then the shared score); "
            "a team with the row bot ahead of one with the column bot (ties one half; 95% Wilson interval)",
            "bold",
        )
    else:
        terminal.say("finished ahead of (row ahead of column, ties one half; 95% Wilson interval)", "bold")
    cell = {(p["bot"], p["opponent"]): p for p in pairs}
    grid = []
    for x in bots:
        line: list[str] = [x]
        for y in bots:
            p = cell.get((x, y))
            if p is None:
                line.append("")
            elif p["rate"] is None:
                line.append("never met")
            else:
                line.append(
                    f"{100 * p['rate']:.0f}% ({p['ahead']:g}/{p['meetings']}, "
                    f"{100 * p['low']:.0f}-{100 * p['high']:.0f}%)"
                )
        grid.append(line)
    terminal.table(("", *bots), grid, ("bold cyan",))
    return 1 if failures else 0
