"""What one player may see of a state: hidden zones as counts, face-down cards as backs.

Hidden: other players' hands and private zones, every deck's order and content, the
fronts of face-down cards the player does not own, and other players' pending options.
Which card shows what to whom is `knowledge`'s to say; this module lays it out as data.
"""

from __future__ import annotations

from typing import Any

from rules_dsl import knowledge
from rules_dsl.rules import Rules
from rules_dsl.state import GameState


def observe(rules: Rules, st: GameState, player: int) -> dict[str, Any]:
    """What `player` may see (`knowledge.PUBLIC`, -1: what everyone may see)."""
    st.rules = rules
    zones: dict[str, Any] = {}
    views = rules.views
    for key, cards in st.zones.items():
        view = views[key][player]
        if view == knowledge.COUNT:
            zones[key] = _counted(rules, st, cards, player)
        elif view in (knowledge.TOP, knowledge.TOP_OWN):
            if cards:
                # only the top card shows; the others are known only if peeked at
                shown = _counted(rules, st, cards[:-1], player, above=1)
                top = knowledge.LIST if view == knowledge.TOP else knowledge.OWN
                shown["top"] = _card_view(rules, st, cards[-1], top, player)
                zones[key] = shown
            else:
                zones[key] = {"count": 0}
        else:
            zones[key] = [_card_view(rules, st, c, view, player) for c in cards]
    d = st.pending
    decision = None
    waiting = [d.player] if d is not None else []
    if st.also:  # several seats decide at once: each sees its own question, and who is still deciding
        waiting.extend(x.player for x in st.also)
        d = next((x for x in [d, *st.also] if x is not None and x.player == player), d)
    if d is not None and d.player == player:
        decision = {"prompt": d.prompt, "source": d.source, "options": list(d.options)}
    return {
        "player": player,
        "players": st.players,
        "active": st.active,
        "turn": st.turn,
        "round": st.round,
        "phase": st.phase,
        "counters": {k: list(v) for k, v in st.counters.items()},
        "shared": dict(st.shared),
        "zones": zones,
        "decision": decision,
        "waiting_for": None if st.pending is None else st.pending.player,
        "waiting": waiting,  # every seat with a decision pending (several when they decide at once)
        "over": st.over,
        "scores": list(st.scores),
        "winners": list(st.winners),
        "breakdown": {k: list(v) for k, v in st.breakdown.items()},
        # abilities started for the rest of the turn, and abilities used this turn: public
        "lasting": [
            {
                "player": e.player,
                "card": rules.cards[st.cards[e.src].type].id if e.src >= 0 else "",
                "ability": e.ability,
            }
            for e in st.lasting
        ],
        "used": list(st.used),
        # the turn order as data (public): seats out of it, seats to play the next turns
        "out": list(st.out),
        "next_turns": list(st.next_turns),
    }


def _counted(rules: Rules, st: GameState, cards: list[int], player: int, above: int = 0) -> dict[str, Any]:
    """A pile seen from outside: how many cards (`above` more on top of these), and those
    `player` peeked at, counted from the top."""
    view: dict[str, Any] = {"count": len(cards) + above}
    known = [
        {"from top": len(cards) - 1 - i + above, "id": c, "card": rules.cards[st.cards[c].type].id}
        for i, c in enumerate(cards)
        if player in st.cards[c].seen
    ]
    if known:
        view["known"] = known
    return view


def _card_view(rules: Rules, st: GameState, card: int, view: int, viewer: int) -> dict[str, Any]:
    cs = st.cards[card]
    ct = rules.cards[cs.type]
    shown: dict[str, Any]
    if knowledge.front_shown(cs, view) or viewer in cs.seen:
        shown = {"id": card, "card": ct.id, "up": cs.up}
    else:
        shown = {"hidden": True, "kind": ct.kind, "back": {p: ct.props[p] for p in ct.public_props}}
    if cs.under:
        shown["under"] = [_card_view(rules, st, c, view, viewer) for c in cs.under]
    if cs.tokens:
        shown["tokens"] = list(cs.tokens)
    if cs.marks:
        shown["marks"] = list(cs.marks)
    if cs.allowed and "hidden" in shown:  # what was pointed out of it in public
        shown["could-be"] = sorted({rules.cards[t].id for t in cs.allowed})
    return shown
