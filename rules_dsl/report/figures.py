"""Results -> the report's figures: rates with 95% Wilson intervals, distributions, counts."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import numpy as np
from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]

MIN_SAMPLE = 20  # fewer players (or decisions) than this on a side: a card's row is shown greyed


def _interval(wins: Any, n: Any) -> tuple[Any, Any]:
    """95% Wilson intervals; shared wins are fractions, so the interval is for the rounded count,
    widened to hold the rate itself."""
    low, high = proportion_confint(np.round(wins), np.maximum(n, 1), alpha=0.05, method="wilson")
    rate = wins / np.maximum(n, 1)
    return np.minimum(low, rate), np.maximum(high, rate)


def win_share(game: dict[str, Any]) -> float:
    """What one winning seat of a game counts: a whole win in a co-operative game (the seats
    won together), else a fraction when winners tie."""
    winners = game["winners"]
    if not winners:
        return 0.0
    return 1.0 if game.get("cooperative") else 1 / len(winners)


def rate_rows(wins: dict[str, float], seen: dict[str, int]) -> list[dict[str, Any]]:
    """One row per label: n, wins, rate, and the 95% interval (shared wins count as fractions)."""
    labels = list(seen)
    if not labels:
        return []
    n = np.array([seen[k] for k in labels])
    w = np.array([wins.get(k, 0.0) for k in labels])
    low, high = _interval(w, n)
    return [
        {"label": k, "n": int(n[i]), "wins": float(w[i]), "rate": float(w[i] / n[i]), "low": float(low[i]),
         "high": float(high[i])}
        for i, k in enumerate(labels)
    ]  # fmt: skip


def natural_games(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games as their bots played them, each once: a results file of `rules-dsl
    experiment` holds every arm of every card, most of them copies of the seed's unsteered
    game, so its statistics count that game (`baseline`) once per seed, or a policy
    experiment's `plain` arm (the bot alone) once per seed, and never a steered arm."""
    out: list[dict[str, Any]] = []
    plain_seeds: set[tuple[Any, ...]] = set()
    for g in games:
        e = g.get("experiment")
        if not isinstance(e, dict) or e.get("kind") == "baseline":
            out.append(g)
        elif e.get("kind") == "policy" and e.get("arm") == "plain":
            key = (g.get("pack"), g["players"], tuple(g.get("bots", ())), g["seed"])
            if key not in plain_seeds:
                plain_seeds.add(key)
                out.append(g)
    return out


def compute(games: list[dict[str, Any]], min_sample: int = MIN_SAMPLE) -> dict[str, Any]:
    experiment_games = games
    games = natural_games(games) or games  # files written before baselines hold only arms
    seat_wins: dict[str, float] = defaultdict(float)
    seat_seen: Counter[str] = Counter()
    bot_wins: dict[str, float] = defaultdict(float)
    bot_seen: Counter[str] = Counter()
    scen_wins: dict[str, float] = defaultdict(float)
    scen_seen: Counter[str] = Counter()
    scores_by_bot: dict[str, list[float]] = defaultdict(list)
    turns: list[int] = []
    triggers: Counter[str] = Counter()
    players_count: Counter[int] = Counter()
    # statistic -> card -> players with it, and their wins
    with_n: dict[str, Counter[str]] = defaultdict(Counter)
    with_wins: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    single: dict[str, bool] = {}  # statistics where every player has exactly one card (a starting card)
    total_players = 0
    total_wins = 0.0
    packs: Counter[str] = Counter()
    for g in games:
        n = g["players"]
        winners = g["winners"]
        share = win_share(g)
        players_count[n] += 1
        packs[g["pack"]] += 1
        turns.append(g["turns"])
        triggers[g["end_trigger"] or "(none)"] += 1
        scenario = g["scenario"] or "(none)"
        for seat in range(n):
            won = share if seat in winners else 0.0
            seat_key = f"seat {seat + 1} of {n}"
            seat_wins[seat_key] += won
            seat_seen[seat_key] += 1
            bot = g["bots"][seat]
            bot_wins[bot] += won
            bot_seen[bot] += 1
            scen_wins[scenario] += won
            scen_seen[scenario] += 1
            scores_by_bot[bot].append(g["scores"][seat])
            total_players += 1
            total_wins += won
        counts = g["counts"]
        if not isinstance(counts, dict):
            continue
        for stat, per_seat in counts.items():
            if not isinstance(per_seat, list) or len(per_seat) != n:
                continue
            seen = with_n[stat]
            won_with = with_wins[stat]
            for seat, cards in enumerate(per_seat):
                if not isinstance(cards, dict):
                    continue
                seen.update(cards.keys())  # the hot loop of a big report: Counter.update runs in C
                if seat in winners:
                    for card in cards:
                        won_with[card] += share
                if single.get(stat, True):
                    single[stat] = len(cards) == 1 and next(iter(cards.values())) == 1
    card_stats: dict[str, list[dict[str, Any]]] = {}
    by_single: dict[str, list[dict[str, Any]]] = {}
    for stat, seen in with_n.items():
        rows: list[dict[str, Any]] = []
        labels = sorted(seen)
        n_with = np.array([seen[c] for c in labels])
        w_with = np.array([with_wins[stat].get(c, 0.0) for c in labels])
        n_without = total_players - n_with
        w_without = total_wins - w_with
        lo1, hi1 = _interval(w_with, n_with)
        lo2, hi2 = _interval(w_without, n_without)
        for i, card in enumerate(labels):
            rows.append(
                {
                    "card": card,
                    "with_n": int(n_with[i]),
                    "with_rate": float(w_with[i] / n_with[i]),
                    "with_low": float(lo1[i]),
                    "with_high": float(hi1[i]),
                    "without_n": int(n_without[i]),
                    "without_rate": float(w_without[i] / n_without[i]) if n_without[i] else None,
                    "without_low": float(lo2[i]) if n_without[i] else None,
                    "without_high": float(hi2[i]) if n_without[i] else None,
                }
            )
        rows.sort(key=lambda r: -int(r["with_n"]))
        card_stats[stat] = rows
        if single.get(stat):
            by_single[stat] = rate_rows(dict(with_wins[stat]), {c: seen[c] for c in labels})
    return {
        "games": len(games),
        "cooperative": any(g.get("cooperative") for g in games),
        "packs": dict(packs),
        "players": dict(players_count),
        "by_seat": rate_rows(seat_wins, dict(sorted(seat_seen.items()))),
        "by_bot": rate_rows(bot_wins, dict(sorted(bot_seen.items()))),
        "by_scenario": rate_rows(scen_wins, dict(sorted(scen_seen.items()))),
        "by_single_card": by_single,
        "cards": card_stats,
        "end_triggers": dict(triggers.most_common()),
        "turns": turns,
        "scores_by_bot": dict(scores_by_bot),
        "mean_turns": float(np.mean(turns)),
        "confounded": confounded(games),
        "min_sample": min_sample,
        "picks": pick_rates(games, min_sample),
        "impact": card_impact(experiment_games),
        "arm_games": len(experiment_games) - len(games),
    }


def card_impact(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`rules-dsl experiment` games: per card (or policy), the steered seat's win rate and
    score in each arm, their differences with 95% intervals, and the card's natural pick
    rate (the unsteered seats' decisions that offered it). Empty without experiment games."""
    from rules_dsl.experiment import impact, subjects_of, well_formed

    tagged = [g for g in games if well_formed(g)]
    return [impact(tagged, kind, subject) for kind, subject in subjects_of(tagged)]


# ---- trust: confounded seats, pick rates, comparisons ---------------------------------


def diff_interval(w1: float, n1: int, w2: float, n2: int) -> tuple[float | None, float | None, float | None]:
    """Rate 1 minus rate 2 with its 95% Newcomb interval (statsmodels); None without players."""
    if not n1 or not n2:
        return None, None, None
    from statsmodels.stats.proportion import confint_proportions_2indep

    low, high = confint_proportions_2indep(
        round(w1), n1, round(w2), n2, method="newcomb", compare="diff"
    )  # fmt: skip
    d = w1 / n1 - w2 / n2
    return d, float(min(low, d)), float(max(high, d))


def paired_diff_interval(pairs: list[tuple[float, float]]) -> tuple[float | None, float | None, float | None]:
    """Mean of x minus mean of y over pairs of outcomes in [0, 1] (1 a win, 1/k a k-way
    tie), with the 95% interval of the difference of paired proportions by Newcombe's
    method 10 (Stat. Med. 1998; statsmodels names it `confint_proportions_paired`, not yet
    in a release): the two Wilson intervals joined through the pairs' correlation. An
    independent interval ignores that most pairs agree (the same game until the arms part)
    and is several times wider. A tie enters the 2x2 table as its expected share of each
    cell. None without pairs."""
    n = len(pairs)
    if not n:
        return None, None, None
    both = sum(x * y for x, y in pairs)
    only_x = sum(x * (1 - y) for x, y in pairs)
    only_y = sum((1 - x) * y for x, y in pairs)
    neither = n - both - only_x - only_y
    p1, p2 = (both + only_x) / n, (both + only_y) / n
    l1, u1 = (float(v) for v in proportion_confint(both + only_x, n, alpha=0.05, method="wilson"))
    l2, u2 = (float(v) for v in proportion_confint(both + only_y, n, alpha=0.05, method="wilson"))
    margins = (both + only_x) * (only_y + neither) * (both + only_y) * (only_x + neither)
    # Newcombe's phi with his continuity correction of the cross product
    cross = both * neither - only_x * only_y
    corrected = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
    phi = corrected / margins**0.5 if margins > 0 else 0.0
    d = p1 - p2
    low = d - max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2) ** 0.5
    high = d + max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2) ** 0.5
    return d, min(low, d), max(high, d)


def confounded(games: list[dict[str, Any]]) -> list[str]:
    """Warnings where a bot never sat in a seat that others sat in (for one player count):
    what the seat table says cannot be told from what the bot table says."""
    seats: dict[int, dict[str, Counter[int]]] = defaultdict(lambda: defaultdict(Counter))
    for g in games:
        for seat, bot in enumerate(g["bots"]):
            seats[g["players"]][bot][seat] += 1
    out = []
    for n, by_bot in sorted(seats.items()):
        if len(by_bot) < 2:
            continue
        for bot, where in sorted(by_bot.items()):
            if len(where) < n:
                sat = ", ".join(str(s + 1) for s in sorted(where))
                out.append(
                    f"{n}-player games: {bot} only ever sat in seat {sat}, so seat and bot are confounded "
                    "(a seat's win rate is partly its bot's, a bot's partly its seat's); "
                    "simulate with --rotate-seats to separate them"
                )
    return out


def _players(n: int) -> str:
    return f"{n} player" if n == 1 else f"{n} players"


def pick_rates(games: list[dict[str, Any]], min_sample: int = MIN_SAMPLE) -> list[dict[str, Any]]:
    """Per bot and card, from the decisions: how often the card was taken when offered (pick
    rate, 95% Wilson interval over decisions), and among that bot's players who were offered
    it, the win rate of those who took it minus those who never did (95% Newcomb interval).
    A row with fewer than `min_sample` decisions or players on a side says why it is weak."""
    offered: Counter[tuple[str, str]] = Counter()  # decisions
    taken: Counter[tuple[str, str]] = Counter()
    took_n: Counter[tuple[str, str]] = Counter()  # players
    took_w: dict[tuple[str, str], float] = defaultdict(float)
    left_n: Counter[tuple[str, str]] = Counter()
    left_w: dict[tuple[str, str], float] = defaultdict(float)
    for g in games:
        choices = g.get("choices")
        if not isinstance(choices, dict):
            continue
        offers, takes = choices.get("offered"), choices.get("taken")
        n = g["players"]
        if not (isinstance(offers, list) and isinstance(takes, list) and len(offers) == len(takes) == n):
            continue
        winners = g["winners"]
        share = win_share(g)
        for seat in range(n):
            seen, took = offers[seat], takes[seat]
            if not (isinstance(seen, dict) and isinstance(took, dict)):
                continue
            bot = g["bots"][seat]
            won = share if seat in winners else 0.0
            for card, count in seen.items():
                key = (bot, card)
                offered[key] += count
                k = took.get(card, 0)
                taken[key] += k
                if k:
                    took_n[key] += 1
                    took_w[key] += won
                else:
                    left_n[key] += 1
                    left_w[key] += won
    keys = sorted(offered, key=lambda k: (k[0], -offered[k], k[1]))
    if not keys:
        return []
    n_off = np.array([offered[k] for k in keys])
    n_take = np.array([taken[k] for k in keys])
    low, high = _interval(n_take.astype(float), n_off)
    rows = []
    for i, (bot, card) in enumerate(keys):
        key = (bot, card)
        d, d_low, d_high = diff_interval(took_w[key], took_n[key], left_w[key], left_n[key])
        weak = []
        if offered[key] < min_sample:
            weak.append(f"offered in {offered[key]} decision{'' if offered[key] == 1 else 's'}")
        if took_n[key] < min_sample:
            weak.append(f"{_players(took_n[key])} took it")
        if left_n[key] < min_sample:
            weak.append(f"{_players(left_n[key])} left it")
        rows.append(
            {
                "bot": bot,
                "card": card,
                "offered": int(n_off[i]),
                "taken": int(n_take[i]),
                "pick_rate": float(n_take[i] / n_off[i]),
                "pick_low": float(low[i]),
                "pick_high": float(high[i]),
                "took_players": took_n[key],
                "took_win_rate": took_w[key] / took_n[key] if took_n[key] else None,
                "left_players": left_n[key],
                "left_win_rate": left_w[key] / left_n[key] if left_n[key] else None,
                "win_diff": d,
                "win_diff_low": d_low,
                "win_diff_high": d_high,
                "weak": f"under the minimum sample of {min_sample}: {', '.join(weak)}" if weak else "",
            }
        )
    return rows


def _mean(xs: list[float]) -> dict[str, Any]:
    """Mean with its 95% t interval (statsmodels); no interval from fewer than 2 values."""
    from statsmodels.stats.weightstats import DescrStatsW  # type: ignore[import-untyped]

    m = float(np.mean(xs)) if xs else None
    if len(xs) < 2:
        return {"n": len(xs), "value": m, "low": None, "high": None}
    low, high = DescrStatsW(np.asarray(xs, dtype=float)).tconfint_mean()
    return {"n": len(xs), "value": m, "low": float(low), "high": float(high)}


def _mean_diff(a: list[float], b: list[float]) -> dict[str, Any]:
    """b's mean minus a's, 95% Welch interval."""
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    if len(a) < 2 or len(b) < 2:
        return {"diff": None, "low": None, "high": None}
    x, y = np.asarray(b, dtype=float), np.asarray(a, dtype=float)
    d = float(x.mean() - y.mean())
    if x.std() == 0 and y.std() == 0:
        return {"diff": d, "low": d, "high": d}
    low, high = CompareMeans(DescrStatsW(x), DescrStatsW(y)).tconfint_diff(usevar="unequal")
    return {"diff": d, "low": float(low), "high": float(high)}


def _rate(w: float, n: int) -> dict[str, Any]:
    if not n:
        return {"n": 0, "value": None, "low": None, "high": None}
    low, high = _interval(np.array([w]), np.array([n]))
    return {"n": n, "value": w / n, "low": float(low[0]), "high": float(high[0])}


def _measures(games: list[dict[str, Any]]) -> dict[str, tuple[str, Any]]:
    """measure name -> ("rate", (wins, n)) or ("mean", values), in page order."""
    out: dict[str, tuple[str, Any]] = {}
    bot_w: dict[str, float] = defaultdict(float)
    bot_n: Counter[str] = Counter()
    seat_w: dict[str, float] = defaultdict(float)
    seat_n: Counter[str] = Counter()
    parts: dict[str, list[float]] = defaultdict(list)
    triggers: Counter[str] = Counter()
    for g in games:
        n, winners = g["players"], g["winners"]
        share = win_share(g)
        for seat, bot in enumerate(g["bots"]):
            won = share if seat in winners else 0.0
            bot_w[bot] += won
            bot_n[bot] += 1
            seat_w[f"seat {seat + 1} of {n}"] += won
            seat_n[f"seat {seat + 1} of {n}"] += 1
        for name, part in g["breakdown"].items():
            if isinstance(part, list):
                parts[name].extend(float(x) for x in part if isinstance(x, int | float))
        triggers[g["end_trigger"] or "(none)"] += 1
    for bot in sorted(bot_n):
        out[f"win rate of {bot} players"] = ("rate", (bot_w[bot], bot_n[bot]))
    for where in sorted(seat_n):
        out[f"win share of {where}"] = ("rate", (seat_w[where], seat_n[where]))
    out["score per player"] = ("mean", [float(s) for g in games for s in g["scores"]])
    for name in sorted(parts):
        out[f"score from {name} per player"] = ("mean", parts[name])
    out["game length (turns)"] = ("mean", [float(g["turns"]) for g in games])
    for trigger, count in triggers.most_common():
        out[f"ended by: {trigger}"] = ("rate", (float(count), len(games)))
    return out


def compare(runs: list[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Runs side by side: each measure's value in each run with its 95% interval, and every
    run's difference from the first (Newcomb intervals for rates, Welch for means). A
    measure missing from a run (a bot it did not play) is None there."""
    measured = [(label, _measures(games)) for label, games in runs]
    names: list[str] = []
    for _, m in measured:
        names.extend(k for k in m if k not in names)
    rows = []
    base = measured[0][1]
    for name in names:
        kind = next(m[name][0] for _, m in measured if name in m)
        values, diffs = [], []
        for i, (label, m) in enumerate(measured):
            got = m.get(name)
            if kind == "rate":
                w, n = got[1] if got else (0.0, 0)
                values.append({"label": label, **_rate(w, n)})
            else:
                values.append({"label": label, **_mean(got[1] if got else [])})
            if i == 0:
                continue
            ref = base.get(name)
            if kind == "rate":
                bw, bn = ref[1] if ref else (0.0, 0)
                w, n = got[1] if got else (0.0, 0)
                d, low, high = diff_interval(w, n, bw, bn)
                diffs.append({"label": label, "diff": d, "low": low, "high": high})
            else:
                diffs.append({"label": label, **_mean_diff(ref[1] if ref else [], got[1] if got else [])})
        rows.append({"measure": name, "kind": kind, "values": values, "diffs": diffs})
    return rows
