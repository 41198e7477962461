"""Eminent Domain: Escalation, beyond the scenario files (tests/scenarios/escalation/).

- the set-up table for 2 and 5 players (role cards made, influence, end stacks, Politics);
- every player has a Fleet tile and keeps one of two start planets;
- each scenario's starting position (deck, start planet, starting technologies);
- bad input: a player count outside 2-5, an unknown scenario, a pack requiring
  Escalation without the base pack.
"""

from __future__ import annotations

import random
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
    return Engine.for_pack("escalation")


def ids(engine: Engine, st: GameState, zones: list[str] | None = None) -> Counter[str]:
    keys = st.zones if zones is None else zones
    return Counter(engine.rules.cards[st.cards[c].type].id for z in keys for c in st.zones[z])


def keep_first_start_planets(engine: Engine, st: GameState) -> None:
    """Answer the set-up's start-planet choices (the first option each time)."""
    while st.pending is not None and st.phase == "setup":
        engine.apply(st, st.pending.options[0])


@pytest.mark.parametrize(
    ("players", "survey", "warfare", "colonize", "produce_trade", "research", "influence", "end_stacks"),
    [
        (2, 16, 14, 16, 12, 16, 24, 1),
        (3, 20, 16, 20, 16, 20, 24, 1),
        (4, 20, 16, 20, 16, 20, 24, 2),
        (5, 24, 20, 24, 20, 24, 32, 2),
    ],
)
def test_setup_table(
    engine: Engine,
    players: int,
    survey: int,
    warfare: int,
    colonize: int,
    produce_trade: int,
    research: int,
    influence: int,
    end_stacks: int,
) -> None:
    st = engine.new_game(players, 7)
    made = ids(engine, st)
    assert (made["survey"], made["warfare"], made["colonize"], made["produce-trade"], made["research"]) == (
        survey,
        warfare,
        colonize,
        produce_trade,
        research,
    )
    assert made["politics"] == players
    assert st.shared["influence-supply"] == influence
    assert st.params["END_STACKS"] == end_stacks
    assert st.params["EXTRA_ROUNDS"] == 1  # the final round is on
    assert st.params["ERRATA"] == 1
    # the stacks after dealing 10-card decks
    keep_first_start_planets(engine, st)
    assert len(st.zones["survey-stack"]) == survey - 2 * players
    assert len(st.zones["warfare-stack"]) == warfare - players


def test_reference_cards_stay_beside_the_game(engine: Engine) -> None:
    """The player aid, 8 purchase cards and 4 productivity cards are in their own zone from
    set-up to the end of a game, and nothing else is: they have no rules (ruling E31)."""
    aids = {
        "player-aid": 1,
        "purchase-card": 8,
        "productivity-research": 1,
        "productivity-colonize": 1,
        "productivity-warfare": 1,
        "productivity-survey": 1,
    }
    st = engine.new_game(3, 4)
    for option_number in range(10_000):
        assert ids(engine, st, ["reference"]) == aids, option_number
        if st.pending is None:
            break
        engine.apply(st, st.pending.options[option_number % len(st.pending.options)])
    assert st.over
    assert ids(engine, st, ["reference"]) == aids


@pytest.mark.parametrize("players", [2, 5])
def test_each_player_has_a_fleet_and_keeps_one_of_two_start_planets(engine: Engine, players: int) -> None:
    st = engine.new_game(players, 3)
    assert st.pending is not None
    # two face-down start planets to choose from, one base and one new
    assert len(st.pending.options) == 2
    keep_first_start_planets(engine, st)
    for p in range(players):
        empire = ids(engine, st, [f"empire.{p}"])
        assert empire["basic-fleet"] == 1
        assert sum(n for cid, n in empire.items() if cid != "basic-fleet") == 1
        assert len(st.zones[f"deck.{p}"]) + len(st.zones[f"hand.{p}"]) == 10
    assert ids(engine, st, ["fleet-tiles"])["basic-fleet"] == 0
    assert ids(engine, st, ["improved-fleets"])["improved-fleet"] == players


SCENARIOS = {
    # name: (deck survey, warfare, colonize, produce/trade, research, politics), start planet, technologies
    "scorched-earth": ((2, 1, 2, 0, 1, 2), "piedra-seca", ["scorched-earth-policy"]),
    "fertile-ground": ((0, 0, 3, 2, 2, 1), "drawde", ["fertile-ground"]),
    "streamlined": ((3, 1, 1, 3, 1, 1), "liagiba", ["streamlining"]),
    "explorer": ((0, 1, 2, 2, 2, 2), None, ["survey-team"]),
    "artificial-intelligence": ((0, 0, 0, 0, 0, 0), None, ["artificial-intelligence"]),
    "imperialism": ((2, 0, 2, 2, 2, 2), None, ["imperialism"]),
    "warmonger": ((2, 2, 2, 0, 2, 2), "bardolph", ["military-campaign"]),
    "scientific-discovery": ((2, 1, 2, 2, 0, 1), "bardolph", ["scientific-discovery"]),
    "biosphere": (
        (3, 0, 3, 0, 2, 0),
        "angel-aniv-ek-625",
        ["biosphere", "improved-production-pf", "improved-trade-tf"],
    ),
    "colony-ship": ((2, 0, 4, 2, 2, 0), "angel-aniv-ek-625", ["colony-ship"]),
    "destroyer": ((2, 0, 2, 2, 2, 1), "kaeth", ["destroyer-technology"]),
    "battlecruiser": ((2, 1, 1, 2, 2, 2), "kaeth", ["improved-fleet"]),
    "knowledge-is-power": ((2, 0, 0, 0, 0, 3), "janus", ["wealth-of-knowledge"]),
    "black-market": ((2, 1, 1, 2, 2, 2), "janus", ["black-market"]),
    "arms-dealer": ((2, 2, 1, 2, 2, 1), "chaconos", ["weapon-emporium"]),
    "spoils-of-war": ((2, 2, 2, 1, 2, 0), "chaconos", ["spoils-of-war", "biosphere"]),
    "abundance": ((2, 1, 2, 2, 2, 1), "wiesbaden", ["abundance", "thorough-survey"]),
    "overseer": ((3, 1, 1, 1, 1, 3), "wiesbaden", ["oversight-committee"]),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_starting_position(engine: Engine, name: str) -> None:
    variants = terminal.with_scenarios(engine.rules, [name], None)
    assert variants == [f"scenario={name}"]
    st = engine.new_game(2, 5, variants)
    (deck, planet, techs) = SCENARIOS[name]
    mine = ids(engine, st, ["deck.0", "hand.0", "empire.0", "scenario.0"])
    assert mine[f"scenario-{name}"] == 1
    roles = ("survey", "warfare", "colonize", "produce-trade", "research", "politics")
    assert tuple(mine[r] for r in roles) == deck
    empire = ids(engine, st, ["empire.0"])
    planets = [c for c in empire if engine.rules.cards[engine.rules.card_index[c]].kind == "planet"]
    assert len(planets) == 1
    if planet is not None:
        assert planets == [planet]
    for tech in techs:
        assert mine[tech] == 1, tech
        card = engine.rules.cards[engine.rules.card_index[tech]]
        if card.props.get("sides") == 2:  # a permanent technology: face up in play, its other face out
            assert empire[tech] == 1, tech
            pair = card.props["pair"]
            assert not [
                c
                for c in ids(engine, st, ["technologies"])
                if engine.rules.cards[engine.rules.card_index[c]].props.get("pair") == pair
            ]
    if name == "battlecruiser":
        assert st.counters["battlecruiser"][0] == 1
        assert empire["basic-fleet"] == 0
    # the other player was dealt another scenario
    assert sum(ids(engine, st, ["scenario.1"]).values()) == 1
    assert ids(engine, st, ["scenario.1"])[f"scenario-{name}"] == 0


def test_every_scenario_can_be_chosen(engine: Engine) -> None:
    """The 18 cards of the box are dealt (the promotional ones only with promo-scenarios),
    each can be chosen by name, and no variant or parameter names a scenario."""
    st = engine.new_game(2, 1, ["scenarios"])
    dealt = [c for c in engine.rules.cards if c.kind == "scenario" and c.count == 1]
    assert len(dealt) == 18
    assert sum(ids(engine, st).get(c.id, 0) for c in dealt) == 18
    for card in dealt:
        st = engine.new_game(2, 1, [f"scenario={card.id.removeprefix('scenario-')}"])
        assert ids(engine, st, ["scenario.0"])[card.id] == 1
        assert "scenarios" in st.variants or st.params["SCENARIOS"] == 1
    assert not [v for v in engine.rules.variants if v.startswith("scenario-")]
    assert not [p for p in engine.rules.params if p.startswith("PICK_")]


def test_unknown_scenario_names_the_choices(engine: Engine) -> None:
    with pytest.raises(terminal.UsageError, match=r"--scenario nope: .* its scenarios: abundance, arms-dealer, "):
        terminal.with_scenarios(engine.rules, ["nope"], None)


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_outside_2_to_5(engine: Engine, players: int) -> None:
    with pytest.raises(RulesError, match=f"is for 2 to 5 players, not {players}"):
        engine.new_game(players, 1)


def test_requiring_escalation_without_base(tmp_path: Path) -> None:
    mod = tmp_path / "my-mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text(
        "id: my-mod\nname: My mod\nversion: 0.1.0\nrequires: [escalation]\nfiles: []\n", encoding="utf-8"
    )
    # the packs Escalation requires come along: base first
    assert Engine.load([str(mod)]).rules.packs == ("base", "base-scenarios", "escalation", "my-mod")
    # a requirement neither installed nor given is named
    with pytest.raises((PackError, RulesError), match="requires pack 'nowhere'"):
        (mod / "pack.yaml").write_text(
            "id: my-mod\nname: My mod\nversion: 0.1.0\nrequires: [escalation, nowhere]\nfiles: []\n", encoding="utf-8"
        )
        Engine.load([str(mod)])


def test_two_scenarios_with_the_same_start_planet(engine: Engine) -> None:
    """Warmonger and Scientific Discovery both name Bardolph: the first player (Warmonger,
    named first) gets it, the second a random base start planet instead (docs/rulings.md E5)."""
    variants = terminal.with_scenarios(engine.rules, ["warmonger", "scientific-discovery"], None)
    st = engine.new_game(2, 11, variants)
    assert ids(engine, st, ["scenario.0"])["scenario-warmonger"] == 1
    assert ids(engine, st, ["scenario.1"])["scenario-scientific-discovery"] == 1
    empires = [ids(engine, st, [f"empire.{p}"]) for p in range(2)]
    assert empires[0]["bardolph"] == 1
    for e in empires:
        planets = [c for c in e if engine.rules.cards[engine.rules.card_index[c]].kind == "planet"]
        assert len(planets) == 1
    (planet,) = [c for c in empires[1] if engine.rules.cards[engine.rules.card_index[c]].kind == "planet"]
    assert engine.rules.cards[engine.rules.card_index[planet]].zone == "start-planets"


def test_escalation_without_the_base_pack_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only Escalation installed (no base pack): loading it names the missing requirement."""
    from importlib import metadata

    from rules_dsl.packs import installed

    only = [ep for ep in metadata.entry_points(group=installed.GROUP) if ep.name == "escalation"]
    monkeypatch.setattr(installed.metadata, "entry_points", lambda group: only)
    installed.installed_packs.cache_clear()
    try:
        with pytest.raises((PackError, RulesError), match="requires pack 'base', which is neither installed nor given"):
            Engine.load([str(ROOT / "expansions" / "escalation")])
    finally:
        installed.installed_packs.cache_clear()


def test_simulate_with_a_scenario_and_bad_input(capsys: Capsys) -> None:
    code, out, _ = run(
        capsys, "simulate", "--pack", "escalation", "--players", "5", "--games", "1", "--scenario", "warmonger"
    )
    assert code == 0
    assert "variants: scenario=warmonger" in out
    code, out, err = run(capsys, "simulate", "--pack", "escalation", "--games", "1", "--scenario", "nope")
    assert code == 2  # a usage error
    assert "--scenario nope: Eminent Domain: Escalation has no such scenario; its scenarios: abundance," in err
    code, out, err = run(capsys, "simulate", "--pack", "escalation", "--players", "6", "--games", "1")
    assert code == 2  # a usage error
    assert "--players 6: Eminent Domain: Escalation is for 2 to 5 players" in err


def test_five_players_the_second_empty_role_stack_ends_the_game_at_once(engine: Engine) -> None:
    """Issue 33: taking the top card of a role stack (`take_top`) emptied it without testing
    the at-once end triggers, so the end was recorded only after the turn."""
    stacks = [z for z, _ in engine.rules.zone_groups["role-stacks"]]
    st = engine.new_game(5, 0)
    pick = random.Random(0)
    while True:
        assert not st.over, "the game ended before two role stacks were empty"
        empty_before = sum(not st.zones[z] for z in stacks)
        turn, active, phase = st.turn, st.active, st.phase
        assert st.pending is not None
        engine.apply(st, pick.choice(st.pending.options))
        if sum(not st.zones[z] for z in stacks) >= 2 > empty_before:
            break
        assert not st.end_trigger
    # right after the decision that emptied the second stack: triggered, in the same turn,
    # with the final round still to play
    assert st.end_trigger == "role stacks exhausted"
    assert st.extra_rounds_left == 1
    assert (st.turn, st.active, phase) == (turn, active, "role")
    assert not st.over
