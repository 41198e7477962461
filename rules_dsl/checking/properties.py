"""The engine's own invariants, true of every game of every pack.

Each check raises `Broken` naming the invariant. They are the product's version of the
project's property tests: `rules-dsl check` and `tests/test_properties.py` share them.
"""

from __future__ import annotations

import json
import random
from typing import Any

from rules_dsl.checking.failures import Broken
from rules_dsl.effects.choices import ChooseCard, TokenChoice
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
    """Cards whose identity `player` may not know, per the zones' declared visibility.

    Value None: the card is not shown at all (a hidden zone, or another player's private
    zone). Otherwise the card is face down and not the player's own, so only its back
    shows: the value is (kind, public properties), which a swap must keep.
    """
    rules = engine.rules
    out: dict[int, Any] = {}

    def unseen(c: int) -> None:
        if player not in st.cards[c].seen:  # a card the player peeked at is known to them
            out[c] = None
        for u in st.cards[c].under:
            unseen(u)

    def shown(c: int, mine: bool) -> None:
        cs = st.cards[c]
        if not cs.up and not mine and player not in cs.seen:
            out[c] = back_of(engine, cs.type)
        for u in cs.under:
            shown(u, mine)

    for key, cards in st.zones.items():
        name, _, seat = key.partition(".")
        zt = rules.zones[name]
        owner = int(seat) if seat else -1
        if zt.visibility == "hidden" or (zt.visibility == "owner" and owner != player):
            for c in cards:
                unseen(c)
        elif zt.visibility == "top":
            for c in cards[:-1]:
                unseen(c)
            for c in cards[-1:]:
                shown(c, owner == player)
        else:
            for c in cards:
                shown(c, owner == player)
    return out


def back_of(engine: Engine, card_type: int) -> tuple[str, tuple[Any, ...]]:
    ct = engine.rules.cards[card_type]
    return (ct.kind, tuple((p, ct.props[p]) for p in ct.public_props))


def swappable(engine: Engine, st: GameState, hidden: dict[int, Any], a: int, b: int) -> bool:
    ca, cb = st.cards[a], st.cards[b]
    if a == b or ca.type == cb.type:
        return False
    if ca.tokens or ca.under or cb.tokens or cb.under:
        return False
    # a face-down card shown by its back must keep the same back
    if hidden[a] is not None and back_of(engine, cb.type) != hidden[a]:
        return False
    return hidden[b] is None or back_of(engine, ca.type) == hidden[b]


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


def _root_zone(st: GameState, card: int) -> str:
    loc = st.cards[card].loc
    for _ in range(len(st.cards)):  # a tuck chain is at most as long as the cards
        if not loc.startswith("^"):
            break
        loc = st.cards[int(loc[1:])].loc
    return loc


def unseen_by(engine: Engine, st: GameState, card: int, player: int) -> bool:
    """The card lies in a zone `player` may not look into, and they have not peeked at it."""
    name, _, seat = _root_zone(st, card).partition(".")
    zt = engine.rules.zones.get(name)
    if zt is None or player in st.cards[card].seen:
        return False
    if zt.visibility == "top":  # all but the top card and the cards under it
        host = card
        while st.cards[host].loc.startswith("^"):
            host = int(st.cards[host].loc[1:])
        zone = st.zones[st.cards[host].loc]
        return not zone or zone[-1] != host
    return zt.visibility == "hidden" or (zt.visibility == "owner" and (int(seat) if seat else -1) != player)


def check_options_hidden(engine: Engine, st: GameState) -> None:
    """A choice of cards names each option by its card: none of them may be a card the
    deciding player cannot see (such a choice must be made blind, or after a peek)."""
    d = st.pending
    if d is None or not st.frames:
        return
    effect = engine.rules.effects[st.frames[-1].eid]
    if not isinstance(effect, ChooseCard | TokenChoice):
        return
    for option, value in zip(d.options, d.values):
        card = value if isinstance(value, int) else (value[0] if isinstance(value, list) else -1)
        if card >= 0 and unseen_by(engine, st, card, d.player):
            raise Broken(
                HIDDEN,
                f"player {d.player + 1} is offered option {option!r} ({d.prompt}; {d.source}), which names "
                f"card {card} in {st.cards[card].loc}, hidden from them",
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
        d = st.pending
        shown = obs.get("decision")
        if d is not None and d.player == p:
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
