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
details { margin: 1em 0; }
"""


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


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


def write(figs: dict[str, Any], images: list[tuple[str, str]], path: Path) -> None:
    folder = path.parent
    packs = ", ".join(f"{k} ({v} games)" for k, v in figs["packs"].items())
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>Balance report</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Balance report</h1>",
        f"<p>{figs['games']} games of {html.escape(packs)}; mean length {figs['mean_turns']:.1f} turns. "
        "A shared win counts as a fraction of a win. Intervals are 95% Wilson score intervals: where they "
        "overlap, the difference may be noise.</p>",
    ]
    if figs.get("skipped_lines"):
        parts.append(f"<p>{figs['skipped_lines']} broken or foreign lines of the results were skipped.</p>")
    parts.append("<h2>Win rates</h2>")
    parts.append(_rate_table(figs["by_seat"], "seat") + _rate_table(figs["by_bot"], "bot"))
    for name, caption in images:
        data = base64.b64encode((folder / name).read_bytes()).decode("ascii")
        parts.append(
            f"<figure><img src='data:image/png;base64,{data}' alt='{html.escape(caption)}'>"
            f"<figcaption>{html.escape(caption)} (<a href='{html.escape(name)}'>{html.escape(name)}</a>)</figcaption>"
            "</figure>"
        )
    parts.append("<h2>Cards</h2>")
    for stat, rows in figs["cards"].items():
        parts.append(_card_table(stat, rows))
    parts.append("</body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")
