"""GameState <-> JSON through cattrs, with a clear error naming the bad field."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import cattrs

from rules_dsl import numbers
from rules_dsl.errors import StateFormatError
from rules_dsl.state import CardState, GameState


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    """Take a JSON value only if it already has the type: no quiet bool("false") or int(3.7)."""

    def structure(value: object, _: object) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value

    return structure


def _from_lists_only(inner: Any) -> Any:
    """A cattrs structure hook that takes a JSON array only, then structures it with `inner`
    (cattrs' own hook, with its per-item error paths)."""

    def structure(value: Any, kind: Any) -> Any:
        if not isinstance(value, list):
            raise TypeError(f"expected a list, got {type(value).__name__} {value!r}")
        return inner(value, kind)

    return structure


def _strict_list_factory(cl: Any, converter: cattrs.Converter) -> Any:
    from cattrs.cols import list_structure_factory

    return _from_lists_only(list_structure_factory(cl, converter))


def _strict_tuple_factory(cl: Any, converter: cattrs.Converter) -> Any:
    """`tuple[X, ...]` (what a card holds) from a JSON array only, item by item as lists."""
    from cattrs.cols import homogenous_tuple_structure_factory

    return _from_lists_only(homogenous_tuple_structure_factory(cl, converter))


def _plain_items(cl: Any) -> type | None:
    """bool, int or str when `cl` is a list or tuple of them (the bulk of a state)."""
    args = getattr(cl, "__args__", ())
    origin = getattr(cl, "__origin__", None)
    if args and args[0] in (bool, int, str) and (origin is list or (origin is tuple and args[1:] == (Ellipsis,))):
        return args[0]  # type: ignore[no-any-return]
    return None


def _plain_sequence_factory(cl: Any, converter: cattrs.Converter) -> Any:
    """The fast converter's hook for a list or tuple of bool, int or str: the same strict
    test as the item hook (`type(x) is kind`), in one loop instead of a call per item."""
    kind = _plain_items(cl)
    assert kind is not None  # registered for those types only
    make = list if cl.__origin__ is list else tuple

    def structure(value: Any, _: Any) -> Any:
        return _items(value, kind, make)

    return structure


_CARD_FIELDS = frozenset(f.name for f in attrs.fields(CardState))


def _items(value: Any, kind: type, make: Callable[[list[Any]], Any] = tuple) -> Any:
    """A JSON array of `kind` (exactly) as `make` gives it (a tuple: what a card holds)."""
    if type(value) is not list:
        raise TypeError(f"expected a list, got {type(value).__name__}")
    for item in value:
        if type(item) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(item).__name__}")
    return make(value)


def _card_from_data(value: Any, _: Any) -> CardState:
    """The fast converter's hook for a card (180 in a game, the bulk of a state): the same
    checks as the generated one (exact types, no unknown key, defaults for missing ones) in
    one call instead of one per field. Stricter is safe: what it refuses goes to the detailed
    converter, which accepts it or says why."""
    if type(value) is not dict or not value.keys() <= _CARD_FIELDS:
        raise TypeError("not a card")
    card = object.__new__(CardState)
    card.type = value["type"]
    card.loc = value["loc"]
    card.up = value.get("up", True)
    if type(card.type) is not int or type(card.loc) is not str or type(card.up) is not bool:
        raise TypeError("not a card")
    card.under = _items(value["under"], int) if "under" in value else ()
    card.tokens = _items(value["tokens"], str) if "tokens" in value else ()
    card.marks = _items(value["marks"], str) if "marks" in value else ()
    card.seen = _items(value["seen"], int) if "seen" in value else ()
    card.pool = value.get("pool", -1)
    if type(card.pool) is not int:
        raise TypeError("not a card")
    card.allowed = _items(value["allowed"], int) if "allowed" in value else ()
    return card


def _card_to_data(card: CardState) -> dict[str, Any]:
    """A card as the generated hook unstructures it (tuples as lists), in one call."""
    return {
        "type": card.type,
        "loc": card.loc,
        "up": card.up,
        "under": [*card.under],  # a list display, not a call to list()
        "tokens": [*card.tokens],
        "marks": [*card.marks],
        "seen": [*card.seen],
        "pool": card.pool,
        "allowed": [*card.allowed],
    }


def _cards_to_data(cards: list[CardState]) -> list[dict[str, Any]]:
    """Every card of a state (180 in a game) as `_card_to_data`, in one loop: no call per
    card; the keys in sorted order, so `to_json`'s sort finds them sorted (fewer comparisons)."""
    out = []
    for card in cards:
        out.append(
            {
                "allowed": [*card.allowed],
                "loc": card.loc,
                "marks": [*card.marks],
                "pool": card.pool,
                "seen": [*card.seen],
                "tokens": [*card.tokens],
                "type": card.type,
                "under": [*card.under],
                "up": card.up,
            }
        )
    return out


def _make_converter(detailed: bool) -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=detailed)
    for kind in (bool, int, str):
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_structure_hook_factory(lambda cl: getattr(cl, "__origin__", None) is list, _strict_list_factory)
    converter.register_structure_hook_factory(
        lambda cl: getattr(cl, "__origin__", None) is tuple, _strict_tuple_factory
    )
    # tuples are JSON arrays: unstructured as lists, so the data equals what JSON gives back
    converter.register_unstructure_hook_factory(
        lambda cl: getattr(cl, "__origin__", None) is tuple, lambda cl: lambda value: list(value)
    )
    converter.register_unstructure_hook(CardState, _card_to_data)
    converter.register_unstructure_hook_func(lambda cl: cl == list[CardState], _cards_to_data)
    if not detailed:  # registered last, so it comes first
        converter.register_structure_hook_factory(lambda cl: _plain_items(cl) is not None, _plain_sequence_factory)
        converter.register_structure_hook(CardState, _card_from_data)
    return converter


# Two converters with the same hooks, so they accept exactly the same data: the fast one
# (no per-field error bookkeeping, about twice as fast) loads every valid state; only when
# it refuses one does the detailed one run again, for the message naming the bad field.
_converter = _make_converter(detailed=True)
_fast = _make_converter(detailed=False)


def _format(exc: BaseException, kind: Any) -> str:
    """cattrs' message, naming a JSON array a list whatever the field holds it as."""
    from cattrs.v import format_exception

    if kind is tuple or getattr(kind, "__origin__", None) is tuple:
        kind = list
    return format_exception(exc, kind)


def to_data(st: GameState) -> dict[str, Any]:
    return _converter.unstructure(st)  # type: ignore[no-any-return]


def from_data(data: Any) -> GameState:
    if not isinstance(data, dict):
        raise StateFormatError(f"not a valid game state: expected a JSON object, got {type(data).__name__}")
    try:
        return _fast.structure(data, GameState)
    except Exception:  # noqa: BLE001 - refused: the detailed converter says why, below
        pass
    try:
        return _converter.structure(data, GameState)
    except cattrs.BaseValidationError as exc:
        details = "; ".join(cattrs.transform_error(exc, path="state", format_exception=_format))
        raise StateFormatError(f"not a valid game state: {details}") from None
    except (TypeError, ValueError, KeyError) as exc:
        raise StateFormatError(f"not a valid game state: {exc}") from None
    except RecursionError:
        raise StateFormatError("not a valid game state: a value is nested too deeply") from None


def to_json(st: GameState) -> str:
    return json.dumps(to_data(st), sort_keys=True, separators=(",", ":"))


def parse_json(text: str) -> Any:
    """A saved state's JSON text as data (bounded numbers), or a StateFormatError saying where
    it is not JSON."""
    try:
        return numbers.json_loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except numbers.NumberError as exc:
        raise StateFormatError(f"not a valid game state: {exc}") from None
    except RecursionError:
        raise StateFormatError("not a valid game state: the JSON is nested too deeply") from None


def from_json(text: str) -> GameState:
    return from_data(parse_json(text))
