"""The report's pictures, drawn with matplotlib (no display needed) as PNG files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no window, no display server

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

MAX_BARS = 30  # the most frequent cards; the page's tables list them all
# A plot costs about a second to draw: one for each statistic made a report of 300 of them
# run past ten minutes. The first this many statistics (in the pack's order) are plotted;
# the page's tables list every one, and `unplotted` says which were not.
MAX_STAT_PLOTS = 20


def _rates(ax: Any, rows: list[dict[str, Any]], title: str) -> None:
    rows = rows[:MAX_BARS]
    labels = [f"{r['label']} (n={r['n']})" for r in rows]
    rate = np.array([r["rate"] for r in rows])
    err = np.array([[r["rate"] - r["low"] for r in rows], [r["high"] - r["rate"] for r in rows]])
    y = np.arange(len(rows))
    ax.barh(y, rate, xerr=err, capsize=3, color="#4C72B0")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% interval)")
    ax.set_title(title)


def _save(fig: Any, out: Path, name: str, images: list[tuple[str, str]], caption: str) -> None:
    fig.tight_layout()
    fig.savefig(out / name, dpi=80)
    plt.close(fig)
    images.append((name, caption))


def _height(n: int) -> float:
    return 1.2 + 0.3 * max(1, min(n, MAX_BARS))


def draw(figs: dict[str, Any], out: Path, prefix: str = "") -> list[tuple[str, str]]:
    """Every plot as `out/PREFIXNAME.png`; returns (file name, caption) in page order."""
    images: list[tuple[str, str]] = []
    plotted = 0
    unplotted: list[str] = figs.setdefault("unplotted", [])
    figs["plot_limit"] = MAX_STAT_PLOTS
    for key, what in (("by_seat", "seat"), ("by_bot", "bot"), ("by_scenario", "scenario")):
        rows = figs[key]
        fig, ax = plt.subplots(figsize=(7, _height(len(rows))))
        _rates(ax, rows, f"Win rate by {what}")
        _save(
            fig, out, prefix + f"win-rate-by-{what}.png", images, f"Win rate by {what}, with 95% confidence intervals"
        )
    for stat, rows in figs["by_single_card"].items():
        if plotted >= MAX_STAT_PLOTS:
            unplotted.append(stat)
            continue
        plotted += 1
        rows = sorted(rows, key=lambda r: -r["n"])
        fig, ax = plt.subplots(figsize=(7, _height(len(rows))))
        _rates(ax, rows, f"Win rate by {stat}")
        name = f"win-rate-by-{slug(stat)}.png"
        _save(fig, out, prefix + name, images, f"Win rate by {stat} (every player has one), with 95% intervals")

    fig, ax = plt.subplots(figsize=(7, 3.5))
    bots = list(figs["scores_by_bot"])
    ax.boxplot([figs["scores_by_bot"][b] for b in bots], tick_labels=bots, orientation="horizontal")
    ax.set_xlabel("final score")
    ax.set_title("Score distribution by bot")
    _save(fig, out, prefix + "scores.png", images, "Final scores of each bot's players")

    fig, ax = plt.subplots(figsize=(7, 3.5))
    turns = np.array(figs["turns"])
    ax.hist(turns, bins=min(50, max(5, len(np.unique(turns)))), color="#55A868")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title(f"Game length (mean {turns.mean():.1f} turns)")
    _save(fig, out, prefix + "game-length.png", images, "Game length in turns")

    fig, ax = plt.subplots(figsize=(7, _height(len(figs["end_triggers"]))))
    names = list(figs["end_triggers"])
    ax.barh(names, [figs["end_triggers"][k] for k in names], color="#C44E52")
    ax.invert_yaxis()
    ax.set_xlabel("games")
    ax.set_title("How games ended")
    _save(fig, out, prefix + "end-triggers.png", images, "End triggers")

    # a card never offered to the steered seat has no impact to draw (both arms are the same
    # games): its row stays in the table, and the plot's bars go to the cards that were offered
    impact = [r for r in figs.get("impact", []) if r["win_difference"] is not None and not r.get("never_offered")]
    impact = impact[:MAX_BARS]
    if impact:
        fig, ax = plt.subplots(figsize=(8, _height(len(impact))))
        y = np.arange(len(impact))
        diff = np.array([r["win_difference"]["diff"] for r in impact])
        err = np.array(
            [
                [r["win_difference"]["diff"] - r["win_difference"]["low"] for r in impact],
                [r["win_difference"]["high"] - r["win_difference"]["diff"] for r in impact],
            ]
        )
        ax.barh(y, diff, xerr=err, capsize=3, color="#8172B3")
        nat = [r.get("natural") or {} for r in impact]
        ax.set_yticks(
            y,
            [
                f"{r['subject']} (natural pick "
                + ("-" if n.get("pick_rate") is None else f"{100 * n['pick_rate']:.0f}%")
                + ")"
                for r, n in zip(impact, nat, strict=True)
            ],
        )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.invert_yaxis()
        ax.set_xlim(-1, 1)
        ax.set_xlabel("win rate taking it minus leaving it (95% interval)")
        ax.set_title("Card impact (rules-dsl experiment)")
        _save(fig, out, prefix + "card-impact.png", images, "Card impact: win rate taking minus leaving each card")

    for stat, rows in figs["cards"].items():
        if stat in figs["by_single_card"]:
            continue
        shown = [r for r in rows if r["without_rate"] is not None][:MAX_BARS]
        if not shown:
            continue
        if plotted >= MAX_STAT_PLOTS:
            unplotted.append(stat)
            continue
        plotted += 1
        fig, ax = plt.subplots(figsize=(8, _height(len(shown))))
        y = np.arange(len(shown))
        bars = ((-0.2, "with", "#4C72B0", stat), (0.2, "without", "#DD8452", f"not {stat}"))
        for offset, side, colour, label in bars:
            rate = np.array([r[f"{side}_rate"] for r in shown])
            below = [r[f"{side}_rate"] - r[f"{side}_low"] for r in shown]
            above = [r[f"{side}_high"] - r[f"{side}_rate"] for r in shown]
            err = np.array([below, above])
            ax.barh(y + offset, rate, height=0.4, xerr=err, capsize=2, color=colour, label=label)
        ax.set_yticks(y, [f"{r['card']} ({r['with_n']}/{r['with_n'] + r['without_n']})" for r in shown])
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate of players (95% interval)")
        ax.set_title(f"Players who {stat} a card vs those who did not")
        ax.legend(loc="lower right")
        name = f"cards-{slug(stat)}.png"
        _save(fig, out, prefix + name, images, f"Win rate of players who {stat} each card, against those who did not")
    return images


def draw_comparison(rows: list[dict[str, Any]], out: Path) -> list[tuple[str, str]]:
    """The rates of the comparison (win rates, end triggers) as grouped bars, one colour a run."""
    images: list[tuple[str, str]] = []
    rates = [r for r in rows if r["kind"] == "rate"][:MAX_BARS]
    if not rates:
        return images
    labels = [v["label"] for v in rates[0]["values"]]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.35 * len(rates) * max(1, len(labels) / 2)))
    height = 0.8 / len(labels)
    y = np.arange(len(rates))
    for i, label in enumerate(labels):
        vals = [r["values"][i] for r in rates]
        rate = np.array([v["value"] if v["value"] is not None else 0.0 for v in vals])
        below = [v["value"] - v["low"] if v["value"] is not None else 0.0 for v in vals]
        above = [v["high"] - v["value"] if v["value"] is not None else 0.0 for v in vals]
        offset = (i - (len(labels) - 1) / 2) * height
        ax.barh(y + offset, rate, height=height, xerr=np.array([below, above]), capsize=2, label=label)
    ax.set_yticks(y, [r["measure"] for r in rates])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("rate (95% interval)")
    ax.set_title("Runs compared")
    ax.legend(loc="lower right")
    _save(fig, out, "compare-rates.png", images, "Win rates and end triggers of each run, with 95% intervals")
    return images


def slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-")
