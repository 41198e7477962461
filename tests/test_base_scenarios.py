"""The base game with scenario cards (pack base-scenarios, expansions/scenarios/), and cards
chosen by name (a pack's `choosable:`, rules_dsl/chosen.py), beyond the scenario files
(tests/scenarios/base-scenarios/):

- each base-only scenario's starting position (deck, start planet, starting technology);
- `--scenario NAME` with every player count of base-scenarios (2-4) and of Escalation (2-5);
- a choice is a setting: in the state's variants, the JSON, the results line, the replay;
- bad input: an unknown scenario, a pack without scenarios, a card chosen twice or not in
  the game, a `choosable:` part that names no zone or variant.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from test_cli import Capsys, run

from rules_dsl import terminal
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError, RulesError
from rules_dsl.state import GameState

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.for_pack("base-scenarios")


def ids(engine: Engine, st: GameState, zones: list[str]) -> Counter[str]:
    return Counter(engine.rules.cards[st.cards[c].type].id for z in zones for c in st.zones[z])


ROLES = ("survey", "warfare", "colonize", "produce-trade", "research", "politics")
SCENARIOS = {
    # name: (deck survey, warfare, colonize, produce/trade, research, politics), start planet, technology
    "scorched-earth": ((2, 1, 2, 0, 1, 2), "piedra-seca", "scorched-earth-policy"),
    "fertile-ground": ((0, 0, 3, 2, 2, 1), "drawde", "fertile-ground"),
    "streamlined": ((3, 1, 1, 3, 1, 1), "liagiba", "streamlining"),
    "explorer": ((0, 1, 2, 2, 2, 2), None, "survey-team"),
    "artificial-intelligence": ((0, 0, 0, 0, 0, 0), None, "artificial-intelligence"),
    "imperialism": ((2, 0, 2, 2, 2, 2), None, "imperialism"),
    # the promotional scenarios 20-24
    "mobilized": ((1, 1, 0, 2, 2, 3), None, "mobilization"),
    "war-path": ((3, 2, 0, 2, 2, 0), "chrispen", "war-path"),
    "bountiful-harvest": ((3, 2, 3, 1, 1, 0), "mesia-sednim", "abundance"),
    "terraformer": ((3, 0, 1, 1, 2, 2), None, "terraforming"),
    "network-admin": ((2, 2, 2, 1, 0, 2), "pomerene", "data-network"),
}


def test_the_pack_offers_exactly_these_scenarios(engine: Engine) -> None:
    scenarios = sorted(c.id.removeprefix("scenario-") for c in engine.rules.cards if c.kind == "scenario")
    assert scenarios == sorted(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_starting_position(engine: Engine, name: str) -> None:
    st = engine.new_game(2, 3, terminal.with_scenarios(engine.rules, [name], None))
    assert st.variants == [f"scenario={name}"]
    (deck, planet, tech) = SCENARIOS[name]
    mine = ids(engine, st, ["deck.0", "hand.0", "empire.0", "scenario.0"])
    assert mine[f"scenario-{name}"] == 1
    assert tuple(mine[r] for r in ROLES) == deck
    assert mine[tech] == 1
    card = engine.rules.cards[engine.rules.card_index[tech]]
    empire = ids(engine, st, ["empire.0"])
    if card.props.get("sides") == 2:  # a permanent technology: face up in play, its other face out
        assert empire[tech] == 1
        assert not [
            c
            for c in st.zones["technologies"]
            if engine.rules.cards[st.cards[c].type].props.get("pair") == card.props["pair"]
        ]
    else:
        assert empire[tech] == 0
    planets = [c for c in empire if engine.rules.cards[engine.rules.card_index[c]].kind == "planet"]
    assert len(planets) == 1
    if planet is not None:
        assert planets == [planet]
    # the other player was dealt another scenario, and every other scenario left the game
    assert sum(ids(engine, st, ["scenario.1"]).values()) == 1
    assert st.zones["scenario-deck"] == [] and st.zones["chosen-scenarios"] == []


def test_every_player_is_dealt_a_scenario_without_choosing(engine: Engine) -> None:
    for players in (2, 3, 4):
        st = engine.new_game(players, 7)
        dealt = [ids(engine, st, [f"scenario.{p}"]) for p in range(players)]
        assert all(sum(d.values()) == 1 for d in dealt)
        assert len({next(iter(d)) for d in dealt}) == players
        assert st.params["POLITICS_CARDS"] == 3 * players
    st = engine.new_game(4, 7, ["box-scenarios-only"])
    dealt = {cid for p in range(4) for cid in ids(engine, st, [f"scenario.{p}"])}
    assert dealt <= {f"scenario-{n}" for n in list(SCENARIOS)[:6]}


@pytest.mark.parametrize(
    ("pack", "players"), [("base-scenarios", n) for n in (2, 3, 4)] + [("escalation", n) for n in (2, 3, 4, 5)]
)
def test_simulate_with_a_scenario_for_every_player_count(
    capsys: Capsys, tmp_path: Path, pack: str, players: int
) -> None:
    out_file = tmp_path / "results.jsonl"
    args = ("simulate", "--pack", pack, "--players", str(players), "--games", "1", "--quiet")
    code, out, _ = run(capsys, *args, "--scenario", "scorched-earth", "--out", str(out_file))
    assert code == 0
    assert "variants: scenario=scorched-earth" in out
    (record,) = [json.loads(line) for line in out_file.read_text(encoding="utf-8").splitlines()]
    assert record["variants"] == ["scenario=scorched-earth"]
    assert record["scenario"] == "scenario=scorched-earth"
    assert len(record["scores"]) == players


def test_a_choice_given_as_a_variant(capsys: Capsys) -> None:
    """`--variant scenario=NAME` is the same setting as `--scenario NAME`."""
    args = ("playthrough", "--pack", "base-scenarios", "--seed", "4")
    code, by_variant, _ = run(capsys, *args, "--variant", "scenario=mobilized")
    assert code == 0
    code, by_option, _ = run(capsys, *args, "--scenario", "mobilized")
    assert code == 0
    assert by_variant == by_option
    assert "variants: scenario=mobilized" in by_option
    assert "scenario: scenario-mobilized" in by_option


def test_a_choice_is_saved_and_replayed(engine: Engine) -> None:
    st = engine.new_game(3, 5, ["scenario=terraformer", "scenario=explorer"])
    for _ in range(30):
        if st.pending is None:
            break
        engine.apply(st, st.pending.options[-1])
    again = engine.from_json(engine.to_json(st))  # a replay of seed, variants and log, compared
    assert again == st
    assert again.variants == ["scenario=terraformer", "scenario=explorer"]
    assert engine.replay(3, 5, list(st.variants), list(st.log)) == st


def test_unknown_scenario_names_the_choices(capsys: Capsys) -> None:
    code, _, err = run(capsys, "simulate", "--pack", "base-scenarios", "--games", "1", "--scenario", "nope")
    assert code == 2  # a usage error
    assert (
        "--scenario nope: Eminent Domain: Scenarios has no such scenario; its scenarios: artificial-intelligence, "
        "bountiful-harvest, explorer, fertile-ground, imperialism, mobilized, network-admin, scorched-earth, "
        "streamlined, terraformer, war-path" in err
    )
    code, _, err = run(capsys, "playthrough", "--pack", "base", "--scenario", "explorer")
    assert code == 2
    assert "--scenario explorer: Eminent Domain has no such scenario; its scenarios: none" in err


def test_bad_choices_are_clear_errors(engine: Engine) -> None:
    with pytest.raises(RulesError, match=r"scenario=nope: .* has no scenario 'nope'; its scenario choices: artificial"):
        engine.new_game(2, 1, ["scenario=nope"])
    with pytest.raises(
        RulesError, match=r"senario=explorer: .* has no choosable 'senario'; its choosable options: scenario"
    ):
        engine.new_game(2, 1, ["senario=explorer"])
    with pytest.raises(RulesError, match="no card scenario-explorer is left in scenario-deck"):
        engine.new_game(2, 1, ["scenario=explorer", "scenario=explorer"])
    # Escalation deals only the cards of its box unless asked: a promotional one is not there
    # ... and the error names the variant that deals it
    with pytest.raises(
        RulesError,
        match=r"scenario=war-path: scenario-war-path is not in this game \(PROMO_SCENARIOS is 0 with these variants\); "
        r"add the variant 'promo-scenarios' \(--variant promo-scenarios\)",
    ):
        Engine.for_pack("escalation").new_game(2, 1, ["scenario=war-path"])
    st = Engine.for_pack("escalation").new_game(2, 1, ["promo-scenarios", "scenario=war-path"])
    assert ids(Engine.for_pack("escalation"), st, ["scenario.0"])["scenario-war-path"] == 1


def write_mod(folder: Path, choosable: str) -> Path:
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        "id: my-mod\nname: My mod\nversion: 0.1.0\nrequires: [base-scenarios]\nfiles: [rules.yaml]\n", encoding="utf-8"
    )
    (folder / "rules.yaml").write_text(f"choosable:\n  scenario:\n{choosable}", encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("choosable", "message"),
    [
        (
            "    from: scenario-dek\n    to: chosen-scenarios\n",
            "rules.yaml:3:11: choosable 'scenario': unknown zone 'scenario-dek'",
        ),
        (
            "    from: scenario-deck\n    to: hand\n",
            "rules.yaml:4:9: choosable 'scenario': 'hand' must be a shared zone",
        ),
        ("    from: scenario-deck\n", "rules.yaml:2:3: choosable 'scenario' must give from: and to: zones"),
        (
            "    from: scenario-deck\n    to: chosen-scenarios\n    variant: scenario\n",
            "rules.yaml:5:14: choosable 'scenario': unknown variant 'scenario'",
        ),
    ],
)
def test_a_bad_choosable_part_is_reported_where_it_is(tmp_path: Path, choosable: str, message: str) -> None:
    mod = write_mod(tmp_path / "my-mod", choosable)
    with pytest.raises(PackError) as info:
        Engine.load([str(mod)])
    assert message in str(info.value)


def test_a_variant_name_with_the_choice_separator_is_refused(tmp_path: Path) -> None:
    mod = tmp_path / "my-mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text(
        "id: my-mod\nname: My mod\nversion: 0.1.0\nrequires: [base]\nfiles: [rules.yaml]\n", encoding="utf-8"
    )
    (mod / "rules.yaml").write_text("variants:\n  a=b: {description: x}\n", encoding="utf-8")
    with pytest.raises(PackError, match=r"rules.yaml:2:3: variant 'a=b': a variant name has no '='"):
        Engine.load([str(mod)])


def test_slot_room_must_name_a_quantity(tmp_path: Path) -> None:
    mod = tmp_path / "my-mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text(
        "id: my-mod\nname: My mod\nversion: 0.1.0\nrequires: [base-scenarios]\nfiles: [words.yaml]\n", encoding="utf-8"
    )
    (mod / "words.yaml").write_text("vocabulary:\n  slot-room: resource-rom\n", encoding="utf-8")
    with pytest.raises(PackError, match=r"words.yaml:2:14: slot-room: 'resource-rom' must be a quantity") as info:
        Engine.load([str(mod)])
    assert "did you mean 'resource-room'?" in str(info.value)


def test_a_scenario_is_chosen_by_its_printed_name_in_any_case(capsys: Capsys) -> None:
    engine = Engine.for_pack("escalation")
    assert terminal.with_scenarios(engine.rules, ["Scorched Earth", "war PATH"], []) == [
        "scenario=scorched-earth",
        "scenario=war-path",
    ]
    # the game keeps one spelling of the choice, so it is the same game as by id
    by_name = engine.new_game(2, 1, ["scenario=Scorched  Earth"])
    by_id = engine.new_game(2, 1, ["scenario=scorched-earth"])
    assert by_name.variants == ["scenario=scorched-earth"]
    assert engine.to_json(by_name) == engine.to_json(by_id)
    assert run(capsys, "playthrough", "--pack", "escalation", "--scenario", "SCORCHED EARTH", "--seed", "1")[0] == 0
    code, _, err = run(capsys, "playthrough", "--pack", "escalation", "--scenario", "War Path", "--seed", "1")
    assert code != 0 and "add the variant 'promo-scenarios' (--variant promo-scenarios)" in err
