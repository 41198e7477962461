"""`your copies of CARD are wild [if COND]` (issue 20): a card's continuous ability makes
copies of another card count as one of every symbol for its owner, while the ability's card
lies where the ability says and its condition holds. A small game: the main phase gains a
coin per moon symbol in the hand, where a joker prints none; the second phase asks the
active player something, where each scenario stops."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules_dsl.compiler import compile_packs
from rules_dsl.errors import PackError
from rules_dsl.parser import parse
from rules_dsl.printer import show
from rules_dsl.scenario import Report, run_scenario

RULES = """
vocabulary:
  symbols: [sun, moon]
  kinds: {chip: chips}
  counters:
    coin: {per: player, plural: coins}
  zones:
    deck: {visibility: hidden, facing: down}
    hand: {per: player, visibility: owner, facing: up}
    table: {per: player, visibility: public}
    box: {visibility: public, facing: up}
setup: |
  shuffle the deck
turn:
  - phase: main
    text: |
      gain the number of moon symbols on cards in your hand coins
  - phase: rest
    text: |
      you may nothing
game-end:
  triggers:
    - {name: rich, when: "any player where their coins is at least 1000"}
  ends: after-turn
  turn-limit: 40
scoring:
  score: your coins
"""
CARDS = """
cards:
  - {id: moon, kind: chip, zone: deck, count: 2, symbols: [moon]}
  - {id: joker, kind: chip, zone: deck, count: 3}
  - id: lens
    kind: chip
    zone: deck
    count: 2
    text: |
      WHILE face-up in your table: your copies of {card} are wild if your coins is at least 5
"""


def pack(tmp_path: Path, card: str = "joker") -> Path:
    folder = tmp_path / "lens"
    folder.mkdir(exist_ok=True)
    (folder / "pack.yaml").write_text(
        "id: lens\nname: Lens\nversion: 0.0.0\nplayers: [2, 2]\nfiles: [rules.yaml, cards.yaml]\n", encoding="utf-8"
    )
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS.replace("{card}", card), encoding="utf-8")
    return folder


def play(folder: Path, coins: int, hand: list[str], table: list[Any], expect_coins: list[int]) -> Report:
    data = {
        "pack": [folder.name],
        "players": 2,
        "unused": "box",
        "position": {
            "active": 1,
            "phase": "main",
            "counters": {"coin": [coins, 0]},
            "players": {1: {"hand": hand, "table": table}, 2: {"hand": [], "table": []}},
        },
        "decisions": [],
        "expect": {"counters": {"coin": expect_coins}, "phase": "rest"},
    }
    return run_scenario(data, folder.parent, Report("test", "test"))


def test_the_copies_are_wild_while_the_card_lies_there_and_its_condition_holds(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    up = {"card": "lens", "face": "up"}
    # two jokers and a moon, the lens face up and 5 coins: 3 moons
    report = play(folder, 5, ["joker", "joker", "moon"], [up], [8, 0])
    assert report.ok, report.render()
    # the condition does not hold: the jokers print no moon
    report = play(folder, 4, ["joker", "joker", "moon"], [up], [5, 0])
    assert report.ok, report.render()
    # the lens face down, or in the hand: not where the ability works
    report = play(folder, 5, ["joker", "moon"], [{"card": "lens", "face": "down"}], [6, 0])
    assert report.ok, report.render()
    report = play(folder, 5, ["joker", "lens"], [], [5, 0])
    assert report.ok, report.render()
    # two lenses make a joker wild once: it counts one moon
    report = play(folder, 5, ["joker"], [up, up], [6, 0])
    assert report.ok, report.render()


def test_a_printed_symbol_counts_as_printed(tmp_path: Path) -> None:
    folder = pack(tmp_path, card="moon")
    report = play(folder, 5, ["moon"], [{"card": "lens", "face": "up"}], [6, 0])
    assert report.ok, report.render()


def test_an_unknown_card_is_an_error_at_its_place(tmp_path: Path) -> None:
    folder = pack(tmp_path, card="jocker")
    with pytest.raises(PackError) as exc:
        compile_packs([str(folder)])
    text = str(exc.value)
    assert "cards.yaml:10:51:" in text and "unknown card id 'jocker'" in text and "did you mean 'joker'" in text


def test_it_prints_as_it_parses() -> None:
    text = (
        "WHILE face-up in your empire: your copies of research are wild if your fighters is 0; add 1 to your hand-limit"
    )
    tree = parse(text, "start")
    printed = "\n".join(show(item) for item in tree)
    assert printed == text
    assert parse(printed, "start") == tree


def test_a_count_asks_the_wild_condition_once_per_owner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting symbols (a policy's expression, the evaluation's features) asks whether one
    owner's copies are wild once for all of them, not once per copy: the answer of a
    `your copies of CARD are wild` grant depends on the owner only."""
    from rules_dsl.compiler.build import compile_with_expressions
    from rules_dsl.effects.abilities import WildWhile
    from rules_dsl.engine import Engine
    from rules_dsl.state import Frame

    rules, compiled = compile_with_expressions(
        [str(pack(tmp_path))], {"e": "the number of moon symbols on cards in your hand"}
    )
    engine = Engine(rules)
    st = engine.new_game(2, 1, None)
    ids = [rules.cards[c.type].id for c in st.cards]
    jokers = [i for i, card in enumerate(ids) if card == "joker"]
    lens = ids.index("lens")
    for zone in list(st.zones):
        st.zones[zone] = [c for c in st.zones[zone] if c not in (*jokers, lens)]
    st.zones["hand.0"] = list(jokers)
    st.zones["table.0"] = [lens]
    for c in jokers:
        st.cards[c].loc = "hand.0"
    st.cards[lens].loc, st.cards[lens].up = "table.0", True
    st.counters["coin"] = [5, 0]
    st.rules = rules
    asked = []
    test = WildWhile.test
    monkeypatch.setattr(WildWhile, "test", lambda self, *a: asked.append(1) or test(self, *a))
    assert compiled["e"].num(st, Frame(rules.game_loop, 0, -1, 0, {}, None)) == 3
    assert len(asked) == 1
    st.counters["coin"] = [4, 0]  # the grant's condition fails: no joker counts
    assert compiled["e"].num(st, Frame(rules.game_loop, 0, -1, 0, {}, None)) == 0
    assert len(asked) == 2
