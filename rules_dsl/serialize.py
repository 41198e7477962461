"""GameState <-> JSON through cattrs, with a clear error naming the bad field."""

from __future__ import annotations

import json
from typing import Any

import cattrs

from rules_dsl.errors import StateFormatError
from rules_dsl.state import GameState

_converter = cattrs.Converter(forbid_extra_keys=True)


def to_data(st: GameState) -> dict[str, Any]:
    return _converter.unstructure(st)  # type: ignore[no-any-return]


def from_data(data: Any) -> GameState:
    try:
        return _converter.structure(data, GameState)
    except cattrs.BaseValidationError as exc:
        details = "; ".join(cattrs.transform_error(exc, path="state"))
        raise StateFormatError(f"not a valid game state: {details}") from None
    except (TypeError, ValueError, KeyError) as exc:
        raise StateFormatError(f"not a valid game state: {exc}") from None


def to_json(st: GameState) -> str:
    return json.dumps(to_data(st), sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    return from_data(data)
