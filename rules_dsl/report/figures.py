"""Results -> the report's figures: rates with 95% Wilson intervals, distributions, counts."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import numpy as np
from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-untyped]


def rate_rows(wins: dict[str, float], seen: dict[str, int]) -> list[dict[str, Any]]:
    """One row per label: n, wins, rate, and the 95% interval (shared wins count as fractions)."""
    labels = list(seen)
    if not labels:
        return []
    n = np.array([seen[k] for k in labels])
    w = np.array([wins.get(k, 0.0) for k in labels])
    low, high = proportion_confint(np.round(w), n, alpha=0.05, method="wilson")
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
    # statistic -> card -> [players with it, their wins]; and players / wins per statistic
    with_card: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))
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
            table = with_card[stat]
            for seat, cards in enumerate(per_seat):
                if not isinstance(cards, dict):
                    continue
                won = share if seat in winners else 0.0
                if single.get(stat, True):
                    single[stat] = len(cards) == 1 and next(iter(cards.values())) == 1
                for card in cards:
                    entry = table[card]
                    entry[0] += 1
                    entry[1] += won
    card_stats: dict[str, list[dict[str, Any]]] = {}
    by_single: dict[str, list[dict[str, Any]]] = {}
    for stat, table in with_card.items():
        rows: list[dict[str, Any]] = []
        labels = sorted(table)
        n_with = np.array([table[c][0] for c in labels])
        w_with = np.array([table[c][1] for c in labels])
        n_without = total_players - n_with
        w_without = total_wins - w_with
        lo1, hi1 = proportion_confint(np.round(w_with), n_with, alpha=0.05, method="wilson")
        safe = np.maximum(n_without, 1)
        lo2, hi2 = proportion_confint(np.round(w_without), safe, alpha=0.05, method="wilson")
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
            by_single[stat] = rate_rows({c: table[c][1] for c in labels}, {c: int(table[c][0]) for c in labels})
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
