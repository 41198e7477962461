"""Chosen cards: a game told by name which cards to use (docs/modding.md#chosen-cards).

A pack's `choosable:` part names options, each `{from: ZONE, to: ZONE, prefix:, variant:}`.
A game's variant list may hold a choice `OPTION=NAME`: the card `PREFIX+NAME` is taken from
the `from` zone and put in the `to` zone before the set-up (the first chosen on top), and
the option's variant is on. A choice is written among the variants so that every place that
keeps a game's variants (the saved state, results, failure records, scenario files, golden
games) keeps it, and a replay makes the same choice."""

from __future__ import annotations

from collections.abc import Iterable

from rules_dsl.errors import RulesError
from rules_dsl.rules import Choosable, Rules
from rules_dsl.state import CardState

SEPARATOR = "="


def is_choice(entry: str) -> bool:
    return SEPARATOR in entry


def names(rules: Rules, option: Choosable) -> list[str]:
    """The names an option offers: the ids (without the prefix) of the cards that start in its zone."""
    return sorted(
        c.id[len(option.prefix) :] for c in rules.cards if c.zone == option.source and c.id.startswith(option.prefix)
    )


def find(rules: Rules, option: Choosable, name: str) -> str | None:
    """The offered name that `name` stands for: the name itself (a card id without the
    prefix), or the card's printed name or id in any case ("Big Market"); else None."""
    offered = names(rules, option)
    if name in offered:
        return name
    key = " ".join(name.split()).casefold()
    for n in offered:
        card = rules.cards[rules.card_index[option.prefix + n]]
        if key in (n.casefold(), card.name.casefold(), " ".join(card.name.split()).casefold()):
            return n
    return None


def parse(rules: Rules, entry: str) -> tuple[Choosable, int]:
    """`OPTION=NAME` -> (the option, the chosen card type), or an error naming the choices."""
    option_name, _, name = entry.partition(SEPARATOR)
    option = rules.choosable.get(option_name)
    if option is None:
        offered = ", ".join(sorted(rules.choosable)) or "none (the pack has no choosable: part)"
        raise RulesError(f"{entry}: {rules.name} has no choosable {option_name!r}; its choosable options: {offered}")
    found = find(rules, option, name)
    if found is None:
        choices = ", ".join(names(rules, option))
        raise RulesError(f"{entry}: {rules.name} has no {option_name} {name!r}; its {option_name} choices: {choices}")
    return option, rules.card_index[option.prefix + found]


def canonical(rules: Rules, entry: str) -> str:
    """`OPTION=NAME` with NAME as the option offers it (`start=Big Market` ->
    `start=big-market`), so a game keeps one spelling of each choice."""
    option, t = parse(rules, entry)
    return entry.partition(SEPARATOR)[0] + SEPARATOR + rules.cards[t].id[len(option.prefix) :]


def _missing(rules: Rules, entry: str, t: int, source: str, params: dict[str, int]) -> str:
    """Why the chosen card is not in its zone, naming the variants that would deal it."""
    card = rules.cards[t]
    count = card.count
    if isinstance(count, str) and params.get(count, 0) == 0:
        adding = sorted(
            name
            for name, variant in rules.variants.items()
            if any(k == count and (v if isinstance(v, int) else any(v.values())) for k, v in variant.params.items())
        )
        hint = (
            "; add the variant " + " or ".join(f"{v!r} (--variant {v})" for v in adding)
            if adding
            else f"; no variant sets {count}"
        )
        return f"{entry}: {card.id} is not in this game ({count} is 0 with these variants){hint}"
    return (
        f"{entry}: no card {card.id} is left in {source} "
        "(chosen twice, or none in a game with these players and variants)"
    )


def place(
    rules: Rules,
    entries: Iterable[str],
    cards: list[CardState],
    zones: dict[str, list[int]],
    params: dict[str, int] | None = None,
) -> None:
    """Put each chosen card in its option's `to` zone, the first chosen on top."""
    for entry in reversed([e for e in entries if is_choice(e)]):
        option, t = parse(rules, entry)
        source = zones[option.source]
        here = next((i for i in reversed(source) if cards[i].type == t), None)
        if here is None:
            raise RulesError(_missing(rules, entry, t, option.source, params or {}))
        source.remove(here)
        zones[option.target].append(here)
        cards[here].loc = option.target
        cards[here].up = rules.zones[option.target].facing != "down"
