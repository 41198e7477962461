"""A seat's view as the page shows it: zones by owner, cards with their name, facts and text.

Built from the seat's observation only (what the API returns), never from the state, so a
page cannot show more than its seat may see.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import attrs
import jinja2

from rules_dsl import card_face, card_view, narrate
from rules_dsl.rules import Rules
from rules_dsl.state import Decision

HERE = Path(__file__).parent


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@attrs.frozen
class Card:
    """A card as shown: `detail` is None for a card whose face this seat cannot see."""

    title: str
    count: int
    notes: str
    detail: card_view.CardView | None
    face: str = ""  # the URL of the face this seat sees: the front, or the back of a card it cannot identify


@attrs.frozen
class Zone:
    name: str
    hidden_count: int | None  # a hidden pile: how many cards, nothing more
    known: tuple[str, ...]  # cards known in a hidden pile
    cards: tuple[Card, ...]
    top: Card | None = None  # the top card of a pile that shows only it


@attrs.frozen
class Area:
    title: str
    counters: tuple[tuple[str, int], ...]
    zones: tuple[Zone, ...]


class CardBook:
    """Card views worked out once per game setting (facts depend on players and variants)."""

    def __init__(self, rules: Rules, players: int, variants: list[str]) -> None:
        self.rules = rules
        self.setting = card_view.setting(rules, players, variants)
        self.views: dict[str, card_view.CardView] = {}

    def get(self, card_id: str) -> card_view.CardView:
        if card_id not in self.views:
            self.views[card_id] = card_view.view(self.rules, card_view.find(self.rules, card_id), self.setting)
        return self.views[card_id]


def face_url(game: str, card: str) -> str:
    return f"/api/games/{quote(game)}/faces/{quote(card)}.svg"


def back_url(game: str, kind: str, back: dict[str, Any]) -> str:
    query = urlencode({k: str(v) for k, v in back.items()})
    return f"/api/games/{quote(game)}/backs/{quote(kind)}.svg" + (f"?{query}" if query else "")


def _card(book: CardBook, view: dict[str, Any], game: str) -> Card:
    notes = narrate.card_notes(view)
    if "card" in view:
        detail = book.get(view["card"])
        return Card(detail.name, 1, "; ".join(notes), detail, face_url(game, view["card"]))
    back = ", ".join(f"{narrate.words(k)} {v}" for k, v in view.get("back", {}).items())
    title = f"face-down {narrate.words(view['kind'])}" + (f" ({back})" if back else "")
    return Card(title, 1, "; ".join(notes), None, back_url(game, view["kind"], view.get("back", {})))


def _grouped(cards: list[Card]) -> tuple[Card, ...]:
    """Identical cards side by side shown once with a count (a pile of sixteen)."""
    out: list[Card] = []
    for c in cards:
        if out and out[-1].title == c.title and out[-1].notes == c.notes and out[-1].detail == c.detail:
            out[-1] = attrs.evolve(out[-1], count=out[-1].count + 1)
        else:
            out.append(c)
    return tuple(out)


def areas(
    book: CardBook, view: dict[str, Any], seat: int, game: str = "", names: list[str] | None = None
) -> list[Area]:
    """The seat's own area first (or none for the public), then the table, then each other player."""
    by_owner: dict[int, list[Zone]] = {}
    for key, zone in view["zones"].items():
        name, _, owner = key.partition(".")
        who = int(owner) if owner else -1
        if isinstance(zone, dict):
            if not zone["count"]:
                continue
            known = tuple(book.get(k["card"]).name for k in zone.get("known", ()))
            top = _card(book, zone["top"], game) if "top" in zone else None
            shown = Zone(narrate.words(name), zone["count"], known, (), top)
        else:
            if not zone:
                continue
            shown = Zone(narrate.words(name), None, (), _grouped([_card(book, c, game) for c in zone]))
        by_owner.setdefault(who, []).append(shown)
    counters = view["counters"]
    out = []
    order = ([seat] if seat >= 0 else []) + [-1] + [p for p in range(view["players"]) if p != seat]
    for who in order:
        if who == -1:
            shared = tuple((narrate.words(k), v) for k, v in view["shared"].items())
            out.append(Area("The table", shared, tuple(by_owner.get(-1, []))))
            continue
        title = ("You, " if who == seat else "") + narrate.seat_name(who)
        if names and names[who] != narrate.seat_name(who):
            title += f" ({names[who]})"
        mine = tuple((narrate.words(k), v[who]) for k, v in counters.items())
        out.append(Area(title, mine, tuple(by_owner.get(who, []))))
    return out


def question(rules: Rules, decision: Decision) -> str:
    """The pending decision's prompt in the pack's words: names with spaces, moments and
    procedures as the pack's `look: words:` say them, and what asks it."""
    prompt = narrate.words(card_face.readable(rules.look, decision.prompt))
    return f"{prompt} ({decision.source})" if decision.source else prompt


def context(log: list[str]) -> str:
    """What was decided last, as told to this seat: the context of the question now."""
    for line in reversed(log):
        if not line.startswith(" ") and not line.startswith("Turn ") and not line.startswith("Round "):
            return line
    return ""
