"""Results -> the report's figures: rates with 95% Wilson intervals, distributions, counts."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import numpy as np
from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]


def _interval(wins: Any, n: Any) -> tuple[Any, Any]:
    """95% Wilson intervals; shared wins are fractions, so the interval is for the rounded count,
    widened to hold the rate itself."""
    low, high = proportion_confint(np.round(wins), np.maximum(n, 1), alpha=0.05, method="wilson")
    rate = wins / np.maximum(n, 1)
    return np.minimum(low, rate), np.maximum(high, rate)


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


def compute(games: list[dict[str, Any]]) -> dict[str, Any]:
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
    single: dict[str, bool] = {}  # statistics where every player has exactly one card (a start planet)
    total_players = 0
    total_wins = 0.0
    packs: Counter[str] = Counter()
    for g in games:
        n = g["players"]
        winners = g["winners"]
        share = 1 / len(winners) if winners else 0.0
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
    }
