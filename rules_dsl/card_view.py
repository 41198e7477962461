"""What `rules-dsl cards` shows: a pack's cards with their facts worked out for one player
count and set of variants, and one card's source text, canonical text and compiled tree."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from rules_dsl.effects.values import Num, VarNum
from rules_dsl.errors import RulesError, suggest
from rules_dsl.explain import card_trees
from rules_dsl.interpreter import resolve_params
from rules_dsl.parser import parse
from rules_dsl.printer import to_text
from rules_dsl.rules import CardType, Rules
from rules_dsl.terminal import echo, print_json


@attrs.frozen
class Fact:
    """One fact of a card: its value in the chosen game, and what it was written as when
    that differs (a parameter name, an expression)."""

    name: str
    value: int | str
    written: str = ""


@attrs.frozen
class CardView:
    id: str
    name: str
    kind: str
    zone: str
    facts: tuple[Fact, ...]
    source: str  # the card text as written
    canonical: str  # the same text printed back from its syntax tree
    compiled: dict[str, list[str]]  # section label -> the effect tree, one line each


@attrs.frozen
class Setting:
    """The game the facts are worked out for."""

    players: int
    variants: tuple[str, ...]
    params: dict[str, int]

    def describe(self) -> str:
        return f"{self.players} players, variants: {', '.join(self.variants) or 'none'}"


def setting(rules: Rules, players: int | None, variants: Iterable[str] | None) -> Setting:
    """Parameters for a player count (default: 2, or the least allowed) and variants (default: the pack's)."""
    if players is None:
        players = min(max(2, rules.min_players), rules.max_players)
    if not rules.min_players <= players <= rules.max_players:
        raise RulesError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
    chosen = tuple(rules.default_variants if variants is None else variants)
    return Setting(players, chosen, resolve_params(rules, players, chosen))


def copies(ct: CardType, game: Setting) -> int:
    return ct.count if isinstance(ct.count, int) else game.params[ct.count]


def _property(name: str, value: Any, ct: CardType, game: Setting, rules: Rules) -> Fact | None:
    if value in (0, ""):
        return None
    worth = rules.valued.get(name, {}).get(value) if isinstance(value, str) else None
    if worth is not None:
        # a valued property: the card names a value, the vocabulary says what it is worth
        return Fact(name, value, f"{to_text(parse(worth, 'expression'))}, worked out in play")
    if isinstance(value, int | str):
        return Fact(name, value)
    if isinstance(value, Num):
        return Fact(name, value.value, ct.source.get(name, ""))
    if isinstance(value, VarNum) and value.name in game.params:
        return Fact(name, game.params[value.name], value.name)
    # worked out during play, for each card: show what it is, in canonical form
    written = ct.source.get(name)
    return Fact(name, to_text(parse(written, "expression")) if written else "an expression", "worked out in play")


def view(rules: Rules, ct: CardType, game: Setting) -> CardView:
    facts = [Fact("copies", copies(ct, game), "" if isinstance(ct.count, int) else ct.count)]
    if ct.symbols:
        facts.append(Fact("symbols", ", ".join(f"{s} x{n}" if n > 1 else s for s, n in ct.symbols.items())))
    if ct.slots:
        facts.append(Fact("slots", ", ".join(f"{s} x{n}" if n > 1 else s for s, n in ct.slots.items())))
    facts.extend(f for name, value in ct.props.items() if (f := _property(name, value, ct, game, rules)) is not None)
    source = ct.source.get("text", ct.text).strip()
    return CardView(
        id=ct.id,
        name=ct.name,
        kind=ct.kind,
        zone=ct.zone,
        facts=tuple(facts),
        source=source,
        canonical=to_text(parse(source)) if source else "",
        compiled=card_trees(rules, ct),
    )


def find(rules: Rules, card_id: str) -> CardType:
    index = rules.card_index.get(card_id)
    if index is None:
        hint = suggest(card_id, rules.card_index)
        raise RulesError(f"no card {card_id!r} in {rules.name}" + (f" ({hint})" if hint else ""))
    return rules.cards[index]


def render(card: CardView) -> list[str]:
    lines = [f"{card.name} ({card.id}), {card.kind}, starts in {card.zone}"]
    for fact in card.facts:
        lines.append(f"  {fact.name}: {fact.value}" + (f" ({fact.written})" if fact.written else ""))
    for title, text in (("source", card.source), ("canonical", card.canonical)):
        if text:
            lines.append(f"  {title}:")
            lines.extend(f"    {line}" for line in text.splitlines())
    for label, tree in card.compiled.items():
        lines.append(f"  compiled {label}:")
        lines.extend(tree)
    return lines


def listing(rules: Rules, game: Setting) -> list[str]:
    """One line per card: id, kind, copies in the chosen game, name."""
    width = max((len(c.id) for c in rules.cards), default=0)
    kind_width = max((len(c.kind) for c in rules.cards), default=0)
    return [
        f"{ct.id.ljust(width)}  {ct.kind.ljust(kind_width)}  x{copies(ct, game):<3} {ct.name}" for ct in rules.cards
    ]


def show_cards(
    rules: Rules, ids: list[str], players: int | None, variants: list[str] | None, as_json: bool = False
) -> int:
    """`rules-dsl cards [ID...]`: print the listing, or each card; 1 if an id is unknown."""
    game = setting(rules, players, variants)
    if not ids:
        if as_json:
            rows = [{"id": ct.id, "kind": ct.kind, "copies": copies(ct, game), "name": ct.name} for ct in rules.cards]
            print_json({"setting": attrs.asdict(game), "cards": rows})
        else:
            echo("\n".join([f"{rules.name}: {game.describe()}", *listing(rules, game)]))
        return 0
    status = 0
    views: list[CardView] = []
    for card_id in ids:
        try:
            views.append(view(rules, find(rules, card_id), game))
        except RulesError as exc:
            echo(str(exc), stderr=True)
            status = 1
    if as_json:
        print_json({"setting": attrs.asdict(game), "cards": [attrs.asdict(v) for v in views]})
        return status
    header = f"{rules.name}: {game.describe()}"
    for card in views:
        echo("\n".join([header, *render(card)]))
        header = ""  # a blank line between cards
    return status
