"""Card faces (rules_dsl/card_face.py): every card of every pack drawn front and back as
well-formed SVG from the pack's data, each side showing only what it prints, in the pack's
look (`look:`) or the default look, and a `look:` that names what the packs do not declare
refused with where and what."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT

from rules_dsl import card_face
from rules_dsl.card_view import setting, view
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError

SVG = "{http://www.w3.org/2000/svg}"
PACKS = ["base", "escalation", "microcosm", "base-scenarios"]
EXAMPLES = sorted(p for p in (ROOT / "examples" / "games").iterdir() if (p / "pack.yaml").exists())


def texts(document: str) -> list[tuple[float, float, float, str]]:
    """(x, y, size, text) of every line of text of an SVG face, parsed as XML."""
    return [(x, y, size, text) for x, y, size, text, _ in lines_of(document)]


def lines_of(document: str) -> list[tuple[float, float, float, str, float]]:
    """(x, y, size, text, width in mm) of every line of text, its width worked out from its
    bold and regular parts."""
    root = ET.fromstring(document.split("\n", 1)[1])
    assert root.tag == SVG + "svg" and root.get("viewBox") == "0 0 63 88"
    out = []
    for t in root.iter(SVG + "text"):
        size = float(t.get("font-size", 0))
        bold = t.get("font-weight") == "bold"
        lead = "".join(span.text or "" for span in t.iter(SVG + "tspan"))
        rest = "".join(t.itertext())[len(lead) :]
        width = card_face.text_width(lead, size, True) + card_face.text_width(rest, size, bold)
        if t.get("text-anchor") == "middle":
            width = 0  # centred: checked by its half widths below
        out.append((float(t.get("x", 0)), float(t.get("y", 0)), size, lead + rest, width))
    return out


@pytest.mark.parametrize("pack", PACKS + [str(p) for p in EXAMPLES], ids=lambda p: Path(p).name)
def test_every_card_has_a_well_formed_front_and_back_within_the_card(pack: str) -> None:
    rules = Engine.for_pack(pack).rules
    game = setting(rules, None, None)
    for index, ct in enumerate(rules.cards):
        front = card_face.svg_document(card_face.front(rules, view(rules, ct, game), ct.public_props))
        lines = lines_of(front)
        assert lines[0][3] == ct.name or ct.name.startswith(lines[0][3].rstrip("…")), ct.id
        for x, y, size, text, width in lines:
            assert 0 < x < 63 and 0 < y < 88 and size >= 1.7, (ct.id, text)
            assert x + width <= 63 - 2, (ct.id, text)  # inside the card's frame
        back = card_face.back(rules, ct.kind, card_face.back_facts(rules, index))
        shown = " ".join(t for *_, t in texts(card_face.svg_document(back)))
        assert ct.name not in shown or ct.name == ct.kind, (ct.id, shown)


def test_a_planet_shows_its_survey_facts_only_on_its_back(engine: Engine) -> None:
    rules = engine.rules
    ct = rules.cards[rules.card_index["pomerene"]]
    game = setting(rules, None, None)
    front = " ".join(
        t for *_, t in texts(card_face.svg_document(card_face.front(rules, view(rules, ct, game), ct.public_props)))
    )
    back = " ".join(
        t
        for *_, t in texts(
            card_face.svg_document(
                card_face.back(rules, "planet", card_face.back_facts(rules, rules.card_index["pomerene"]))
            )
        )
    )
    assert "Pomerene" in front and "influence 2" in front and "cost" not in front and "type" not in front
    assert back.split() == [
        "planet",
        "type",
        "advanced",
        "warfare",
        "cost",
        "2",
        "colonize",
        "cost",
        "2",
        "Eminent",
        "Domain",
    ]


def test_the_packs_look_colours_glyphs_and_words(engine: Engine) -> None:
    rules = engine.rules
    game = setting(rules, None, None)
    ct = rules.cards[rules.card_index["survey"]]
    face = card_face.front(rules, view(rules, ct, game), ct.public_props)
    document = card_face.svg_document(face)
    assert 'fill="#4a5a6a"' in document  # role-card's colour in cards/look.yaml
    assert ">◎</text>" in document  # survey's glyph
    # the pack's words for a moment: "WHEN you end-role-phase" reads "end the role phase"
    assert (
        card_face.readable(rules.look, "WHEN you end-role-phase: draw 1 card")
        == "WHEN you end the role phase: draw 1 card"
    )
    assert (
        card_face.readable(rules.look, "look at your survey-view") == "look at your survey-view"
    )  # a zone, not the procedure


def test_a_pack_without_a_look_gets_the_default(tmp_path: Path) -> None:
    rules = Engine.load([str(ROOT / "examples" / "games" / "love-letter")]).rules
    assert rules.look.colours == {} and rules.look.faces == ""
    ct = rules.cards[0]
    face = card_face.front(rules, view(rules, ct, setting(rules, None, None)), ct.public_props)
    assert card_face.colour(rules.look, ct.kind) in card_face.PALETTE
    assert any(isinstance(s, card_face.Box) and s.fill == card_face.colour(rules.look, ct.kind) for s in face.shapes)


def test_text_is_escaped_in_svg(engine: Engine) -> None:
    rules = engine.rules
    back = card_face.back(rules, "planet", [("type", "<script>alert(1)</script>&")])
    document = card_face.svg_document(back)
    assert "<script>" not in document and "&lt;script&gt;" in document
    ET.fromstring(document.split("\n", 1)[1])


def test_a_look_naming_what_the_packs_do_not_declare_is_refused(pack_copy: Callable[..., Path]) -> None:
    folder = pack_copy(("look.yaml", '    planet: "#2e6b4f"', '    planets: "#2e6b4f"'))
    with pytest.raises(PackError) as info:
        compile_packs([str(folder)])
    (problem,) = info.value.problems
    assert "look: colours names 'planets', which is no card kind of the packs" in problem.render()
    assert "planet" in (problem.suggestion or "")
    assert problem.file.endswith("look.yaml") and problem.line > 1
    folder = pack_copy(("look.yaml", "  faces: pair", "  faces: pairs"))
    with pytest.raises(PackError) as info:
        compile_packs([str(folder)])
    assert "faces names 'pairs', which is no property" in info.value.problems[-1].render()
