"""Readable transcripts of games: every decision with its options and the choice made.

Golden playthroughs are such transcripts. Replaying the choices of a transcript must
give the same transcript again, so any change to the rules' behaviour shows up as a diff.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from rules_dsl import results
from rules_dsl.engine import Engine
from rules_dsl.state import GameState

CHOICE = re.compile(r"^\s+-> (.*)$")


def describe_state(engine: Engine, st: GameState, shared_zones: bool = False) -> list[str]:
    """Counters and each player's zones (the draw pile as a count); with `shared_zones`,
    the shared zones too (hidden ones as a count). Golden transcripts keep the players' only."""
    rules = engine.rules
    lines = []
    counters = ", ".join(f"{k} {v}" for k, v in st.counters.items())
    shared = ", ".join(f"{k} {v}" for k, v in st.shared.items())
    lines.append(f"  counters: {counters}; {shared}")
    if shared_zones:
        parts = [
            _zone_part(engine, st, name, st.zones[zt.key(0)], zt.visibility == "hidden", runs=True)
            for name, zt in rules.zones.items()
            if not zt.per_player and st.zones[zt.key(0)]
        ]
        lines.append("  shared: " + "; ".join(parts))
    for p in range(st.players):
        parts = [
            _zone_part(engine, st, name, st.zones[zt.key(p)], name == rules.draw_from)
            for name, zt in rules.zones.items()
            if zt.per_player and st.zones[zt.key(p)]
        ]
        lines.append(f"  player {p + 1}: " + "; ".join(parts))
    return lines


def _zone_part(engine: Engine, st: GameState, name: str, cards: list[int], counted: bool, runs: bool = False) -> str:
    """`runs`: a run of the same card as `label xN` (a stack of 16 role cards)."""
    if counted:
        return f"{name} {len(cards)}"
    shown = []
    for c in cards:
        cs = st.cards[c]
        label = engine.rules.cards[cs.type].id
        extra = []
        if not cs.up:
            extra.append("down")
        if cs.under:
            extra.append(f"{len(cs.under)} under")
        if cs.tokens:
            extra.append("+".join(cs.tokens))
        shown.append(label + (f"({', '.join(extra)})" if extra else ""))
    if runs:
        groups = [(label, len(list(same))) for label, same in itertools.groupby(shown)]
        shown = [label if n == 1 else f"{label} x{n}" for label, n in groups]
    return f"{name}: {' '.join(shown)}"


def transcript(
    engine: Engine,
    players: int,
    seed: int,
    variants: list[str] | None,
    choose: Callable[[GameState], str],
    header: str = "",
    shared_zones: bool = False,
) -> str:
    """`shared_zones`: show the shared zones too (playthrough; golden transcripts do not)."""
    st = engine.new_game(players, seed, variants)
    out = [
        f"# {header or 'playthrough'}",
        f"# packs: {', '.join(st.packs)}; players: {players}; seed: {seed}; variants: {', '.join(st.variants) or '-'}",
        "after set-up:",
        *describe_state(engine, st, shared_zones),
    ]
    turn = -1
    while st.pending is not None:
        if st.turn != turn:
            turn = st.turn
            out.append(f"turn {turn + 1} ({engine.rules.rotation_word} {st.round + 1}), player {st.active + 1}")
        d = st.pending
        out.append(f"  [{st.phase}] player {d.player + 1}: {d.prompt} ({d.source})")
        out.append("    options: " + " | ".join(d.options))
        option = choose(st)
        out.append(f"    -> {option}")
        engine.apply(st, option)
        if st.turn != turn:
            out.extend(describe_state(engine, st, shared_zones))
    out.append(f"game over after {st.turn} turns: {st.end_trigger or 'no trigger'}")
    out.append(
        "scores: "
        + ", ".join(f"player {p + 1} {s} (tie-break {t})" for p, (s, t) in enumerate(zip(st.scores, st.tiebreaks)))
    )
    out.append("winners: " + results.winners_text(st.winners, engine.rules.cooperative))
    return "\n".join(out) + "\n"


def narrated(
    engine: Engine,
    players: int,
    seed: int,
    variants: list[str] | None,
    choose: Callable[[GameState], str],
) -> str:
    """The game told in words (`rules_dsl/narrate.py`, the log `rules-dsl serve` shows)."""
    from rules_dsl.narrate import Narrator, apply_told

    st = engine.new_game(players, seed, variants)
    narrator = Narrator(engine.rules, st)
    out = narrator.opening(st)
    while st.pending is not None:
        out.extend(apply_told(engine, narrator, st, choose(st)).lines)
    return "\n".join(out) + "\n"


def random_chooser(seed: int) -> Callable[[GameState], str]:
    """The random bot used for playthroughs and golden games: its seed is the game's."""
    from rules_dsl.bots.random_bot import RandomBot

    bot = RandomBot(seed * 1009)

    def choose(st: GameState) -> str:
        assert st.pending is not None
        return bot.choose(st.pending)

    return choose


def choices_of(text: str) -> list[str]:
    return [m.group(1) for line in text.splitlines() if (m := CHOICE.match(line))]
