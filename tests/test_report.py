"""rules-dsl report: figures from results, broken lines skipped and counted, the page in a real browser."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from rules_dsl.cli import main

Capsys = pytest.CaptureFixture[str]
CHROMIUM = "/usr/bin/chromium"
BROWSER_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    folder = tmp_path_factory.mktemp("report")
    results = folder / "r.jsonl"
    assert main(["simulate", "--pack", "microcosm", "--games", "12", "--quiet", "--out", str(results)]) == 0
    good = results.read_text().splitlines()
    # a broken line, a foreign line and a line of the wrong shape among the games
    mixed = [good[0], "{not json", '{"hello": "world"}', *good[1:6], "[1, 2]", *good[6:]]
    results.write_text("\n".join(mixed) + "\n")
    out = folder / "report"
    import io
    from contextlib import redirect_stderr, redirect_stdout

    err, std = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(std):
        assert main(["report", str(results), "--out", str(out), "--json"]) == 0
    return out, results, err.getvalue() + "\n" + std.getvalue()


def test_report_skips_bad_lines_and_counts_them(report: tuple[Path, Path, str]) -> None:
    out, results, text = report
    assert f"{results}:2: skipped: not JSON" in text
    assert f"{results}:3: skipped: not a game result: no 'seed'" in text
    assert f"{results}:9: skipped: not a game result: a JSON list, not a game" in text
    assert "wrote" in text and "(12 games, 3 broken or foreign lines skipped)" in text
    figs = json.loads(text[text.index("{") :])
    assert figs["games"] == 12 and figs["skipped_lines"] == 3
    seats = {r["label"]: r for r in figs["by_seat"]}
    assert sum(r["wins"] for r in seats.values()) == 12  # every game has a winner (shares add up)
    for r in figs["by_seat"]:
        assert r["low"] <= r["rate"] <= r["high"]
    # every card counted as played: players with it plus players without it are all players
    for row in figs["cards"]["played"]:
        assert row["with_n"] + row["without_n"] == 24


def test_report_writes_the_plots_and_one_page(report: tuple[Path, Path, str]) -> None:
    out, _, _ = report
    pngs = sorted(p.name for p in out.glob("*.png"))
    for name in ("win-rate-by-seat.png", "win-rate-by-bot.png", "win-rate-by-scenario.png", "scores.png",
                 "game-length.png", "end-triggers.png", "cards-played.png"):  # fmt: skip
        assert name in pngs
    page = (out / "index.html").read_text()
    assert page.count("data:image/png;base64,") == len(pngs)
    assert "<script" not in page


def test_report_of_nothing_is_a_clear_error(tmp_path: Path, capsys: Capsys) -> None:
    empty = tmp_path / "e.jsonl"
    empty.write_text("garbage\n")
    assert main(["report", str(empty), "--out", str(tmp_path / "r")]) == 1
    err = capsys.readouterr().err
    assert f"{empty}:1: skipped: not JSON" in err
    assert err.endswith(f"error: no game results in {empty} (1 lines skipped)\n")
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 1
    assert "cannot read results file" in capsys.readouterr().err


# scripts/test.sh installs the system's chromium where it can; under CI it must be there
@pytest.mark.skipif(
    not os.environ.get("CI") and (not Path(CHROMIUM).exists() or shutil.which("chromium") is None),
    reason="needs chromium",
)
def test_the_page_in_a_headless_browser(report: tuple[Path, Path, str]) -> None:
    from playwright import sync_api

    out, _, _ = report
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto((out / "index.html").as_uri())
            page.wait_for_load_state("load")
            assert page.title() == "Balance report"
            images = page.eval_on_selector_all(
                "img", "imgs => imgs.map(i => [i.complete, i.naturalWidth, i.getBoundingClientRect().height])"
            )
            assert len(images) == len(list(out.glob("*.png")))
            assert all(complete and width > 100 and height > 50 for complete, width, height in images)
        finally:
            browser.close()
    assert errors == []
