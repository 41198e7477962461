"""`rules-dsl report`: a balance report from simulation results.

`figures.py` turns results into tables of rates with confidence intervals (statsmodels),
`plots.py` draws them (matplotlib), `page.py` writes one self-contained HTML page. Needs
the optional extra `report` (pip install 'rules-dsl[report]'). Several results files are
pooled into one report, or, with one `--label` each, compared side by side.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rules_dsl import files
from rules_dsl.errors import RulesError
from rules_dsl.terminal import echo

MISSING = "rules-dsl report needs matplotlib, statsmodels and pandas: pip install 'rules-dsl[report]'"
BULKY = ("turns", "scores_by_bot")  # per game data the plots need, left out of --json


def _load(paths: list[str], warn: Any) -> tuple[list[dict[str, Any]], int]:
    from rules_dsl import results

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
    return games, skipped


def _modules() -> Any:
    try:
        from rules_dsl.report import figures, page, plots
    except ImportError as exc:
        raise RulesError(f"{MISSING} ({exc.name} is missing)") from None
    return figures, page, plots


def _folder(out: Path) -> None:
    files.output_dir(out, "the report")


@contextmanager
def _writing(out: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:  # a full disk, a folder made read-only meanwhile
        raise RulesError(f"cannot write the report to {out}: {exc.strerror or exc}") from None


def build(paths: list[str], out: Path, warn: Any = None, min_sample: int = 20) -> dict[str, Any]:
    """Read results files (pooled), write `out/index.html` and the PNG plots; returns the figures."""
    figures, page, plots = _modules()
    games, skipped = _load(paths, warn)
    _folder(out)
    figs: dict[str, Any] = figures.compute(games, min_sample)
    figs["sources"] = list(paths)
    figs["skipped_lines"] = skipped
    with _writing(out):
        images = plots.draw(figs, out)
        page.write(figs, images, out / "index.html")
    if figs["unplotted"] and warn is not None:
        warn(
            f"{len(figs['unplotted'])} of the statistics are not plotted (a report plots the first "
            f"{figs['plot_limit']}); the page's tables list them all"
        )
    return figs


def check_labels(paths: list[str], labels: list[str]) -> None:
    from rules_dsl.terminal import UsageError

    if len(labels) != len(paths):
        raise UsageError(
            f"--label: {len(labels)} labels for {len(paths)} results files: give one --label per file, "
            "in the same order (e.g. report a.jsonl b.jsonl --label base --label my-mod)"
        )
    if len(paths) < 2:
        raise UsageError("--label compares runs: give two or more results files, one --label each")
    if len(set(labels)) != len(labels) or not all(label.strip() for label in labels):
        raise UsageError(f"--label: give each run its own non-empty label (got {', '.join(map(repr, labels))})")


def build_comparison(
    paths: list[str], labels: list[str], out: Path, warn: Any = None, min_sample: int = 20
) -> dict[str, Any]:
    """One page comparing the runs (one results file each) side by side, then each run's
    own report; returns {"runs": {label: figures}, "comparison": rows}."""
    check_labels(paths, labels)
    figures, page, plots = _modules()
    loaded = [(label, *_load([path], warn)) for label, path in zip(labels, paths)]
    _folder(out)
    runs = []
    with _writing(out):
        for (label, games, skipped), path in zip(loaded, paths):
            figs = figures.compute(games, min_sample)
            figs["sources"] = [path]
            figs["skipped_lines"] = skipped
            runs.append((label, figs, plots.draw(figs, out, prefix=plots.slug(label) + "-")))
        rows = figures.compare([(label, games) for label, games, _ in loaded])
        images = plots.draw_comparison(rows, out)
        page.write_comparison(runs, rows, images, out / "index.html")
    return {"runs": {label: figs for label, figs, _ in runs}, "comparison": rows}


def command(args: Any) -> int:
    import json

    out = files.check_output_dir(args.out, "the report")  # before reading the results

    def warn(text: str) -> None:
        echo(text, stderr=True)

    if args.label:
        data = build_comparison(list(args.results), list(args.label), out, warn, args.min_sample)
        games = ", ".join(f"{label} {figs['games']} games" for label, figs in data["runs"].items())
        echo(f"wrote {out / 'index.html'} (comparing {games})", stderr=True)
        if args.json:
            runs = {label: {k: v for k, v in figs.items() if k not in BULKY} for label, figs in data["runs"].items()}
            print(json.dumps({"runs": runs, "comparison": data["comparison"]}, indent=2))
        return 0
    figs = build(list(args.results), out, warn, args.min_sample)
    skipped = figs["skipped_lines"]
    note = f", {skipped} broken or foreign lines skipped" if skipped else ""
    if figs.get("arm_games"):
        note += f", and {figs['arm_games']} experiment arm games in the card impact table"
    echo(f"wrote {out / 'index.html'} ({figs['games']} games{note})", stderr=True)
    if args.json:
        print(json.dumps({k: v for k, v in figs.items() if k not in BULKY}, indent=2))
    return 0
