"""The shape of every pack file, declared once.

The loader and compiler take their keys and allowed values from these declarations (the
manifest's keys, the parts, the vocabulary's keys, a zone's keys and visibilities, ...),
and `rules-dsl schema` turns the same declarations into JSON Schemas for YAML editors
(`json_schemas`). What a schema cannot know (the names a pack declares: which zones exist,
which properties a card may give) is checked by the compiler against the vocabulary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

SCHEMA_DIALECT = "http://json-schema.org/draft-07/schema#"
VAR_PATTERN = "^[A-Z][A-Z0-9_]*$"  # parameters, section labels
PROPERTY_NAME = "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"  # a property a vocabulary declares, given on a card


# ECMA-262 in unicode mode (what editors and check-jsonschema use) allows a backslash only
# before these; Python's re.escape also escapes '-', which such a validator refuses.
_ECMA_SYNTAX = frozenset("^$\\.*+?()[]{}|/")


def ecma_escape(text: str) -> str:
    """text as a regular expression matching itself, valid in Python and ECMA-262 alike."""
    return "".join("\\" + c if c in _ECMA_SYNTAX else c for c in text)


@attrs.frozen
class Shape:
    doc: str = attrs.field(default="", kw_only=True)

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError


@attrs.frozen
class Str(Shape):
    enum: tuple[str, ...] = ()
    pattern: str = ""

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string"}
        if self.enum:
            out["enum"] = list(self.enum)
        if self.pattern:
            out["pattern"] = self.pattern
        return out


@attrs.frozen
class Int(Shape):
    minimum: int | None = None
    maximum: int | None = None

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer"}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@attrs.frozen
class Real(Shape):
    """A number, whole or decimal (an evaluation weight)."""

    def schema(self) -> dict[str, Any]:
        return {"type": "number"}


@attrs.frozen
class Bool(Shape):
    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@attrs.frozen
class Nothing(Shape):
    def schema(self) -> dict[str, Any]:
        return {"type": "null"}


@attrs.frozen
class Anything(Shape):
    def schema(self) -> dict[str, Any]:
        return {}


@attrs.frozen
class Seq(Shape):
    item: Shape = attrs.field(factory=Anything)
    min_items: int | None = None
    max_items: int | None = None

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": _schema(self.item)}
        if self.min_items is not None:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        return out


@attrs.frozen
class Table(Shape):
    """A mapping from names the pack chooses to values of one shape."""

    value: Shape = attrs.field(factory=Anything)
    key_pattern: str = ""

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "additionalProperties": _schema(self.value)}
        if self.key_pattern:
            out["propertyNames"] = {"pattern": self.key_pattern}
        return out


@attrs.frozen
class Field:
    shape: Shape
    doc: str = ""
    required: bool = False


@attrs.frozen
class Record(Shape):
    """A mapping with known keys; `extra` maps a key pattern to the shape of other keys."""

    fields: dict[str, Field] = attrs.Factory(dict)
    extra: tuple[tuple[str, Shape], ...] = ()
    exclusive: tuple[tuple[str, ...], ...] = ()  # groups of keys of which at most one may be given
    # conditions only the schema states, in JSON Schema (the compiler checks them itself,
    # with its own messages): e.g. a card's kind, on the entry or on each of its copies
    conditions: tuple[Any, ...] = ()

    def names(self) -> set[str]:
        return set(self.fields)

    def schema(self) -> dict[str, Any]:
        props = {}
        for name, f in self.fields.items():
            props[name] = _schema(f.shape, f.doc)
        out: dict[str, Any] = {"type": "object", "properties": props}
        required = [name for name, f in self.fields.items() if f.required]
        if required:
            out["required"] = required
        if self.extra:
            # a key matching both a field and a pattern would be checked against both
            known = "|".join(ecma_escape(name) for name in self.fields)
            out["patternProperties"] = {
                f"^(?!(?:{known})$){pattern.removeprefix('^')}": _schema(shape) for pattern, shape in self.extra
            }
        out["additionalProperties"] = False
        for group in self.exclusive:
            out.setdefault("allOf", []).append({"not": {"required": list(group)}})
        for condition in self.conditions:
            out.setdefault("allOf", []).append(condition)
        return out


@attrs.frozen
class OneOf(Shape):
    options: tuple[Shape, ...] = ()

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [_schema(o) for o in self.options]}


def _schema(shape: Shape, doc: str = "") -> dict[str, Any]:
    out = shape.schema()
    if doc or shape.doc:
        out["description"] = doc or shape.doc
    return out


def _f(shape: Shape, doc: str = "", required: bool = False) -> Field:
    return Field(shape, doc, required)


TEXT_STRING = Str(doc="rules text in the DSL (docs/dsl.md)")
STEP_NAME = Str(pattern=PROPERTY_NAME, doc="a step's name, in lower case with hyphens")
# rules text may be written as a list of steps, some named, so that a pack requiring this
# one can add text before or after a named step, replace it, or give it alternatives
# (docs/modding.md#named-steps)
STEP = Record(
    fields={
        "step": _f(STEP_NAME, "the step's name: one meaning among the packs loaded together", required=True),
        "text": _f(TEXT_STRING, "the step's rules text", required=True),
    }
)
TEXT = OneOf(
    options=(TEXT_STRING, Seq(OneOf(options=(TEXT_STRING, STEP)), min_items=1)),
    doc="rules text in the DSL (docs/dsl.md), or a list of steps: text or {step: NAME, text: TEXT}",
)
CONDITION = Str(doc="a condition in the DSL, e.g. 'the supply is empty'")
EXPRESSION = Str(doc="an expression in the DSL, e.g. 'your coins plus 1'")
NAMES = Seq(Str())
PARAM_NAME = Str(pattern=VAR_PATTERN, doc="a parameter name in capitals")
NUMBER_OR_PARAM = OneOf(options=(Int(), PARAM_NAME))
PER = Str(enum=("player", "game"))

# ---- the manifest (pack.yaml) --------------------------------------------------------

MANIFEST = Record(
    doc="A pack's manifest, pack.yaml (docs/modding.md#pack-folder-and-manifest).",
    fields={
        "id": _f(Str(), "how other packs and the engine name this pack", required=True),
        "name": _f(Str(), "the game's name"),
        "version": _f(OneOf(options=(Str(), Int())), "free text"),
        "description": _f(Str(), "free text"),
        "requires": _f(NAMES, "ids of the packs this one builds on; they are loaded first"),
        "players": _f(Seq(Int(minimum=1, maximum=8), min_items=2, max_items=2), "[fewest, most] players"),
        "files": _f(NAMES, "the YAML files of the pack, in the order they are read"),
        "engine": _f(Str(), "the rules-dsl versions this pack supports, a PEP 440 specifier such as '>=0.1,<1'"),
    },
)

# ---- vocabulary ------------------------------------------------------------------------

ZONE_VISIBILITIES = ("public", "owner", "hidden", "top", "others")
FACINGS = ("up", "down")
PROPERTY_TYPES = ("number", "symbol", "zone", "text", "expression")

ZONE = Record(
    fields={
        "per": _f(PER, "player: one per player; game: one shared (the default)"),
        "visibility": _f(Str(enum=ZONE_VISIBILITIES), "who sees the cards (default: public)"),
        "facing": _f(Str(enum=FACINGS), "cards moved here turn this way"),
        "refill-from": _f(Str(), "the zone shuffled into this one when it is drawn from empty"),
    }
)
COUNTER = Record(
    fields={
        "per": _f(PER, "player (the default) or game"),
        "plural": _f(Str(), "the plural word: gain 2 coins"),
        "start": _f(NUMBER_OR_PARAM, "the starting value"),
        "supply": _f(Str(), "a per-game counter that gaining takes from"),
        "may-be-negative": _f(Bool(), "true: losing may take it below 0 (a penalty); else it stops at 0"),
    }
)
KIND = Record(
    fields={
        "plural": _f(Str(), "the plural noun (default: singular + s)"),
        "back": _f(NAMES, "properties printed on the back of the card"),
    }
)
ZONE_GROUP_MEMBER = OneOf(
    options=(Str(), Record(fields={"zone": _f(Str(), required=True), "when": _f(PARAM_NAME, required=True)}))
)
WILD_CARD = Record(fields={"card": _f(Str(), required=True), "while": _f(CONDITION, required=True)})

QUANTITY = Record(fields={"start": _f(NUMBER_OR_PARAM), "means": _f(Str())})
VOCABULARY = Record(
    doc="The words card and rules text may use (docs/modding.md#vocabulary).",
    fields={
        "symbols": _f(NAMES, "the icons printed on cards"),
        "tokens": _f(NAMES, "kinds of token"),
        "token-groups": _f(Table(value=NAMES), "named sets of token kinds"),
        "kinds": _f(Table(value=OneOf(options=(Str(), KIND))), "card kinds: singular -> plural or {plural:, back:}"),
        "properties": _f(
            Table(
                value=OneOf(options=(Str(enum=PROPERTY_TYPES), NAMES, Table(value=OneOf(options=(Int(), EXPRESSION)))))
            ),
            "printed values cards may carry: a type, a list of values, or values each worth an expression",
        ),
        "sections": _f(Seq(Str(pattern=VAR_PATTERN)), "section labels of card text, in capitals"),
        "counters": _f(Table(value=OneOf(options=(Nothing(), COUNTER))), "numbers kept per player or per game"),
        "zones": _f(Table(value=OneOf(options=(Nothing(), ZONE))), "places where cards lie"),
        "zone-groups": _f(Table(value=Seq(ZONE_GROUP_MEMBER)), "named lists of zones (yours, for a per-player one)"),
        "wild-cards": _f(Seq(WILD_CARD), "cards that count as every symbol while a condition holds"),
        "draw": _f(Record(fields={"from": _f(Str()), "to": _f(Str())}), "what 'draw N cards' means"),
        "slot-room": _f(Str(), "a quantity: each slot of a card in a player's zones holds that many more tokens"),
        "rotation-word": _f(
            Str(),
            "what outputs call one turn of every seat (default: round, or rotation in a game with deals)",
        ),
        # the modding surface: what card abilities may hook (docs/modding.md#abilities-and-the-modding-surface)
        "abilities": _f(
            Record(fields={"zone": _f(Str(), required=True), "facing": _f(Str(enum=FACINGS))}),
            "where a card's triggered and activated abilities work: one of its owner's zones",
        ),
        "moments": _f(Table(value=Str()), "moments the rules announce: name -> what has happened"),
        "windows": _f(Table(value=Str()), "windows in which activated abilities are used: name -> when"),
        "quantities": _f(
            Table(
                value=OneOf(
                    options=(
                        Str(),
                        QUANTITY,
                    )
                )
            ),
            "numbers the rules read and abilities change: name -> meaning, or {start:, means:}",
        ),
    },
)

# ---- parameters, variants, rules -------------------------------------------------------

PARAM_VALUE = OneOf(
    options=(Int(), Table(value=Int(), key_pattern="^[1-8]$", doc="a value per player count, e.g. {2: 1, 4: 2}"))
)
PARAMETERS = Table(value=PARAM_VALUE, key_pattern=VAR_PATTERN, doc="named numbers, in capitals")
VARIANT = Record(
    fields={
        "description": _f(Str()),
        "parameters": _f(Table(value=PARAM_VALUE, key_pattern=VAR_PATTERN), "parameter changes"),
    }
)
PHASE = Record(fields={"phase": _f(Str(), "the phase's name", required=True), "text": _f(TEXT)})
END_CHECKED = ("end-of-turn", "at-once")
END_ENDS = ("after-round", "after-turn", "after-rotation")
TRIGGER = Record(
    fields={
        "name": _f(Str(), required=True),
        "when": _f(CONDITION, required=True),
        "checked": _f(
            Str(enum=END_CHECKED),
            "end-of-turn (the default: after each turn) or at-once (the moment it holds, at any step)",
        ),
        "ends": _f(
            Str(enum=END_ENDS),
            "when the game ends after this trigger, if not as the game-end's ends says; after-rotation: "
            "when every player has had one more turn",
        ),
    }
)
GAME_END = Record(
    doc="When the game ends (docs/modding.md#end-of-game-and-scoring).",
    fields={
        "triggers": _f(Seq(TRIGGER), "conditions checked after each turn, or at once"),
        "extra-rounds": _f(NUMBER_OR_PARAM, "rounds played after the end is triggered"),
        "ends": _f(
            Str(enum=END_ENDS),
            "after-round (equal turns, the default), after-turn or after-rotation (one more turn for everyone)",
        ),
        "final-turn": _f(CONDITION, "a player for whom this holds takes one more turn"),
        "turn-limit": _f(Int(minimum=0), "a safety net: the game ends after this many turns"),
    },
)
DEAL = Record(
    doc="Deals (rounds, hands) above the turns, each with its own set-up, end and scoring "
    "(docs/modding.md#deals-rounds-or-hands-above-turns).",
    fields={
        "setup": _f(TEXT, "rules text run at the start of each deal (the first: after the game's set-up)"),
        "end": _f(CONDITION, "checked after each turn: when it holds, the deal ends", required=True),
        "scoring": _f(TEXT, "rules text run when a deal ends, before the game's end is checked"),
    },
)
COOPERATIVE = Record(
    fields={"win": _f(CONDITION, "when every player wins together (else every player loses)", required=True)}
)
SCORING = Record(
    fields={
        "score": _f(EXPRESSION, "each player's score", required=False),
        "tiebreak": _f(EXPRESSION, "compared when scores are equal"),
        "breakdown": _f(Table(value=EXPRESSION), "named parts of the score, for reports"),
        "co-operative": _f(
            COOPERATIVE, "all players win or lose together; the score is shared (docs/modding.md#co-operative-games)"
        ),
    }
)

INVARIANT_CLAIMS = ("holds", "constant", "never-decreases", "never-increases")
INVARIANT = Record(
    doc="A fact of the game checked by rules-dsl check in every position (docs/checking.md#pack-invariants).",
    fields={
        "name": _f(Str(), "what must hold, in words", required=True),
        "holds": _f(CONDITION, "true in every position, for each player as 'you'"),
        "constant": _f(EXPRESSION, "its value never changes"),
        "never-decreases": _f(EXPRESSION, "its value never goes down"),
        "never-increases": _f(EXPRESSION, "its value never goes up"),
        "plus-each-player": _f(EXPRESSION, "worked out for each player as 'you' and added to the value"),
    },
    exclusive=(INVARIANT_CLAIMS,),
)

ZONE_NAMES = OneOf(options=(Str(), Seq(Str(), min_items=1)))
STATISTIC = Record(
    fields={
        "from": _f(ZONE_NAMES, "the zone (or zones) a counted card comes from", required=True),
        "to": _f(ZONE_NAMES, "the zone (or zones) it goes to", required=True),
    }
)

CHOOSABLE = Record(
    doc="Cards a game may be told to use by name: OPTION=NAME among its variants (docs/modding.md#chosen-cards).",
    fields={
        "from": _f(Str(), "the zone whose cards may be chosen", required=True),
        "to": _f(Str(), "the zone a chosen card is put in before the set-up, the first chosen on top", required=True),
        "prefix": _f(Str(), "NAME is the card id without this prefix"),
        "variant": _f(Str(), "a variant that choosing a card turns on"),
        "description": _f(Str()),
    },
)

# ---- cards --------------------------------------------------------------------------

_CARD_FIELDS = {
    "id": _f(Str(), "unique in the pack"),
    "name": _f(Str()),
    "kind": _f(Str(), "one of the vocabulary's kinds"),
    "count": _f(OneOf(options=(Int(minimum=0), PARAM_NAME)), "copies: a number or a parameter"),
    "zone": _f(Str(), "the shared zone its copies start in"),
    "symbols": _f(NAMES, "symbols printed on it"),
    "slots": _f(NAMES, "token kinds it has slots for"),
    "text": _f(Str(doc="card text: sections such as 'ACTION: draw 1 card', and abilities")),
    "wild": _f(CONDITION, "while this holds for its owner, the card counts as one of every symbol"),
    "override": _f(Bool(), "true: this card replaces the card with the same id in a pack this one requires"),
}
_CARD_EXTRA = ((PROPERTY_NAME, OneOf(options=(Int(), Str()))),)


def card_record(fields: dict[str, Field], extra: tuple[tuple[str, Shape], ...] = _CARD_EXTRA) -> Record:
    """A card entry with these fields: an id, or copies each with its id and these fields."""
    copy = Record(fields={**fields, "id": _f(Str(), "unique in the pack", required=True)}, extra=extra)
    return Record(
        doc="A card (docs/modding.md#cards): an id, or copies each with its id. Other keys are the properties "
        "the vocabulary declares.",
        fields={
            **fields,
            "copies": _f(
                Seq(copy), "one text, several printings: each item is a card with these fields over the entry's"
            ),
        },
        extra=extra,
        exclusive=(("id", "copies"),),
        conditions=(
            {"anyOf": [{"required": ["id"]}, {"required": ["copies"]}]},
            *(_on_entry_or_copies(key) for key in CARD_NEEDS),
        ),
    )


# what every card must give (the compiler says "missing field 'kind'"): on the entry, or on
# each of its copies
CARD_NEEDS = ("kind", "zone")


def _on_entry_or_copies(key: str) -> dict[str, Any]:
    each_copy = {"required": ["copies"], "properties": {"copies": {"items": {"required": [key]}}}}
    return {"anyOf": [{"required": [key]}, each_copy]}


CARD_ENTRY_FIELDS = _CARD_FIELDS
CARD = card_record(_CARD_FIELDS)
CARD_FIELDS = CARD.names()

# ---- extend: what a pack adds to the packs it requires --------------------------------

TEXT_PLACES = ("before", "after")
AROUND = Record(fields={place: _f(TEXT, f"rules text run {place} the text so far") for place in TEXT_PLACES})
ALTERNATIVE = _f(TEXT, "rules text the player may do instead: the text so far OR this")
PROCEDURE_CHANGE = Record(fields={**AROUND.fields, "alternative": ALTERNATIVE})
STEP_CHANGE = Record(
    fields={
        **AROUND.fields,
        "replace": _f(TEXT, "rules text run instead of the step's own (additions of other packs stay)"),
        "alternative": ALTERNATIVE,
    }
)
NEW_PHASE = Record(
    fields={
        "phase": _f(Str(), "the new phase's name", required=True),
        "text": _f(TEXT),
        "before": _f(Str(), "an existing phase"),
        "after": _f(Str(), "an existing phase"),
    },
    exclusive=(("before", "after"),),
)
EXTEND = Record(
    doc="Additions to the parts of the packs this one requires (docs/modding.md#the-extend-part).",
    fields={
        "setup": _f(AROUND, "text run before or after the set-up"),
        "phases": _f(Table(value=AROUND), "text run at the start or end of existing phases"),
        "new-phases": _f(Seq(NEW_PHASE), "new phases of the turn"),
        "procedures": _f(
            Table(value=PROCEDURE_CHANGE),
            "text run at the start or end of existing procedures, or as an alternative to them",
        ),
        "steps": _f(
            Table(value=STEP_CHANGE, key_pattern=PROPERTY_NAME),
            "named steps of the set-up, phases and procedures: text run before or after one, instead of it, "
            "or as an alternative to it",
        ),
        "variants": _f(Table(value=Table(value=PARAM_VALUE, key_pattern=VAR_PATTERN)), "changes added to variants"),
        "default-variants": _f(NAMES, "variants added to the defaults"),
        "triggers": _f(Seq(TRIGGER), "more end triggers"),
        "score": _f(EXPRESSION, "added to the score"),
        "tiebreak": _f(EXPRESSION, "added to the tie-break"),
        "breakdown": _f(Table(value=EXPRESSION), "new lines of the score breakdown"),
        "zone-groups": _f(Table(value=Seq(ZONE_GROUP_MEMBER)), "zones added to existing zone groups"),
        "token-groups": _f(Table(value=NAMES), "token kinds added to existing token groups"),
    },
)

# ---- limits: the bounds on a running game (docs/modding.md#limits) -------------------

LIMITS = Record(
    doc="Bounds on a running game; the last pack that sets one wins (docs/modding.md#limits).",
    fields={
        "steps": _f(Int(minimum=1, maximum=1_000_000), "steps of the rules between two decisions (20000)"),
        "decisions-per-turn": _f(Int(minimum=1, maximum=100_000), "decisions in one turn (1000)"),
        "frames": _f(Int(minimum=1, maximum=10_000), "procedures and sections running inside each other (500)"),
        "decisions-per-game": _f(
            Int(minimum=1, maximum=10_000_000), "decisions in one game: a game not over by then never ends (100000)"
        ),
    },
)

# ---- look: how the cards look on the table and on paper (docs/modding.md#look) --------

COLOUR = Str(pattern="^#[0-9a-fA-F]{6}$", doc="a colour as #rrggbb")
LOOK = Record(
    doc="How the pack's cards look on the table and on paper (docs/modding.md#look); a later pack's "
    "entry for a name replaces an earlier one's.",
    fields={
        "colours": _f(Table(value=COLOUR), "a colour per card kind (#rrggbb)"),
        "symbols": _f(Table(value=Str()), "the glyph drawn for each symbol: one to three characters"),
        "words": _f(
            Table(value=Str(), key_pattern=PROPERTY_NAME),
            "how card text shows a moment, window or procedure (default: its name with spaces)",
        ),
        "faces": _f(
            Str(pattern=PROPERTY_NAME),
            "a property: the cards sharing its value are the faces of one double-sided card",
        ),
    },
)

# ---- a pack file: a mapping of parts -------------------------------------------------

PACK_FILE = Record(
    doc="A file of a pack: a mapping of parts (docs/modding.md#the-parts). Keys starting "
    "with x- are ignored (a place for YAML anchors).",
    fields={
        "vocabulary": _f(VOCABULARY),
        "parameters": _f(PARAMETERS),
        "variants": _f(Table(value=VARIANT), "named sets of parameter changes"),
        "default-variants": _f(NAMES, "the variants used when none are asked for"),
        "setup": _f(TEXT, "rules text run once at the start"),
        "turn": _f(Seq(PHASE), "the phases of a turn"),
        "procedures": _f(Table(value=TEXT), "named rules text that other text calls"),
        "deal": _f(DEAL),
        "game-end": _f(GAME_END),
        "scoring": _f(SCORING),
        "invariants": _f(Seq(INVARIANT), "facts of the game that hold in every position"),
        "evaluation": _f(EXPRESSION, "how good a position is for 'you', for search bots"),
        "features": _f(
            Table(value=EXPRESSION, key_pattern=PROPERTY_NAME),
            "named expressions for 'you' that the search bots weigh (docs/modding.md#evaluation-and-statistics)",
        ),
        "weights": _f(
            Table(value=Real(), key_pattern=PROPERTY_NAME),
            "a weight for each feature (rules-dsl tune writes them); the last pack's replace the earlier",
        ),
        "statistics": _f(Table(value=STATISTIC), "card moves counted in simulation results"),
        "choosable": _f(Table(value=CHOOSABLE), "cards a game may be told to use by name (--scenario NAME)"),
        "cards": _f(Seq(CARD), "the card definitions"),
        "extend": _f(EXTEND),
        "limits": _f(LIMITS),
        "look": _f(LOOK),
    },
    extra=(("^x-", Anything()),),
)
PARTS = PACK_FILE.names()

SCHEMAS = {"manifest": MANIFEST, "pack-file": PACK_FILE}


def document(shape: Shape, title: str) -> dict[str, Any]:
    """A schema file: the shape with its dialect and title."""
    return {"$schema": SCHEMA_DIALECT, "title": title, **_schema(shape)}


def json_schemas() -> dict[str, dict[str, Any]]:
    """File name -> JSON Schema, for `rules-dsl schema`."""
    return {f"{name}.schema.json": document(shape, f"rules-dsl {name}") for name, shape in SCHEMAS.items()}


def write_schemas(folder: str | Path, schemas: dict[str, dict[str, Any]] | None = None) -> list[Path]:
    """Write every schema (default: the generic ones) into folder (created if missing);
    returns the files written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in (json_schemas() if schemas is None else schemas).items():
        path = out / name
        path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written
