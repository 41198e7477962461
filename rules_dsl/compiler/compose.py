"""Merging packs in load order: what each pack adds, replaces and extends.

A pack may add new entries (cards, procedures, parameters, variants, vocabulary words),
replace an entry of a pack it requires (an override), and, in its `extend` part, add rules
text before or after the set-up, a phase or a procedure, insert new phases into the turn,
add parameter changes to variants, add default variants, end triggers and terms of the
score. Additions compose: two mods that each extend the set-up both run. Two packs that do
not require each other must not give the same entry differently, nor may one replace what
the other extended: the result would depend on the order they happen to be loaded in.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from rules_dsl.errors import suggest
from rules_dsl.packs import check, shape
from rules_dsl.packs.loader import Problems, field_loc, key_loc, value_loc
from rules_dsl.packs.model import CardSource, Loc, Located, PackSource

TEXT_PLACES = shape.TEXT_PLACES
LIST_WORDS = {"symbols": "symbol", "tokens": "token", "sections": "section"}
MAP_WORDS = {
    "kinds": "kind",
    "properties": "property",
    "counters": "counter",
    "zones": "zone",
    "zone-groups": "zone group",
    "token-groups": "token group",
}


@attrs.define
class Pieces:
    """Rules text made of the text a pack gives and the additions other packs put around it.

    A text given as a list of steps keeps each step as its own Pieces (`steps`), so that a
    pack requiring this one can add text before or after a named step, replace its text, or
    give it alternatives; the text is joined into one only when it is parsed."""

    base: Located
    before: list[Pieces] = attrs.Factory(list)
    after: list[Pieces] = attrs.Factory(list)
    alternatives: list[Pieces] = attrs.Factory(list)
    steps: list[Pieces] = attrs.Factory(list)  # a text given as a list of steps: each step
    name: str = ""  # a named step's name

    def simple(self) -> bool:
        return not (self.before or self.after or self.alternatives or self.steps)

    def leaves(self) -> list[Located]:
        """Every piece of text, in the order they run: each is parsed alone first, so that
        a mistake is reported in the file that holds it."""
        out: list[Located] = []
        for p in self.before:
            out += p.leaves()
        if self.steps:
            for st in self.steps:
                out += st.leaves()
        else:
            out.append(self.base)
        for p in (*self.alternatives, *self.after):
            out += p.leaves()
        return out

    def joined(self, expression: bool = False) -> Located:
        """One text to parse, whose `Loc.segments` map each line back to the file it came from.

        Statements are joined with ';' on a line of its own (a piece may end with a comment);
        expressions are added up, each in parentheses on lines of their own; alternatives
        are joined with OR, each in parentheses (an option's label is the text inside)."""
        if self.simple():
            return self.base
        if any(not isinstance(p.value, str) for p in self.leaves()):
            return self.base  # reported when the pieces are parsed alone
        own = self.base
        if self.steps:
            own = _join([st.joined() for st in self.steps], "", self.base.loc)
        if self.alternatives:
            own = _join([own, *(a.joined() for a in self.alternatives)], "OR", self.base.loc)
        pieces = [*(p.joined(expression) for p in self.before), own, *(p.joined(expression) for p in self.after)]
        if len(pieces) == 1:
            return own
        return _join(pieces, "plus" if expression else "", self.base.loc)


def _join(pieces: list[Located], word: str, at: Loc) -> Located:
    """Texts joined as statements (word ''), added up ('plus') or as alternatives ('OR')."""
    lines: list[str] = []
    segments: list[tuple[int, Loc]] = []
    for i, piece in enumerate(pieces):
        text = str(piece.value).rstrip()
        if i:
            lines += [")", word, "("] if word else [";"]
        elif word:
            lines.append("(")
        if not word and text.endswith(";"):
            text = text[:-1]
        segments.append((len(lines) + 1, piece.loc))
        lines += text.split("\n")
    if word:
        lines.append(")")
    return Located("\n".join(lines), attrs.evolve(at, segments=tuple(segments)))


@attrs.define
class Composed:
    """The packs' parts merged, ready to parse and compile."""

    cards: list[CardSource] = attrs.Factory(list)
    setup: Pieces | None = None
    turn: Located | None = None  # the turn part that holds the base phases
    phases: list[tuple[str, Pieces]] = attrs.Factory(list)
    procedures: dict[str, Pieces] = attrs.Factory(dict)
    game_end: Located | None = None
    deal: Located | None = None  # deals (rounds, hands) above the turns: the last pack's
    triggers: list[tuple[Any, Loc]] = attrs.Factory(list)  # each trigger node and where it is
    scoring: Located | None = None
    evaluation: Located | None = None  # the last pack's: a mod may replace it
    statistics: Located | None = None
    weights: Located | None = None  # the last pack's `weights:` (a mod's tuned weights replace the pack's)
    score: dict[str, Pieces] = attrs.Factory(dict)  # "score", "tiebreak"
    breakdown: list[tuple[str, Located]] = attrs.Factory(list)
    default_variants: list[tuple[Any, Loc]] = attrs.Factory(list)  # each name and where it is
    variant_changes: list[tuple[str, str, Any, Loc, Loc]] = attrs.Factory(list)  # variant, param, value, where
    group_additions: list[tuple[str, str, Any, Loc]] = attrs.Factory(list)  # vocabulary key, group, members, where
    overrides: list[str] = attrs.Factory(list)
    additions: list[str] = attrs.Factory(list)
    steps: dict[str, Pieces] = attrs.Factory(dict)  # named steps of the rules text
    step_places: dict[str, tuple[str, Loc]] = attrs.Factory(dict)  # step -> the part it is in, where


@attrs.frozen
class _Touch:
    pack: str
    loc: Loc
    extends: bool
    value: Any


def _where(loc: Loc) -> str:
    return f"{loc.file}:{loc.line}"


class _Merger:
    """Records who gave each entry; tells overrides, additions and conflicts apart."""

    def __init__(self, sources: list[PackSource], problems: Problems) -> None:
        self.problems = problems
        self.out = Composed()
        self.touches: dict[str, list[_Touch]] = {}
        by_id = {s.id: s for s in sources}
        self.below: dict[str, set[str]] = {}  # pack -> every pack it requires, directly or not
        for s in sources:  # in load order: a pack's requirements come first
            below: set[str] = set()
            for r in s.requires:
                if r in by_id:
                    below |= {r} | self.below.get(r, set())
            self.below[s.id] = below
        self.pack = ""  # the pack being merged
        self.quiet = {s.id for s in sources if not s.requires}  # a game's own entries are not additions

    def define(self, key: str, pack: str, loc: Loc, value: Any, quiet: bool = False) -> bool:
        """Pack gives an entry; False if that conflicts with a pack it does not require."""
        prior = [t for t in self.touches.get(key, []) if t.pack != pack]
        for t in prior:
            if t.pack in self.below[pack] or (not t.extends and _same(t.value, value)):
                continue
            what = "added to" if t.extends else "given"
            self.problems.add(
                loc,
                f"{key} is {what} by pack {t.pack!r} ({_where(t.loc)}), and {pack!r} does not require it: "
                "which one wins would depend on the order the packs are loaded in",
                suggestion=f"make {pack!r} require {t.pack!r}, or give the entry another name",
            )
            return False
        defined = [t for t in prior if not t.extends]
        if defined and not _same(defined[-1].value, value):
            self.out.overrides.append(f"{key} ({defined[-1].pack} -> {pack}, {_where(loc)})")
        elif not prior and pack not in self.quiet and not quiet:
            self.out.additions.append(f"added: {key} ({pack}, {_where(loc)})")
        self.touches.setdefault(key, []).append(_Touch(pack, loc, False, value))
        return True

    def extend(self, key: str, pack: str, loc: Loc, what: str) -> None:
        self.out.additions.append(f"extended: {key}: {what} ({pack}, {_where(loc)})")
        self.touches.setdefault(key, []).append(_Touch(pack, loc, True, None))

    def known(self, key: str) -> bool:
        return key in self.touches


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # values from YAML compare as plain data; anything odd is "different"
        return False


def compose(sources: list[PackSource], problems: Problems) -> Composed:
    m = _Merger(sources, problems)
    out = m.out
    for src in sources:
        m.pack = src.id
        parts = src.sections
        if "vocabulary" in parts:
            _vocabulary(m, src.id, parts["vocabulary"])
        if "parameters" in parts:
            _named(m, src.id, parts["parameters"], "parameter")
        if "variants" in parts:
            _variants(m, src.id, parts["variants"])
        if "choosable" in parts:
            _named(m, src.id, parts["choosable"], "choosable")
        if "default-variants" in parts:
            part = parts["default-variants"]
            if m.define("default-variants", src.id, part.loc, part.value):
                out.default_variants = _items(part, problems, "default-variants must be a list of variant names")
        _cards(m, src)
        if "setup" in parts and m.define("setup", src.id, parts["setup"].loc, parts["setup"].value):
            _forget_steps(m, "setup")
            out.setup = _text_pieces(m, "setup", parts["setup"])
        if "turn" in parts and m.define("turn", src.id, parts["turn"].loc, parts["turn"].value):
            out.turn = parts["turn"]
            out.phases = _phases(m, parts["turn"])
        if "procedures" in parts:
            _procedures(m, src.id, parts["procedures"])
        if "game-end" in parts and m.define("game-end", src.id, parts["game-end"].loc, parts["game-end"].value):
            out.game_end = parts["game-end"]
            out.triggers = []
            node = out.game_end.value
            if hasattr(node, "get") and isinstance(node.get("triggers"), list):
                out.triggers = [
                    (t, value_loc(node["triggers"], i, out.game_end.loc.file)) for i, t in enumerate(node["triggers"])
                ]
        if "deal" in parts and m.define("deal", src.id, parts["deal"].loc, parts["deal"].value):
            out.deal = parts["deal"]
        if "scoring" in parts and m.define("scoring", src.id, parts["scoring"].loc, parts["scoring"].value):
            _scoring(out, parts["scoring"])
        if "features" in parts:
            _named(m, src.id, parts["features"], "feature")
        for key in ("evaluation", "statistics", "weights"):
            if key in parts and m.define(key, src.id, parts[key].loc, parts[key].value):
                setattr(out, key, parts[key])
        if "extend" in parts:
            _extend(m, src.id, parts["extend"])
    return out


def _vocabulary(m: _Merger, pack: str, part: Located) -> None:
    node, file = part.value, part.loc.file
    if not hasattr(node, "items"):
        return  # reported by read_vocabulary
    for key, value in node.items():
        if key in LIST_WORDS and isinstance(value, list):
            for i, word in enumerate(value):
                m.define(f"{LIST_WORDS[key]} {word}", pack, value_loc(value, i, file), True)
        elif key in MAP_WORDS and hasattr(value, "items"):
            for name, spec in value.items():
                m.define(f"{MAP_WORDS[key]} {name}", pack, key_loc(value, name, file), spec)
        elif key == "wild-cards" and isinstance(value, list):
            for i, item in enumerate(value):
                card = item.get("card") if hasattr(item, "get") else item
                m.define(f"wild card {card}", pack, value_loc(value, i, file), item)
        elif key in ("draw", "slot-room"):
            m.define(key, pack, key_loc(node, key, file), value)


def _named(m: _Merger, pack: str, part: Located, what: str) -> None:
    node = part.value
    if hasattr(node, "items"):
        for name, value in node.items():
            m.define(f"{what} {name}", pack, key_loc(node, name, part.loc.file), value)


def _variants(m: _Merger, pack: str, part: Located) -> None:
    node, file = part.value, part.loc.file
    if not hasattr(node, "items"):
        return  # reported when the variants are read
    for name, spec in node.items():
        m.define(f"variant {name}", pack, key_loc(node, name, file), spec)
        params: Any = spec.get("parameters") if hasattr(spec, "get") else None
        if hasattr(params, "items"):
            for pname, value in params.items():
                m.define(f"variant {name}: {pname}", pack, key_loc(params, pname, file), value, quiet=True)


def _cards(m: _Merger, src: PackSource) -> None:
    seen: dict[str, CardSource] = {}
    by_id = {c.id: i for i, c in enumerate(m.out.cards)}
    for card in src.cards:
        if card.id in seen:
            first = seen[card.id].loc
            m.problems.add(
                card.loc,
                f"duplicate card id {card.id!r} (first at {Path(first.file).name}:{first.line})",
                card=card.id,
            )
            continue
        seen[card.id] = card
        if not _override_declared(m, src.id, card):
            continue
        if not m.define(f"card {card.id}", src.id, card.loc, {k: f.value for k, f in card.fields.items()}):
            continue
        if card.id in by_id:
            m.out.cards[by_id[card.id]] = card
        else:
            m.out.cards.append(card)


def _override_declared(m: _Merger, pack: str, card: CardSource) -> bool:
    """A card may replace a required pack's card of the same id only if it says
    `override: true`, so that reusing an id by mistake is an error, not a silent swap."""
    flag = card.fields.get("override")
    if flag is not None and not isinstance(flag.value, bool):
        m.problems.add(flag.loc, "override must be true or false", card=card.id, expected=["true", "false"])
        return False
    given = [t for t in m.touches.get(f"card {card.id}", []) if t.pack in m.below[pack] and not t.extends]
    wanted = flag is not None and flag.value
    if given and not wanted:
        first = given[-1].loc
        m.problems.add(
            card.loc,
            f"pack {given[-1].pack!r} already has a card {card.id!r} ({first.place()}): "
            "a card that replaces it says so",
            card=card.id,
            suggestion="add 'override: true' to replace it, or give this card another id",
        )
        return False
    if wanted and not given:
        m.problems.add(
            flag.loc if flag is not None else card.loc,
            f"override: true, but no pack {pack!r} requires has a card {card.id!r} to replace",
            card=card.id,
            suggestion="remove 'override: true', or require the pack whose card this replaces",
        )
        return False
    return True


def _phases(m: _Merger, turn: Located) -> list[tuple[str, Pieces]]:
    problems = m.problems
    _forget_steps(m, "turn")
    if not isinstance(turn.value, list):
        problems.add(turn.loc, "turn must be a list of phases (- phase: name, text: ...)")
        return []
    out = []
    for i, ph in enumerate(turn.value):
        ploc = value_loc(turn.value, i, turn.loc.file)
        if not hasattr(ph, "items") or set(ph) - shape.PHASE.names() or "phase" not in ph:
            problems.add(ploc, "each phase is {phase: name, text: rules text}", expected=["phase", "text"])
            continue
        text = Located(ph.get("text", "nothing"), field_loc(ph, "text", ploc.file) if "text" in ph else ploc)
        out.append((str(ph["phase"]), _text_pieces(m, "turn", text)))
    return out


def _procedures(m: _Merger, pack: str, part: Located) -> None:
    node = part.value
    if not hasattr(node, "items"):
        m.problems.add(part.loc, "procedures must map a verb to its rules text")
        return
    for name, text in node.items():
        t = Located(text, field_loc(node, name, part.loc.file))
        if m.define(f"procedure {name}", pack, t.loc, text):
            _forget_steps(m, f"procedure {name}")
            m.out.procedures[str(name)] = _text_pieces(m, f"procedure {name}", t)


def _text_pieces(m: _Merger, owner: str, text: Located) -> Pieces:
    """A rules text: a string, or a list of steps (text or {step: NAME, text: TEXT}) whose
    named steps are declared as belonging to `owner` (the part the text is in)."""
    value = text.value
    if not isinstance(value, list):
        return Pieces(text)
    file = text.loc.file
    if not check.check(value, shape.TEXT, file, m.problems, "rules text", text.loc):
        return Pieces(Located("nothing", text.loc))  # reported: the rest is still checked
    steps = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            steps.append(Pieces(Located(item, value_loc(value, i, file))))
            continue
        name = str(item["step"])
        piece = Pieces(Located(item["text"], field_loc(item, "text", file)), name=name)
        steps.append(piece)
        where = value_loc(item, "step", file)
        if name in m.out.steps:
            first = m.out.step_places[name][1]
            m.problems.add(
                where,
                f"there is already a step called {name!r} ({first.place()}): a step's name means one thing "
                "in the packs loaded together",
                suggestion="give this step another name, or change that one with 'extend: steps:'",
            )
            continue
        m.out.steps[name] = piece
        m.out.step_places[name] = (owner, Loc(where.file, where.line, where.column))
        m.touches.setdefault(f"step {name}", []).append(_Touch(m.pack, where, False, item["text"]))
    return Pieces(text, steps=steps)


def _forget_steps(m: _Merger, owner: str) -> None:
    """A part given again (a procedure a pack replaces) takes its named steps with it."""
    for name in [n for n, (o, _) in m.out.step_places.items() if o == owner]:
        del m.out.steps[name]
        del m.out.step_places[name]
        m.touches.pop(f"step {name}", None)


def _scoring(out: Composed, part: Located) -> None:
    out.scoring = part
    out.score = {}
    out.breakdown = []
    node = part.value
    if not hasattr(node, "items"):
        return  # reported by the builder
    for field in ("score", "tiebreak"):
        if field in node:
            out.score[field] = Pieces(Located(node[field], field_loc(node, field, part.loc.file)))
    breakdown = node.get("breakdown")
    if hasattr(breakdown, "items"):
        for name in breakdown:
            out.breakdown.append((str(name), Located(breakdown[name], field_loc(breakdown, name, part.loc.file))))


def _items(part: Located, problems: Problems, message: str) -> list[tuple[Any, Loc]]:
    if not isinstance(part.value, list):
        problems.add(part.loc, message)
        return []
    return [(v, value_loc(part.value, i, part.loc.file)) for i, v in enumerate(part.value)]


# ---- the extend part ----------------------------------------------------------------

EXTEND_KEYS = shape.EXTEND.names()


def _known(
    entries: dict[str, Any], known: list[str], what: str, verb: str, file: str, problems: Problems
) -> Iterator[tuple[str, Any, Loc]]:
    """The entries of an `extend:` map that name an existing WHAT, with their places; each
    other one is an error there listing the known names (in the order given)."""
    for name, spec in entries.items():
        loc = key_loc(entries, name, file)
        if name in known:
            yield name, spec, loc
        else:
            hint = suggest(str(name), known)
            problems.add(loc, f"extend: no {what} {name!r} to {verb}", expected=known, suggestion=hint)


def _extend(m: _Merger, pack: str, part: Located) -> None:
    node, file, problems, out = part.value, part.loc.file, m.problems, m.out
    # the part's shape is checked against its declaration; what follows checks the names it uses
    good = check.fields(node, shape.EXTEND, file, problems, "extend", part.loc)
    where = {k: field_loc(node, k, file) for k in good}
    if "setup" in good:
        if out.setup is None:
            problems.add(where["setup"], "extend: there is no set-up to add to; give one with 'setup:'")
        else:
            _around(m, pack, "setup", "setup", out.setup, node["setup"], where["setup"])
    if "phases" in good:
        phases = dict(out.phases)
        for name, spec, loc in _known(node["phases"], list(phases), "phase", "add to", file, problems):
            _around(m, pack, "turn", f"phase {name}", phases[name], spec, loc)
    if "new-phases" in good:
        _new_phases(m, pack, node["new-phases"], where["new-phases"])
    if "procedures" in good:
        procedures = sorted(out.procedures)
        for name, spec, loc in _known(node["procedures"], procedures, "procedure", "add to", file, problems):
            _around(m, pack, f"procedure {name}", f"procedure {name}", out.procedures[name], spec, loc)
    if "steps" in good:
        for name, spec, loc in _known(node["steps"], sorted(out.steps), "step", "change", file, problems):
            owner = out.step_places[name][0]
            _around(m, pack, owner, f"step {name}", out.steps[name], spec, loc)
    if "variants" in good:
        for name, params in node["variants"].items():
            if not m.known(f"variant {name}"):
                problems.add(key_loc(node["variants"], name, file), f"extend: no variant {name!r} to add to")
                continue
            for pname, value in params.items():
                ploc = key_loc(params, pname, file)
                if m.define(f"variant {name}: {pname}", pack, ploc, value):
                    out.variant_changes.append((str(name), str(pname), value, ploc, value_loc(params, pname, file)))
    if "default-variants" in good:
        items = _items(Located(node["default-variants"], where["default-variants"]), problems, "")
        m.extend("default-variants", pack, where["default-variants"], ", ".join(str(v) for v, _ in items))
        out.default_variants += items
    if "triggers" in good:
        if out.game_end is None:
            problems.add(where["triggers"], "extend: there is no game-end to add triggers to")
        else:
            for trig, tloc in _items(Located(node["triggers"], where["triggers"]), problems, ""):
                name = str(trig["name"])
                if any(hasattr(t, "get") and str(t.get("name")) == name for t, _ in out.triggers):
                    problems.add(tloc, f"extend: there is already an end trigger called {name!r}")
                    continue
                m.extend("game-end", pack, tloc, f"trigger {name}")
                out.triggers.append((trig, tloc))
    for field in ("score", "tiebreak"):
        if field in good:
            loc = where[field]
            if field not in out.score:
                problems.add(loc, f"extend: there is no {field} to add to; give one under 'scoring:'")
                continue
            m.extend("scoring", pack, loc, f"{field} plus ...")
            out.score[field].after.append(Pieces(Located(node[field], loc)))
    for key in ("zone-groups", "token-groups"):
        if key not in good:
            continue
        for name, members in node[key].items():
            loc = value_loc(node[key], name, file)
            what = MAP_WORDS[key]
            if not m.known(f"{what} {name}"):
                problems.add(key_loc(node[key], name, file), f"extend: no {what} {name!r} to add to")
                continue
            m.extend(f"{what} {name}", pack, loc, "members")
            out.group_additions.append((key, str(name), members, loc))
    if "breakdown" in good:
        names = {n for n, _ in out.breakdown}
        for name, text in node["breakdown"].items():
            loc = field_loc(node["breakdown"], name, file)
            if name in names:
                problems.add(loc, f"extend: the score breakdown already has {name!r}")
                continue
            m.extend("scoring", pack, loc, f"breakdown {name}")
            out.breakdown.append((str(name), Located(text, loc)))


def _around(m: _Merger, pack: str, key: str, what: str, pieces: Pieces, spec: Any, loc: Loc) -> None:
    """{before: TEXT, after: TEXT, replace: TEXT, alternative: TEXT}: text run before or
    after the text so far, instead of a step's own text, or as an alternative to it.

    `key` is the part the text belongs to (a change to it conflicts with a pack that does
    not require this one and gives or changes that part); a step's replacement is also
    an override of the step, listed as such."""
    for place in ("replace", *TEXT_PLACES, "alternative"):
        if place not in spec:
            continue
        text = Located(spec[place], field_loc(spec, place, loc.file))
        added = _text_pieces(m, key, text)
        if place == "replace":
            if m.define(what, pack, text.loc, spec[place]):
                m.touches.setdefault(key, []).append(_Touch(pack, text.loc, True, None))
                pieces.base, pieces.steps = added.base, added.steps
            continue
        m.extend(key, pack, text.loc, f"{what}, {place}" if key != what else place)
        if place == "before":
            pieces.before.insert(0, added)
        elif place == "after":
            pieces.after.append(added)
        else:
            pieces.alternatives.append(added)


def _new_phases(m: _Merger, pack: str, value: Any, loc: Loc) -> None:
    out, problems = m.out, m.problems
    for i, ph in enumerate(value):
        ploc = value_loc(value, i, loc.file)
        name = str(ph["phase"])
        names = [n for n, _ in out.phases]
        if name in names:
            problems.add(ploc, f"extend: there is already a phase called {name!r}")
            continue
        at = len(names)
        for place in TEXT_PLACES:
            if place in ph:
                anchor = str(ph[place])
                if anchor not in names:
                    problems.add(
                        value_loc(ph, place, loc.file),
                        f"extend: no phase {anchor!r} to put {name!r} {place}",
                        expected=names,
                        suggestion=suggest(anchor, names),
                    )
                    at = -1
                else:
                    at = names.index(anchor) + (place == "after")
        if at < 0:
            continue
        text = Located(ph.get("text", "nothing"), field_loc(ph, "text", loc.file) if "text" in ph else ploc)
        m.extend("turn", pack, ploc, f"new phase {name}")
        out.phases.insert(at, (name, _text_pieces(m, "turn", text)))
