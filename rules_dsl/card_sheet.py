"""Cards on paper: `rules-dsl print PACK --out cards.pdf` lays a pack's cards out at
playing-card size (63 x 88 mm), nine to an A4 or Letter page, for cutting out and
playtesting. Each card shows its name, kind, symbols, facts (worked out for the chosen
game, as `rules-dsl cards` shows them) and its canonical text.

reportlab is an optional extra (`pip install 'rules-dsl[print]'`); without it the
command says how to install it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rules_dsl.card_view import CardView, Setting, copies, view
from rules_dsl.errors import RulesError
from rules_dsl.rules import Rules

MM = 72 / 25.4  # points per millimetre
CARD_W, CARD_H = 63 * MM, 88 * MM  # a poker-size playing card
PAPERS = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * 72, 11 * 72)}
COLUMNS, ROWS = 3, 3
PAD = 3.5 * MM
TEXT_SIZES = (8.0, 7.0, 6.0, 5.2, 4.5)  # the card text shrinks until it fits


def _reportlab() -> Any:
    try:
        from reportlab.pdfgen import canvas
    except ImportError:
        raise RulesError(
            "printing cards needs reportlab: pip install 'rules-dsl[print]' (or pip install reportlab)"
        ) from None
    return canvas


def card_views(
    rules: Rules, game: Setting, only: Iterable[str] | None = None, each_copy: bool = False
) -> list[CardView]:
    """The cards to print, in pack order: all, or those whose ids are in `only`; one per
    card, or one per copy in the chosen game."""
    keep = None if only is None else set(only)
    out = []
    for ct in rules.cards:
        if keep is not None and ct.id not in keep:
            continue
        card = view(rules, ct, game)
        out.extend([card] * (max(copies(ct, game), 0) if each_copy else 1))
    return out


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.lib.utils import simpleSplit

    lines: list[str] = []
    for raw in text.splitlines() or [""]:
        indent = len(raw) - len(raw.lstrip())
        pad = " " * indent
        lines.extend(pad + part for part in simpleSplit(raw.strip(), font, size, width - size * 0.5 * indent) or [""])
    return lines


def _draw_card(pdf: Any, card: CardView, x: float, y: float) -> None:
    """One card with its lower left corner at (x, y)."""
    inner = CARD_W - 2 * PAD
    pdf.setLineWidth(0.8)
    pdf.setStrokeGray(0.25)
    pdf.roundRect(x, y, CARD_W, CARD_H, 3 * MM)
    top = y + CARD_H - PAD
    # the name, on a band
    pdf.setFillGray(0.88)
    pdf.roundRect(x + PAD * 0.6, top - 9 * MM + PAD * 0.4, CARD_W - 1.2 * PAD, 8.2 * MM, 1.5 * MM, stroke=0, fill=1)
    pdf.setFillGray(0)
    name_size = 11.0
    while name_size > 6 and pdf.stringWidth(card.name, "Helvetica-Bold", name_size) > inner:
        name_size -= 0.5
    pdf.setFont("Helvetica-Bold", name_size)
    pdf.drawString(x + PAD, top - 6 * MM, card.name)
    cursor = top - 12.5 * MM
    pdf.setFont("Helvetica-Oblique", 7)
    pdf.drawString(x + PAD, cursor, f"{card.kind} · {card.id}")
    cursor -= 2 * MM
    # symbols as badges
    symbols = next((f.value for f in card.facts if f.name == "symbols"), "")
    if symbols:
        cursor -= 4.5 * MM
        bx = x + PAD
        pdf.setFont("Helvetica-Bold", 6.5)
        for symbol in str(symbols).split(", "):
            w = pdf.stringWidth(symbol, "Helvetica-Bold", 6.5) + 3 * MM
            if bx + w > x + CARD_W - PAD:
                break
            pdf.setFillGray(0.2)
            pdf.roundRect(bx, cursor - 1 * MM, w, 4 * MM, 2 * MM, stroke=0, fill=1)
            pdf.setFillGray(1)
            pdf.drawString(bx + 1.5 * MM, cursor + 0.2 * MM, symbol)
            bx += w + 1.2 * MM
        pdf.setFillGray(0)
        cursor -= 2 * MM
    # facts: two columns of "name value"
    facts = [f for f in card.facts if f.name != "symbols" and not (f.name == "copies" and f.value == 1)]
    pdf.setFont("Helvetica", 6.5)
    half = inner / 2
    for i, fact in enumerate(facts):
        if i % 2 == 0:
            cursor -= 3.2 * MM
        fx = x + PAD + (i % 2) * half
        label = f"{fact.name}: {fact.value}"
        while len(label) > 4 and pdf.stringWidth(label, "Helvetica", 6.5) > half - 1 * MM:
            label = label[:-2] + "…"
        pdf.drawString(fx, cursor, label)
    cursor -= 2.5 * MM
    pdf.setLineWidth(0.4)
    pdf.line(x + PAD, cursor, x + CARD_W - PAD, cursor)
    # the card text, canonical, as large as fits
    text = card.canonical
    room = cursor - (y + PAD)
    for size in TEXT_SIZES:
        lines = _wrap(text, "Helvetica", size, inner)
        if len(lines) * size * 1.2 <= room:
            break
    else:
        lines = lines[: max(1, int(room // (size * 1.2)) - 1)] + ["…"]
    pdf.setFont("Helvetica", size)
    line_y = cursor - size * 1.25
    for line in lines:
        pdf.drawString(x + PAD, line_y, line)
        line_y -= size * 1.2


def write_sheets(cards: Sequence[CardView], out: str | Path, paper: str = "a4", title: str = "") -> int:
    """Write the cards to a PDF, nine to a page; returns the number of pages."""
    canvas = _reportlab()
    if paper not in PAPERS:
        raise RulesError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    if not cards:
        raise RulesError("no cards to print")
    width, height = PAPERS[paper]
    left = (width - COLUMNS * CARD_W) / 2
    bottom = (height - ROWS * CARD_H) / 2
    try:
        pdf = canvas.Canvas(str(out), pagesize=(width, height))
    except OSError as exc:
        raise RulesError(f"cannot write {out}: {exc.strerror}") from exc
    pdf.setTitle(title or "rules-dsl cards")
    per_page = COLUMNS * ROWS
    pages = (len(cards) + per_page - 1) // per_page
    for page in range(pages):
        for slot, card in enumerate(cards[page * per_page : (page + 1) * per_page]):
            col, row = slot % COLUMNS, slot // COLUMNS
            _draw_card(pdf, card, left + col * CARD_W, bottom + (ROWS - 1 - row) * CARD_H)
        pdf.setFont("Helvetica", 7)
        pdf.setFillGray(0.4)
        pdf.drawString(left, bottom / 2, f"{title}  ·  page {page + 1} of {pages}  ·  63 x 88 mm")
        pdf.setFillGray(0)
        pdf.showPage()
    try:
        pdf.save()
    except OSError as exc:
        raise RulesError(f"cannot write {out}: {exc.strerror}") from exc
    return pages
