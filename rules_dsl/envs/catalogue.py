"""Every option id a pack's compiled rules can offer, in a fixed order: the action space
that learning code needs (one index per option id, the same in every state of a game of
these rules, player count and variants).

The ids are enumerated the way the effects form them (rules_dsl/effects/choices.py,
control.py, abilities.py), from the compiled effects and card types, never by hand:

- the words of the rules' own choices: each `A OR B` label, each yes/no of a question, the
  pass label of each optional choice, `pass` of `use WINDOW abilities` and of an event
  a card may replace when it likes (`you MOMENT: ...`, answered by a `MAY INSTEAD OF` or
  `MAY PREVENT`; a mandatory replacement asks nothing), each kind of
  `choose a KIND`, each zone of `choose a GROUP` that exists in this game, each seat of
  `choose a player` (`player N`) and each value of `choose a PROPERTY value`;
- each card type's id (a choice of cards, of a card's ability);
- `ID:KIND` for each token kind a card of that type can hold (its slots' kinds, and the
  kinds a rule can put on any card), when the rules fill slots or take tokens;
- for a type with two or more copies in this game, the ids `card_options` gives copies
  offered together: `ID@ZONE`, `ID@ZONE.pN`, `ID@under-HOST` and `ID#CARD`, each with the
  token forms too;
- a card offered to a seat that cannot identify it is named by its place
  (`choices.hidden_id`): `ZONE#N` and `ZONE.pN#N` (the Nth from the top) for every zone a
  choice of cards looks in where a card can lie face down or out of some seat's sight, and
  `under-ZONE#N` for a choice among tucked cards, N up to the number of cards in the game.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules_dsl.compiler import blind
from rules_dsl.effects import abilities, choices, control, primitives
from rules_dsl.effects import players as players_effects
from rules_dsl.interpreter import resolve_params
from rules_dsl.rules import Rules


def option_ids(rules: Rules, players: int, variants: Iterable[str]) -> tuple[str, ...]:
    """The catalogue: every option id a game of these rules can offer, each once."""
    params = resolve_params(rules, players, variants)
    out: dict[str, None] = {}  # an ordered set

    def add(*ids: str) -> None:
        for i in ids:
            out.setdefault(i, None)

    token_choices = False
    put_kinds: dict[str, None] = {}
    asked = {e.moment for e in rules.effects if isinstance(e, abilities.ReplaceAbility) and e.optional}
    for e in rules.effects:
        if isinstance(e, control.Alternatives):
            add(*e.labels)
        elif isinstance(e, control.Ask):
            add(e.yes, e.no)
        elif isinstance(e, abilities.UseAbilities) or isinstance(e, abilities.Replaceable) and e.moment in asked:
            add("pass")
        elif isinstance(e, choices.ChooseKind):
            add(*e.kinds)
        elif isinstance(e, players_effects.ChoosePlayer):
            add(*(players_effects.player_option(p) for p in range(players)))
        elif isinstance(e, players_effects.ChooseValue):
            add(*(str(v) for v in e.values))  # its option ids
        elif isinstance(e, primitives.PutToken):
            put_kinds.setdefault(e.kind, None)
        if isinstance(e, choices.ChooseZone):
            add(*(z for z, when in e.zones if not when or params.get(when, 0)))
        if isinstance(e, choices.TokenChoice):
            token_choices = True
        if isinstance(e, (choices.ChooseCard, choices.ChooseZone, choices.TokenChoice)) and e.optional:
            add(e.pass_label)

    copies = [ct.count if isinstance(ct.count, int) else params[ct.count] for ct in rules.cards]
    total = sum(copies)
    add(*_blind_places(rules, players, total, choices.ChooseCard))
    token_places = _blind_places(rules, players, total, choices.TokenChoice)
    if token_places:
        slots = (k for ct in rules.cards for slot in ct.slots for k in rules.slot_groups.get(slot, (slot,)))
        kinds = dict.fromkeys(slots)
        kinds.update(put_kinds)
        add(*(f"{place}:{kind}" for place in token_places for kind in kinds))
    wheres = _wheres(rules, players)
    first = 0  # the game's number of the type's first copy: new_game makes the copies type by type
    for ct, n in zip(rules.cards, copies):
        places = [ct.id]
        if n > 1:
            places += [f"{ct.id}@{w}" for w in wheres]
            places += [f"{ct.id}#{c}" for c in range(first, first + n)]
        first += n
        add(*places)
        if token_choices:
            kinds = dict.fromkeys(k for slot in ct.slots for k in rules.slot_groups.get(slot, (slot,)))
            kinds.update(put_kinds)
            add(*(f"{place}:{kind}" for place in places for kind in kinds))
    return tuple(out)


def _blind_places(rules: Rules, players: int, cards: int, effect: type) -> list[str]:
    """Every `choices.hidden_id` the choices of these rules of the `effect` class can give:
    for each, the zones it looks in where a card may lie face down or out of some seat's
    sight (`compiler.blind`), each position up to the number of cards (`under-` forms for a
    choice among tucked cards)."""
    flips = blind.turns_cards_down(rules.effects)
    zones: dict[str, None] = {}  # zones a choice may offer a hidden card of
    tucked: dict[str, None] = {}  # zones a choice may offer a hidden tucked card of
    for e in rules.effects:
        query = getattr(e, "query", None) if isinstance(e, effect) else None
        if query is not None:
            found, under = blind.hidden_zones(rules.zones, flips, query)
            zones.update(dict.fromkeys(found))
            tucked.update(dict.fromkeys(under))

    def wheres(names: Iterable[str]) -> list[str]:
        out = []
        for name in names:
            z = rules.zones[name]
            out += [f"{name}.p{p + 1}" for p in range(players)] if z.per_player else [name]
        return out

    places = [f"{w}#{n}" for w in wheres(zones) for n in range(1, cards + 1)]
    return places + [f"under-{w}#{n}" for w in wheres(tucked) for n in range(1, cards + 1)]


def _wheres(rules: Rules, players: int) -> list[str]:
    """Every place `choices.distinct_ids` can name: a zone, a zone with its owner's seat,
    under a card of some type."""
    wheres: list[str] = []
    for z in rules.zones.values():
        wheres.append(z.name)
        if z.per_player:
            wheres += [f"{z.name}.p{p + 1}" for p in range(players)]
    wheres += [f"under-{ct.id}" for ct in rules.cards]
    return wheres


class Catalogue:
    """The option ids with their indices; `index` of an option no catalogue entry names is
    an error in this module (an id form the effects learnt and this file did not)."""

    def __init__(self, rules: Rules, players: int, variants: Iterable[str]) -> None:
        self.ids = option_ids(rules, players, variants)
        self._index = {o: i for i, o in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def index(self, option: str) -> int:
        i = self._index.get(option)
        if i is None:
            raise LookupError(
                f"option {option!r} is not in the action catalogue of these rules: "
                "rules_dsl/envs/catalogue.py does not know this form of option id"
            )
        return i

    def actions(self, options: Iterable[str]) -> list[int]:
        """The legal options' action numbers, ascending."""
        try:
            return sorted(map(self._index.__getitem__, options))
        except KeyError:
            return sorted(self.index(o) for o in options)  # raises LookupError naming the option
