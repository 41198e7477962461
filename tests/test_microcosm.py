"""Eminent Domain: Microcosm, beyond the scenario files (tests/scenarios/microcosm/).

- a peek is hidden information: only the peeker's observation shows the card;
- every random game lasts exactly 18 turns (9 per player) and stays consistent;
- the engine's Python code holds no Microcosm word: the game lives in the pack's data.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import play_random

from rules_dsl.engine import Engine
from rules_dsl.scenario import set_position
from rules_dsl.state import GameState

ROOT = Path(__file__).resolve().parent.parent
CODE = ROOT / "rules_dsl"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.for_pack("microcosm")


def card_id(engine: Engine, st: GameState, card: int) -> str:
    return engine.rules.cards[st.cards[card].type].id


def find(engine: Engine, st: GameState, zone: str, cid: str) -> int:
    return next(c for c in st.zones[zone] if card_id(engine, st, c) == cid)


def shows(obs: dict[str, Any], zone: str, cid: str) -> bool:
    """Does this observation name card `cid` anywhere in `zone`?"""
    z = obs["zones"][zone]
    if isinstance(z, dict):  # a hidden zone: only the cards the player knows
        return any(k["card"] == cid for k in z.get("known", []))
    return any(v.get("card") == cid for v in z)


def position(engine: Engine, pos: dict[str, Any], unused: str) -> GameState:
    st = engine.new_game(2, 1)
    set_position(engine, st, pos, unused)
    return st


PILES = {
    "cost-0-planets": [{"card": "planet-1", "face": "down"}],
    "cost-2-planets": [{"card": "planet-7", "face": "down"}],
    "cost-3-planets": [{"card": "planet-11", "face": "down"}],
}


# ---- peeking is hidden information --------------------------------------------------------


def test_peek_at_a_pile_planet_is_seen_by_the_peeker_only(engine: Engine) -> None:
    st = position(
        engine,
        {
            "active": 1,
            "phase": "action",
            "zones": dict(PILES),
            "players": {1: {"hand": ["survey-sweep", "research-globe"], "discard": []}, 2: {"colonies": []}},
        },
        "tech-centre",
    )
    for p in (0, 1):  # before the peek nobody sees the face-down planet
        assert not shows(engine.observe(st, p), "cost-2-planets", "planet-7")
    # a face-down planet is chosen by its place: planet-7 is the top of the cost-2 pile
    for option in ("play-a-card", "survey-sweep", "peek-at-a-planet", "cost-2-planets#1"):
        engine.apply(st, option)
    assert st.pending is not None and st.pending.player == 0  # Sweep's other action: still player 1
    planet = find(engine, st, "cost-2-planets", "planet-7")
    assert not st.cards[planet].up  # the peek did not flip it
    assert shows(engine.observe(st, 0), "cost-2-planets", "planet-7")
    opponent = engine.observe(st, 1)
    assert not shows(opponent, "cost-2-planets", "planet-7")
    assert opponent["zones"]["cost-2-planets"][0].get("hidden") is True
    # the other face-down planets stay hidden from the peeker too
    assert not shows(engine.observe(st, 0), "cost-0-planets", "planet-1")
    assert not shows(engine.observe(st, 0), "cost-3-planets", "planet-11")


def test_peek_at_an_opponents_colony_is_seen_by_the_peeker_and_its_owner_only(engine: Engine) -> None:
    st = position(
        engine,
        {
            "active": 1,
            "phase": "action",
            "zones": dict(PILES),
            "players": {
                1: {"hand": ["survey-mission", "research-globe"], "discard": []},
                2: {
                    "colonies": [{"card": "planet-4", "face": "down"}, {"card": "planet-8", "face": "down"}],
                    "discard": [],
                },
            },
        },
        "tech-centre",
    )
    assert not shows(engine.observe(st, 0), "colonies.1", "planet-4")
    assert shows(engine.observe(st, 1), "colonies.1", "planet-4")  # its owner may look at it
    # the opponent's face-down colony by its place: planet-4 is the top of their colonies
    for option in ("play-a-card", "survey-mission", "peek-at-a-planet", "peek-at-a-colony", "colonies.p2#1"):
        engine.apply(st, option)
    assert shows(engine.observe(st, 0), "colonies.1", "planet-4")
    assert not shows(engine.observe(st, 0), "colonies.1", "planet-8")
    assert not st.cards[find(engine, st, "colonies.1", "planet-4")].up


def test_peek_at_the_deck_top_with_political_intrigue_is_private(engine: Engine) -> None:
    st = position(
        engine,
        {
            "active": 1,
            "phase": "draw",
            "zones": {
                "supply": ["colonize-globe", "warfare-globe", "survey-sweep"],
                "domain-deck": ["research-lightbulb", "colonize-capitol"],
            },
            "players": {1: {"hand": [], "discard": ["political-intrigue"]}, 2: {"discard": []}},
        },
        "tech-centre",
    )
    assert not shows(engine.observe(st, 0), "domain-deck", "research-lightbulb")
    engine.apply(st, "peek at the top card of the domain-deck")
    assert shows(engine.observe(st, 0), "domain-deck", "research-lightbulb")
    assert not shows(engine.observe(st, 0), "domain-deck", "colonize-capitol")  # only the top card
    assert not shows(engine.observe(st, 1), "domain-deck", "research-lightbulb")


def test_political_intrigue_shows_the_opponents_hand_to_the_player_only(engine: Engine) -> None:
    st = position(
        engine,
        {
            "active": 1,
            "phase": "action",
            "players": {
                1: {"hand": ["political-intrigue", "research-globe"], "discard": []},
                2: {"hand": ["research-crosshair", "colonize-capitol", "survey-sweep"], "discard": []},
            },
        },
        "domain-deck",
    )
    assert not shows(engine.observe(st, 0), "hand.1", "survey-sweep")
    engine.apply(st, "play-a-card")
    engine.apply(st, "political-intrigue")
    p1 = engine.observe(st, 0)
    for cid in ("research-crosshair", "colonize-capitol", "survey-sweep"):
        assert shows(p1, "hand.1", cid)
    # the player's own hand stays hidden from the opponent
    assert not shows(engine.observe(st, 1), "hand.0", "research-globe")


def test_a_revealed_hand_card_is_seen_by_the_opponent(engine: Engine) -> None:
    """Revealing is public (rulebook: revealed icons are shown), unlike a peek."""
    st = position(
        engine,
        {
            "active": 1,
            "phase": "action",
            "zones": dict(PILES),
            "players": {1: {"hand": ["colonize-globe", "warfare-globe", "research-lightbulb"], "discard": []}},
        },
        "domain-deck",
    )
    for option in ("play-a-card", "colonize-globe", "warfare-globe"):
        engine.apply(st, option)
    p2 = engine.observe(st, 1)
    assert shows(p2, "hand.0", "warfare-globe")
    assert not shows(p2, "hand.0", "research-lightbulb")


# ---- random games ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(1, 31))
def test_every_game_lasts_nine_turns_per_player(engine: Engine, seed: int) -> None:
    turns_by_seat = [0, 0]  # the turns each seat starts: the active seat at each new turn number
    seen_turns: set[int] = set()

    def on_step(s: GameState, _i: int) -> None:
        problems = engine.check(s)
        assert not problems, problems
        if not s.over and s.turn not in seen_turns:
            assert s.turn == len(seen_turns)  # turns are counted one by one
            seen_turns.add(s.turn)
            turns_by_seat[s.active] += 1

    st, _log = play_random(engine, 2, seed, on_step=on_step)
    assert st.over
    assert st.turn == 18
    assert turns_by_seat == [9, 9]
    assert st.end_trigger == "last supply card drawn"
    assert not st.zones["supply"] and not st.zones["domain-deck"]
    assert len(st.scores) == 2 and st.winners
    assert engine.check(st) == []


# ---- the engine holds no Microcosm word ---------------------------------------------------

# Words (and pack names) that belong to Microcosm's cards, zones and properties, never to the
# engine. Matched case-insensitively anywhere in a Python file, comments and docstrings too.
WORDS = [
    "microcosm",
    "lightbulb",
    "crosshair",
    "capitol",
    "spoils",
    "colonies",
    "political",
    "intrigue",
    "mobilization",
    r"survey[\s_-]*sweep",
    r"survey[\s_-]*mission",
    "tech-centre",
    "domain-deck",
    "domain card",
    "defense-bonus",
    "stops-deck-draw",
    "stops-peeking",
    "allows-deck-peek",
    "before-draw",
    "extra-action",
    "planet-10",
    "globe",
]
PATTERN = re.compile("|".join(f"(?:{w})" for w in WORDS), re.IGNORECASE)


def game_words(folder: Path) -> list[tuple[str, int, str]]:
    hits = []
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(folder).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PATTERN.search(line):
                hits.append((rel, n, line.strip()))
    return hits


def test_the_engine_code_holds_no_microcosm_word() -> None:
    new = [f"{rel}:{n}: {line}" for rel, n, line in game_words(CODE)]
    assert not new, "game-specific words in rules_dsl/:\n" + "\n".join(new)


def test_the_word_check_catches_an_added_word(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "clean.py").write_text("def count(zone):\n    return len(zone)\n", encoding="utf-8")
    assert game_words(tmp_path) == []
    (tmp_path / "pkg" / "leak.py").write_text("# move the target to the SPOILS\nX = 'Survey Sweep'\n", encoding="utf-8")
    hits = game_words(tmp_path)
    assert [(rel, n) for rel, n, _ in hits] == [("pkg/leak.py", 1), ("pkg/leak.py", 2)]


# ---- assumptions are marked where they are made ---------------------------------------------

PACK = ROOT / "expansions" / "microcosm"
UNDESCRIBED = [  # the 9 family cards whose icon and scoring condition the rulebook does not give
    f"{family}-{icon}"
    for family, icons in (
        ("colonize", ("globe", "crosshair", "capitol")),
        ("warfare", ("globe", "lightbulb", "capitol")),
        ("research", ("lightbulb", "crosshair", "capitol")),
    )
    for icon in icons
]
ICONS = ("lightbulb", "globe", "crosshair", "capitol")
DOMAIN_CARDS = [f"{f}-{i}" for f in ("colonize", "warfare", "research") for i in ICONS]
# (file, card id, key) of every card fact the rulebook does not print (docs/rulings.md, M1-M7)
ASSUMED = (
    [("domain.yaml", c, k) for c in UNDESCRIBED for k in ("symbols", "score")]
    + [("domain.yaml", c, "colour") for c in DOMAIN_CARDS]
    + [("domain.yaml", f"political-{p}", "colour") for p in ("power", "party", "science", "intrigue")]
    + [("domain.yaml", f"survey-{s}", "colour") for s in ("sweep", "mission")]
    + [("planets.yaml", f"planet-{n}", k) for n in range(1, 12) for k in ("name", "symbols")]
    + [("planets.yaml", f"planet-{n}", "colour") for n in (4, 8, 9, 10, 11)]
    + [("planets.yaml", "planet-5", "cost"), ("planets.yaml", "planet-10", "text")]
    + [("techs.yaml", t, "symbols") for t in ("improved-colonize", "improved-warfare", "improved-research", "capital")]
    + [("techs.yaml", "mobilization", "symbols"), ("techs.yaml", "mobilization", "text")]
)
MARK = re.compile(r"#\s*assumed\b(?P<why>.*)$")


def fact_lines(path: Path) -> dict[tuple[str, str], str]:
    """(card id, key) -> the line that gives it, for a pack file of block-style cards."""
    out: dict[tuple[str, str], str] = {}
    card = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*(?:- )?(?:<<: \*\w+\s*)?([a-z-]+):", line)
        if line.startswith("  - "):
            card = ""
        if m is None:
            continue
        key = m.group(1)
        if key == "id":
            card = line.split("id:", 1)[1].split("#")[0].strip()
        elif card:
            out[(card, key)] = line
    return out


def test_every_assumed_microcosm_fact_is_marked_on_its_line() -> None:
    lines = {name: fact_lines(PACK / name) for name in ("domain.yaml", "planets.yaml", "techs.yaml")}
    unmarked = []
    for name, card, key in ASSUMED:
        line = lines[name].get((card, key))
        mark = MARK.search(line) if line else None
        if mark is None or len(mark.group("why").lstrip(": ").strip()) < 10:
            unmarked.append(f"{name}: {card} {key}: {line!r}")
    assert not unmarked, "assumed facts without '# assumed: why':\n" + "\n".join(unmarked)


def test_every_assumed_mark_in_the_microcosm_pack_says_why() -> None:
    bare = []
    for path in sorted(PACK.glob("*.yaml")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            mark = MARK.search(line)
            if mark and not mark.group("why").startswith(":"):
                bare.append(f"{path.name}:{n}: {line.strip()}")
    assert not bare, "write '# assumed: why':\n" + "\n".join(bare)
