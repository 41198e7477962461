"""Card faces: one drawing of each side of a card, from the pack's data alone, used by the
playtest table (as SVG) and by `rules-dsl print` (the same shapes drawn into a PDF).

A front shows the card's name on a band of its kind's colour, its symbols as glyphs in
discs, its facts and its readable text: the printer's canonical text (rules_dsl/printer.py)
with the pack's own words for moments, windows and procedures (`look: words:`). A back
shows the card's kind and the properties its kind prints on the back (`kinds: K: back:`),
and nothing else: what a side shows is what a player holding the card face down sees
(rules_dsl/observation.py gives the table exactly those). Colours and glyphs come from the
pack's `look:` part (docs/modding.md#look); a pack without one gets a colour per kind and
the first letters of each symbol.

Sizes are millimetres on a 63 x 88 mm card. Text is wrapped with DejaVu Sans' advance
widths (the font the faces name first), so the table and the paper break lines alike.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import attrs

from rules_dsl.card_view import CardView, Fact
from rules_dsl.rules import Look, Rules

WIDTH, HEIGHT = 63.0, 88.0  # a poker-size playing card, in mm
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
# the pack gives no colour: kinds take these in turn (by a hash of their name, stable across runs)
PALETTE = ("#2f5d8a", "#7a3b69", "#2e7d4f", "#a0522d", "#5b4a9e", "#8a6d1f", "#1f7a7a", "#9c2f2f")
SYMBOL_PALETTE = ("#1e5aa8", "#b3261e", "#2e7d32", "#8d6e00", "#6a1b9a", "#00838f", "#5d4037", "#c2185b")
TEXT_SIZES = (5.0, 4.5, 4.1, 3.8, 3.5, 3.2, 2.9, 2.6, 2.35, 2.1, 1.9, 1.7)  # the card text shrinks until it fits
LINE = 1.22  # line height, in font sizes

# DejaVu Sans advance widths of ASCII 32..126, in thousandths of the font size
_REGULAR = (
    "318,401,460,838,636,950,780,275,390,390,500,838,318,361,318,337,636,636,636,636,636,636,636,636,636,636,337,"
    "337,838,838,838,531,1000,684,686,698,770,632,575,775,752,295,295,656,557,863,748,787,603,787,695,635,611,732,"
    "684,989,685,611,685,390,337,390,838,500,500,613,635,550,635,615,352,635,634,278,278,579,278,974,634,612,635,"
    "635,411,521,392,634,592,818,592,592,525,636,337,636,838"
)
_BOLD = (
    "348,456,521,838,696,1002,872,306,457,457,523,838,380,415,380,365,696,696,696,696,696,696,696,696,696,696,400,"
    "400,838,838,838,580,1000,774,762,734,830,683,683,821,837,372,372,775,637,995,837,850,733,850,770,720,682,812,"
    "774,1103,771,724,725,457,365,457,838,500,500,675,716,593,716,678,435,716,712,343,343,665,343,1042,712,687,716,"
    "716,493,595,478,712,652,924,645,652,582,712,365,712,838"
)
WIDTHS = {False: tuple(int(w) for w in _REGULAR.split(",")), True: tuple(int(w) for w in _BOLD.split(","))}


def text_width(text: str, size: float, bold: bool = False) -> float:
    table = WIDTHS[bold]
    return size * sum(table[o - 32] if 32 <= (o := ord(c)) < 127 else 800 for c in text) / 1000


# -- the shapes a face is made of ----------------------------------------------------------


@attrs.frozen
class Box:
    x: float
    y: float
    w: float
    h: float
    radius: float = 0.0
    fill: str = "none"
    stroke: str = "none"
    stroke_width: float = 0.0


@attrs.frozen
class Disc:
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str = "none"


@attrs.frozen
class Label:
    """One line of text with its baseline at y; `lead` is drawn bold before `text`."""

    x: float
    y: float
    text: str
    size: float
    fill: str = "#111111"
    bold: bool = False
    anchor: str = "start"  # start | middle
    lead: str = ""


Shape = Box | Disc | Label


@attrs.frozen
class Face:
    """One side of a card: what it is (for people and tests) and how it is drawn."""

    title: str
    kind: str
    side: str  # "front" | "back"
    shapes: tuple[Shape, ...]


# -- the pack's look -----------------------------------------------------------------------


def words(name: str) -> str:
    return name.replace("-", " ")


def colour(look: Look, kind: str) -> str:
    return look.colours.get(kind) or PALETTE[zlib.crc32(kind.encode()) % len(PALETTE)]


def glyph(look: Look, symbol: str) -> str:
    if symbol in look.glyphs:
        return look.glyphs[symbol]
    first = symbol[:1].upper()
    # the first letter, or two when another symbol of the pack starts with the same one
    clash = any(s != symbol and s[:1].upper() == first for s in look.symbols)
    return symbol[:2].title() if clash else first


def symbol_colour(look: Look, symbol: str) -> str:
    index = look.symbols.index(symbol) if symbol in look.symbols else zlib.crc32(symbol.encode())
    return SYMBOL_PALETTE[index % len(SYMBOL_PALETTE)]


def readable(look: Look, canonical: str) -> str:
    """The canonical text with the pack's own words for its moments, windows and procedures
    (`WHEN you end-role-phase` -> `WHEN the role phase ends` when the pack says so)."""
    if not canonical or not look.words:
        return canonical
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(n) for n in sorted(look.words, key=len, reverse=True)) + r")(?![\w-])"
    )
    return pattern.sub(lambda m: look.words[m.group(1)], canonical)


def _on(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (#rrggbb)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _fit(text: str, width: float, largest: float, smallest: float, bold: bool = True) -> tuple[str, float]:
    size = largest
    while size > smallest and text_width(text, size, bold) > width:
        size -= 0.1
    while len(text) > 2 and text_width(text, size, bold) > width:
        text = text[:-2] + "…"
    return text, size


def wrap(text: str, size: float, width: float) -> list[str]:
    """Lines of at most `width` mm at `size`; a line's leading spaces (nesting) are kept."""
    lines: list[str] = []
    for raw in text.splitlines() or [""]:
        indent = raw[: len(raw) - len(raw.lstrip())]
        line = ""
        for word in _pieces(raw.split(), size, width - text_width(indent, size)):
            candidate = f"{line} {word}" if line else word
            if line and text_width(indent + candidate, size) > width:
                lines.append(indent + line)
                line = word
            else:
                line = candidate
        lines.append(indent + line)
    return lines


def _pieces(words: list[str], size: float, width: float) -> list[str]:
    """The words, a word wider than a line cut after its hyphens (or anywhere, without one)."""
    out = []
    for word in words:
        while text_width(word, size) > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and text_width(word[:cut], size) > width:
                cut -= 1
            hyphen = word.rfind("-", 0, cut)
            cut = hyphen + 1 if hyphen > 0 else cut
            out.append(word[:cut])
            word = word[cut:]
        out.append(word)
    return out


SECTION = re.compile(r"^(\s*)([A-Z][A-Z -]*[A-Z]:|[A-Z]+:)(.*)$")


# -- the two sides ------------------------------------------------------------------------


def front(rules: Rules, card: CardView, backs: Iterable[str] = ()) -> Face:
    """A card's front: its name, kind, symbols, the facts not printed on its back (`backs`,
    the kind's back properties) and its readable text."""
    look = rules.look
    fill = colour(look, card.kind)
    ink = _on(fill)
    shapes: list[Shape] = [
        Box(0, 0, WIDTH, HEIGHT, 3.2, fill, "#222222", 0.3),
        Box(2.2, 12.2, WIDTH - 4.4, HEIGHT - 14.4, 1.8, "#ffffff"),
    ]
    name, size = _fit(card.name, WIDTH - 7, 5.2, 3.0)
    shapes.append(Label(3.5, 7.0, name, size, ink, bold=True))
    shapes.append(Label(3.5, 10.6, words(card.kind), 2.3, ink))
    y = 13.4
    # symbols: a disc per symbol printed, with its glyph
    symbols: list[str] = []
    hidden = set(backs) | ({look.faces} if look.faces else set())
    facts: list[Fact] = []
    ct = rules.cards[rules.card_index[card.id]] if card.id in rules.card_index else None
    if ct is not None:
        for symbol, n in ct.symbols.items():
            symbols.extend([symbol] * n)
    for fact in card.facts:
        if fact.name in ("symbols", "copies") or fact.name in hidden:
            continue
        facts.append(fact)
    if symbols:
        r = 3.8 if len(symbols) <= 6 else 2.6 if len(symbols) <= 9 else 2.0
        x = 4.0 + r
        for symbol in symbols:
            if x + r > WIDTH - 3:
                break
            shapes.append(Disc(x, y + r + 0.4, r, symbol_colour(look, symbol), "#ffffff"))
            g = glyph(look, symbol)
            gsize = r * (1.25 if len(g) == 1 else 0.95)
            shapes.append(Label(x, y + r + 0.4 + gsize * 0.36, g, gsize, "#ffffff", bold=True, anchor="middle"))
            x += 2 * r + 1.0
        y += 2 * r + 1.6
    # facts: two columns of "name value"
    if facts:
        half = (WIDTH - 8) / 2
        fsize = 3.0
        for i, fact in enumerate(facts):
            col = i % 2
            if col == 0:
                y += fsize * 1.45
            label = words(fact.name)
            value = str(fact.value)
            text, size = _fit(f"{label} {value}", half - 1.5, fsize, 1.8, bold=True)
            lead = label if text.startswith(label + " ") else ""
            shapes.append(Label(4.0 + col * half, y, text[len(lead) :] if lead else text, size, "#333333", lead=lead))
        y += 1.4
        shapes.append(Box(4.0, y, WIDTH - 8, 0.25, 0, "#bbbbbb"))
        y += 0.6
    # the card text, as large as fits
    text = readable(look, card.canonical)
    if text:
        room = HEIGHT - 3.6 - y
        for tsize in TEXT_SIZES:
            lines = wrap(text, tsize, WIDTH - 8.5)
            if len(lines) * tsize * LINE <= room:
                break
        else:
            keep = max(1, int(room // (tsize * LINE)) - 1)
            lines = [*lines[:keep], "…"]
        # a short text sits in the middle of the room left, not under the facts
        ty = y + tsize * 1.05 + max(0.0, (room - len(lines) * tsize * LINE) / 3)
        for line in lines:
            m = SECTION.match(line)
            if m:
                shapes.append(Label(4.2, ty, m.group(3), tsize, lead=m.group(1) + m.group(2)))
            else:
                shapes.append(Label(4.2, ty, line, tsize))
            ty += tsize * LINE
    return Face(card.name, card.kind, "front", tuple(shapes))


def back(rules: Rules, kind: str, facts: Sequence[tuple[str, Any]] = ()) -> Face:
    """The back of a card of `kind`: the kind, and the properties its kind prints there."""
    look = rules.look
    fill = colour(look, kind)
    ink = _on(fill)
    shapes: list[Shape] = [
        Box(0, 0, WIDTH, HEIGHT, 3.2, fill, "#222222", 0.3),
        Box(4, 4, WIDTH - 8, HEIGHT - 8, 2.2, "none", ink, 0.5),
    ]
    title, size = _fit(words(kind), WIDTH - 14, 7.5, 3.5)
    top = 34.0 if facts else 46.0
    shapes.append(Label(WIDTH / 2, top, title, size, ink, bold=True, anchor="middle"))
    y = top + 8
    for name, value in facts:
        text, fsize = _fit(f"{words(name)} {value}", WIDTH - 14, 4.6, 2.4, bold=False)
        shapes.append(Label(WIDTH / 2, y, text, fsize, ink, anchor="middle"))
        y += fsize * 1.6
    pack, psize = _fit(rules.name, WIDTH - 14, 2.8, 1.8, bold=False)
    shapes.append(Label(WIDTH / 2, HEIGHT - 7.5, pack, psize, ink, anchor="middle"))
    return Face(f"{words(kind)} (back)", kind, "back", tuple(shapes))


def back_facts(rules: Rules, card_type: int) -> list[tuple[str, Any]]:
    """The properties a card's kind prints on its back, with this card's values."""
    ct = rules.cards[card_type]
    return [(p, ct.props.get(p, "")) for p in ct.public_props]


# -- drawing -------------------------------------------------------------------------------


def svg(face: Face, css_class: str = "face") -> str:
    """The face as an SVG element (every text escaped), sized by its container."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" '
        f'font-family="{FONT}" role="img" aria-label={quoteattr(face.title)} data-kind={quoteattr(face.kind)} '
        f'data-side="{face.side}">',
        f"<title>{escape(face.title)}</title>",
    ]
    for s in face.shapes:
        if isinstance(s, Box):
            out.append(
                f'<rect x="{s.x:.2f}" y="{s.y:.2f}" width="{s.w:.2f}" height="{s.h:.2f}" rx="{s.radius:g}" '
                f'fill="{s.fill}" stroke="{s.stroke}" stroke-width="{s.stroke_width:g}"/>'
            )
        elif isinstance(s, Disc):
            out.append(
                f'<circle cx="{s.cx:.2f}" cy="{s.cy:.2f}" r="{s.r:.2f}" fill="{s.fill}" stroke="{s.stroke}" '
                'stroke-width="0.3"/>'
            )
        else:
            anchor = ' text-anchor="middle"' if s.anchor == "middle" else ""
            weight = ' font-weight="bold"' if s.bold else ""
            lead = f'<tspan font-weight="bold">{escape(s.lead)}</tspan>' if s.lead else ""
            out.append(
                f'<text x="{s.x:.2f}" y="{s.y:.2f}" font-size="{s.size:.2f}" fill="{s.fill}"{anchor}{weight} '
                f'xml:space="preserve">{lead}{escape(s.text)}</text>'
            )
    out.append("</svg>")
    return "".join(out)


def svg_document(face: Face) -> str:
    """A standalone SVG file of the face."""
    body = svg(face).replace("<svg ", f'<svg width="{WIDTH:g}mm" height="{HEIGHT:g}mm" ', 1)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
