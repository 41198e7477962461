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


# ---- trust: pick rates by bot, confounded seats, runs compared ---------------------------
@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    folder = tmp_path_factory.mktemp("runs")
    fixed, rotated = folder / "fixed.jsonl", folder / "rotated.jsonl"
    argv = ["simulate", "--pack", "microcosm", "--games", "4", "--quiet", "--bots", "greedy,random"]
    assert main([*argv, "--out", str(fixed)]) == 0
    assert main([*argv, "--rotate-seats", "--out", str(rotated)]) == 0
    return folder, fixed, rotated


def _report(*argv: str) -> tuple[int, str, str]:
    import io
    from contextlib import redirect_stderr, redirect_stdout

    err, std = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(std):
        code = main(["report", *argv])
    assert "Traceback" not in err.getvalue()
    return code, std.getvalue(), err.getvalue()


def test_pick_rates_by_bot_come_from_the_decisions(two_runs: tuple[Path, Path, Path]) -> None:
    folder, fixed, _ = two_runs
    code, out, _ = _report(str(fixed), "--out", str(folder / "fixed"), "--json", "--min-sample", "3")
    assert code == 0
    figs = json.loads(out)
    games = [json.loads(line) for line in fixed.read_text().splitlines()]
    picks = {(r["bot"], r["card"]): r for r in figs["picks"]}
    assert {bot for bot, _ in picks} == {"greedy", "random"}
    for (bot, card), row in picks.items():
        seat = games[0]["bots"].index(bot)  # fixed seats: greedy is seat 1 in every game
        assert row["offered"] == sum(g["choices"]["offered"][seat].get(card, 0) for g in games)
        assert row["taken"] == sum(g["choices"]["taken"][seat].get(card, 0) for g in games)
        offered_to = [g for g in games if card in g["choices"]["offered"][seat]]
        took = [g for g in offered_to if g["choices"]["taken"][seat].get(card)]
        assert (row["took_players"], row["left_players"]) == (len(took), len(offered_to) - len(took))
        assert row["pick_low"] <= row["pick_rate"] <= row["pick_high"]
        if row["win_diff"] is not None:
            won = sum(1 for g in took if seat in g["winners"]) / len(took)
            lost = sum(1 for g in offered_to if g not in took and seat in g["winners"]) / (len(offered_to) - len(took))
            assert row["win_diff"] == pytest.approx(won - lost)
            assert row["win_diff_low"] <= row["win_diff"] <= row["win_diff_high"]
        # under 3 players on a side (4 games): greyed, saying why
        assert bool(row["weak"]) == (row["offered"] < 3 or len(took) < 3 or len(offered_to) - len(took) < 3)
    page = (folder / "fixed" / "index.html").read_text()
    weak = [r for r in figs["picks"] if r["weak"]]
    assert weak and page.count("<tr class='weak'") == len(weak)
    assert "under the minimum sample of 3:" in page


def test_fixed_seats_warn_that_seat_and_bot_are_confounded(two_runs: tuple[Path, Path, Path]) -> None:
    folder, fixed, rotated = two_runs
    figs = json.loads(_report(str(fixed), "--out", str(folder / "f"), "--json")[1])
    assert figs["confounded"] == [
        f"2-player games: {bot} only ever sat in seat {seat}, so seat and bot are confounded (a seat's win rate "
        "is partly its bot's, a bot's partly its seat's); simulate with --rotate-seats to separate them"
        for bot, seat in (("greedy", 1), ("random", 2))
    ]
    assert (
        "<p class='warning'>Warning: 2-player games: greedy only ever sat" in (folder / "f" / "index.html").read_text()
    )
    figs = json.loads(_report(str(rotated), "--out", str(folder / "r"), "--json")[1])
    assert figs["confounded"] == []
    assert "class='warning'" not in (folder / "r" / "index.html").read_text()


def test_two_runs_compared_side_by_side(two_runs: tuple[Path, Path, Path]) -> None:
    folder, fixed, rotated = two_runs
    out = folder / "compare"
    code, text, err = _report(str(fixed), str(rotated), "--label", "base", "--label", "rotated", "--out", str(out),
                              "--json")  # fmt: skip
    assert code == 0 and "(comparing base 4 games, rotated 4 games)" in err
    data = json.loads(text)
    assert list(data["runs"]) == ["base", "rotated"]
    rows = {r["measure"]: r for r in data["comparison"]}
    runs = {name: [json.loads(line) for line in path.read_text().splitlines()] for name, path in
            (("base", fixed), ("rotated", rotated))}  # fmt: skip
    for measure in ("win rate of greedy players", "win share of seat 1 of 2", "game length (turns)",
                    "score per player", "ended by: last supply card drawn"):  # fmt: skip
        assert [v["label"] for v in rows[measure]["values"]] == ["base", "rotated"]
    for i, name in enumerate(("base", "rotated")):
        games = runs[name]
        greedy = rows["win rate of greedy players"]["values"][i]
        wins = sum(1 / len(g["winners"]) for g in games for s in g["winners"] if g["bots"][s] == "greedy")
        assert (greedy["n"], greedy["value"]) == (4, pytest.approx(wins / 4))
        length = rows["game length (turns)"]["values"][i]
        assert length["value"] == pytest.approx(sum(g["turns"] for g in games) / 4)
        for row in data["comparison"]:
            v = row["values"][i]
            assert v["low"] is None or v["low"] <= v["value"] <= v["high"]
    # the difference is the second run's value minus the first's, its interval around it
    for row in data["comparison"]:
        (d,) = row["diffs"]
        a, b = (v["value"] for v in row["values"])
        if d["diff"] is not None:
            assert d["diff"] == pytest.approx(b - a) and d["low"] <= d["diff"] <= d["high"]
    page = (out / "index.html").read_text()
    assert "<title>Balance report: base vs rotated</title>" in page
    assert "<th>rotated - base</th>" in page and "Run: base" in page and "Run: rotated" in page
    assert "base: 2-player games: greedy only ever sat in seat 1" in page  # only the fixed run warns
    assert "rotated: 2-player games" not in page
    assert (out / "compare-rates.png").exists() and (out / "rotated-win-rate-by-bot.png").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["A", "B", "--label", "base"], "--label: 1 labels for 2 results files: give one --label per file"),
        (["A", "--label", "base"], "--label compares runs: give two or more results files"),
        (["A", "B", "--label", "x", "--label", "x"], "--label: give each run its own non-empty label"),
    ],
)
def test_bad_labels_are_clear_errors(two_runs: tuple[Path, Path, Path], argv: list[str], message: str) -> None:
    folder, fixed, rotated = two_runs
    files = {"A": str(fixed), "B": str(rotated)}
    code, out, err = _report(*(files.get(a, a) for a in argv), "--out", str(folder / "bad"))
    assert code == 2 and out == ""
    assert err.startswith(f"rules-dsl: error: {message}")


@pytest.mark.skipif(
    not os.environ.get("CI") and (not Path(CHROMIUM).exists() or shutil.which("chromium") is None),
    reason="needs chromium",
)
def test_the_comparison_page_in_a_headless_browser(two_runs: tuple[Path, Path, Path]) -> None:
    from playwright import sync_api

    folder, fixed, rotated = two_runs
    out = folder / "browse"
    assert _report(str(fixed), str(rotated), "--label", "base", "--label", "my-mod", "--out", str(out))[0] == 0
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto((out / "index.html").as_uri())
            page.wait_for_load_state("load")
            assert page.title() == "Balance report: base vs my-mod"
            images = page.eval_on_selector_all("img", "imgs => imgs.map(i => [i.complete, i.naturalWidth])")
            assert len(images) == len(list(out.glob("*.png")))
            assert all(complete and width > 100 for complete, width in images)
            # the comparison's header and a greyed (under the minimum sample) row as a reader sees them
            headers = page.eval_on_selector_all("table.comparison th", "ths => ths.map(t => t.textContent)")
            assert headers[:3] == ["measure", "base", "95% interval"] and "my-mod - base" in headers
            grey = page.eval_on_selector("tr.weak td", "td => getComputedStyle(td).color")
            assert grey == "rgb(153, 153, 153)"
            assert page.is_visible("p.warning")
        finally:
            browser.close()
    assert errors == []


def test_a_results_file_with_300_statistics_draws_a_bounded_number_of_plots(
    report: tuple[Path, Path, str], tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: one plot a statistic (about a second each) made a report of 300 statistics
    run past ten minutes; the plots are bounded, the tables still list every statistic."""
    from rules_dsl.report import plots

    _, results, _ = report
    games = []
    for line in results.read_text().splitlines():
        try:
            game = json.loads(line)
        except ValueError:
            continue
        if isinstance(game, dict) and "counts" in game:
            seats = game["players"]
            game["counts"] = {
                f"stat-{i}": [{f"card-{(i + s) % 7}": 1, "other": 2} for s in range(seats)] for i in range(300)
            }
            games.append(json.dumps(game))
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join(games) + "\n")
    drawn: list[str] = []
    save = plots._save

    def counted(fig: object, out: Path, name: str, images: list[tuple[str, str]], caption: str) -> None:
        drawn.append(name)
        assert len(drawn) <= 40, "a plot for every statistic"
        save(fig, out, name, images, caption)

    monkeypatch.setattr(plots, "_save", counted)
    assert main(["report", str(many), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert len(drawn) == 6 + plots.MAX_STAT_PLOTS  # the run's own plots, then the first statistics'
    assert "280 of the statistics are not plotted (a report plots the first 20)" in err
    page = (tmp_path / "out" / "index.html").read_text()
    assert page.count("<details><summary>Every card: stat-") == 300
    assert "280 statistics are not plotted" in page
