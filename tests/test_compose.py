"""Composable mods: packs add to the set-up, turn, procedures, variants and score of the packs
they require, two such mods combine, and conflicting additions are clear errors."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, play_random

from rules_dsl.cli import main
from rules_dsl.compiler import compile_packs
from rules_dsl.effects.turns import GameLoop
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError, PackProblem
from rules_dsl.state import Frame, GameState

MODS = ROOT / "examples" / "mods"
BASE = str(ROOT / "cards")
ENVOYS = str(MODS / "envoys")
BOUNTIES = str(MODS / "bounties")
VETERAN = str(MODS / "veteran-survey")


@functools.cache
def combined() -> Engine:
    return Engine.load([BASE, ENVOYS, BOUNTIES, VETERAN])


def problems(*paths: Path | str) -> list[PackProblem]:
    with pytest.raises(PackError) as info:
        compile_packs([str(p) for p in paths])
    return info.value.problems


def where(path: Path, line_text: str) -> tuple[str, int, int]:
    """(file, line, column) of the first non-blank of the line equal to `line_text`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = lines.index(line_text)
    return str(path), i + 1, len(lines[i]) - len(lines[i].lstrip()) + 1


def test_the_mods_extend_the_turn_and_keep_the_base_phases_in_order() -> None:
    rules = combined().rules
    assert [name for name, _ in rules.phases] == ["action", "role", "claim", "late-action", "cleanup"]
    assert rules.packs == ("base", "envoys", "bounties", "veteran-survey")


def test_every_set_up_addition_runs_after_the_base_set_up() -> None:
    engine = combined()
    for players in (2, 3, 4):
        st = engine.new_game(players, seed=5)
        index = engine.rules.card_index
        envoy, scout = index["envoy"], index["scout"]
        # one Envoy into each player's deck (then shuffled, or drawn later), the rest in the pool
        for p in range(players):
            mine = st.zones[f"deck.{p}"] + st.zones[f"hand.{p}"]
            assert sum(1 for c in mine if st.cards[c].type == envoy) == 1
        assert len(st.zones["envoy-pool"]) == 6 - players
        # the board shows 3 Bounties from the shuffled pile of 6
        assert len(st.zones["bounty-board"]) == 3 and len(st.zones["bounty-pile"]) == 3
        # the Scouts went onto the Survey stack after the base set-up dealt the starting decks
        assert st.zones["scout-reserve"] == []
        assert [st.cards[c].type for c in st.zones["survey-stack"][-2:]] == [scout, scout]


def test_variant_changes_are_added_to_the_base_variant() -> None:
    rules = combined().rules
    learning = rules.variants["learning"].params
    assert learning["DECK_ENVOY"] == 0 and learning["BOUNTY_COST"] == 2
    assert learning["TECHS"] == 0  # the base pack's own changes stay
    st = combined().new_game(2, seed=3, variants=["learning"])
    assert st.zones["envoy-pool"] and len(st.zones["envoy-pool"]) == 6


def test_the_score_addition_counts_claimed_bounties() -> None:
    engine = combined()
    st = engine.new_game(2, seed=1)
    score = engine.rules.score

    def scores() -> list[int]:
        return [score.num(st, Frame(engine.rules.game_loop, p)) for p in range(2)]

    before = scores()
    prize = st.zones["bounty-board"].pop()
    st.zones["claimed.0"].append(prize)
    reward = engine.rules.cards[st.cards[prize].type].props["reward"]
    assert reward in (2, 4)
    assert scores() == [before[0] + reward, before[1]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_both_mods_end_with_consistent_state(players: int) -> None:
    engine = combined()
    for seed in range(3):
        st, log = play_random(engine, players, seed, on_step=lambda s, i: _check(engine, s))
        assert st.over and st.end_trigger
        # claimed Bounties count in the breakdown exactly as in the score's new term
        claimed = [
            sum(engine.rules.cards[st.cards[c].type].props["reward"] for c in st.zones[f"claimed.{p}"])
            for p in range(players)
        ]
        assert st.breakdown["bounties"] == claimed


def _check(engine: Engine, st: GameState) -> None:
    assert engine.check(st) == []


def test_load_order_of_independent_mods_does_not_change_the_turn() -> None:
    a = Engine.load([BASE, ENVOYS, BOUNTIES]).rules
    b = Engine.load([BASE, BOUNTIES, ENVOYS]).rules
    assert [n for n, _ in a.phases] == [n for n, _ in b.phases]
    assert a.variants["learning"].params == b.variants["learning"].params


def test_validate_explain_lists_every_addition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--explain", BASE, ENVOYS, BOUNTIES]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = [
        "added: kind envoy (envoys, ",
        "added: zone envoy-pool (envoys, ",
        "added: card envoy (envoys, ",
        "extended: setup: after (envoys, ",
        "extended: procedure dissent: after (envoys, ",
        "added: variant learning: DECK_ENVOY (envoys, ",
        "added: property reward (bounties, ",
        "extended: setup: after (bounties, ",
        "extended: turn: new phase claim (bounties, ",
        "extended: scoring: score plus ... (bounties, ",
        "extended: scoring: breakdown bounties (bounties, ",
    ]
    for start in expected:
        assert any(line.startswith(start) for line in out), start
    assert not any(line.startswith("overridden") for line in out)
    assert main(["validate", BASE, ENVOYS]) == 0
    assert not any(line.startswith("added") for line in capsys.readouterr().out.splitlines())


def test_overrides_are_reported_with_where(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", BASE, VETERAN]) == 0
    out = capsys.readouterr().out
    assert "overridden: card survey (base -> veteran-survey, " in out


# ---- conflicts and mistakes --------------------------------------------------------------


def mod(tmp_path: Path, name: str, body: str, requires: str = "[base]") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "pack.yaml").write_text(f"id: {name}\nrequires: {requires}\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(body, encoding="utf-8")
    return folder


def test_two_mods_declaring_one_zone_differently_conflict(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "vocabulary:\n  zones:\n    reserve: {visibility: public}\n")
    b = mod(tmp_path, "b", "vocabulary:\n  zones:\n    reserve: {visibility: hidden}\n")
    [p] = problems(BASE, a, b)
    assert (p.file, p.line, p.column) == where(b / "rules.yaml", "    reserve: {visibility: hidden}")
    first = a / "rules.yaml"
    assert p.message.startswith(f"zone reserve is given by pack 'a' ({first}:3), and 'b' does not require it")
    assert p.suggestion == "make 'b' require 'a', or give the entry another name"
    # the same declaration twice is no conflict, and a pack may override what it requires
    (b / "rules.yaml").write_text("vocabulary:\n  zones:\n    reserve: {visibility: public}\n", encoding="utf-8")
    compile_packs([BASE, str(a), str(b)])
    (b / "rules.yaml").write_text("vocabulary:\n  zones:\n    reserve: {visibility: hidden}\n", encoding="utf-8")
    (b / "pack.yaml").write_text("id: b\nrequires: [a]\n", encoding="utf-8")
    rules = compile_packs([BASE, str(a), str(b)])
    assert rules.zones["reserve"].visibility == "hidden"
    assert any(o.startswith("zone reserve (a -> b, ") for o in rules.overrides)


def test_two_mods_replacing_the_set_up_conflict(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "setup: |\n  nothing\n")
    b = mod(tmp_path, "b", "setup: |\n  shuffle the planet-deck\n")
    [p] = problems(BASE, a, b)
    assert (p.file, p.line, p.column) == (str(b / "rules.yaml"), 1, 1)
    assert p.message.startswith("setup is given by pack 'a'")


def test_replacing_what_another_mod_extended_conflicts(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "extend:\n  setup:\n    after: shuffle the planet-deck\n")
    b = mod(tmp_path, "b", "setup: |\n  nothing\n")
    [p] = problems(BASE, a, b)
    assert (p.file, p.line, p.column) == (str(b / "rules.yaml"), 1, 1)
    assert p.message.startswith(f"setup is added to by pack 'a' ({a / 'rules.yaml'}:3), and 'b' does not require it")


def test_two_mods_adding_a_phase_of_the_same_name_conflict(tmp_path: Path) -> None:
    body = "extend:\n  new-phases:\n    - {phase: bonus, after: role, text: draw 1 card}\n"
    a = mod(tmp_path, "a", body)
    b = mod(tmp_path, "b", body)
    [p] = problems(BASE, a, b)
    assert (p.file, p.line, p.column) == (str(b / "rules.yaml"), 3, 7)  # the new phase's mapping
    assert p.message == "extend: there is already a phase called 'bonus'"


def test_two_mods_changing_one_variant_parameter_differently_conflict(tmp_path: Path) -> None:
    a = mod(tmp_path, "a", "extend:\n  variants:\n    learning: {HAND_SIZE: 4}\n")
    b = mod(tmp_path, "b", "extend:\n  variants:\n    learning: {HAND_SIZE: 6}\n")
    [p] = problems(BASE, a, b)
    assert (p.file, p.line) == (str(b / "rules.yaml"), 3)
    assert p.message.startswith("variant learning: HAND_SIZE is given by pack 'a'")


def test_extending_what_does_not_exist_suggests_the_known_name(tmp_path: Path) -> None:
    a = mod(
        tmp_path,
        "a",
        "extend:\n  phases:\n    cleanp: {after: draw 1 card}\n  procedures:\n    atack: {before: nothing}\n"
        "  new-phases:\n    - {phase: x, before: rol, text: nothing}\n  stup: {after: nothing}\n",
    )
    found = {(p.line, p.message, p.suggestion) for p in problems(BASE, a)}
    assert found == {
        (3, "extend: no phase 'cleanp' to add to", "did you mean 'cleanup'?"),
        (5, "extend: no procedure 'atack' to add to", "did you mean 'attack'?"),
        (7, "extend: no phase 'rol' to put 'x' before", "did you mean 'role'?"),
        (8, "unknown key 'stup' in extend", "did you mean 'setup'?"),
    }


def test_a_mistake_in_an_addition_is_reported_where_it_is_written(tmp_path: Path) -> None:
    a = mod(
        tmp_path,
        "a",
        "extend:\n  setup:\n    after: |\n      shuffle the planet-deck;\n      shuffle the plnet-deck\n"
        "  phases:\n    cleanup:\n      before: draw 1 crad\n",
    )
    found = sorted((p.line, p.column, p.message) for p in problems(BASE, a))
    assert found[0][:2] == (5, 19)
    assert "plnet-deck" in found[0][2]
    assert found[1][:2] == (8, 22)


def test_a_mistake_in_the_base_text_is_still_reported_in_the_base_file(tmp_path: Path) -> None:
    base = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", base)
    rules = base / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("shuffle the planet-deck;", "shufle the planet-deck;"), encoding="utf-8")
    a = mod(tmp_path, "a", "extend:\n  setup:\n    before: shuffle the planet-deck\n    after: nothing\n")
    [p] = problems(base, a)
    assert (p.file, p.line, p.column) == where(rules, "      shufle the planet-deck;")


SPICE = str(ROOT / "examples" / "games" / "spice-market")
VISITS = """\
vocabulary:
  counters:
    visit: {per: player, plural: visits}
parameters:
  VISITS_TO_END: 4
variants:
  long:
    description: more visits
    parameters: {VISITS_TO_END: 40}
extend:
  phases:
    market: {before: gain 1 visit}
  procedures:
    sell-goods: {after: gain 1 visit}
  triggers:
    - {name: enough visits, when: your visits is at least VISITS_TO_END}
  default-variants: [long]
  tiebreak: your visits
"""


def test_phase_procedure_trigger_default_and_tiebreak_additions(tmp_path: Path) -> None:
    visits = mod(tmp_path, "visits", VISITS, requires="[spice-market]")
    engine = Engine.load([SPICE, str(visits)])
    rules = engine.rules
    assert rules.default_variants == ("long",)
    assert [t.name for t in rules.end_triggers] == ["supply exhausted", "enough visits"]
    st = engine.new_game(2, seed=1, variants=[])
    engine.apply(st, "take-a-card")  # the market phase counts a visit
    assert st.pending is not None
    engine.apply(st, st.pending.options[0])
    assert st.counters["visit"] == [1, 0]
    engine.apply(st, "sell-goods")  # player 2 sells: a visit for the sale, one for the market phase
    assert st.pending is not None
    engine.apply(st, st.pending.options[0])
    assert st.counters["visit"][1] == 2
    # 4 visits end the game; the tie-break is cards sold plus visits
    while st.pending is not None:
        engine.apply(st, st.pending.options[0])
    assert st.end_trigger == "enough visits"
    sold = [len(st.zones[f"sold.{p}"]) for p in range(2)]
    assert st.tiebreaks == [sold[p] + st.counters["visit"][p] for p in range(2)]


AT_ONCE = """\
vocabulary:
  counters:
    visit: {per: player, plural: visits}
extend:
  phases:
    trade: {before: gain 1 visit}
  triggers:
    - {name: first visit, when: your visits is at least 1, checked: at-once}
"""


def test_a_trigger_checked_at_once_fires_within_the_turn(tmp_path: Path) -> None:
    engine = Engine.load([SPICE, str(mod(tmp_path, "visits", AT_ONCE, requires="[spice-market]"))])
    loop = engine.rules.effects[engine.rules.game_loop]
    assert isinstance(loop, GameLoop)
    # only what the condition reads is watched: the visit counter
    assert (loop.watch_counters, loop.watch_zones, loop.watch_every) == (frozenset({"visit"}), frozenset(), False)
    late = mod(tmp_path, "late", AT_ONCE.replace(", checked: at-once", ""), requires="[spice-market]")
    for eng, fired in ((engine, "first visit"), (Engine.load([SPICE, str(late)]), "")):
        st = eng.new_game(2, seed=1, variants=[])
        while st.counters["visit"] == [0, 0]:
            assert st.pending is not None
            eng.apply(st, st.pending.options[0])
        # the first trade phase counted a visit: checked at once, the end is triggered
        # within the turn; checked after each turn, not yet
        assert (st.turn, st.end_trigger) == (0, fired)


def test_a_zone_read_only_for_being_empty_is_watched_only_when_it_empties_or_fills() -> None:
    # "the number of empty role-stacks is at least N": taking a card from a stack that
    # keeps cards changes nothing the trigger reads, so it is not tested then
    engine = Engine.for_pack("base")
    rules = engine.rules
    stacks = {key for key in rules.watch_zones if key.endswith("-stack")}
    assert stacks and not stacks & rules.watch_sizes
    st = engine.new_game(2, seed=3, variants=["learning"])
    while st.pending is not None and not st.end_trigger:
        engine.apply(st, st.pending.options[-1])
    empty = sum(1 for key in stacks if not st.zones[key])
    assert st.end_trigger != "role stacks exhausted" or empty >= st.params["END_STACKS"]


def test_a_trigger_reading_cards_is_tested_after_every_changing_step(tmp_path: Path) -> None:
    body = AT_ONCE.replace("your visits is at least 1", "the number of cards in your hand is at least 9")
    engine = Engine.load([SPICE, str(mod(tmp_path, "hand", body, requires="[spice-market]"))])
    loop = engine.rules.effects[engine.rules.game_loop]
    assert isinstance(loop, GameLoop) and loop.watch_every


def test_checked_must_be_end_of_turn_or_at_once(tmp_path: Path) -> None:
    body = AT_ONCE.replace("checked: at-once", "checked: sometimes")
    [p] = problems(SPICE, mod(tmp_path, "bad", body, requires="[spice-market]"))
    assert "checked must be one of end-of-turn, at-once" in p.message
    assert (p.line, p.expected) == (8, ["end-of-turn", "at-once"])


def test_a_mod_adds_members_to_a_zone_group_and_a_token_group(tmp_path: Path) -> None:
    body = (
        "vocabulary:\n  tokens: [gold]\n  zones:\n    scout-stack: {visibility: public, facing: up}\n"
        "extend:\n  zone-groups:\n    role-stacks: [scout-stack]\n  token-groups:\n    resource: [gold]\n"
    )
    a = mod(tmp_path, "a", body)
    rules = compile_packs([BASE, str(a)])
    assert rules.zone_groups["role-stacks"][-1] == ("scout-stack", "")
    assert len(rules.zone_groups["role-stacks"]) == 6
    assert any(line.startswith("extended: zone group role-stacks: members (a, ") for line in rules.additions)
    (a / "rules.yaml").write_text(
        body.replace("role-stacks: [scout-stack]", "role-stack: [scout-stack]").replace(
            "resource: [gold]", "resource: [gld]"
        ),
        encoding="utf-8",
    )
    found = sorted((p.line, p.message) for p in problems(BASE, a))
    assert found == [
        (7, "extend: no zone group 'role-stack' to add to"),
        (9, "token group 'resource' names unknown token kind 'gld'"),
    ]
