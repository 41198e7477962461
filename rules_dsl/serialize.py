"""GameState <-> JSON through cattrs, with a clear error naming the bad field."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import cattrs

from rules_dsl.errors import StateFormatError
from rules_dsl.state import GameState

_converter = cattrs.Converter(forbid_extra_keys=True)


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    """Take a JSON value only if it already has the type: no quiet bool("false") or int(3.7)."""

    def structure(value: object, _: object) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value

    return structure


for _kind in (bool, int, str):
    _converter.register_structure_hook(_kind, _strict(_kind))


def _strict_list_factory(cl: Any, converter: cattrs.Converter) -> Any:
    """cattrs' own list hook (with its per-item error paths), but only for real lists."""
    from cattrs.cols import list_structure_factory

    inner = list_structure_factory(cl, converter)

    def structure(value: Any, kind: Any) -> Any:
        if not isinstance(value, list):
            raise TypeError(f"expected a list, got {type(value).__name__} {value!r}")
        return inner(value, kind)

    return structure


_converter.register_structure_hook_factory(lambda cl: getattr(cl, "__origin__", None) is list, _strict_list_factory)


def _strict_tuple_factory(cl: Any, converter: cattrs.Converter) -> Any:
    """`tuple[X, ...]` (what a card holds) from a JSON array only, item by item as lists."""
    from cattrs.cols import homogenous_tuple_structure_factory

    inner = homogenous_tuple_structure_factory(cl, converter)

    def structure(value: Any, kind: Any) -> Any:
        if not isinstance(value, list):
            raise TypeError(f"expected a list, got {type(value).__name__} {value!r}")
        return inner(value, kind)

    return structure


_converter.register_structure_hook_factory(lambda cl: getattr(cl, "__origin__", None) is tuple, _strict_tuple_factory)
# tuples are JSON arrays: unstructured as lists, so the data equals what JSON gives back
_converter.register_unstructure_hook_factory(
    lambda cl: getattr(cl, "__origin__", None) is tuple, lambda cl: lambda value: list(value)
)


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


def from_json(text: str) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise StateFormatError("not a valid game state: the JSON is nested too deeply") from None
    return from_data(data)
