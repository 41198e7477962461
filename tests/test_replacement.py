"""Replacement abilities (issue 26): `you MOMENT: BODY` marks an event, and a card's
`[MAY] INSTEAD OF ... MOMENT: ...` or `[MAY] PREVENT ... MOMENT` puts something else in its
place. A small game of chips: each turn the active player gains 1 coin and every opponent
suffers an attack that gives them 10 coins (so what was replaced shows in the coins); the
turn's second phase asks the active player something, where each scenario stops."""

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
  kinds: {chip: chips}
  counters:
    coin: {per: player, plural: coins}
  zones:
    deck: {visibility: hidden, facing: down}
    hand: {per: player, visibility: owner, facing: up}
    table: {per: player, visibility: public, facing: up}
    box: {visibility: public, facing: up}
  abilities: {zone: hand}
  moments:
    suffer-attack: an attack's effect on you
setup: |
  shuffle the deck
turn:
  - phase: main
    text: |
      gain 1 coin;
      for each opponent: (they suffer-attack: (gain 10 coins; {after}))
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
  - {id: plain, kind: chip, zone: deck, count: 6}
  - {id: wall, kind: chip, zone: deck, count: 2, text: "MAY PREVENT you suffer-attack"}
  - {id: mirror, kind: chip, zone: deck, count: 1, text: "INSTEAD OF you suffer-attack: gain 3 coins"}
  - {id: spy, kind: chip, zone: deck, count: 1, text: "INSTEAD OF an opponent suffer-attack: gain 7 coins"}
  - id: herald
    kind: chip
    zone: deck
    count: 1
    text: "MAY INSTEAD OF you suffer-attack: only if your coins is 0; for each opponent: peek at this card"
  - {id: shield, kind: chip, zone: deck, count: 1, text: "PREVENT you suffer-attack while face-up in your table"}
"""


def pack(tmp_path: Path, after: str = "nothing", cards: str = CARDS) -> Path:
    folder = tmp_path / "chips"
    folder.mkdir(exist_ok=True)
    (folder / "pack.yaml").write_text(
        "id: chips\nname: Chips\nversion: 0.0.0\nplayers: [2, 4]\nfiles: [rules.yaml, cards.yaml]\n", encoding="utf-8"
    )
    (folder / "rules.yaml").write_text(RULES.replace("{after}", after), encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def play(
    folder: Path,
    hands: dict[int, list[str]],
    decisions: list[str],
    expect: dict,
    players: int = 2,
    tables: dict[int, list[Any]] | None = None,
) -> Report:
    seats = {p: {"hand": h} for p, h in hands.items()}
    for p, cards in (tables or {}).items():
        seats.setdefault(p, {})["table"] = cards
    data = {
        "pack": [folder.name],
        "players": players,
        "unused": "box",
        "position": {"active": 1, "phase": "main", "players": seats},
        "decisions": decisions,
        "expect": expect,
    }
    return run_scenario(data, folder.parent, Report("test", "test"))


def test_without_a_replacement_the_event_happens(tmp_path: Path) -> None:
    report = play(pack(tmp_path), {1: ["plain"], 2: ["plain"]}, [], {"counters": {"coin": [1, 10]}, "phase": "rest"})
    assert report.ok, report.render()


def test_may_prevent_asks_the_owner_who_may_pass(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    report = play(
        folder,
        {1: ["plain"], 2: ["wall", "plain"]},
        ["wall"],
        {"counters": {"coin": [1, 0]}, "phase": "rest"},
    )
    assert report.ok, report.render()
    report = play(folder, {1: ["plain"], 2: ["wall"]}, ["pass"], {"counters": {"coin": [1, 10]}, "phase": "rest"})
    assert report.ok, report.render()


def test_the_option_ids_are_the_cards_and_pass(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    report = play(
        folder,
        {1: ["plain"], 2: ["wall", "wall"]},
        [],
        {"decision": {"player": 2, "options": ["wall", "pass"]}},
    )
    assert report.ok, report.render()


def test_a_mandatory_replacement_is_taken_without_asking(tmp_path: Path) -> None:
    report = play(
        pack(tmp_path), {1: ["plain"], 2: ["mirror", "wall"]}, [], {"counters": {"coin": [1, 3]}, "phase": "rest"}
    )
    assert report.ok, report.render()


def test_an_opponents_card_replaces_the_event_for_its_owner(tmp_path: Path) -> None:
    # the spy is player 1's: the attack on player 2 gives player 1 seven coins instead
    report = play(pack(tmp_path), {1: ["spy"], 2: ["plain"]}, [], {"counters": {"coin": [8, 0]}, "phase": "rest"})
    assert report.ok, report.render()


def test_the_owner_is_asked_in_seat_order_from_the_player_it_happens_to(tmp_path: Path) -> None:
    # 3 players, player 1 attacks: player 2's attack is asked of player 2 (the wall) first,
    # then player 3's attack of player 3; player 2's wall does not answer player 3's attack
    report = play(
        pack(tmp_path),
        {1: ["plain"], 2: ["wall"], 3: ["plain"]},
        ["wall"],
        {"counters": {"coin": [1, 0, 10]}, "phase": "rest"},
        players=3,
    )
    assert report.ok, report.render()


def test_a_replacement_that_cannot_start_is_not_offered_and_its_block_runs_as_the_owner(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    # the herald's `only if your coins is 0` holds: offered; taken, its owner shows it to the others
    report = play(
        folder,
        {1: ["plain"], 2: ["herald"]},
        ["herald"],
        {"counters": {"coin": [1, 0]}, "phase": "rest", "sees": {1: {"players": {2: {"hand": ["herald"]}}}}},
    )
    assert report.ok, report.render()


def test_a_failure_in_the_body_goes_on_as_if_the_body_were_written_alone(tmp_path: Path) -> None:
    # the body's `pay 50 coins` cannot be paid: the gain after it is skipped, and the failure
    # ends only that opponent's round of `for each opponent`
    folder = pack(tmp_path, after="pay 50 coins; gain 100 coins")
    report = play(folder, {1: ["plain"], 2: ["plain"], 3: ["plain"]}, [], {"counters": {"coin": [1, 10, 10]}}, 3)
    assert report.ok, report.render()


def test_an_unknown_moment_is_a_compile_error_at_its_place(tmp_path: Path) -> None:
    cards = CARDS.replace("MAY PREVENT you suffer-attack", "MAY PREVENT you suffer-atack")
    with pytest.raises(PackError) as exc:
        compile_packs([str(pack(tmp_path, cards=cards))])
    text = str(exc.value)
    assert "cards.yaml:4:" in text and "unknown moment 'suffer-atack'" in text and "suffer-attack" in text


def test_a_replacement_nobody_makes_an_event_is_a_warning(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    rules_text = (folder / "rules.yaml").read_text(encoding="utf-8")
    (folder / "rules.yaml").write_text(
        rules_text.replace("(they suffer-attack: (gain 10 coins; nothing))", "(gain 10 coins; nothing)"),
        encoding="utf-8",
    )
    rules = compile_packs([str(folder)])
    messages = [w.message for w in rules.warnings]
    assert any("makes 'suffer-attack' an event" in m for m in messages), messages


def test_an_event_of_an_unknown_moment_is_a_compile_error_at_its_place(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    rules_text = (folder / "rules.yaml").read_text(encoding="utf-8")
    (folder / "rules.yaml").write_text(
        rules_text.replace("they suffer-attack:", "they suffer-atack:"), encoding="utf-8"
    )
    with pytest.raises(PackError) as exc:
        compile_packs([str(folder)])
    text = str(exc.value)
    # the moment's own place in the phase text: line 20, after "      for each opponent: (they "
    assert "rules.yaml:20:32: unknown moment 'suffer-atack'" in text and "did you mean 'suffer-attack'?" in text


def test_a_replacement_without_an_ability_zone_is_a_compile_error(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    rules_text = (folder / "rules.yaml").read_text(encoding="utf-8")
    (folder / "rules.yaml").write_text(rules_text.replace("  abilities: {zone: hand}\n", ""), encoding="utf-8")
    with pytest.raises(PackError) as exc:
        compile_packs([str(folder)])
    text = str(exc.value)
    assert "cards.yaml:4:" in text and "card 'wall'" in text
    assert "do not say where triggered, activated and replacement abilities work" in text


def test_a_replacement_that_names_its_zone_works_there_only(tmp_path: Path) -> None:
    folder = pack(tmp_path)
    # face up on the table: the attack is prevented without asking
    report = play(folder, {1: ["plain"], 2: ["plain"]}, [], {"counters": {"coin": [1, 0]}}, tables={2: ["shield"]})
    assert report.ok, report.render()
    # face down on the table, or in the hand (the pack's ability zone): it does nothing
    down = {2: [{"card": "shield", "face": "down"}]}
    report = play(folder, {1: ["plain"], 2: ["plain"]}, [], {"counters": {"coin": [1, 10]}}, tables=down)
    assert report.ok, report.render()
    report = play(folder, {1: ["plain"], 2: ["shield"]}, [], {"counters": {"coin": [1, 10]}})
    assert report.ok, report.render()


def test_a_replacement_in_a_shared_zone_is_a_compile_error(tmp_path: Path) -> None:
    cards = CARDS.replace("while face-up in your table", "while in your deck")
    with pytest.raises(PackError) as exc:
        compile_packs([str(pack(tmp_path, cards=cards))])
    text = str(exc.value)
    assert "unknown zone 'deck': a replacement ability works in one of its owner's zones" in text
    assert "cards.yaml:12:99:" in text and "expected one of: hand, table" in text


# `you answer MOMENT first`: the replacements are asked before the text goes on (Dominion's
# Reactions, asked when an Attack is played), and the event later takes the kept answer
ASKED_FIRST = """for each opponent: (they answer suffer-attack first);
      gain 1 coin;
      for each opponent: (they suffer-attack: gain 10 coins){again}"""


def first_pack(tmp_path: Path, again: str = "") -> Path:
    folder = pack(tmp_path)
    rules = folder / "rules.yaml"
    main = "gain 1 coin;\n      for each opponent: (they suffer-attack: (gain 10 coins; nothing))"
    text = rules.read_text(encoding="utf-8")
    assert main in text
    rules.write_text(text.replace(main, ASKED_FIRST.replace("{again}", again)), encoding="utf-8")
    return folder


def test_answer_first_asks_before_the_text_goes_on_and_the_event_takes_the_answer(tmp_path: Path) -> None:
    folder = first_pack(tmp_path)
    asked = {"expect": {"decision": {"player": 2, "options": ["wall", "pass"]}, "counters": {"coin": [0, 0]}}}
    report = play(folder, {1: ["plain"], 2: ["wall"]}, [asked, "wall"], {"counters": {"coin": [1, 0]}, "phase": "rest"})
    assert report.ok, report.render()
    # passed first: the attack happens, and nobody is asked again
    report = play(folder, {1: ["plain"], 2: ["wall"]}, ["pass"], {"counters": {"coin": [1, 10]}, "phase": "rest"})
    assert report.ok, report.render()


def test_an_answer_given_first_serves_one_event_only(tmp_path: Path) -> None:
    folder = first_pack(tmp_path, again=";\n      for each opponent: (they suffer-attack: gain 10 coins)")
    again = {"expect": {"decision": {"player": 2, "options": ["wall", "pass"]}, "counters": {"coin": [1, 0]}}}
    report = play(
        folder, {1: ["plain"], 2: ["wall"]}, ["wall", again, "pass"], {"counters": {"coin": [1, 10]}, "phase": "rest"}
    )
    assert report.ok, report.render()


def test_a_replacement_answered_first_runs_its_block_then(tmp_path: Path) -> None:
    # the mirror's block (3 coins) runs when it answers, before player 1's coin
    folder = first_pack(tmp_path)
    report = play(folder, {1: ["plain"], 2: ["mirror"]}, [], {"counters": {"coin": [1, 3]}, "phase": "rest"})
    assert report.ok, report.render()
    assert show(parse("they answer suffer-attack first", "start")) == "you answer suffer-attack first"


def test_answer_first_of_an_unknown_moment_is_a_compile_error_at_its_place(tmp_path: Path) -> None:
    folder = first_pack(tmp_path)
    rules = folder / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("answer suffer-attack", "answer suffer-atack"), "utf-8")
    with pytest.raises(PackError) as exc:
        compile_packs([str(folder)])
    text = str(exc.value)
    assert "rules.yaml:19:39:" in text and "unknown moment 'suffer-atack'" in text


# ---- an event whose body asks first (issue 20: a card's way of doing a step, taken
# without a question): `you may` carries its pass into the replacing block, and the event
# can start when a replacement of it can (an `OR` offers it then)
TAKE_RULES = """
vocabulary:
  kinds: {chip: chips}
  counters:
    coin: {per: player, plural: coins}
  zones:
    deck: {visibility: public, facing: up}
    pile: {visibility: public, facing: up}
    hand: {per: player, visibility: owner, facing: up}
    table: {per: player, visibility: public, facing: up}
    box: {visibility: public, facing: up}
  abilities: {zone: hand}
  moments:
    take: taking a card from the deck to your table
setup: |
  shuffle the deck
procedures:
  take-a-card: |
    you take: (choose a card in the deck as the taken; move the taken to your table)
turn:
  - phase: main
    text: |
      {main}
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
TAKE_CARDS = """
cards:
  - {id: plain, kind: chip, zone: deck, count: 2}
  - id: hook
    kind: chip
    zone: box
    count: 1
    text: |
      INSTEAD OF you take: choose a card in the pile as the taken; move the taken to your table; gain 1 coin
  - {id: wall, kind: chip, zone: box, count: 1, text: "PREVENT you take"}
"""


def take_pack(tmp_path: Path, main: str) -> Path:
    folder = pack(tmp_path)
    (folder / "rules.yaml").write_text(TAKE_RULES.replace("{main}", main), encoding="utf-8")
    (folder / "cards.yaml").write_text(TAKE_CARDS, encoding="utf-8")
    return folder


def take(folder: Path, hand: list[str], deck: list[str], pile: list[str], decisions: list[Any], expect: dict) -> Report:
    data = {
        "pack": [folder.name],
        "players": 2,
        "unused": "box",
        "position": {
            "active": 1,
            "phase": "main",
            "zones": {"deck": deck, "pile": pile},
            "players": {1: {"hand": hand}, 2: {"hand": []}},
        },
        "decisions": decisions,
        "expect": expect,
    }
    return run_scenario(data, folder.parent, Report("test", "test"))


def test_you_may_carries_its_pass_into_the_replacing_block(tmp_path: Path) -> None:
    folder = take_pack(tmp_path, "you may take-a-card")
    asked = {"expect": {"decision": {"player": 1, "options": ["plain", "pass"]}}}
    # the hook takes from the pile instead, and its choice carries the pass
    report = take(folder, ["hook"], [], ["plain"], [asked, "plain"], {"counters": {"coin": [1, 0]}, "phase": "rest"})
    assert report.ok, report.render()
    report = take(folder, ["hook"], [], ["plain"], [asked, "pass"], {"counters": {"coin": [0, 0]}, "phase": "rest"})
    assert report.ok, report.render()
    # without the hook, the body's choice carries it
    report = take(folder, [], ["plain"], [], [asked, "pass"], {"counters": {"coin": [0, 0]}, "phase": "rest"})
    assert report.ok, report.render()


def test_an_event_can_start_when_a_replacement_of_it_can(tmp_path: Path) -> None:
    folder = take_pack(tmp_path, "take-a-card OR gain 5 coins")
    # an empty deck: the body cannot start, the hook's block can, so the OR asks
    both = {"expect": {"decision": {"player": 1, "options": ["take-a-card", "gain 5 coins"]}}}
    report = take(folder, ["hook"], [], ["plain"], [both, "take-a-card"], {"counters": {"coin": [1, 0]}})
    assert report.ok, report.render()
    # without the hook nothing can take a card: the other way, without a question
    report = take(folder, [], [], ["plain"], [], {"counters": {"coin": [5, 0]}, "phase": "rest"})
    assert report.ok, report.render()
    # a prevention starts nothing the body could not: the other way, without a question
    report = take(folder, ["wall"], [], ["plain"], [], {"counters": {"coin": [5, 0]}, "phase": "rest"})
    assert report.ok, report.render()


def test_an_event_a_mandatory_prevention_stops_cannot_start(tmp_path: Path) -> None:
    folder = take_pack(tmp_path, "take-a-card OR gain 5 coins")
    # the body can start: the OR asks
    both = {"expect": {"decision": {"player": 1, "options": ["take-a-card", "gain 5 coins"]}}}
    report = take(folder, [], ["plain"], [], [both, "take-a-card"], {"counters": {"coin": [0, 0]}, "phase": "rest"})
    assert report.ok, report.render()
    # the wall would stop it (taken without asking): the way is not offered, as an `only if`
    # that does not hold would not be; the other way, without a question
    report = take(folder, ["wall"], ["plain"], [], [], {"counters": {"coin": [5, 0]}, "phase": "rest"})
    assert report.ok, report.render()
