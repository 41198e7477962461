"""`rules-dsl report`: a balance report from simulation results.

`figures.py` turns results into tables of rates with confidence intervals (statsmodels),
`plots.py` draws them (matplotlib), `page.py` writes one self-contained HTML page. Needs
the optional extra `report` (pip install 'rules-dsl[report]').
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules_dsl import files
from rules_dsl.errors import RulesError

MISSING = "rules-dsl report needs matplotlib, statsmodels and pandas: pip install 'rules-dsl[report]'"


def build(paths: list[str], out: Path, warn: Any = None) -> dict[str, Any]:
    """Read results files, write `out/index.html` and the PNG plots; returns the figures."""
    from rules_dsl import results

    try:
        from rules_dsl.report import figures, page, plots
    except ImportError as exc:
        raise RulesError(f"{MISSING} ({exc.name} is missing)") from None
    games: list[dict[str, Any]] = []
    skipped = 0
    for path in paths:
        loaded = results.load(path)
        for line, why in loaded.skipped:
            if warn is not None:
                warn(f"{path}:{line}: skipped: {why}")
        skipped += len(loaded.skipped)
        games.extend(loaded.games)
    if not games:
        raise RulesError(f"no game results in {', '.join(paths)}" + (f" ({skipped} lines skipped)" if skipped else ""))
    files.output_dir(out, "the report")
    figs = figures.compute(games)
    figs["sources"] = list(paths)
    figs["skipped_lines"] = skipped
    try:
        images = plots.draw(figs, out)
        page.write(figs, images, out / "index.html")
    except OSError as exc:  # a full disk, a folder made read-only meanwhile
        raise RulesError(f"cannot write the report to {out}: {exc.strerror or exc}") from None
    return figs


def command(args: Any) -> int:
    import json

    from rules_dsl.terminal import echo

    out = files.check_output_dir(args.out, "the report")  # before reading the results
    figs = build(list(args.results), out, warn=lambda text: echo(text, stderr=True))
    skipped = figs["skipped_lines"]
    note = f", {skipped} broken or foreign lines skipped" if skipped else ""
    echo(f"wrote {out / 'index.html'} ({figs['games']} games{note})", stderr=True)
    if args.json:
        print(json.dumps({k: v for k, v in figs.items() if k not in ("turns", "scores_by_bot")}, indent=2))
    return 0
