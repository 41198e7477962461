"""The scenario format itself: every key can fail, and a bad file is a clear failed check.

The example files in tests/scenarios/format/ pass (test_scenarios.py runs them); here the
same examples are broken on purpose to show that each expectation really checks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from rules_dsl.scenario import Report, run_scenario, run_scenario_file

ROOT = Path(__file__).resolve().parent.parent
FORMAT = ROOT / "tests" / "scenarios" / "format"
DOCS = ROOT / "docs" / "scenarios.md"


def load(name: str) -> dict[str, Any]:
    data = YAML(typ="safe").load((FORMAT / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def run(data: dict[str, Any]) -> Report:
    return run_scenario(data, FORMAT, Report("test", "test"))


def failures(report: Report) -> list[str]:
    return [f"{c.name}: {c.detail}" for c in report.checks if not c.ok]


def checkpoint(data: dict[str, Any]) -> dict[str, Any]:
    """The first {expect: ...} step of a scenario."""
    step = next(s for s in data["decisions"] if isinstance(s, dict))
    expect = step["expect"]
    assert isinstance(expect, dict)
    return expect


# ---- the examples pass, and break when their expectations are wrong ------------------------


def test_the_examples_pass() -> None:
    for path in sorted(FORMAT.glob("*.yaml")):
        report = run_scenario_file(path)
        assert report.ok, report.render()


def test_contains_and_excludes_can_fail() -> None:
    data = load("contains_and_excludes.yaml")
    exp = checkpoint(data)
    exp["decision"]["options"]["contains"] = ["research-role"]
    exp["players"][1]["hand"]["excludes"] = ["warfare"]
    exp["zones"]["box"] = {"contains": ["drawde"]}
    bad = failures(run(data))
    assert len(bad) == 3, bad
    for part in ("options contain 'research-role'", "contains warfare", "does not contain drawde"):
        assert any(part in f for f in bad), (part, bad)


def test_contains_counts_copies() -> None:
    data = load("contains_and_excludes.yaml")
    checkpoint(data)["players"][1]["hand"] = {"contains": ["warfare", "warfare"]}
    assert any("does not contain warfare" in f for f in failures(run(data)))


def test_current_scores_can_fail() -> None:
    data = load("current_scores.yaml")
    exp = checkpoint(data)
    exp["current-scores"] = [5, 6]  # as if the technology under the planet scored nothing
    exp["current-breakdown"]["planets"] = [0, 0]
    bad = failures(run(data))
    assert len(bad) == 2, bad
    assert any("expected [5, 6], got [7, 6]" in f for f in bad), bad


def test_an_unknown_score_part_is_named() -> None:
    data = load("current_scores.yaml")
    checkpoint(data)["current-breakdown"] = {"planet": [2, 0]}
    (bad,) = failures(run(data))
    assert "no part 'planet'" in bad and "planets" in bad


def test_what_a_player_sees_can_fail() -> None:
    data = load("what_a_player_sees.yaml")
    sees = checkpoint(data)["sees"]
    sees[2]["players"][1]["hand"] = ["survey", "?"]  # player 2 cannot see player 1's hand
    sees[2]["players"][1]["empire"] = ["drawde", "pomerene"]  # nor a face-down planet
    sees[2]["decision"] = {"options": ["pass"]}
    bad = failures(run(data))
    assert len(bad) == 3, bad


def test_the_start_player_decides_when_a_round_ends() -> None:
    data = load("start_player_round_order.yaml")
    data["position"]["start-player"] = 1  # seat 1 started: seat 2 is next in the same round
    bad = failures(run(data))
    assert any("round" in f and "expected 1, got 0" in f for f in bad), bad


def test_an_end_trigger_must_be_the_packs() -> None:
    data = load("start_player_and_end_already_triggered.yaml")
    data["position"]["end-trigger"] = "supply exhausted"
    (bad,) = failures(run(data))
    assert "no trigger 'supply exhausted'" in bad and "influence supply exhausted" in bad


def test_without_the_end_trigger_the_game_goes_on() -> None:
    data = load("start_player_and_end_already_triggered.yaml")
    del data["position"]["end-trigger"]
    data["position"]["shared"] = {"influence-supply": 5}
    data["decisions"] = ["done"]
    assert any("over: expected True, got False" in f for f in failures(run(data)))


def test_one_of_fails_when_no_alternative_holds() -> None:
    data = load("shuffle_multiset_and_one_of.yaml")
    data["seeds"] = "1..3"
    data["expect"]["players"][1]["hand"]["one-of"] = [["survey", "warfare", "research", "survey", "survey"]]
    bad = failures(run(data))
    assert len(bad) == 3 and all("none of the alternatives" in f for f in bad), bad
    assert [f.split(":")[0] for f in bad] == ["seed 1", "seed 2", "seed 3"]


def test_together_fails_on_a_wrong_multiset() -> None:
    data = load("shuffle_multiset_and_one_of.yaml")
    data["seeds"] = [1]
    data["expect"]["together"][0]["cards"] = ["survey", "warfare", "research", "colonize", "colonize", "colonize"]
    assert any("hand + deck" in f for f in failures(run(data)))


def test_many_seeds_catch_an_expectation_that_holds_only_for_some_shuffles() -> None:
    data = load("shuffle_multiset_and_one_of.yaml")
    del data["then"]
    data["expect"]["players"][1]["hand"] = ["survey", "warfare", "research", "colonize", "colonize"]
    data["seeds"] = [1]
    one = run(data).ok
    data["seeds"] = "1..30"
    report = run(data)
    failed_seeds = {c.name.split(":")[0] for c in report.checks if not c.ok}
    assert failed_seeds and len(failed_seeds) < 30  # some shuffles draw survey, some do not
    assert one == ("seed 1" not in failed_seeds)


def test_random_games_play_to_the_end() -> None:
    data = load("shuffle_multiset_and_one_of.yaml")
    data["seeds"] = [2]
    data["then"] = {"random-games": 2}
    report = run(data)
    assert report.ok, report.render()
    assert any(c.name == "seed 2: then: 2 random games" for c in report.checks) or any(
        c.name == "then: 2 random games" for c in report.checks
    )


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("seeds", "30..1", "write the smaller seed first"),
        ("seeds", "many", "seeds must be a range such as 1..30"),
        ("seeds", [1, "two"], "seeds must be a whole number, not 'two'"),
        ("then", "random games 3", "expected 'random-games N'"),
        ("then", "random-games 0", "1 to 1000 games"),
    ],
)
def test_bad_seeds_and_then_are_clear_errors(key: str, value: Any, message: str) -> None:
    data = load("shuffle_multiset_and_one_of.yaml")
    data[key] = value
    (bad,) = failures(run(data))
    assert message in bad


def test_seed_and_seeds_together_are_an_error() -> None:
    data = load("shuffle_multiset_and_one_of.yaml")
    data["seed"] = 3
    (bad,) = failures(run(data))
    assert "not both" in bad


# ---- values of the wrong type are clear errors, not tracebacks -------------------------------

BASE = {"name": "t", "pack": "base", "variants": ["learning"], "unused": "box"}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"players": "two"}, "players must be a whole number, not 'two'"),
        ({"players": True}, "players must be a whole number, not True"),
        ({"seed": "one"}, "seed must be a whole number, not 'one'"),
        ({"seed": 1.5}, "seed must be a whole number, not 1.5"),
        ({"decisions": 5}, "decisions must be a list of option ids"),
        ({"decisions": [None]}, "decision 1: an option id, not None"),
        ({"position": {"counters": {"fighter": ["3", 0]}}}, "counter fighter must be a whole number, not '3'"),
        ({"position": {"counters": {"fighter": 3}}}, "give one whole number per player"),
        ({"position": {"shared": {"influence-supply": "ten"}}}, "must be a whole number, not 'ten'"),
        ({"position": {"turn": "x"}}, "position: turn must be a whole number"),
        ({"position": {"active": "two"}}, "players are numbered 1..2, not 'two'"),
        ({"position": {"zones": ["box"]}}, "position: zones must be a mapping"),
        ({"position": {"players": {1: {"hand": [3]}}}}, "a card is its id or"),
        ({"position": {"players": {1: {"hand": [{"card": "survey", "tokens": "food"}]}}}}, "must be a list"),
        ({"variants": {"learning": 1}}, "variants must be a variant name or a list of names"),
        ({"expect": {"players": {1: ["hand"]}}}, "expect: players: 1 must be a mapping"),
        ({"expect": {"decision": "yes"}}, "expect: decision must be a mapping"),
        ({"expect": {"zones": {"box": {"some": 1}}}}, "expected a list, a size"),
        ({"expect": {"zones": {"box": True}}}, "expected a list, a size"),
    ],
)
def test_a_value_of_the_wrong_type_is_a_clear_error(extra: dict[str, Any], message: str) -> None:
    report = run({**BASE, **extra})
    bad = failures(report)
    assert len(bad) == 1 and message in bad[0], bad


def test_variants_as_one_string_is_one_variant_not_its_letters() -> None:
    data = {**BASE, "variants": "learning", "position": {"phase": "role"}}
    data["expect"] = {"decision": {"options": {"excludes": ["research-role"], "contains": ["survey-role"]}}}
    report = run(data)
    assert report.ok, report.render()
    data["variants"] = "lerning"
    (bad,) = failures(run(data))
    assert "unknown variant 'lerning'" in bad


def test_a_file_that_is_not_utf8_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\u00e9\npack: base\n".encode("latin-1"))
    report = run_scenario_file(path)
    (bad,) = failures(report)
    assert str(path) in bad and "not UTF-8" in bad and "line 1" in bad


def test_a_control_character_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bell.yaml"
    path.write_text("name: t\npack: base\nseed: 1\a\n", encoding="utf-8")
    (bad,) = failures(run_scenario_file(path))
    assert "not valid YAML on line 3" in bad and "#x0007" in bad


# ---- the docs show the examples the suite runs -----------------------------------------------


def test_every_example_in_the_docs_is_a_file_the_suite_runs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n# (tests/scenarios/\S+\.yaml)\n(.*?)```", text, re.DOTALL)
    shown = {name for name, _ in blocks}
    assert {f"tests/scenarios/format/{p.name}" for p in FORMAT.glob("*.yaml")} <= shown
    for name, body in blocks:
        assert (ROOT / name).read_text(encoding="utf-8") == body, f"docs/scenarios.md shows {name} differently"


def test_every_builtin_pack_has_a_box_for_unused_cards() -> None:
    from rules_dsl.engine import Engine, builtin_packs

    for pack in builtin_packs():
        zones = Engine.for_pack(pack).rules.zones
        assert "box" in zones and not zones["box"].per_player, f"pack {pack!r} has no shared 'box' zone"


def test_choose_by_card_fails_for_a_card_not_offered_or_offered_twice() -> None:
    data = load("choose_by_card.yaml")
    data["seeds"] = [1]
    data["decisions"][2] = {"choose": {"card": "research"}}  # research@hand or research@action-area?
    bad = failures(run(data))
    assert any("2 options are that card ('research@hand', 'research@action-area'); say which" in b for b in bad)
    data["decisions"][2] = {"choose": {"card": "warfare"}}
    bad = failures(run(data))
    assert any(
        "choose warfare: no option for that card now; legal options: 'survey', 'research@hand'" in b for b in bad
    )
    data["decisions"][2] = {"choose": {"card": "resarch"}}
    assert any("no card 'resarch'" in b and "research" in b for b in failures(run(data)))
    data["decisions"][2] = {"choose": {"card": "research", "zone": "hnd"}}
    assert any("no zone 'hnd'" in b for b in failures(run(data)))
    data["decisions"][2] = {"choose": {"zone": "hand"}}
    assert any("choose needs card: ID" in b for b in failures(run(data)))


def test_option_facts_can_fail_and_leave_the_game_untaken() -> None:
    data = load("option_facts.yaml")
    exp = checkpoint(data)
    exp["option-facts"]["drawde"]["counters"] = {"fighter": [2, 0]}
    exp["option-facts"]["pomerene"] = {"over": False}
    bad = failures(run(data))
    assert any("if 'drawde' were taken: counter fighter: expected [2, 0], got [3, 0]" in b for b in bad)
    assert any(
        "if 'pomerene' were taken: 'pomerene' is not offered now; the options: 'styku', 'drawde'" in b for b in bad
    )
    # the facts changed nothing: the file's own decisions and final expectations still hold
    assert not [b for b in bad if "were taken" not in b]


def test_what_a_player_sees_of_a_back_can_fail() -> None:
    data = load("what_a_player_sees_of_a_back.yaml")
    empire = checkpoint(data)["sees"][2]["players"][1]["empire"]
    empire[0] = {"back": {"type": "metallic", "warfare-cost": 2, "colonize-cost": 2}}
    bad = failures(run(data))
    assert any("'?(colonize-cost: 2; type: fertile; warfare-cost: 2)'" in b for b in bad)
    empire[0] = "?"  # a zone listed with backs writes every back out
    assert failures(run(data))
    empire[0] = {"back": {"type": "fertile"}, "card": "drawde"}
    assert any("a card seen as its back is {back:" in b for b in failures(run(data)))


def test_a_trace_can_fail() -> None:
    data = load("trace_of_moments.yaml")
    checkpoint(data)["trace"] = ["player 1: conquer", "player 1: attack"]  # the wrong order
    assert any(
        "moments announced: expected ['player 1: conquer', 'player 1: attack'], "
        "got ['player 1: attack', 'player 1: conquer']" in b
        for b in failures(run(data))
    )
    data = load("trace_of_moments.yaml")
    data["decisions"][4] = {"expect": {"trace": {"contains": ["player 2: lead"]}}}
    assert any("expected ['player 2: lead'] in this order among" in b for b in failures(run(data)))


def test_a_position_states_marks_and_peeks_and_an_expectation_checks_them() -> None:
    data = load("marks_and_peeks_in_a_position.yaml")
    assert failures(run(data)) == []
    players = data["position"]["players"]
    expect = checkpoint(data)
    # without the peek, player 1 no longer sees the Countess; the expectation says so
    players[2]["hand"] = ["countess"]
    assert any("sees" in f or "peeked-by" in f for f in failures(run(data)))
    players[2]["hand"] = [{"card": "countess", "peeked-by": [1]}]
    expect["players"][1]["discard"] = [{"card": "guard", "marks": ["another"]}]
    assert failures(run(data))
    # a seat that is not in the game, a mark that is not a name: clear errors
    expect["players"][1]["discard"] = [{"card": "guard", "marks": ["discarded-first"]}]
    players[2]["hand"] = [{"card": "countess", "peeked-by": [4]}]
    assert any("players are numbered 1..3, not 4" in f for f in failures(run(data)))
    players[2]["hand"] = [{"card": "countess", "marks": [3]}]
    assert any("marks of countess must be a list of mark names" in f for f in failures(run(data)))


def test_n_x_card_is_n_copies_in_a_position_and_an_expectation() -> None:
    data = load("marks_and_peeks_in_a_position.yaml")
    data["position"]["zones"]["deck"] = ["3 x guard", "priest", "2 x baron", "2 x handmaid", "2 x prince"]
    data["decisions"] = [
        {"expect": {"zones": {"deck": ["3 x guard", "priest", "2 x baron", "2 x handmaid", "2 x prince"]}}}
    ]
    assert failures(run(data)) == []
    data["decisions"] = [
        {"expect": {"zones": {"deck": ["2 x guard", "priest", "2 x baron", "2 x handmaid", "2 x prince"]}}}
    ]
    assert failures(run(data))
    data["position"]["zones"]["deck"] = ["0 x guard"]
    assert any("'0 x guard': from 1 to 10000 copies" in f for f in failures(run(data)))


def test_a_position_says_what_it_took_from_zones_it_does_not_list_and_can_forbid_it() -> None:
    data = load("marks_and_peeks_in_a_position.yaml")
    del data["position"]["zones"]["deck"]  # the hands' cards now come out of the unlisted deck
    data["unused"] = "removed"
    report = run(data)
    assert failures(report) == []
    (setup,) = [c for c in report.checks if c.name == "set up the position"]
    assert "taken from zones the position does not list: " in setup.detail and "from deck" in setup.detail
    assert "put in removed: baron x1" in setup.detail, setup.detail
    assert "taken from zones" in report.render(verbose=True)
    data["position"]["complete"] = True
    assert any(
        "is not in the zones the position lists (a copy is in 'deck'); with 'complete: true'" in f
        for f in failures(run(data))
    )
    data = load("marks_and_peeks_in_a_position.yaml")
    data["position"]["complete"] = True  # every card it names is in the zones it lists
    assert failures(run(data)) == []


# ---- inside a decision: at:, forced:, positions inside a phase, together across players -------

EXAMPLES = ROOT / "examples" / "games"


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    """The scenario as a file (its pack folders made absolute), so errors carry file:line:col."""
    data = dict(data)
    if isinstance(data.get("pack"), list):
        data["pack"] = [str((FORMAT / p).resolve()) for p in data["pack"]]
    path = tmp_path / "scenario.yaml"
    yaml = YAML(typ="safe")
    yaml.default_flow_style = False
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)
    return path


def line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    (n,) = [n for n, line in enumerate(lines, 1) if line.strip().removeprefix("- ") == text]
    return n


def test_at_looks_at_the_game_at_a_point_inside_a_decision() -> None:
    data = load("expect_inside_a_decision.yaml")
    assert failures(run(data)) == []
    # at the end of the turn the round is not scored yet; at the end of its scoring it is
    data["decisions"][2]["expect"]["counters"] = {"token": [0, 1]}
    data["decisions"][3]["expect"]["counters"] = {"token": [0, 0]}
    bad = failures(run(data))
    assert any("at step 3 (end of turn): counter token: expected [0, 1], got [0, 0]" in b for b in bad), bad
    assert any("at step 4 (end of deal-end): counter token: expected [0, 0], got [0, 1]" in b for b in bad), bad


def test_at_a_point_the_decision_never_passes_fails_with_the_points_it_passed() -> None:
    data = load("expect_inside_a_decision.yaml")
    data["decisions"].insert(2, {"at": "end of game", "expect": {"over": True}})
    bad = failures(run(data))
    assert any(
        "did not pass 'end of game'" in b
        and "it passed: after step 2 of guard PLAY, after step 1 of knock-out, after step 2 of knock-out, "
        "after step 3 of guard PLAY, after step 3 of play-a-card, end of play, end of turn, start of deal-end"
        in b
        for b in bad
    ), bad


def test_at_names_a_point_or_the_error_says_where_and_what_exists(tmp_path: Path) -> None:
    data = load("a_buy_the_clean_up_and_the_next_turn.yaml")
    data["decisions"][2]["at"] = "end of buyy"
    path = write(tmp_path, data)
    (bad,) = failures(run_scenario_file(path))
    where = f"{path}:{line_of(path, 'at: end of buyy')}:"
    assert where in bad and "the pack has no phase 'buyy' (did you mean 'buy'?)" in bad, bad
    data["decisions"][2]["at"] = "play-tresure"
    (bad,) = failures(run_scenario_file(write(tmp_path, data)))
    assert "'play-tresure' is no point inside a decision" in bad and "play-treasure" in bad, bad
    data["decisions"][2]["at"] = 3
    (bad,) = failures(run_scenario_file(write(tmp_path, data)))
    assert "at: names a point inside a decision, such as 'end of turn', not 3" in bad
    # at: looks inside the decision just applied, never after a checkpoint
    data["decisions"][2]["at"] = "end of buy"
    data["decisions"].insert(2, {"expect": {"active": 2}})
    (bad,) = failures(run_scenario_file(write(tmp_path, data)))
    assert "at: looks inside the decision just applied" in bad and str(tmp_path) in bad, bad
    assert "Traceback" not in bad


def test_forced_names_the_choice_taken_without_asking() -> None:
    data = load("forced_choices.yaml")
    assert failures(run(data)) == []
    data["decisions"][0] = {"forced": "prince"}
    bad = failures(run(data))
    assert any(
        "(forced: prince): expected a choice with one legal option, 'prince', taken without asking; "
        "the next one was 'player 1: countess'" in b
        for b in bad
    ), bad
    data = load("forced_choices.yaml")
    data["decisions"].insert(4, {"forced": "player 1"})  # the Baron's target was the only forced choice
    assert any("none was left" in b for b in failures(run(data)))
    data = load("forced_choices.yaml")
    data["expect"]["forced"] = ["player 2: player 1"]  # listed by the previous checkpoint already
    wrong = "choices taken without asking: expected ['player 2: player 1'], got []"
    assert any(wrong in b for b in failures(run(data)))


def test_a_forced_step_that_does_not_match_says_where_it_is_written(tmp_path: Path) -> None:
    data = load("forced_choices.yaml")
    data["decisions"][3] = {"forced": "player 3"}
    path = write(tmp_path, data)
    bad = failures(run_scenario_file(path))
    assert any(f"{path}:{line_of(path, 'forced: player 3')}:" in b for b in bad), bad


def test_a_position_inside_a_phase_starts_at_its_step_and_states_what_earlier_steps_changed(tmp_path: Path) -> None:
    data = load("a_buy_the_clean_up_and_the_next_turn.yaml")
    assert failures(run(data)) == []
    data["decisions"] = data["decisions"][:1]  # the buy is asked first
    del data["expect"]
    data["position"]["players"][1]["hand"] = ["copper", "estate", "estate"]
    assert failures(run(data)) == []
    del data["position"]["step"]  # from the phase's beginning: the Copper in hand is asked about first
    assert any("options contain 'silver': options: ['copper', 'done']" in b for b in failures(run(data)))
    data = load("a_buy_the_clean_up_and_the_next_turn.yaml")
    del data["position"]["counters"]["coin"]
    path = write(tmp_path, data)
    (bad,) = failures(run_scenario_file(path))
    assert f"{path}:{line_of(path, 'step: 2')}:" in bad
    assert "it starts at buy step 2, so this turn's earlier steps have run; they change coin" in bad, bad
    data["position"]["counters"]["coin"] = [3, 0]
    data["position"]["step"] = 5
    (bad,) = failures(run_scenario_file(write(tmp_path, data)))
    assert "step is the number of a step of phase buy (1 to 2), not 5; its steps: 1: " in bad, bad
    assert " | 2: " in bad and "supply-pile" in bad
    data["position"]["step"] = 2
    data["position"]["phase"] = "bye"
    path = write(tmp_path, data)
    (bad,) = failures(run_scenario_file(path))
    assert f"{path}:{line_of(path, 'phase: bye')}:" in bad and "unknown phase 'bye' (did you mean 'buy'?)" in bad


def test_together_spans_several_players_zones() -> None:
    data = load("together_across_players.yaml")
    data["seeds"] = [1, 2]
    assert failures(run(data)) == []
    group = data["decisions"][2]["expect"]["together"][1]
    group["cards"] = ["king"]
    wrong = "player 1's hand + player 2's discard: expected ['king'], got ['guard']"
    assert any(wrong in b for b in failures(run(data)))
    group["cards"] = ["guard"]
    everyone = data["decisions"][3]["expect"]["together"][0]
    everyone["cards"] = everyone["cards"][1:]
    bad = failures(run(data))
    assert len(bad) == 2 and all("player 1's hand + player 2's hand + player 1's discard" in b for b in bad), bad
    everyone["player"] = 3
    assert any("players are numbered 1..2, not 3" in b for b in failures(run(data)))


def test_at_a_moment_of_the_base_game_stops_where_that_player_announces_it() -> None:
    data = load("trace_of_moments.yaml")
    data["decisions"][2:2] = [
        {
            "at": "player 1: conquer",
            "expect": {"counters": {"fighter": [0, 0]}, "trace": ["player 1: attack", "player 1: conquer"]},
        },
        {"at": "start of role", "expect": {"phase": "role", "decision": "none"}},
    ]
    data["decisions"][4]["expect"]["trace"] = []  # the checkpoint: nothing announced since the stops
    assert failures(run(data)) == [], failures(run(data))
    data["decisions"][2]["at"] = "player 2: conquer"  # player 1 conquers, not player 2
    bad = failures(run(data))
    assert any("did not pass 'player 2: conquer'" in b and "player 1: conquer" in b for b in bad), bad


def test_a_position_that_marks_or_peeks_at_a_card_that_is_not_there_says_where(tmp_path: Path) -> None:
    data = load("marks_and_peeks_in_a_position.yaml")
    players = data["position"]["players"]
    players[1]["discard"] = [{"card": "gaurd", "marks": ["discarded-first"]}]
    path = write(tmp_path, data)
    (bad,) = failures(run_scenario_file(path))
    assert f"{path}:{last_line(path, 'card: gaurd')}:" in bad and "unknown card 'gaurd' (did you mean 'guard'?)" in bad
    players[1]["discard"] = [{"card": "guard", "marks": ["discarded-first"]}]
    players[2]["hand"] = [{"card": "countess", "peeked-by": [7]}]
    path = write(tmp_path, data)
    (bad,) = failures(run_scenario_file(path))
    assert f"{path}:{last_line(path, 'card: countess')}:" in bad and "players are numbered 1..3, not 7" in bad, bad
    players[2]["hand"] = ["countess", "3 x princess"]  # the pack has one princess
    path = write(tmp_path, data)
    (bad,) = failures(run_scenario_file(path))
    assert f"{path}:{last_line(path, '3 x princess')}:" in bad and "not enough copies of 'princess'" in bad, bad


def last_line(path: Path, text: str) -> int:
    """The line of the last list item or mapping entry that reads `text` (`write` sorts the
    keys: the position comes after the expectations)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return max(n for n, line in enumerate(lines, 1) if line.strip().removeprefix("- ") == text)


def test_a_position_states_the_once_per_turn_abilities_used_this_turn(tmp_path: Path) -> None:
    data = load("once_per_turn_used_this_turn.yaml")
    assert failures(run(data)) == []
    pos = data["position"]
    del pos["used-this-turn"]  # not used yet: the cleanup's `turn` window offers it first
    bad = failures(run(data))
    assert any("use an ability (turn)?" in b for b in bad), bad
    for entry, message in [
        ({"card": "defence-contract"}, "unknown card 'defence-contract' (did you mean 'defense-contract'?)"),
        ({"card": "pomerene"}, "'pomerene' has no once-per-turn ability"),
        ({"card": "defense-contract", "player": 2}, "player 2 has no copy of 'defense-contract' in their empire"),
        ({"card": "defense-contract", "during": "draw"}, "no once-per-turn ability during 'draw'; its windows: turn"),
    ]:
        pos["used-this-turn"] = [entry]
        path = write(tmp_path, data)
        (bad1,) = failures(run_scenario_file(path))
        line = "during: draw" if "during" in entry else "card: " + entry["card"]  # at the value that is wrong
        assert f"{path}:{last_line(path, line)}:" in bad1 and message in bad1, bad1
    pos["used-this-turn"] = ["defense-contract", "defense-contract"]  # one copy: used once
    path = write(tmp_path, data)
    (bad1,) = failures(run_scenario_file(path))
    assert f"{path}:{last_line(path, 'defense-contract')}:" in bad1, bad1
    assert "player 1 has only 1 copy of 'defense-contract' in their empire" in bad1, bad1


def test_a_position_states_the_abilities_started_for_the_rest_of_this_turn(tmp_path: Path) -> None:
    data = load("rest_of_turn.yaml")
    assert failures(run(data)) == []
    pos = data["position"]
    del pos["rest-of-turn"]  # the Merchant's ability is not in force: the Silver gives 2
    assert any("counter coin: expected [3, 0], got [2, 0]" in b for b in failures(run(data))), failures(run(data))
    for entry, message in [
        ({"card": "merchent"}, "unknown card 'merchent' (did you mean 'merchant'?)"),
        ({"card": "village"}, "'village' starts nothing for the rest of this turn"),
        ({"card": "merchant", "player": 2}, "no copy of 'merchant' in player 2's zones to have started it"),
        ({"card": "merchant", "section": "ACTION"}, "in section 'ACTION'; it does in: PLAY"),
        ({"card": "merchant", "zone": "hand"}, "no copy of 'merchant' in player 1's hand"),
    ]:
        pos["rest-of-turn"] = [entry]
        path = write(tmp_path, data)
        (bad1,) = failures(run_scenario_file(path))
        line = "section: ACTION" if "section" in entry else "card: " + entry["card"]
        assert f"{path}:{last_line(path, line)}:" in bad1 and message in bad1, bad1
    pos["rest-of-turn"] = [{"card": "merchant", "zone": "play"}]
    assert failures(run(data)) == []


def at_errors(tmp_path: Path, data: dict[str, Any], cases: list[tuple[str, str]]) -> None:
    """Each `at:` point, written as the second step, fails with its message at its place."""
    for at, message in cases:
        data["decisions"][1]["at"] = at
        path = write(tmp_path, data)
        (bad,) = failures(run_scenario_file(path))
        assert f"{path}:{line_of(path, 'at: ' + at)}:" in bad and message in bad, bad


def test_at_after_a_step_of_a_phase_looks_between_two_of_its_statements(tmp_path: Path) -> None:
    data = load("after_a_step_of_a_phase.yaml")
    assert failures(run(data)) == []
    data["decisions"][2]["expect"]["players"][1]["hand"] = []  # after the draw the hand is full
    assert any("after step 3 of clean-up" in b and "player 1's hand" in b for b in failures(run(data)))
    # a step that asks: the buy phase's first step (playing Treasures) ends inside the decision
    # that plays the last Treasure, before the buy is asked
    data = load("after_a_step_of_a_phase.yaml")
    del data["position"]["step"]
    data["position"]["counters"] = {"coin": [0, 0], "buy": [1, 0], "action": [1, 0]}
    data["position"]["players"][1]["hand"] = ["silver", "estate"]
    data["position"]["players"][1]["play"] = []
    data["decisions"] = [
        "silver",
        {"at": "after step 1 of buy", "expect": {"counters": {"coin": [2, 0]}, "players": {1: {"play": ["silver"]}}}},
        {"expect": {"decision": {"player": 1, "options": {"contains": ["copper", "estate"], "excludes": ["silver"]}}}},
    ]
    del data["expect"]
    assert failures(run(data)) == []
    data["decisions"][1]["at"] = "after step 1 of action"  # the action phase ran before the position
    assert any("did not pass 'after step 1 of action'" in b for b in failures(run(data)))
    at_errors(
        tmp_path,
        data,
        [
            ("after step 7 of clean-up", "phase clean-up has 7 steps; give after step 1 to 6 of clean-up, or 'end of"),
            (
                "after step 1 of cleanup",
                "the pack has no phase, procedure or card section 'cleanup' (did you mean 'clean-up'?)",
            ),
        ],
    )


def test_at_after_a_step_of_a_deal_part_or_a_procedure(tmp_path: Path) -> None:
    data = load("after_a_step_of_a_deal_and_a_procedure.yaml")
    assert failures(run(data)) == []

    def at(stop: str) -> dict[str, Any]:
        (step,) = [s for s in data["decisions"] if isinstance(s, dict) and s.get("at") == stop]
        return step["expect"]  # type: ignore[no-any-return]

    # each stop looks at the game between two steps: the step after it has not run yet
    at("after step 2 of play-a-card")["players"][2]["discard"] = []  # the Guard is played by then
    at("after step 1 of knock-out")["players"][1]["hand"] = []  # the hand goes at step 2
    at("after step 3 of deal-end")["counters"]["token"] = [0, 1]  # the token comes at step 4
    at("after step 4 of deal-setup")["zones"]["aside"] = 1  # the aside is dealt at step 5
    bad = failures(run(data))
    for stop, subject in [
        ("after step 2 of play-a-card", "player 2's discard"),
        ("after step 1 of knock-out", "player 1's hand"),
        ("after step 3 of deal-end", "counter token"),
        ("after step 4 of deal-setup", "zone aside"),
    ]:
        assert any(f"({stop}): {subject}" in b for b in bad), (stop, bad)
    data = load("after_a_step_of_a_deal_and_a_procedure.yaml")
    at_errors(
        tmp_path,
        data,
        [
            ("after step 3 of knock-out", "procedure knock-out has 2 steps; give after step 1 to 2 of knock-out"),
            ("after step 1 of discard-and-draw", "procedure discard-and-draw has 1 step; there is no point inside it"),
            ("after step 7 of deal-setup", "phase deal-setup has 7 steps; give after step 1 to 6 of deal-setup, or"),
            (
                "after step 1 of knockout",
                "the pack has no phase, procedure or card section 'knockout' (did you mean 'knock-out'?)",
            ),
        ],
    )


PROCEDURE_RULES = """
vocabulary:
  kinds: {chip: chips}
  counters:
    energy: {per: player, plural: energies}
    focus: {per: player, plural: focuses}
    heat: {per: player, plural: heats}
    luck: {per: player, plural: lucks}
  zones:
    deck: {visibility: hidden, facing: down}
    hand: {per: player, visibility: owner, facing: up}
setup: |
  for each player: gain {heat} heats
turn:
  - phase: start
    text: |
      begin-turn;
      if your luck is at least 5 then lucky
  - phase: main
    text: |
      choose a card in the deck; move it to your hand
procedures:
  begin-turn: |
    gain 2 energies;
    gain 1 focus;
    steady;
    lose your heats heats
  steady: |
    lose 1 focus
  lucky: |
    gain 1 luck
game-end:
  triggers:
    - {name: drawn, when: "the deck is empty"}
scoring:
  score: your energies
"""


def procedure_pack(tmp_path: Path, heat: int) -> Path:
    folder = tmp_path / f"procs{heat}"
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        "id: procs\nname: Procs\nversion: 0.0.0\nplayers: [2, 2]\nfiles: [rules.yaml, cards.yaml]\n", encoding="utf-8"
    )
    (folder / "rules.yaml").write_text(PROCEDURE_RULES.replace("{heat}", str(heat)), encoding="utf-8")
    (folder / "cards.yaml").write_text("cards:\n  - {id: chip, kind: chip, zone: deck, count: 4}\n", encoding="utf-8")
    return folder


def test_a_position_inside_the_turn_states_what_the_procedures_earlier_steps_call_surely_change(
    tmp_path: Path,
) -> None:
    # the start phase calls begin-turn on every way through it: its 2 energies must be stated;
    # its focus is gained and lost again (in steady, which it calls), so it is back where it
    # was; its heat is emptied, as the position has it (set-up gave 0); `lucky` runs only
    # under a condition, so its luck may well be unchanged
    def scenario(heat: int, counters: str) -> Path:
        path = tmp_path / f"s{heat}{len(counters)}.yaml"
        path.write_text(
            f"pack: [{tmp_path / f'procs{heat}'}]\n"
            "position:\n  active: 1\n  phase: main\n"
            + (f"  counters: {counters}\n" if counters else "")
            + "decisions:\n  - expect:\n      decision: {player: 1}\n",
            encoding="utf-8",
        )
        return path

    procedure_pack(tmp_path, 0)
    procedure_pack(tmp_path, 3)
    (bad,) = failures(run_scenario_file(path := scenario(0, "")))
    assert f"{path}:4:10: position: it starts at main, so this turn's earlier steps have run; they change energy" in bad
    assert "(energy: gain energy (in begin-turn))" in bad, bad
    assert "focus" not in bad and "heat" not in bad and "luck" not in bad, bad
    assert failures(run_scenario_file(scenario(0, "{energy: [2, 0]}"))) == []
    # set-up gave 3 heat: emptying it leaves it other than the position has it
    (bad,) = failures(run_scenario_file(path := scenario(3, "{energy: [2, 0]}")))
    assert "they change heat (heat: lose heat (in begin-turn))" in bad, bad
    assert failures(run_scenario_file(scenario(3, "{energy: [2, 0], heat: [0, 3]}"))) == []


def test_rest_of_turn_states_the_names_the_cards_text_bound(tmp_path: Path) -> None:
    data = load("rest_of_turn_names.yaml")
    assert failures(run(data)) == []
    entry = data["position"]["rest-of-turn"][0]
    entry["names"]["price"] = 0  # the Copper's cost: the Silver gives its 2 coins only
    assert any("counter coin: expected [4, 0], got [2, 0]" in b for b in failures(run(data)))
    entry["names"]["price"] = 3
    data["position"]["players"][2]["hand"] = []  # the target's hand is empty: 1 coin more
    assert any("counter coin: expected [4, 0], got [5, 0]" in b for b in failures(run(data)))
    data["position"]["players"][2]["hand"] = ["estate"]
    entry["names"]["target"] = 1  # player 1 is the target: their hand is empty once the Copper is played
    assert [b for b in failures(run(data))] == ["at step 4: counter coin: expected [5, 0], got [6, 0]"]
    entry["names"]["target"] = 2
    for names, key, message in [
        (
            {"price": 3, "target": 2, "prize": 1, "BONUS": 2},
            "prize",
            "the text of 'assayer' binds no name 'prize' (did you mean 'price'?); its text binds: price, target, BONUS",
        ),
        ({"price": 7, "target": 2, "BONUS": 2}, "price", "names: price: 7 is not one of its values; they are: 0, 2,"),
        ({"price": 3, "target": 3, "BONUS": 2}, "target", "names: target: "),
        ({"price": 3, "target": 2, "BONUS": "two"}, "BONUS", "names: BONUS must be a whole number, not 'two'"),
    ]:
        entry["names"] = names
        path = write(tmp_path, data)
        (bad,) = failures(run_scenario_file(path))
        assert f"{path}:{last_line(path, f'{key}: {names[key]}')}:" in bad and message in bad, bad
    entry["names"] = {"price": 3}  # the abilities read the target and BONUS too
    path = write(tmp_path, data)
    (bad,) = failures(run_scenario_file(path))
    assert f"{path}:{last_line(path, 'card: assayer')}:" in bad, bad
    assert (
        "rest-of-turn: the abilities 'assayer' started read target, BONUS, which its text bound before: "
        "state them with names: {target: VALUE, BONUS: VALUE}" in bad
    ), bad


def test_at_after_a_step_of_a_card_section(tmp_path: Path) -> None:
    data = load("after_a_step_of_a_card_section.yaml")
    assert failures(run(data)) == []
    data["decisions"][2]["expect"]["counters"]["coin"] = [1, 0]  # the coin comes at step 4
    assert any(
        "(after step 3 of market PLAY): counter coin: expected [1, 0], got [0, 0]" in b for b in failures(run(data))
    )
    data = load("after_a_step_of_a_card_section.yaml")
    at_errors(
        tmp_path,
        data,
        [
            ("after step 5 of market PLAY", "section market PLAY has 4 steps; give after step 1 to 4 of market PLAY"),
            (
                "after step 1 of market ACTION",
                "no phase, procedure or card section 'market ACTION' (did you mean 'market PLAY'?)",
            ),
        ],
    )


def test_a_position_states_what_each_player_has_noted(tmp_path: Path) -> None:
    data = load("notes_in_a_position.yaml")
    assert failures(run(data)) == []
    pos = data["position"]
    del pos["notes"]  # nothing noted: the Specialization's ability gives nothing more
    assert any("counter influence: expected [6, 0], got [4, 0]" in b for b in failures(run(data)))
    pos["notes"] = {1: {"specialized": ["food"]}}  # food noted: only the food trade gives 1 more
    assert any("counter influence: expected [6, 0], got [5, 0]" in b for b in failures(run(data)))
    for notes, line, message in [
        (
            {1: {"specialised": ["silicon"]}},
            "specialised:",
            "no card or rule notes anything as 'specialised' (did you mean 'specialized'?)",
        ),
        ({3: {"specialized": ["silicon"]}}, "3:", "position: notes: players are numbered 1..2, not 3"),
        ({1: {"specialized": "silicon"}}, "specialized: silicon", "notes: specialized is a list of the words noted"),
    ]:
        pos["notes"] = notes
        path = write(tmp_path, data)
        (bad,) = failures(run_scenario_file(path))
        lines = [
            n
            for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if text.strip().startswith(line)
        ]
        assert f"{path}:{lines[-1]}:" in bad and message in bad, bad


def test_at_after_a_step_of_a_cards_triggered_or_activated_ability(tmp_path: Path) -> None:
    data = load("after_a_step_of_an_ability.yaml")
    assert failures(run(data)) == []
    data["decisions"][2]["expect"]["counters"]["buy"] = [2, 0]  # the Buy comes at step 2
    assert any(
        "(after step 1 of patron WHEN play-treasure): counter buy: expected [2, 0], got [1, 0]" in b
        for b in failures(run(data))
    )
    data = load("after_a_step_of_an_activated_ability.yaml")
    assert failures(run(data)) == []
    data["decisions"][2]["expect"]["counters"]["influence"] = [1, 0]  # the influence comes at step 2
    assert any(
        "(after step 1 of weapon-emporium DURING trade-in): counter influence: expected [1, 0], got [0, 0]" in b
        for b in failures(run(data))
    )
    data = load("after_a_step_of_an_ability.yaml")
    at_errors(
        tmp_path,
        data,
        [
            (
                "after step 3 of patron WHEN play-treasure",
                "ability patron WHEN play-treasure has 2 steps; give after step 1 to 2 of patron WHEN play-treasure",
            ),
            (
                "after step 1 of patron WHEN suffer-attack",
                "no phase, procedure or card section 'patron WHEN suffer-attack' "
                "(did you mean 'patron WHEN play-treasure'?)",
            ),
        ],
    )


def test_expect_checks_what_each_player_has_noted(tmp_path: Path) -> None:
    data = load("expect_notes.yaml")
    assert failures(run(data)) == []
    data["expect"]["notes"] = {1: {"traded": ["food", "water"]}}  # cleared at the cleanup's beginning
    assert any("player 1's traded notes: expected ['food', 'water'], got []" in b for b in failures(run(data)))
    data = load("expect_notes.yaml")
    data["decisions"][10]["expect"]["notes"] = {1: {"traded": ["water", "food"]}}  # in the order noted
    assert any(
        "player 1's traded notes: expected ['water', 'food'], got ['food', 'water']" in b for b in failures(run(data))
    )
    for notes, message in [
        ({1: {"tradd": []}}, "expect: notes: no card or rule notes anything as 'tradd' (did you mean 'traded'?)"),
        ({3: {"traded": []}}, "players are numbered 1..2"),
        ({1: {"traded": "food"}}, "expect: notes: traded is a list of the words noted"),
    ]:
        data = load("expect_notes.yaml")
        data["expect"]["notes"] = notes
        (bad,) = failures(run(data))
        assert message in bad, bad


def test_at_after_an_iteration_of_a_loop(tmp_path: Path) -> None:
    data = load("after_an_iteration_of_a_loop.yaml")
    assert failures(run(data)) == []
    data["decisions"][1]["expect"]["counters"]["coin"] = [3, 0]  # the Silver is not played yet
    assert any(
        "(after iteration 1 of step 1 of buy): counter coin: expected [3, 0], got [1, 0]" in b
        for b in failures(run(data))
    )
    data = load("after_an_iteration_of_a_loop.yaml")
    data["decisions"][3]["at"] = "after iteration 3 of step 1 of buy"  # two Treasures, two iterations
    assert any("did not pass 'after iteration 3 of step 1 of buy'" in b for b in failures(run(data)))
    data = load("after_an_iteration_of_a_loop.yaml")
    at_errors(
        tmp_path,
        data,
        [
            ("after iteration 1 of step 3 of buy", "buy has 2 steps"),
            ("after iteration 1 of step 1 of action", "step 1 of action is no loop"),
            ("after iteration 1 of step 1 of gain-a-card-costing-up-to", "is no loop"),
            ("after iteration 1 of step 1 of discard-down-to", "discard-down-to is one step"),
            ("after iteration 0 of step 1 of buy", "iterations are counted from 1"),
            ("after iteration 1 of step 1 of bye", "no phase, procedure or card section 'bye' (did you mean 'buy'?)"),
        ],
    )
