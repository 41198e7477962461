"""The engine's own invariants, true of every game of every pack.

Each check raises `Broken` naming the invariant. They are the product's version of the
project's property tests: `rules-dsl check` and `tests/test_properties.py` share them.
"""

from __future__ import annotations

import json
import random
from typing import Any

from rules_dsl import knowledge
from rules_dsl.checking.failures import Broken
from rules_dsl.effects.choices import ChooseCard, TokenChoice, hidden_id
from rules_dsl.engine import Engine
from rules_dsl.state import GameState

CONSISTENT = "every card in exactly one place, no negative counter"
DECISION = "a decision has legal options"
ENDS = "the game ends"
RESULT = "scores and winners follow the scoring"
ROUND_TRIP = "a JSON round trip gives an identical state"
REPLAY = "seed and decision log replay to an identical state"
HIDDEN = "an observation hides what it must"
RUNS = "applying a legal option runs without error"


def check_position(engine: Engine, st: GameState) -> None:
    """A position between decisions: consistent, and a well-formed decision unless over."""
    problems = engine.check(st)
    if problems:
        raise Broken(CONSISTENT, "; ".join(problems[:3]), expected={})
    d = st.pending
    if d is None:
        if not st.over:
            raise Broken(DECISION, "the game is not over but no decision is pending", expected={})
        return
    if st.over:
        raise Broken(DECISION, "the game is over but a decision is pending", expected={})
    if not 0 <= d.player < st.players:
        raise Broken(DECISION, f"player {d.player + 1} must decide, in a {st.players}-player game", expected={})
    if not d.options:
        raise Broken(DECISION, f"player {d.player + 1} must {d.prompt} ({d.source}) but has no option", expected={})
    if len(set(d.options)) != len(d.options):
        raise Broken(DECISION, f"two options share an id: {d.options}", expected={})


def check_final(engine: Engine, st: GameState) -> None:
    if not st.over or st.pending is not None or st.phase != "over":
        raise Broken(ENDS, "the game stopped without being over")
    triggers = {t.name for t in engine.rules.end_triggers} | {"turn limit"}
    if st.end_trigger not in triggers:
        raise Broken(RESULT, f"the game ended by {st.end_trigger!r}, which is no end trigger of the pack")
    if not len(st.scores) == len(st.tiebreaks) == st.players:
        raise Broken(RESULT, f"{len(st.scores)} scores and {len(st.tiebreaks)} tie-breaks for {st.players} players")
    if engine.rules.cooperative:  # all win or all lose together, with one shared score
        if st.winners not in ([], list(range(st.players))) or len(set(st.scores)) != 1:
            raise Broken(RESULT, f"a co-operative game ended with winners {st.winners} and scores {st.scores}")
        return
    best = max(zip(st.scores, st.tiebreaks))
    winners = [p for p in range(st.players) if (st.scores[p], st.tiebreaks[p]) == best]
    if st.winners != winners:
        raise Broken(RESULT, f"winners {st.winners} but the best score and tie-break are players {winners}")


def check_round_trip(engine: Engine, st: GameState) -> None:
    """Saved to JSON and loaded, and cloned, the state is equal and saves the same text."""
    text = engine.to_json(st)
    try:
        json.loads(text)
        loaded = engine.from_json(text)
    except Exception as exc:
        raise Broken(ROUND_TRIP, f"the saved state does not load: {exc}") from None
    if loaded != st or engine.to_json(loaded) != text:
        raise Broken(ROUND_TRIP, "the loaded state differs from the saved one")
    copy = st.clone()
    if copy != st or engine.to_json(copy) != text:
        raise Broken(ROUND_TRIP, "the clone differs from the original")


def check_replay(engine: Engine, final: GameState) -> None:
    again = engine.replay(final.players, final.seed, list(final.variants), list(final.log))
    if engine.to_json(again) != engine.to_json(final):
        raise Broken(REPLAY, f"replaying the {len(final.log)} decisions gives a different state")


# ---- observations --------------------------------------------------------------------


def hidden_from(engine: Engine, st: GameState, player: int) -> dict[int, Any]:
    """The cards `player` cannot identify (`knowledge`, the one home of who knows what).

    Value None: the card is only counted (a hidden zone, another player's private zone, a
    pile below its top). Otherwise its back shows: (kind, back properties), which a swap
    must keep.
    """
    rules = engine.rules
    out: dict[int, Any] = {}
    for _, card, how in knowledge.placed(rules, st, player):
        if how is True or player in st.cards[card].seen:
            continue
        out[card] = None if how is None else knowledge.back_of(rules, st.cards[card].type)
    return out


def swappable(engine: Engine, st: GameState, hidden: dict[int, Any], a: int, b: int) -> bool:
    ca, cb = st.cards[a], st.cards[b]
    if a == b or ca.type == cb.type:
        return False
    if ca.tokens or ca.under or cb.tokens or cb.under:
        return False
    if ca.allowed != cb.allowed:  # what was pointed out of a card is part of how it looks
        return False
    # a face-down card shown by its back must keep the same back
    rules = engine.rules
    if hidden[a] is not None and knowledge.back_of(rules, cb.type) != hidden[a]:
        return False
    return hidden[b] is None or knowledge.back_of(rules, ca.type) == hidden[b]


def pick_swaps(engine: Engine, st: GameState, player: int, rnd: random.Random, n: int) -> list[tuple[int, int]]:
    """Pairs of hidden cards to swap: every face-down back with a partner, then n at random."""
    hidden = hidden_from(engine, st, player)
    cards = sorted(hidden)
    pairs: list[tuple[int, int]] = []
    for a in cards:
        if hidden[a] is not None:
            partners = [b for b in cards if swappable(engine, st, hidden, a, b)]
            if partners:
                pairs.append((a, rnd.choice(partners)))
    for _ in range(20 * n):
        if len(pairs) >= n + 1 or len(cards) < 2:
            break
        a, b = rnd.sample(cards, 2)
        if swappable(engine, st, hidden, a, b):
            pairs.append((a, b))
    return pairs


def swap_types(st: GameState, a: int, b: int) -> None:
    ta, tb = st.cards[a].type, st.cards[b].type
    st.card_to_change(a).type = tb
    st.card_to_change(b).type = ta


def observation_text(engine: Engine, st: GameState, player: int) -> str:
    return json.dumps(engine.observe(st, player), sort_keys=True)


def check_options_hidden(engine: Engine, st: GameState) -> None:
    """A card a deciding player cannot identify is offered by its place (`choices.hidden_id`:
    `hand.p2#1`), never by what it is: an option id must not tell a hidden card."""
    rules = engine.rules
    if not st.frames:
        return
    effect = rules.effects[st.frames[-1].eid]
    if effect.simultaneous:  # every seat answers the same choice
        effect = effect.choice  # type: ignore[attr-defined]
    if not isinstance(effect, ChooseCard | TokenChoice):
        return
    for d in engine.decisions(st):
        for option, value in zip(d.options, d.values):
            card, kind = -1, ""
            if isinstance(value, int) and not isinstance(value, bool):
                card = value
            elif isinstance(value, list):  # (card, token kind)
                card, kind = value
            if card < 0 or knowledge.identifies(rules, st, card, d.player):
                continue
            place = hidden_id(st, card)
            if option != (f"{place}:{kind}" if kind else place):
                raise Broken(
                    HIDDEN,
                    f"player {d.player + 1} is offered option {option!r} ({d.prompt}; {d.source}) for card {card} "
                    f"in {st.cards[card].loc}, which they cannot identify: it must be offered by its place ({place!r})",
                    expected={},
                )


def check_observations(engine: Engine, st: GameState, rnd: random.Random, swaps_per_player: int) -> tuple[int, int]:
    """Every player's observation is JSON data and does not change when cards hidden from
    that player swap identities. Returns (swaps done, swaps of face-down backs)."""
    check_options_hidden(engine, st)
    done = backs = 0
    rules = engine.rules
    for p in range(st.players):
        obs = engine.observe(st, p)
        text = json.dumps(obs, sort_keys=True)
        if json.loads(text) != obs:
            raise Broken(HIDDEN, f"player {p + 1}'s observation is not plain JSON data")
        d = engine.decision(st, p)
        shown = obs.get("decision")
        if d is not None:
            if shown != {"prompt": d.prompt, "source": d.source, "options": d.options}:
                raise Broken(HIDDEN, f"player {p + 1}'s observation does not show their decision as it is")
        elif shown is not None:
            raise Broken(HIDDEN, f"player {p + 1} sees a decision that is not theirs")
        hidden = hidden_from(engine, st, p)
        for a, b in pick_swaps(engine, st, p, rnd, swaps_per_player):
            swap_types(st, a, b)
            try:
                changed = observation_text(engine, st, p)
            finally:
                swap_types(st, a, b)
            if changed != text:
                ia, ib = rules.cards[st.cards[a].type].id, rules.cards[st.cards[b].type].id
                raise Broken(
                    HIDDEN,
                    f"player {p + 1}'s observation changes when two cards hidden from them swap: "
                    f"card {a} ({ia} in {st.cards[a].loc}) and card {b} ({ib} in {st.cards[b].loc})",
                )
            done += 1
            backs += hidden[a] is not None or hidden[b] is not None
    return done, backs
