"""Cards on paper: `rules-dsl print PACK --out deck.pdf` prints the deck a game is played
with: every copy of every card at playing-card size (63 x 88 mm), nine to an A4 or Letter
page with a cutting gap and crop marks, each card with its back. The faces are the table's
(rules_dsl/card_face.py), drawn into the PDF shape by shape.

Backs: `duplex` (the default) puts a page of backs after each page of fronts, mirrored so
that a printer flipping on the long edge puts each back behind its front; `beside` puts
each back to the right of its front on landscape pages (to fold or glue); `none` prints
fronts only. The two faces of a double-sided card (cards sharing the pack's `look: faces:`
property) are printed as one card, the second face as the back of the first; every other
card's back is its kind's (`card_face.back`: the kind and the properties it prints there).

reportlab is an optional extra (`pip install 'rules-dsl[print]'`); without it the command
says how to install it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from rules_dsl import card_face
from rules_dsl.card_view import Setting, copies, view
from rules_dsl.errors import RulesError
from rules_dsl.rules import Rules

MM = 72 / 25.4  # points per millimetre
CARD_W, CARD_H = card_face.WIDTH * MM, card_face.HEIGHT * MM
GAP = 3 * MM  # between cards: room to cut each card on its own line
MARK = 4 * MM  # crop marks' length, in the margin
PAPERS = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * 72, 11 * 72)}
BACKS = ("duplex", "beside", "none")
FONTS = (  # a font with the glyphs packs use for symbols; reportlab's Helvetica has none
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"),
    ("/Library/Fonts/DejaVuSans.ttf", "/Library/Fonts/DejaVuSans-Bold.ttf"),
)


@attrs.frozen
class Printed:
    """One physical card: its front, its back, and the kind it is counted under."""

    front: card_face.Face
    back: card_face.Face
    card: str  # the card id of its front


def _reportlab() -> Any:
    try:
        from reportlab.pdfgen import canvas
    except ImportError:
        raise RulesError(
            "printing cards needs reportlab: pip install 'rules-dsl[print]' (or pip install reportlab)"
        ) from None
    return canvas


def deck(rules: Rules, game: Setting, only: Iterable[str] | None = None, each_copy: bool = True) -> list[Printed]:
    """The cards to print, in pack order: every copy in the chosen game (or one of each),
    of all cards or those whose ids are in `only`. Faces sharing the `look: faces:` value
    are paired, the first in pack order in front."""
    keep = None if only is None else set(only)
    faces = rules.look.faces
    partner: dict[str, str] = {}
    if faces:
        by_value: dict[Any, list[str]] = {}
        for ct in rules.cards:
            value = ct.props.get(faces)
            if value not in (None, "", 0) and (keep is None or ct.id in keep):
                by_value.setdefault(value, []).append(ct.id)
        for ids in by_value.values():
            for first, second in zip(ids[::2], ids[1::2], strict=False):
                partner[first], partner[second] = second, first
    out: list[Printed] = []
    done: set[str] = set()
    for index, ct in enumerate(rules.cards):
        if (keep is not None and ct.id not in keep) or ct.id in done:
            continue
        front = card_face.front(rules, view(rules, ct, game), ct.public_props)
        n = max(copies(ct, game), 0) if each_copy else 1
        other = partner.get(ct.id)
        if other is not None:
            done.add(other)
            oct_ = rules.cards[rules.card_index[other]]
            back = card_face.front(rules, view(rules, oct_, game), oct_.public_props)
            back = attrs.evolve(back, side="back")
            if each_copy and copies(oct_, game) != n:
                raise RulesError(
                    f"{ct.id} and {other} are the two faces of one card ({faces}: {ct.props[faces]}) "
                    f"but have {n} and {copies(oct_, game)} copies"
                )
        else:
            back = card_face.back(rules, ct.kind, card_face.back_facts(rules, index))
        out.extend([Printed(front, back, ct.id)] * n)
    return out


def _fonts() -> tuple[str, str]:
    """DejaVu Sans (regular, bold) registered with reportlab, or Helvetica when not found."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for regular, bold in FONTS:
        if Path(regular).is_file() and Path(bold).is_file():
            if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont("DejaVuSans", regular))
                pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", bold))
            return "DejaVuSans", "DejaVuSans-Bold"
    return "Helvetica", "Helvetica-Bold"


def _colour(pdf: Any, value: str, stroke: bool) -> bool:
    if value == "none":
        return False
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (1, 3, 5))
    (pdf.setStrokeColorRGB if stroke else pdf.setFillColorRGB)(r, g, b)
    return True


def draw_face(pdf: Any, face: card_face.Face, x: float, y: float, fonts: tuple[str, str]) -> None:
    """The face's shapes with the card's lower left corner at (x, y) points."""

    def px(v: float) -> float:
        return x + v * MM

    def py(v: float) -> float:
        return y + (card_face.HEIGHT - v) * MM

    for s in face.shapes:
        if isinstance(s, card_face.Box):
            fill = _colour(pdf, s.fill, False)
            stroke = _colour(pdf, s.stroke, True) and s.stroke_width > 0
            pdf.setLineWidth(s.stroke_width * MM)
            if s.radius:
                pdf.roundRect(
                    px(s.x), py(s.y + s.h), s.w * MM, s.h * MM, s.radius * MM, stroke=int(stroke), fill=int(fill)
                )
            else:
                pdf.rect(px(s.x), py(s.y + s.h), s.w * MM, s.h * MM, stroke=int(stroke), fill=int(fill))
        elif isinstance(s, card_face.Disc):
            _colour(pdf, s.fill, False)
            stroke = _colour(pdf, s.stroke, True)
            pdf.setLineWidth(0.3 * MM)
            pdf.circle(px(s.cx), py(s.cy), s.r * MM, stroke=int(stroke), fill=1)
        else:
            _colour(pdf, s.fill, False)
            size = s.size * MM
            font = fonts[1] if s.bold else fonts[0]
            if s.anchor == "middle":
                pdf.setFont(font, size)
                pdf.drawCentredString(px(s.x), py(s.y), s.text)
                continue
            at = px(s.x)
            if s.lead:
                pdf.setFont(fonts[1], size)
                pdf.drawString(at, py(s.y), s.lead)
                at += pdf.stringWidth(s.lead, fonts[1], size)
            pdf.setFont(font, size)
            pdf.drawString(at, py(s.y), s.text)


def _crop_marks(pdf: Any, xs: Sequence[float], ys: Sequence[float], width: float, height: float) -> None:
    """A short line in the margin at every card edge, to cut along."""
    pdf.setStrokeGray(0)
    pdf.setLineWidth(0.25)
    left, right, bottom, top = min(xs), max(xs), min(ys), max(ys)
    for x in xs:
        pdf.line(x, bottom - MARK - 1 * MM, x, bottom - 1 * MM)
        pdf.line(x, top + 1 * MM, x, top + MARK + 1 * MM)
    for y in ys:
        pdf.line(left - MARK - 1 * MM, y, left - 1 * MM, y)
        pdf.line(right + 1 * MM, y, right + MARK + 1 * MM, y)


def write_deck(
    cards: Sequence[Printed], out: str | Path, paper: str = "a4", title: str = "", backs: str = "duplex"
) -> int:
    """Write the cards to a PDF; returns the number of pages."""
    canvas = _reportlab()
    if paper not in PAPERS:
        raise RulesError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    if backs not in BACKS:
        raise RulesError(f"backs must be one of {', '.join(BACKS)}, not {backs!r}")
    if not cards:
        raise RulesError("no cards to print")
    width, height = PAPERS[paper]
    columns, rows = 3, 3
    if backs == "beside":  # landscape, each back to the right of its front
        width, height = height, width
        columns, rows = 4, 2
    per_page = columns * rows // (2 if backs == "beside" else 1)
    left = (width - columns * CARD_W - (columns - 1) * GAP) / 2
    bottom = (height - rows * CARD_H - (rows - 1) * GAP) / 2
    xs = [left + c * (CARD_W + GAP) for c in range(columns)]
    ys = [bottom + r * (CARD_H + GAP) for r in range(rows)]
    edges_x = sorted({*xs, *(x + CARD_W for x in xs)})
    edges_y = sorted({*ys, *(y + CARD_H for y in ys)})
    try:
        pdf = canvas.Canvas(str(out), pagesize=(width, height))
    except OSError as exc:
        raise RulesError(f"cannot write {out}: {exc.strerror}") from exc
    fonts = _fonts()
    pdf.setTitle(title or "rules-dsl cards")
    sheets = (len(cards) + per_page - 1) // per_page
    pages = sheets * (2 if backs == "duplex" else 1)
    page = 0

    def finish(what: str) -> None:
        nonlocal page
        page += 1
        _crop_marks(pdf, edges_x, edges_y, width, height)
        pdf.setFont(fonts[0], 7)
        pdf.setFillGray(0.4)
        pdf.drawString(left, bottom / 2 - 2 * MM, f"{title}  ·  page {page} of {pages}  ·  {what}  ·  63 x 88 mm")
        pdf.showPage()

    for sheet in range(sheets):
        chunk = cards[sheet * per_page : (sheet + 1) * per_page]
        for slot, card in enumerate(chunk):
            if backs == "beside":
                col, row = (slot % 2) * 2, slot // 2
                draw_face(pdf, card.front, xs[col], ys[rows - 1 - row], fonts)
                draw_face(pdf, card.back, xs[col + 1], ys[rows - 1 - row], fonts)
            else:
                col, row = slot % columns, slot // columns
                draw_face(pdf, card.front, xs[col], ys[rows - 1 - row], fonts)
        finish("fronts and backs" if backs == "beside" else "fronts")
        if backs == "duplex":
            for slot, card in enumerate(chunk):
                col, row = slot % columns, slot // columns
                # mirrored: flipped on the long edge, the back lands behind its front
                draw_face(pdf, card.back, xs[columns - 1 - col], ys[rows - 1 - row], fonts)
            finish("backs (print double-sided, flip on the long edge)")
    try:
        pdf.save()
    except OSError as exc:
        raise RulesError(f"cannot write {out}: {exc.strerror}") from exc
    return pages
