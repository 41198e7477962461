"""A JSON Schema for the files of one pack, knowing its words (`rules-dsl schema --pack ID`).

The generic pack-file schema cannot know which kinds, zones, symbols and properties a pack
declares, so it lets any lower-case key through on a card. This one is the generic schema
with the card entry narrowed to the vocabulary of the pack and the packs it requires: a
misspelt field (`kindd:`), a property of the wrong type (`research-cost: three`), an
unknown kind, zone, symbol or slot are flagged by the editor while typing.
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.compiler.build import load_sources
from rules_dsl.compiler.vocabulary import Vocabulary, read_vocabulary
from rules_dsl.packs import shape
from rules_dsl.packs.loader import Problems
from rules_dsl.packs.shape import EXPRESSION, Field, Int, OneOf, Seq, Shape, Str


def pack_vocabulary(paths: list[str]) -> tuple[list[str], Vocabulary]:
    """The pack ids loaded (requirements first) and their vocabulary; raises PackError."""
    problems = Problems()
    sources = load_sources(paths, problems)
    problems.raise_if_any()
    parts = [(v.value, v.loc) for s in sources if (v := s.sections.get("vocabulary")) is not None]
    voc = read_vocabulary(parts, problems)
    problems.raise_if_any()
    return [s.id for s in sources], voc


def _one_of(values: list[str], doc: str) -> Str:
    return Str(enum=tuple(values), doc=doc) if values else Str(doc=doc)


def _property(name: str, ptype: Any, voc: Vocabulary) -> Shape:
    if isinstance(ptype, list):
        return _one_of(ptype, f"one of the values of {name}")
    if ptype == "number":
        return Int(doc="a whole number")
    if ptype == "symbol":
        return _one_of(voc.symbols, "a symbol")
    if ptype == "zone":
        return _one_of(sorted(voc.zones), "a zone")
    if ptype == "expression":
        return OneOf(options=(Int(), EXPRESSION), doc="a number, or an expression worked out for the card")
    return Str(doc="text")


def pack_file_schema(pack_ids: list[str], voc: Vocabulary) -> dict[str, Any]:
    """The pack-file schema with card entries limited to what voc declares."""
    shared = sorted(z for z, t in voc.zones.items() if not t.per_player)
    fields: dict[str, Field] = dict(shape.CARD_ENTRY_FIELDS)
    fields["kind"] = Field(_one_of(sorted(voc.kinds), "one of the vocabulary's kinds"))
    fields["zone"] = Field(_one_of(shared, "the shared zone its copies start in"))
    fields["symbols"] = Field(Seq(_one_of(voc.symbols, "a symbol")), "symbols printed on it")
    tokens = [*voc.tokens, *voc.token_groups]
    fields["slots"] = Field(Seq(_one_of(tokens, "a token kind")), "token kinds it has slots for")
    for name, ptype in voc.properties.items():
        fields[name] = Field(_property(name, ptype, voc), "a property the vocabulary declares")
    card = shape.card_record(fields, extra=())
    doc = shape.PACK_FILE.fields["cards"].doc
    pack_file = attrs.evolve(shape.PACK_FILE, fields={**shape.PACK_FILE.fields, "cards": Field(Seq(card), doc)})
    return shape.document(pack_file, f"rules-dsl pack-file of {' + '.join(pack_ids)}")
