"""Cards on paper: `rules-dsl print` writes a PDF of playing-card-size cards, nine to a
page; the PDF is read back with poppler (pdfinfo, pdftotext, pdftoppm), the system's
package, as a user's viewer would."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from rules_dsl.cli import main
from rules_dsl.engine import Engine

POPPLER = shutil.which("pdftoppm") and shutil.which("pdftotext") and shutil.which("pdfinfo")
try:
    import reportlab  # noqa: F401

    REPORTLAB = True
except ImportError:
    REPORTLAB = False
# like the browser test: skipped where the system package or the extra is missing, except under CI
pytestmark = pytest.mark.skipif(
    not (POPPLER and REPORTLAB) and not os.environ.get("CI"),
    reason="needs poppler-utils and the print extra (scripts/test.sh installs both)",
)


def run(*argv: str) -> str:
    done = subprocess.run(list(argv), capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def info(pdf: Path) -> dict[str, str]:
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in run("pdfinfo", str(pdf)).splitlines())}


def words_by_card(pdf: Path, tmp_path: Path, page: int) -> dict[tuple[int, int], list[tuple[float, str]]]:
    """The words of one page (pdftotext -bbox), grouped by the card cell (column, row) they
    lie in, each with its distance from the card's top in mm: the deck read back as a
    player would see it, card by card."""
    import html
    import re

    from rules_dsl.card_sheet import CARD_H, CARD_W, GAP, MM

    out = tmp_path / f"p{page}.html"
    run("pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), str(out))
    body = out.read_text(encoding="utf-8")
    size = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', body)
    assert size is not None
    width, height = float(size.group(1)), float(size.group(2))
    left, top = (width - 3 * CARD_W - 2 * GAP) / 2, (height - 3 * CARD_H - 2 * GAP) / 2
    cells: dict[tuple[int, int], list[tuple[float, str]]] = {}
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">(.*?)</word>', body):
        x, y, word = float(m.group(1)), float(m.group(2)), html.unescape(m.group(3))
        col, row = int((x - left) // (CARD_W + GAP)), int((y - top) // (CARD_H + GAP))
        if 0 <= col < 3 and 0 <= row < 3:
            cells.setdefault((col, row), []).append(((y - top - row * (CARD_H + GAP)) / MM, word))
    return cells


def test_print_base_every_copy_with_its_back_double_sided_cards_paired(
    tmp_path: Path, engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game's whole deck, every copy: fronts on odd pages, backs on even pages mirrored
    behind them; a planet's front hides what its back prints (type, costs) and its back
    hides the rest; a permanent technology's two faces are one card."""
    from collections import Counter

    from rules_dsl.card_view import copies, setting

    pdf = tmp_path / "deck.pdf"
    assert main(["print", "base", "--out", str(pdf)]) == 0
    rules = engine.rules
    game = setting(rules, rules.max_players, None)
    pairs: dict[str, list[str]] = {}
    for ct in rules.cards:
        if ct.props.get("pair"):
            pairs.setdefault(ct.props["pair"], []).append(ct.id)
    second = {ids[1]: ids[0] for ids in pairs.values() if len(ids) == 2}
    physical = Counter({ct.id: copies(ct, game) for ct in rules.cards if ct.id not in second})
    n = sum(physical.values())
    pages = 2 * math.ceil(n / 9)
    assert capsys.readouterr().out == f"wrote {pdf}: {n} cards with backs on alternate pages on {pages} pages (a4)\n"
    assert info(pdf)["Pages"] == str(pages)
    by_name = {ct.name: ct for ct in rules.cards}
    fronts: Counter[str] = Counter()
    backs: Counter[str] = Counter()
    for sheet in range(pages // 2):
        front_cells = words_by_card(pdf, tmp_path, 2 * sheet + 1)
        back_cells = words_by_card(pdf, tmp_path, 2 * sheet + 2)
        assert len(front_cells) == len(back_cells) == min(9, n - 9 * sheet)
        for (col, row), words in front_cells.items():
            name = " ".join(w for y, w in words if y < 8.5)  # the name band
            ct = by_name[name]
            fronts[ct.name] += 1  # some cards share a name (a technology printed in two colours)
            text = " ".join(w for _, w in words)
            back = " ".join(w for _, w in back_cells[(2 - col, row)])  # mirrored for a long-edge flip
            if ct.kind == "planet":
                assert "cost" not in text, text  # the survey side's facts are on the back only
                assert back.startswith("planet type " + ct.props["type"]), back
                assert f"warfare cost {ct.props['warfare-cost']}" in back and "influence" not in back, back
                assert ct.name not in back
            elif ct.id in {ids[0] for ids in pairs.values() if len(ids) == 2}:
                other = next(rules.cards[rules.card_index[i]] for i in pairs[ct.props["pair"]] if i != ct.id)
                assert back.startswith(other.name), (ct.id, back)
            else:
                assert back.startswith(ct.kind.replace("-", " ")), (ct.id, back)
                assert ct.name not in back
            backs[ct.kind] += 1
    named: Counter[str] = Counter()
    for card_id, k in physical.items():
        named[rules.cards[rules.card_index[card_id]].name] += k
    assert fronts == named
    per_kind: Counter[str] = Counter()
    for card_id, k in physical.items():
        per_kind[rules.cards[rules.card_index[card_id]].kind] += k
    assert backs == per_kind and per_kind["planet"] > 0 and per_kind["technology"] > 0
    # the readable text: the pack's words for moments, sections in capitals
    text = " ".join(run("pdftotext", str(pdf), "-").split())
    assert "ACTION: gain 2 fighters OR attack 1 planet" in text
    assert "end-role-phase" not in text and "end the role phase" in text
    assert "page 1 of" in text and "63 x 88 mm" in text

    # the README's images: the first page of planets and its backs
    def backs_text(page: int) -> str:
        return " ".join(run("pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-").split())

    planet_page = next(p for p in range(1, pages, 2) if "planet type" in backs_text(p + 1))
    for page, name in ((planet_page, "print-page"), (planet_page + 1, "print-backs")):
        run(
            "pdftoppm",
            "-png",
            "-r",
            "50",
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(pdf),
            str(tmp_path / name),
        )
        if os.environ.get("UPDATE_DOC_IMAGES"):
            shutil.copy(tmp_path / f"{name}.png", ROOT / "docs" / "images" / f"{name}.png")
        # the README shows this page as the pack prints it now
        from PIL import Image, ImageChops

        with Image.open(tmp_path / f"{name}.png") as now, Image.open(ROOT / "docs" / "images" / f"{name}.png") as shown:
            changed = ImageChops.difference(now.convert("RGB"), shown.convert("RGB")).getbbox()
        assert changed is None, f"docs/images/{name}.png is out of date at {changed}: UPDATE_DOC_IMAGES=1 renews it"


def test_print_backs_beside_their_fronts(tmp_path: Path, engine: Engine) -> None:
    pdf = tmp_path / "beside.pdf"
    assert main(["print", "base", "--one-each", "--backs", "beside", "--out", str(pdf)]) == 0
    assert info(pdf)["Page size"].startswith("841.89 x 595.276 pts")  # A4 landscape
    text = run("pdftotext", "-layout", "-f", "1", "-l", "1", str(pdf), "-")
    assert "fronts and backs" in text


def test_crop_marks_at_every_card_edge(tmp_path: Path) -> None:
    from PIL import Image

    from rules_dsl.card_sheet import CARD_H, CARD_W, GAP, MM

    pdf = tmp_path / "cards.pdf"
    assert main(["print", str(ROOT / "examples" / "games" / "love-letter"), "--out", str(pdf), "--backs", "none"]) == 0
    run("pdftoppm", "-png", "-r", "144", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(tmp_path / "page"))
    image = Image.open(tmp_path / "page.png").convert("L")
    scale = image.size[0] / (210 * MM)
    left = (210 * MM - 3 * CARD_W - 2 * GAP) / 2
    top = (297 * MM - 3 * CARD_H - 2 * GAP) / 2
    for col in range(3):
        for edge in (0, CARD_W):
            x = int((left + col * (CARD_W + GAP) + edge) * scale)
            y = int((top - 3 * MM) * scale)  # in the top margin, above the cards
            assert min(image.getpixel((x + dx, y)) for dx in (-1, 0, 1)) < 128, (col, edge)
            between = int((left + col * (CARD_W + GAP) + CARD_W / 2) * scale)
            assert image.getpixel((between, y)) > 200  # nothing else in the margin


def test_a_rendered_page_is_not_blank(tmp_path: Path) -> None:
    from PIL import Image

    pdf = tmp_path / "cards.pdf"
    assert main(["print", "microcosm", "--out", str(pdf), "--paper", "letter"]) == 0
    assert info(pdf)["Page size"].startswith("612 x 792 pts")  # Letter
    run("pdftoppm", "-png", "-r", "72", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(tmp_path / "page"))
    image = Image.open(tmp_path / "page.png").convert("L")
    histogram = image.histogram()
    ink = sum(histogram[:128]) / sum(histogram)
    assert 0.01 < ink < 0.5, f"{ink:.1%} of the page is ink"
    # nine card outlines: the middle of each card's top edge is dark
    w, h = image.size
    card_w, card_h = 63 / 215.9 * w, 88 / 279.4 * h
    left, top = (w - 3 * card_w) / 2, (h - 3 * card_h) / 2
    for row in range(3):
        for col in range(3):
            x, y = int(left + (col + 0.5) * card_w), int(top + row * card_h)
            assert min(image.getpixel((x, y + dy)) for dy in range(-3, 4)) < 200, (row, col)


def test_print_only_a_mods_cards_one_per_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "mod.pdf"
    mod = ROOT / "examples" / "mods" / "veteran-survey"
    assert main(["print", str(mod), "--mod-only", "--out", str(pdf)]) == 0
    out = capsys.readouterr().out
    text = " ".join(run("pdftotext", str(pdf), "-").split())
    assert "Scout" in text and "ACTION: survey 2 OR draw 1 card" in text and "Warfare role" not in text
    assert text.count("Scout") >= 2  # two copies
    from rules_dsl.card_view import copies, setting

    rules = Engine.load([str(mod)]).rules
    game = setting(rules, rules.max_players, None)
    n = sum(copies(rules.cards[rules.card_index[i]], game) for i in ("survey", "scout"))  # the mod's two cards
    assert out == f"wrote {pdf}: {n} cards with backs on alternate pages on {2 * math.ceil(n / 9)} pages (a4)\n"


def test_print_without_reportlab_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "reportlab.pdfgen", None)
    assert main(["print", "base", "--out", str(tmp_path / "x.pdf")]) == 1
    assert "pip install 'rules-dsl[print]'" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


def test_print_to_a_folder_that_cannot_be_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "microcosm", "--out", str(tmp_path / "no" / "such" / "x.pdf")]) == 1
    assert "cannot write" in capsys.readouterr().err
