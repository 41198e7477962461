"""serialize's two converters accept exactly the same data: the fast one loads states, the
detailed one only explains a refusal, so a state the fast one took that the detailed one
would refuse (or the other way round) would be a hole in the checks of saved games."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from rules_dsl import serialize
from rules_dsl.engine import Engine
from rules_dsl.errors import StateFormatError
from rules_dsl.state import GameState
from rules_dsl.testing import play, seeded_chooser


def _mid_game(engine: Engine) -> GameState:
    st = engine.new_game(4, 3)
    play(engine, st, seeded_chooser(3), max_decisions=200)
    st.card_to_change(5).tokens = ("a", "b")  # something in every kind of thing a card holds
    st.card_to_change(6).marks = ("m",)
    st.card_to_change(7).seen = (1,)
    return st


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:3]):  # the first few items of each list are enough
            yield from _leaves(value, (*path, i))


WRONG = [1, True, "1", 1.5, None, [], {}, ["x"], [1], {"k": 1}]


def _accepts(converter: Any, data: Any) -> GameState | None:
    try:
        return converter.structure(data, GameState)  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - any refusal
        return None


def test_the_fast_and_the_detailed_converter_agree(engine: Engine) -> None:
    good = serialize.to_data(_mid_game(engine))
    assert _accepts(serialize._fast, good) == _accepts(serialize._converter, good) is not None
    tried = 0
    for path in _leaves(good):
        if not path:
            continue
        for wrong in WRONG:
            data = copy.deepcopy(good)
            target = data
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = wrong
            fast, detailed = _accepts(serialize._fast, data), _accepts(serialize._converter, data)
            assert fast == detailed, (path, wrong)
            tried += 1
    assert tried > 1000


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"][3].__setitem__("tokens", "ab"), "expected list @ state.cards[3].tokens"),
        (lambda d: d["cards"][3].__setitem__("under", [True]), "expected int @ state.cards[3].under[0]"),
        (lambda d: d["zones"]["discard.0"].append("7"), "state.zones['discard.0']"),
    ],
)
def test_a_refused_state_is_explained_by_the_detailed_converter(engine: Engine, change: Any, message: str) -> None:
    data = json.loads(serialize.to_json(_mid_game(engine)))
    change(data)
    with pytest.raises(StateFormatError, match=None) as info:
        serialize.from_data(data)
    assert message in str(info.value)


def test_the_card_hooks_write_what_cattrs_writes(engine: Engine) -> None:
    """serialize's own hooks for cards (to JSON in one loop, from JSON in one call) give the
    bytes and the state that cattrs' generated hooks give."""
    import cattrs

    plain = cattrs.Converter()
    plain.register_unstructure_hook_factory(
        lambda cl: getattr(cl, "__origin__", None) is tuple, lambda cl: lambda value: list(value)
    )
    st = _mid_game(engine)
    st.card_to_change(8).under = (9,)
    text = serialize.to_json(st)
    assert text == json.dumps(plain.unstructure(st), sort_keys=True, separators=(",", ":"))
    back = serialize.from_json(text)
    assert back == st == serialize._converter.structure(json.loads(text), GameState)
    assert all(type(c.under) is tuple and type(c.seen) is tuple for c in back.cards)


def test_a_new_game_s_cards_are_made_with_every_field_a_card_has() -> None:
    # `new_card` sets the slots itself: a field added to CardState and forgotten there
    # would be unset (and this comparison would raise)
    from rules_dsl.state import CardState, new_card

    assert new_card(3, "hand.1", False) == CardState(3, "hand.1", False)
    assert new_card(0, "deck", True) == CardState(0, "deck")
