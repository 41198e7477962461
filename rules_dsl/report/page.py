"""One self-contained HTML page: the plots inline (base64 PNG), the tables, no scripts."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
figure { margin: 1.5em 0; } img { max-width: 100%; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
tr.weak td { color: #999; background: #f6f6f6; }
p.warning { border-left: 4px solid #c44e52; background: #fbeeee; padding: 0.4em 0.8em; }
details { margin: 1em 0; }
"""


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _pp(x: float | None) -> str:
    """A difference of rates in percentage points."""
    return "-" if x is None else f"{100 * x:+.1f} pt"


def _num(x: float | None, signed: bool = False) -> str:
    return "-" if x is None else f"{x:+.2f}" if signed else f"{x:.2f}"


def _rate_table(rows: list[dict[str, Any]], what: str) -> str:
    out = [
        f"<table><tr><th>{html.escape(what)}</th><th>players</th><th>wins</th><th>win rate</th>"
        "<th>95% interval</th></tr>"
    ]
    for r in rows:
        out.append(
            f"<tr><td>{html.escape(str(r['label']))}</td><td>{r['n']}</td><td>{r['wins']:g}</td>"
            f"<td>{_pct(r['rate'])}</td><td>{_pct(r['low'])} - {_pct(r['high'])}</td></tr>"
        )
    return "".join(out) + "</table>"


def _card_table(stat: str, rows: list[dict[str, Any]]) -> str:
    out = [
        f"<details><summary>Every card: {html.escape(stat)} ({len(rows)} cards)</summary><table><tr><th>card</th>"
        f"<th>players who {html.escape(stat)} it</th><th>their win rate</th><th>95% interval</th>"
        "<th>players who did not</th><th>their win rate</th></tr>"
    ]
    for r in rows:
        out.append(
            f"<tr><td>{html.escape(r['card'])}</td><td>{r['with_n']}</td><td>{_pct(r['with_rate'])}</td>"
            f"<td>{_pct(r['with_low'])} - {_pct(r['with_high'])}</td><td>{r['without_n']}</td>"
            f"<td>{_pct(r['without_rate'])}</td></tr>"
        )
    return "".join(out) + "</table></details>"


def _pick_tables(rows: list[dict[str, Any]], min_sample: int) -> str:
    """Per bot: each card's pick rate and the win-rate difference when taken; weak rows greyed."""
    if not rows:
        return "<p>These results hold no decisions (files written before `choices` were recorded).</p>"
    bots = sorted({r["bot"] for r in rows})
    out = [
        "<p>Pick rate: of the decisions that offered the card to a player of the bot, the share where "
        "the player took it (95% Wilson interval; a game's decisions are not independent, so read it as "
        "a lower bound on the noise). Win-rate difference: among the players offered it, the win rate of "
        "those who took it at least once minus those who never did (95% Newcomb interval). It still "
        "measures a bot's habits as much as a card's strength: a card the bot takes when it is already "
        f"winning looks strong. Greyed rows have fewer than {min_sample} decisions or players on a side "
        "(--min-sample) and say so.</p>"
    ]
    for bot in bots:
        mine = [r for r in rows if r["bot"] == bot]
        out.append(
            f"<details class='picks' open><summary>Pick rates of {html.escape(bot)} players ({len(mine)} cards)"
            "</summary><table><tr><th>card</th><th>offered</th><th>taken</th><th>pick rate</th>"
            "<th>95% interval</th><th>players who took it</th><th>win rate</th><th>who left it</th>"
            "<th>win rate</th><th>difference</th><th>95% interval</th><th>note</th></tr>"
        )
        for r in mine:
            weak = r["weak"]
            attrs = f" class='weak' title='{html.escape(weak, quote=True)}'" if weak else ""
            out.append(
                f"<tr{attrs}><td>{html.escape(r['card'])}</td><td>{r['offered']}</td><td>{r['taken']}</td>"
                f"<td>{_pct(r['pick_rate'])}</td><td>{_pct(r['pick_low'])} - {_pct(r['pick_high'])}</td>"
                f"<td>{r['took_players']}</td><td>{_pct(r['took_win_rate'])}</td><td>{r['left_players']}</td>"
                f"<td>{_pct(r['left_win_rate'])}</td><td>{_pp(r['win_diff'])}</td>"
                f"<td>{_pp(r['win_diff_low'])} - {_pp(r['win_diff_high'])}</td><td>{html.escape(weak)}</td></tr>"
            )
        out.append("</table></details>")
    return "".join(out)


def _impact_table(rows: list[dict[str, Any]]) -> str:
    """`rules-dsl experiment` figures: per card, the steered seat taking it against leaving it."""
    out = [
        "<p>From <code>rules-dsl experiment</code> games: the same seeds played with one seat (rotated) "
        "made to take the card whenever an option named it, and made to leave it (a policy: followed, "
        "against the bot alone). Win difference: 95% Newcombe interval for paired proportions (a seed's "
        "two arms are a pair); score difference: the mean over "
        "the paired seeds, 95% t interval. Natural pick rate: the other seats' decisions that offered "
        "the card. Unlike the pick rates below, these do not depend on when a bot chooses to take a card.</p>"
        "<table><tr><th>card or policy</th><th>arms</th><th>games</th><th>win rate</th><th>95% interval</th>"
        "<th>other arm</th><th>win difference</th><th>95% interval</th><th>score difference</th>"
        "<th>95% interval</th><th>offered / taken (steered seat)</th><th>natural pick rate</th><th>note</th></tr>"
    ]
    for r in rows:
        a, b = r[r["treatment"]], r[r["control"]]
        wd, sd, nat = r["win_difference"] or {}, r["score_difference"] or {}, r.get("natural") or {}
        note = "never offered to the steered seat" if r.get("never_offered") else ""
        cls = " class='weak'" if note else ""
        out.append(
            f"<tr{cls}><td>{html.escape(r['subject'])}</td><td>{r['treatment']} / {r['control']}</td>"
            f"<td>{a['games']} / {b['games']}</td><td>{_pct(a['win_rate'])}</td>"
            f"<td>{_pct(a['low'])} - {_pct(a['high'])}</td><td>{_pct(b['win_rate'])}</td>"
            f"<td>{_pp(wd.get('diff'))}</td><td>{_pp(wd.get('low'))} - {_pp(wd.get('high'))}</td>"
            f"<td>{_num(sd.get('diff'), True)}</td><td>{_num(sd.get('low'), True)} - {_num(sd.get('high'), True)}</td>"
            f"<td>{a['offered']} / {a['taken']}</td>"
            f"<td>{_pct(nat.get('pick_rate'))} ({nat.get('taken', '-')} of {nat.get('offered', '-')})</td>"
            f"<td>{note}</td></tr>"
        )
    return "".join(out) + "</table>"


def _warnings(texts: list[str]) -> str:
    return "".join(f"<p class='warning'>Warning: {html.escape(t)}</p>" for t in texts)


def _images(images: list[tuple[str, str]], folder: Path) -> list[str]:
    parts = []
    for name, caption in images:
        data = base64.b64encode((folder / name).read_bytes()).decode("ascii")
        parts.append(
            f"<figure><img src='data:image/png;base64,{data}' alt='{html.escape(caption)}'>"
            f"<figcaption>{html.escape(caption)} (<a href='{html.escape(name)}'>{html.escape(name)}</a>)</figcaption>"
            "</figure>"
        )
    return parts


def _head(title: str) -> list[str]:
    return [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]


def _run(figs: dict[str, Any], images: list[tuple[str, str]], folder: Path, level: int) -> list[str]:
    """One run's sections: what it holds, win rates, plots, cards, pick rates."""
    h = f"h{level}"
    packs = ", ".join(f"{k} ({v} games)" for k, v in figs["packs"].items())
    shares = (
        "The players of a co-operative game win or lose together: every seat of a game won together "
        "counts a whole win, and a game lost together a loss for every seat."
        if figs.get("cooperative")
        else "A shared win counts as a fraction of a win."
    )
    parts = [
        f"<p>{figs['games']} games of {html.escape(packs)}; mean length {figs['mean_turns']:.1f} turns. "
        f"{shares} Intervals are 95% Wilson score intervals: where they "
        "overlap, the difference may be noise.</p>",
    ]
    if figs.get("arm_games"):
        parts.append(
            f"<p>Besides these, {figs['arm_games']} games are arms of <code>rules-dsl experiment</code>: "
            "a seat steered to take or leave a card, most of them copies of a seed's unsteered game. "
            "They count in the card impact table only.</p>"
        )
    if figs.get("skipped_lines"):
        parts.append(f"<p>{figs['skipped_lines']} broken or foreign lines of the results were skipped.</p>")
    parts.append(_warnings(figs["confounded"]))
    parts.append(f"<{h}>Win rates</{h}>")
    parts.append(_rate_table(figs["by_seat"], "seat") + _rate_table(figs["by_bot"], "bot"))
    parts.extend(_images(images, folder))
    if figs.get("unplotted"):
        parts.append(
            f"<p>{len(figs['unplotted'])} statistics are not plotted (a report plots the first "
            f"{figs['plot_limit']}); "
            "the tables below list them all.</p>"
        )
    parts.append(f"<{h}>Cards</{h}>")
    for stat, rows in figs["cards"].items():
        parts.append(_card_table(stat, rows))
    if figs.get("impact"):
        parts.append(f"<{h}>Card impact (experiments)</{h}>")
        parts.append(_impact_table(figs["impact"]))
    parts.append(f"<{h}>Pick rates, by bot</{h}>")
    if figs["confounded"]:
        parts.append(
            _warnings(["seats and bots are confounded here (see above): a bot's rows hold its seats' effect too"])
        )
    parts.append(_pick_tables(figs["picks"], figs["min_sample"]))
    return parts


def write(figs: dict[str, Any], images: list[tuple[str, str]], path: Path) -> None:
    parts = _head("Balance report") + _run(figs, images, path.parent, 2)
    parts.append("</body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")


def _comparison_table(rows: list[dict[str, Any]]) -> str:
    labels = [v["label"] for v in rows[0]["values"]] if rows else []
    base = labels[0] if labels else ""
    head = "".join(f"<th>{html.escape(lab)}</th><th>95% interval</th>" for lab in labels)
    head += "".join(f"<th>{html.escape(lab)} - {html.escape(base)}</th><th>95% interval</th>" for lab in labels[1:])
    out = [f"<table class='comparison'><tr><th>measure</th>{head}</tr>"]
    for r in rows:
        rate = r["kind"] == "rate"
        show, diff = (_pct, _pp) if rate else (_num, lambda x: _num(x, True))
        cells = "".join(
            f"<td>{show(v['value'])} (n={v['n']})</td><td>{show(v['low'])} - {show(v['high'])}</td>"
            for v in r["values"]
        )
        cells += "".join(f"<td>{diff(d['diff'])}</td><td>{diff(d['low'])} - {diff(d['high'])}</td>" for d in r["diffs"])
        out.append(f"<tr><td>{html.escape(r['measure'])}</td>{cells}</tr>")
    return "".join(out) + "</table>"


def write_comparison(
    runs: list[tuple[str, dict[str, Any], list[tuple[str, str]]]],
    rows: list[dict[str, Any]],
    images: list[tuple[str, str]],
    path: Path,
) -> None:
    folder = path.parent
    labels = [label for label, _, _ in runs]
    parts = _head("Balance report: " + " vs ".join(labels))
    parts.append(
        "<p>Each run is one results file. Rates (win rates counted over players, end triggers over games) "
        "have 95% Wilson intervals and their differences from the first run 95% Newcomb intervals; means "
        "(scores per player, game length) have 95% t intervals and Welch intervals for the differences. "
        "A difference whose interval holds 0 may be noise.</p>"
    )
    for label, figs, _ in runs:
        warn = [f"{label}: {w}" for w in figs["confounded"]]
        parts.append(_warnings(warn))
    parts.append("<h2>Side by side</h2>")
    parts.append(_comparison_table(rows))
    parts.extend(_images(images, folder))
    for label, figs, own in runs:
        parts.append(f"<h2>Run: {html.escape(label)} ({html.escape(', '.join(figs['sources']))})</h2>")
        parts.extend(_run(figs, own, folder, 3))
    parts.append("</body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")
