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


def test_print_lays_out_every_card_nine_to_an_a4_page(
    tmp_path: Path, engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = tmp_path / "base.pdf"
    assert main(["print", "base", "--out", str(pdf)]) == 0
    n = len(engine.rules.cards)
    pages = math.ceil(n / 9)
    assert capsys.readouterr().out.strip() == f"wrote {pdf}: {n} cards on {pages} pages (a4)"
    meta = info(pdf)
    assert meta["Pages"] == str(pages)
    assert meta["Page size"].startswith("595.276 x 841.89 pts")  # A4
    text = run("pdftotext", "-layout", str(pdf), "-")
    for ct in engine.rules.cards:
        assert ct.name in text, ct.id
    # facts and canonical text, as `rules-dsl cards` shows them
    assert "ACTION: gain 2 fighters OR attack 1 planet" in text
    assert "research-cost: 5" in text and "LEAD: survey X" in text
    assert "page 1 of" in text and "63 x 88 mm" in text


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
    assert main(["print", str(mod), "--mod-only", "--copies", "--out", str(pdf)]) == 0
    out = capsys.readouterr().out
    text = run("pdftotext", str(pdf), "-")
    assert "Scout" in text and "ACTION: survey 2 OR draw 1 card" in text and "Warfare role" not in text
    assert text.count("Scout") >= 2  # two copies
    from rules_dsl.card_view import copies, setting

    rules = Engine.load([str(mod)]).rules
    game = setting(rules, None, None)
    n = sum(copies(rules.cards[rules.card_index[i]], game) for i in ("survey", "scout"))  # the mod's two cards
    assert out == f"wrote {pdf}: {n} cards on {math.ceil(n / 9)} pages (a4)\n"


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
