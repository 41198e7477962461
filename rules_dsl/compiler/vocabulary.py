"""The words a pack declares: symbols, tokens, card kinds, properties, zones, counters."""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.compiler.words import check_one_meaning
from rules_dsl.errors import suggest
from rules_dsl.packs import shape
from rules_dsl.packs.loader import Problems, key_loc, unknown_keys, value_loc
from rules_dsl.packs.model import Loc
from rules_dsl.rules import CounterType, ZoneType

VOCAB_KEYS = shape.VOCABULARY.names()
ZONE_KEYS = shape.ZONE.names()
COUNTER_KEYS = shape.COUNTER.names()
KIND_KEYS = shape.KIND.names()
PROPERTY_TYPES = set(shape.PROPERTY_TYPES)
VISIBILITIES = list(shape.ZONE_VISIBILITIES)


@attrs.define
class Vocabulary:
    symbols: list[str] = attrs.Factory(list)
    tokens: list[str] = attrs.Factory(list)
    kinds: dict[str, str] = attrs.Factory(dict)  # singular -> plural
    backs: dict[str, tuple[str, ...]] = attrs.Factory(dict)  # kind -> public properties
    properties: dict[str, Any] = attrs.Factory(dict)  # name -> type or list of values
    sections: list[str] = attrs.Factory(list)
    counters: dict[str, CounterType] = attrs.Factory(dict)
    counter_words: dict[str, str] = attrs.Factory(dict)  # singular and plural -> counter
    zones: dict[str, ZoneType] = attrs.Factory(dict)
    zone_groups: dict[str, tuple[tuple[str, str], ...]] = attrs.Factory(dict)  # (zone, parameter or "")
    member_locs: dict[tuple[str, str], Loc] = attrs.Factory(dict)  # (group, zone) -> where it is listed
    token_groups: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    wild_cards: list[tuple[str, Any, Loc]] = attrs.Factory(list)  # (card id, condition text, where)
    draw: tuple[str, str] = ("", "")
    # the modding surface: what card abilities may hook (name -> what it means)
    moments: dict[str, str] = attrs.Factory(dict)
    windows: dict[str, str] = attrs.Factory(dict)
    quantities: dict[str, tuple[int | str, str]] = attrs.Factory(dict)  # name -> (start, meaning)
    slot_room: str = ""  # a quantity: each slot of a player's cards holds that many more tokens
    rotation_word: str = ""  # what outputs call one turn of every seat ("" : the default)
    slot_room_loc: Loc | None = None
    ability_zone: tuple[str, str] = ("", "")  # (per-player zone, facing "" | up | down)
    ability_loc: Loc | None = None
    # properties whose values each stand for an expression: name -> value -> (text, where)
    valued: dict[str, dict[str, tuple[Any, Loc]]] = attrs.Factory(dict)

    def kind_of(self, noun: str) -> str | None:
        if noun in self.kinds:
            return noun
        for singular, plural in self.kinds.items():
            if plural == noun:
                return singular
        return None

    def nouns(self) -> list[str]:
        return [*self.kinds, *self.kinds.values()]


def _names(value: Any, loc: Loc, what: str, problems: Problems) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.add(loc, f"{what} must be a list of names")
        return []
    return [str(v) for v in value]


def read_vocabulary(parts: list[tuple[Any, Loc]], problems: Problems) -> Vocabulary:
    """Merge the vocabulary parts of every pack, in load order."""
    voc = Vocabulary()
    for node, loc in parts:
        file = loc.file
        if not hasattr(node, "items"):
            problems.add(loc, "vocabulary must be a mapping (symbols:, zones:, ...)")
            continue
        for key, value in node.items():
            kloc = key_loc(node, key, file)
            vloc = value_loc(node, key, file)
            if key not in VOCAB_KEYS:
                problems.add(
                    kloc,
                    f"unknown vocabulary key {key!r}",
                    expected=sorted(VOCAB_KEYS),
                    suggestion=suggest(str(key), VOCAB_KEYS),
                )
            elif key == "symbols":
                voc.symbols += [s for s in _names(value, vloc, "symbols", problems) if s not in voc.symbols]
            elif key == "tokens":
                voc.tokens += [s for s in _names(value, vloc, "tokens", problems) if s not in voc.tokens]
            elif key == "sections":
                for s in _names(value, vloc, "sections", problems):
                    if not s.isupper():
                        problems.add(vloc, f"section {s!r} must be written in capitals, e.g. ACTION")
                    elif s not in voc.sections:
                        voc.sections.append(s)
            elif key == "kinds":
                _read_kinds(voc, value, vloc, problems)
            elif key == "properties":
                _read_properties(voc, value, vloc, problems)
            elif key == "counters":
                _read_counters(voc, value, vloc, problems)
            elif key == "zones":
                _read_zones(voc, value, vloc, problems)
            elif key == "zone-groups":
                if not hasattr(value, "items"):
                    problems.add(vloc, "zone-groups must map a group name to a list of zones")
                    continue
                for g, zs in value.items():
                    voc.zone_groups[str(g)] = _group_members(
                        zs, value_loc(value, g, file), problems, str(g), locs=voc.member_locs
                    )
            elif key == "token-groups":
                if not hasattr(value, "items"):
                    problems.add(vloc, "token-groups must map a group name to a list of token kinds")
                    continue
                for g, ts in value.items():
                    voc.token_groups[str(g)] = tuple(_names(ts, value_loc(value, g, file), "a token group", problems))
            elif key == "wild-cards":
                if not isinstance(value, list):
                    problems.add(vloc, "wild-cards must be a list of {card: ID, while: CONDITION}")
                    continue
                for i, item in enumerate(value):
                    iloc = value_loc(value, i, file)
                    if not hasattr(item, "get") or set(item) != {"card", "while"}:
                        problems.add(iloc, "each wild card is {card: ID, while: CONDITION}", expected=["card", "while"])
                        continue
                    wloc = value_loc(item, "while", file)
                    voc.wild_cards.append((str(item["card"]), item["while"], wloc))
            elif key in ("moments", "windows"):
                if not hasattr(value, "items"):
                    problems.add(vloc, f"{key} must map each name to what it means")
                    continue
                target = voc.moments if key == "moments" else voc.windows
                for name, meaning in value.items():
                    target[str(name)] = str(meaning)
            elif key == "quantities":
                _read_quantities(voc, value, vloc, problems)
            elif key == "abilities":
                if not hasattr(value, "get") or set(value) - {"zone", "facing"} or "zone" not in value:
                    problems.add(vloc, "abilities must be {zone: ZONE, facing: up}: where a card's abilities work")
                    continue
                facing = str(value.get("facing", ""))
                if facing not in ("", "up", "down"):
                    problems.add(vloc, f"abilities: facing must be up or down, not {facing!r}")
                    facing = ""
                voc.ability_zone = (str(value["zone"]), facing)
                voc.ability_loc = vloc
            elif key == "slot-room":
                voc.slot_room, voc.slot_room_loc = str(value), vloc
            elif key == "rotation-word":
                voc.rotation_word = str(value)
            elif key == "draw":
                if not hasattr(value, "get") or set(value) - {"from", "to"}:
                    problems.add(vloc, "draw must be {from: ZONE, to: ZONE}")
                    continue
                voc.draw = (str(value.get("from", "")), str(value.get("to", "")))
    _check_references(voc, parts, problems)
    return voc


def _read_quantities(voc: Vocabulary, value: Any, loc: Loc, problems: Problems) -> None:
    """`NAME: meaning` (starts at 0) or `NAME: {start: N or PARAMETER, means: text}`."""
    if not hasattr(value, "items"):
        problems.add(loc, "quantities must map each name to what it means, or to {start:, means:}")
        return
    for name, spec in value.items():
        if hasattr(spec, "items"):
            unknown_keys(spec, shape.QUANTITY, loc.file, problems, f"in quantity {name!r}", only_first=True)
            start = spec.get("start", 0)
            if isinstance(start, bool) or not isinstance(start, int | str):
                problems.add(value_loc(value, name, loc.file), f"quantity {name!r} starts at a number or a parameter")
                start = 0
            voc.quantities[str(name)] = (start, str(spec.get("means", "")))
        else:
            voc.quantities[str(name)] = (0, str(spec))


def add_to_groups(voc: Vocabulary, additions: list[tuple[str, str, Any, Loc]], problems: Problems) -> None:
    """Members a pack adds to the zone and token groups of the packs it requires."""
    for key, group, value, loc in additions:
        if key == "zone-groups":
            members = _group_members(value, loc, problems, group, voc.zone_groups.get(group, ()), voc.member_locs)
            for zone, _ in members:
                if zone not in voc.zones:
                    problems.add(
                        voc.member_locs.get((group, zone), loc),
                        f"zone group {group!r}: {zone!r} is not a zone",
                        suggestion=suggest(zone, voc.zones),
                    )
            voc.zone_groups[group] = voc.zone_groups.get(group, ()) + members
        else:
            kinds = _names(value, loc, "a token group", problems)
            for t in kinds:
                if t not in voc.tokens:
                    problems.add(
                        loc, f"token group {group!r} names unknown token kind {t!r}", suggestion=suggest(t, voc.tokens)
                    )
            voc.token_groups[group] = voc.token_groups.get(group, ()) + tuple(kinds)


# A group is offered as options (`choose a zone in GROUP`) and read zone by zone: each
# zone once, and at most this many (no pack has a group of more than 10)
MAX_GROUP_ZONES = 200


def _group_members(
    value: Any,
    loc: Loc,
    problems: Problems,
    group: str,
    before: tuple[tuple[str, str], ...] = (),
    locs: dict[tuple[str, str], Loc] | None = None,
) -> tuple[tuple[str, str], ...]:
    """Zone names, or {zone: NAME, when: PARAMETER} for a zone only in some games; each zone
    once (`before`: the members the group already has, for a pack's additions). `locs` gets
    where each member is listed, for later problems with it."""
    if not isinstance(value, list):
        problems.add(loc, "a zone group is a list of zones")
        return ()
    if len(value) + len(before) > MAX_GROUP_ZONES:
        problems.add(
            loc,
            f"zone group {group!r} lists {len(value) + len(before)} zones; a group may hold at most {MAX_GROUP_ZONES}",
        )
        return ()
    out = []
    seen = {zone for zone, _ in before}
    for i, item in enumerate(value):
        iloc = value_loc(value, i, loc.file)
        if isinstance(item, str):
            zone, when = item, ""
        elif hasattr(item, "get") and set(item) == {"zone", "when"}:
            zone, when = str(item["zone"]), str(item["when"])
        else:
            problems.add(iloc, "a zone group member is a zone name or {zone: NAME, when: PARAMETER}")
            continue
        if zone in seen:
            problems.add(
                iloc,
                f"zone group {group!r} lists zone {zone!r} twice: it would be offered twice",
                suggestion=f"list {zone!r} once in {group!r}",
            )
            continue
        seen.add(zone)
        out.append((zone, when))
        if locs is not None:
            locs[(group, zone)] = iloc
    return tuple(out)


def _read_kinds(voc: Vocabulary, value: Any, loc: Loc, problems: Problems) -> None:
    if not hasattr(value, "items"):
        problems.add(loc, "kinds must map each card kind to its plural, e.g. house: houses")
        return
    for k, v in value.items():
        kloc = key_loc(value, k, loc.file)
        if isinstance(v, str):
            voc.kinds[str(k)] = v
        elif hasattr(v, "items"):
            unknown_keys(v, shape.KIND, loc.file, problems, f"for kind {k!r}")
            voc.kinds[str(k)] = str(v.get("plural", f"{k}s"))
            back = v.get("back", [])
            voc.backs[str(k)] = tuple(_names(back, kloc, "back", problems))
        else:
            problems.add(kloc, f"kind {k!r} needs its plural or {{plural:, back:}}")


def _read_properties(voc: Vocabulary, value: Any, loc: Loc, problems: Problems) -> None:
    if not hasattr(value, "items"):
        problems.add(loc, "properties must map each property to its type")
        return
    for k, v in value.items():
        vloc = value_loc(value, k, loc.file)
        if isinstance(v, list):
            voc.properties[str(k)] = [str(x) for x in v]
        elif hasattr(v, "items"):
            # a list of values, each worth an expression: `the total PROPERTY of ...` adds
            # up each card's value, worked out for that card; `whose PROPERTY is VALUE` tests it
            voc.properties[str(k)] = [str(x) for x in v]
            voc.valued[str(k)] = {str(x): (v[x], value_loc(v, x, loc.file)) for x in v}
        elif v in PROPERTY_TYPES:
            voc.properties[str(k)] = str(v)
        else:
            problems.add(
                vloc,
                f"unknown type {v!r} for property {k!r}",
                expected=sorted(PROPERTY_TYPES) + ["a list of values", "a mapping of values to expressions"],
                suggestion=suggest(str(v), PROPERTY_TYPES),
            )


def _read_counters(voc: Vocabulary, value: Any, loc: Loc, problems: Problems) -> None:
    if not hasattr(value, "items"):
        problems.add(loc, "counters must map each counter to {per:, ...}")
        return
    for name, spec in value.items():
        cloc = key_loc(value, name, loc.file)
        if spec is None:
            spec = {}
        if not hasattr(spec, "items"):
            problems.add(cloc, f"counter {name!r} must be a mapping such as {{per: player}}")
            continue
        unknown_keys(spec, shape.COUNTER, loc.file, problems, f"for counter {name!r}")
        per = spec.get("per", "player")
        if per not in ("player", "game"):
            problems.add(value_loc(spec, "per", loc.file), "per must be 'player' or 'game'")
        start = spec.get("start", 0)
        negative = spec.get("may-be-negative", False)
        if not isinstance(negative, bool):
            problems.add(value_loc(spec, "may-be-negative", loc.file), "may-be-negative must be true or false")
            negative = False
        if isinstance(start, int) and start < 0 and not negative:
            problems.add(
                value_loc(spec, "start", loc.file),
                f"counter {name!r} starts below 0: only a counter with may-be-negative: true may",
            )
        counter = CounterType(
            name=str(name),
            plural=str(spec.get("plural", name)),
            per_player=per == "player",
            start=int(start) if isinstance(start, int) else str(start),
            supply=str(spec.get("supply", "")),
            may_be_negative=negative,
        )
        voc.counters[counter.name] = counter
        voc.counter_words[counter.name] = counter.name
        voc.counter_words[counter.plural] = counter.name


def _read_zones(voc: Vocabulary, value: Any, loc: Loc, problems: Problems) -> None:
    if not hasattr(value, "items"):
        problems.add(loc, "zones must map each zone to {per:, visibility:, ...}")
        return
    for name, spec in value.items():
        zloc = key_loc(value, name, loc.file)
        if spec is None:
            spec = {}
        if not hasattr(spec, "items"):
            problems.add(zloc, f"zone {name!r} must be a mapping such as {{per: player}}")
            continue
        unknown_keys(spec, shape.ZONE, loc.file, problems, f"for zone {name!r}")
        per = spec.get("per", "game")
        vis = spec.get("visibility", "public")
        facing = spec.get("facing", "")
        if per not in ("player", "game"):
            problems.add(value_loc(spec, "per", loc.file), "per must be 'player' or 'game'")
        if vis not in VISIBILITIES:
            problems.add(
                value_loc(spec, "visibility", loc.file),
                f"unknown visibility {vis!r}",
                expected=VISIBILITIES,
                suggestion=suggest(str(vis), VISIBILITIES),
            )
        elif vis in ("owner", "others") and per != "player":
            problems.add(
                value_loc(spec, "visibility", loc.file),
                f"visibility {vis!r} needs an owner: zone {name!r} must be 'per: player'",
                suggestion="per: player",
            )
        if facing not in ("", *shape.FACINGS):
            problems.add(value_loc(spec, "facing", loc.file), "facing must be 'up' or 'down'")
        voc.zones[str(name)] = ZoneType(
            name=str(name),
            per_player=per == "player",
            visibility=str(vis),
            refill_from=str(spec.get("refill-from", "")),
            facing=str(facing),
        )


def _check_references(voc: Vocabulary, parts: list[tuple[Any, Loc]], problems: Problems) -> None:
    loc = parts[-1][1] if parts else Loc("?", 1, 1)
    for z in voc.zones.values():
        if z.refill_from and z.refill_from not in voc.zones:
            problems.add(
                loc,
                f"zone {z.name!r} refills from unknown zone {z.refill_from!r}",
                suggestion=suggest(z.refill_from, voc.zones),
            )
    for g, zs in voc.zone_groups.items():
        for zname, _ in zs:
            at = voc.member_locs.get((g, zname), loc)
            if zname not in voc.zones:
                problems.add(at, f"zone group {g!r} names unknown zone {zname!r}", suggestion=suggest(zname, voc.zones))
    for c in voc.counters.values():
        if c.supply and (c.supply not in voc.counters or voc.counters[c.supply].per_player):
            problems.add(loc, f"counter {c.name!r}: its supply {c.supply!r} must be a counter with per: game")
    for g, ts in voc.token_groups.items():
        for t in ts:
            if t not in voc.tokens:
                problems.add(
                    loc, f"token group {g!r} names unknown token kind {t!r}", suggestion=suggest(t, voc.tokens)
                )
    for dname in voc.draw:
        if dname and (dname not in voc.zones or not voc.zones[dname].per_player):
            problems.add(loc, f"draw: {dname!r} must be a zone with per: player", suggestion=suggest(dname, voc.zones))
    zname, _ = voc.ability_zone
    if zname and (zname not in voc.zones or not voc.zones[zname].per_player):
        problems.add(
            voc.ability_loc or loc,
            f"abilities: {zname!r} must be a zone with per: player",
            suggestion=suggest(zname, voc.zones),
        )
    if voc.slot_room and voc.slot_room not in voc.quantities:
        problems.add(
            voc.slot_room_loc or loc,
            f"slot-room: {voc.slot_room!r} must be a quantity of the vocabulary",
            expected=sorted(voc.quantities),
            suggestion=suggest(voc.slot_room, voc.quantities),
        )
    check_one_meaning(parts, problems)
