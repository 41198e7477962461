"""What one player may see of a state: hidden zones as counts, face-down cards as backs.

Hidden: other players' hands and private zones, every deck's order and content, the
fronts of face-down cards the player does not own, and other players' pending options.
"""

from __future__ import annotations

from typing import Any

from rules_dsl.rules import Rules
from rules_dsl.state import GameState


def observe(rules: Rules, st: GameState, player: int) -> dict[str, Any]:
    st.rules = rules
    zones: dict[str, Any] = {}
    for key, cards in st.zones.items():
        name, _, seat = key.partition(".")
        zt = rules.zones[name]
        owner = int(seat) if seat else -1
        if zt.visibility == "hidden" or (zt.visibility == "owner" and owner != player):
            view: dict[str, Any] = {"count": len(cards)}
            known = [
                {"from top": len(cards) - 1 - i, "id": c, "card": rules.cards[st.cards[c].type].id}
                for i, c in enumerate(cards)
                if player in st.cards[c].seen
            ]
            if known:
                view["known"] = known
            zones[key] = view
        elif zt.visibility == "top" and cards:
            # only the top card shows; the others are known only if peeked at
            view = {"count": len(cards), "top": _card_view(rules, st, cards[-1], owner == player, player)}
            known = [
                {"from top": len(cards) - 1 - i, "id": c, "card": rules.cards[st.cards[c].type].id}
                for i, c in enumerate(cards[:-1])
                if player in st.cards[c].seen
            ]
            if known:
                view["known"] = known
            zones[key] = view
        elif zt.visibility == "top":
            zones[key] = {"count": 0}
        else:
            zones[key] = [_card_view(rules, st, c, owner == player, player) for c in cards]
    d = st.pending
    decision = None
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
        "waiting_for": None if d is None else d.player,
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


def _card_view(rules: Rules, st: GameState, card: int, mine: bool, viewer: int) -> dict[str, Any]:
    cs = st.cards[card]
    ct = rules.cards[cs.type]
    view: dict[str, Any]
    if cs.up or mine or viewer in cs.seen:
        view = {"id": card, "card": ct.id, "up": cs.up}
    else:
        view = {"hidden": True, "kind": ct.kind, "back": {p: ct.props[p] for p in ct.public_props}}
    if cs.under:
        view["under"] = [_card_view(rules, st, c, mine, viewer) for c in cs.under]
    if cs.tokens:
        view["tokens"] = list(cs.tokens)
    if cs.marks:
        view["marks"] = list(cs.marks)
    return view
