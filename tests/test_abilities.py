"""Abilities on cards: continuous, triggered, activated and lasting ones.

The rules of the example mod (examples/mods/frontier-techs) are tested by scenarios in
tests/scenarios/mods/; here: bad ability text, the state of lasting effects and used
abilities (JSON, replay, the end of the turn), and the spelling of moments.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rules_dsl.bots.random_bot import RandomBot
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError, PackProblem
from rules_dsl.state import GameState

ROOT = Path(__file__).resolve().parents[1]
MOD = [str(ROOT / "cards"), str(ROOT / "examples" / "mods" / "frontier-techs")]
PackCopy = Callable[..., Path]


def only_problem(folder: Path) -> PackProblem:
    with pytest.raises(PackError) as info:
        compile_packs([str(folder)])
    problems = info.value.problems
    assert len(problems) == 1, "\n".join(p.render() for p in problems)
    return problems[0]


def line_col(folder: Path, file: str, line_text: str, word: str) -> tuple[int, int]:
    lines = (folder / file).read_text(encoding="utf-8").splitlines()
    (i,) = [n for n, line in enumerate(lines) if line == line_text]
    return i + 1, lines[i].index(word) + 1


def test_unknown_quantity_in_a_card_is_a_pack_error(pack_copy: PackCopy) -> None:
    line = "      WHILE face-up in your empire: add 1 to your extra-actons"
    folder = pack_copy(("techs.yaml", "      WHILE face-up in your empire: add 1 to your extra-actions", line))
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "techs.yaml", line, "extra-actons")
    assert p.card == "productivity"
    assert p.message == "unknown quantity 'extra-actons'"
    assert p.suggestion == "did you mean 'extra-actions'?"
    assert "hand-limit" in p.expected


def test_unknown_moment_in_a_card_is_a_pack_error(pack_copy: PackCopy) -> None:
    line = "      WHEN you atack: put a blockade token on the target"
    folder = pack_copy(("techs.yaml", "      WHEN you attack: put a blockade token on the target", line))
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "techs.yaml", line, "atack")
    assert p.card == "scorched-earth-policy"
    assert p.message == "unknown moment 'atack'"
    assert p.suggestion == "did you mean 'attack'?"


def test_unknown_moment_announced_by_the_rules_is_a_pack_error(pack_copy: PackCopy) -> None:
    line = "    announce dissnt"
    folder = pack_copy(("rules.yaml", "    announce dissent", line))
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "rules.yaml", line, "dissnt")
    assert p.message == "unknown moment 'dissnt'"
    assert p.suggestion == "did you mean 'dissent'?"


def test_unknown_window_is_a_pack_error(pack_copy: PackCopy) -> None:
    line = "    use actoin abilities;"
    folder = pack_copy(("rules.yaml", "    use action abilities;", line))
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "rules.yaml", line, "actoin")
    assert p.message == "unknown window 'actoin'"
    assert p.suggestion == "did you mean 'action'?"


def test_two_abilities_of_one_window_on_a_card_are_a_pack_error(pack_copy: PackCopy) -> None:
    # the card is the option where its abilities are offered: one per window
    old = "      WHILE face-up in your empire: add 1 to your extra-actions"
    second = "      DURING your action: draw 2 cards"
    folder = pack_copy(("techs.yaml", old, f"      DURING your action: draw 1 card\n{second}"))
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "techs.yaml", second, "action")
    assert p.card == "productivity"
    assert p.message == "a card has one ability for the window 'action': join them with OR in one ability"


def test_unknown_window_in_use_a_window_ability_is_a_pack_error(pack_copy: PackCopy) -> None:
    line = "    use an actoin ability;"
    folder = pack_copy(("rules.yaml", "    use action abilities;", line))
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "rules.yaml", line, "actoin")
    assert p.message == "unknown window 'actoin'"
    assert p.suggestion == "did you mean 'action'?"


def test_continuous_ability_in_an_unknown_zone_is_a_pack_error(pack_copy: PackCopy) -> None:
    line = "      WHILE face-up in your empir: add 1 to your extra-actions"
    folder = pack_copy(("techs.yaml", "      WHILE face-up in your empire: add 1 to your extra-actions", line))
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "techs.yaml", line, "empir")
    assert p.suggestion == "did you mean 'empire'?"


def test_third_person_names_the_declared_moment(pack_copy: PackCopy) -> None:
    folder = pack_copy(
        (
            "techs.yaml",
            "      WHEN you attack: put a blockade token on the target",
            "      WHENEVER a player attacks: nothing",
        ),
    )
    rules = compile_packs([str(folder)])
    (trigger,) = rules.cards[rules.card_index["scorched-earth-policy"]].triggers
    assert (trigger.moment, trigger.subject) == ("attack", "player")


def play_until(engine: Engine, seed: int, stop: Callable[[GameState], bool]) -> tuple[GameState, list[str]]:
    st = engine.new_game(2, seed, ["frontier-start"])
    bot = RandomBot(seed)
    log: list[str] = []
    while st.pending is not None and not stop(st):
        option = bot.choose(st.pending)
        engine.apply(st, option)
        log.append(option)
    return st, log


def test_lasting_and_used_abilities_survive_json_and_replay() -> None:
    engine = Engine.load(MOD)
    seen_lasting = seen_used = 0
    for seed in range(1, 60):
        for stop in (lambda s: bool(s.lasting), lambda s: bool(s.used)):
            st, log = play_until(engine, seed, stop)
            if st.pending is None:
                continue
            seen_lasting += bool(st.lasting)
            seen_used += bool(st.used)
            loaded = engine.from_json(engine.to_json(st))
            assert loaded == st
            assert engine.replay(2, seed, ["frontier-start"], log) == st
            assert engine.check(loaded) == []
    assert seen_lasting and seen_used, "the example mod's games never started a lasting effect or used an ability"


def test_lasting_effects_end_with_the_turn() -> None:
    engine = Engine.load(MOD)
    for seed in range(1, 60):
        st, _ = play_until(engine, seed, lambda s: bool(s.lasting))
        if st.pending is None:
            continue
        turn = st.turn
        bot = RandomBot(seed)
        while st.pending is not None and st.turn == turn:
            assert st.lasting
            engine.apply(st, bot.choose(st.pending))
        assert st.lasting == [] and st.used == []
        return
    pytest.fail("no game started a lasting effect")


# ---- one text, many copies; valued properties -------------------------------------------


def test_copies_are_cards_of_their_own_with_the_entrys_text() -> None:
    rules = compile_packs([str(ROOT / "cards")])
    survey = [rules.cards[rules.card_index[i]] for i in ("improved-survey-st", "improved-survey-sp")]
    assert [c.symbols for c in survey] == [{"survey": 1, "trade": 1}, {"survey": 1, "produce": 1}]
    assert [c.props["type"] for c in survey] == ["advanced", "fertile"]
    assert survey[0].text == survey[1].text == "ACTION: draw 3 cards"


def test_a_copy_without_id_and_an_entry_with_one_are_errors(pack_copy: PackCopy) -> None:
    folder = pack_copy(("techs.yaml", "      - {id: improved-survey-sr, ", "      - {"))
    p = only_problem(folder)
    assert p.message == "this copy has no id"
    assert (p.file, p.line) == (str(folder / "techs.yaml"), line_col(folder, "techs.yaml", p.source_line, "{")[0])
    folder = pack_copy(
        ("techs.yaml", "    name: Improved Trade\n", "    id: improved-trade\n    name: Improved Trade\n")
    )
    with pytest.raises(PackError) as info:
        compile_packs([str(folder)])
    messages = [p.message for p in info.value.problems]
    assert "a card with copies: gives each copy its id, not the entry" in messages


def test_a_valued_propertys_expression_is_checked_where_it_is_written(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "microcosm"
    shutil.copytree(ROOT / "expansions" / "microcosm", folder)
    path = folder / "vocabulary.yaml"
    text = path.read_text(encoding="utf-8")
    line = "      colony: the number of cards in your colonys"
    path.write_text(text.replace("      colony: the number of cards in your colonies", line), encoding="utf-8")
    p = only_problem(folder)
    assert (p.line, p.column) == line_col(folder, "vocabulary.yaml", line, "colonys")
    assert p.suggestion == "did you mean 'colonies'?"


def test_valued_score_and_breakdown_agree() -> None:
    engine = Engine.load([str(ROOT / "expansions" / "microcosm")])
    for seed in range(1, 8):
        st = engine.new_game(2, seed)
        bot = RandomBot(seed)
        while st.pending is not None:
            engine.apply(st, bot.choose(st.pending))
        for p in range(2):
            assert st.scores[p] == sum(parts[p] for parts in st.breakdown.values())


def test_cards_shows_every_ability_compiled(capsys: pytest.CaptureFixture[str]) -> None:
    from rules_dsl.cli import main

    assert main(["cards", "--pack", ",".join(MOD), "scorched-earth-policy", "field-command"]) == 0
    out = capsys.readouterr().out
    assert "compiled WHILE ... warfare-discount:" in out
    assert "compiled WHEN you attack: put a blockade token on the target:" in out
    assert "compiled ONCE PER TURN, during your action: pay 1 fighter; draw 1 card:" in out
    assert "TriggerAbility" in out and "ActivatedAbility" in out and "Modifier" in out


def test_a_decision_inside_a_lasting_trigger_survives_json() -> None:
    """Mobilization's attack after the role phase is asked inside `announce end-role-phase`:
    the announcement's frame (the triggers still to run) is saved and loaded with the game."""
    from ruamel.yaml import YAML

    from rules_dsl.effects.abilities import Announce
    from rules_dsl.scenario import set_position

    path = ROOT / "tests" / "scenarios" / "full" / "mobilization_attack_after_role.yaml"
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    engine = Engine.for_pack("base")
    st = engine.new_game(2, 1)
    set_position(engine, st, data["position"], data.get("unused"))
    for option in ["mobilization", "warfare-role", "gain X fighters", "dissent"]:
        engine.apply(st, option)
    assert st.pending is not None and st.pending.options == ["drawde", "pass"]
    assert any(isinstance(engine.rules.effects[f.eid], Announce) for f in st.frames)
    assert len(st.lasting) == 1
    # a position set by hand is no game a seed and a log reach: load it without the replay
    loaded = engine.from_json(engine.to_json(st), replay=False)
    assert loaded == st
    engine.apply(loaded, "drawde")
    engine.apply(st, "drawde")
    assert loaded == st and st.phase == "cleanup" and len(st.lasting) == 1  # until the turn ends
