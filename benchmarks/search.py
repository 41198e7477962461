"""The issue 22 targets: how strong the search bot is, how much the bots research, what a
decision costs.

    python3 benchmarks/search.py greedy greedy --games 40
    python3 benchmarks/search.py ismcts:100 greedy --games 40 --processes 2
    python3 benchmarks/search.py ismcts:0.05s ismcts-ucb:100 --games 40
    python3 benchmarks/search.py ismcts:100 random --pack escalation --players 4 --games 20
    python3 benchmarks/search.py greedy+technology-influence=1.2 greedy --games 40

A search bot without a budget thinks for 200 iterations a decision, the command line's
default `--budget`. BOT[:BUDGET][+FEATURE=WEIGHT...] replaces some of the pack's weights for that bot: an
experiment (what would a seat win that valued technologies?), never a shipped setting.
BOT[:BUDGET]/FIELD=VALUE/... changes fields of a search bot's `Config`
(rules_dsl/bots/ismcts.py), e.g. `ismcts:100/finish_move=6/exploration=0.2`.

BOT[:BUDGET] plays OPPONENT[:BUDGET] (every other seat): in game i (seeds from --seed on)
the bot sits in seat i mod players, so each seat is the bot's equally often. A shared win
counts one half; the interval is Wilson's (statsmodels). Per side it reports the pack's
`bought` statistic per player and game (in the Eminent Domain packs: technologies bought),
the share of the score in breakdown lines naming technologies, and the CPU seconds per
decision with a choice (two options or more; a bot answers a forced one at once). Not a test:
nothing here can fail. Budgets in seconds are CPU seconds per decision.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from typing import Any

import attrs
from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]

from rules_dsl.bots import Turn, make_bot, parse_budget
from rules_dsl.engine import Engine
from rules_dsl.statistics import Recorder

_ENGINES: dict[str, Engine] = {}
DEFAULT_BUDGET = "200"  # a search bot's budget when its spec gives none: the command line's `--budget`


def _engine(pack: str) -> Engine:
    if pack not in _ENGINES:
        _ENGINES[pack] = Engine.for_pack(pack)
    return _ENGINES[pack]


def split(spec: str) -> tuple[str, str]:
    spec = spec.split("+", 1)[0].split("/", 1)[0]
    name, _, budget = spec.partition(":")
    return name, budget or DEFAULT_BUDGET


def settings(spec: str) -> dict[str, Any]:
    """BOT[:BUDGET]/FIELD=VALUE/...: `Config` fields of a search bot changed (an experiment)."""
    out: dict[str, Any] = {}
    for kv in spec.split("+", 1)[0].split("/")[1:]:
        key, _, value = kv.partition("=")
        out[key] = _value(value)
    return out


def _value(text: str) -> Any:
    """A `Config` field's value: a flag, a whole number, a number, else the text (a choice)."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def build(spec: str, engine: Engine, seed: int) -> Any:
    """BOT[:BUDGET][+FEATURE=WEIGHT...]: the bot, with some of the pack's weights replaced
    (an experiment: what a seat that valued FEATURE so would win; never a shipped setting)."""
    name, budget = split(spec)
    overrides = dict(kv.split("=", 1) for kv in spec.split("+")[1:])
    changed = settings(spec)
    if not overrides and not changed:
        return make_bot(name, engine, seed, budget)
    from rules_dsl.bots.greedy import GreedyBot
    from rules_dsl.bots.ismcts import CONFIGS, ISMCTSBot

    rules = engine.rules
    names = [f.name for f in rules.features]
    unknown = set(overrides) - set(names)
    if unknown:
        raise SystemExit(f"unknown features {sorted(unknown)} (known: {', '.join(names)})")
    weights = None
    if overrides:
        old = rules.weights or [0.0] * len(names)
        weights = [float(overrides.get(n, w)) for n, w in zip(names, old, strict=True)]
    if name == "greedy":
        return GreedyBot(engine, seed, weights=weights)
    iterations, seconds = parse_budget(budget)
    config = attrs.evolve(CONFIGS[name], **changed)
    return ISMCTSBot(engine, seed, iterations, seconds, config, weights, name)


def play(job: tuple[str, int, str, str, int]) -> dict[str, Any]:
    pack, players, bot, opponent, seed = job
    engine = _engine(pack)
    seat_of_bot = seed % players
    specs = [bot if s == seat_of_bot else opponent for s in range(players)]
    bots = [build(sp, engine, seed * 1009 + s) for s, sp in enumerate(specs)]
    recorder = Recorder(engine.rules, players)
    st = engine.new_game(players, seed, None, recorder)
    cpu = [0.0] * players
    asked = [0] * players
    while st.pending is not None:
        p = st.pending.player
        start = time.process_time()
        option = bots[p].choose(Turn(engine, st))
        cpu[p] += time.process_time() - start
        asked[p] += len(st.pending.options) > 1
        engine.apply_fast(st, option)
    bought = [sum(per_seat.values()) for per_seat in recorder.counts.get("bought", [{}] * players)]
    tech = [0] * players
    for line, values in st.breakdown.items():
        if "technolog" in line:
            tech = [a + b for a, b in zip(tech, values, strict=True)]
    return {
        "seed": seed,
        "bot_seat": seat_of_bot,
        "winners": list(st.winners),
        "scores": list(st.scores),
        "bought": bought,
        "tech": tech,
        "cpu": cpu,
        "asked": asked,
    }


def side(games: list[dict[str, Any]], is_bot: bool) -> dict[str, float]:
    seats = [(g, s) for g in games for s in range(len(g["scores"])) if (s == g["bot_seat"]) == is_bot]
    score = sum(g["scores"][s] for g, s in seats)
    return {
        "bought": sum(g["bought"][s] for g, s in seats) / len(seats),
        "tech_share": sum(g["tech"][s] for g, s in seats) / score if score else 0.0,
        "cpu": sum(g["cpu"][s] for g, s in seats) / max(1, sum(g["asked"][s] for g, s in seats)),
        "score": score / len(seats),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bot", help="BOT[:BUDGET][+FEATURE=WEIGHT...], e.g. ismcts:100 or ismcts:0.05s")
    ap.add_argument("opponent", help="OPPONENT[:BUDGET][+FEATURE=WEIGHT...]")
    ap.add_argument("--pack", default="base")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="a line per game")
    args = ap.parse_args()
    jobs = [(args.pack, args.players, args.bot, args.opponent, s) for s in range(args.seed, args.seed + args.games)]
    start = time.perf_counter()
    games: list[dict[str, Any]] = []
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            for g in pool.imap_unordered(play, jobs):
                games.append(g)
                if args.verbose:
                    print(g, flush=True)
    else:
        for job in jobs:
            games.append(play(job))
            if args.verbose:
                print(games[-1], flush=True)
    wins = sum(1 / len(g["winners"]) for g in games if g["bot_seat"] in g["winners"])
    # with more than 2 players: of the pairs (the bot, one opponent seat), the share where the
    # bot finished ahead (the higher score; equal scores one half), as a league counts it
    ahead = pairs = 0.0
    for g in games:
        mine = g["scores"][g["bot_seat"]]
        for seat, score in enumerate(g["scores"]):
            if seat != g["bot_seat"]:
                pairs += 1
                ahead += 1.0 if mine > score else 0.5 if mine == score else 0.0
    low, high = proportion_confint(round(wins), len(games), alpha=0.05, method="wilson")
    b, o = side(games, True), side(games, False)
    print(
        f"{args.bot} vs {args.opponent} ({args.pack}, {args.players} players, seeds {args.seed}-"
        f"{args.seed + args.games - 1}, the bot's seat rotated): {args.bot} won {wins:g}/{len(games)} = "
        f"{100 * wins / len(games):.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"
    )
    if args.players > 2:
        low, high = proportion_confint(round(ahead), round(pairs), alpha=0.05, method="wilson")
        print(
            f"  finished ahead of an opponent seat (higher score, ties one half) in {ahead:g}/{pairs:g} = "
            f"{100 * ahead / pairs:.1f}% of the pairs (95% CI {100 * low:.1f}-{100 * high:.1f}%; pairs of one game "
            "are not independent)"
        )
    for name, s in ((args.bot, b), (args.opponent, o)):
        print(
            f"  {name}: bought {s['bought']:.2f} per player-game, technologies {100 * s['tech_share']:.1f}% of "
            f"its score ({s['score']:.1f} a game), {s['cpu']:.4f} s of CPU per decision with a choice"
        )
    print(f"  {time.perf_counter() - start:.0f} s wall clock")


if __name__ == "__main__":
    main()
