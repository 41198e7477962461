"""Abilities written on cards: continuous, triggered, activated, and lasting ones.

The rules text names *moments* (`announce harvest`), *windows* (`use action abilities`)
and *quantities* (`your hand-limit`); cards answer them with their abilities. Which card
types listen to which moment, window or quantity is worked out once when the rules are
compiled (`Listeners`), so a moment nobody hears costs one set lookup.

A card's triggered and activated abilities work while it lies in its owner's ability zone
(the pack's `abilities:`); a continuous ability names its own spot. Lasting abilities are
`Lasting` entries in the state, kept until the end of the turn.
"""

from __future__ import annotations

from typing import Any

import attrs

from rules_dsl.effects.base import Effect, frame, source_of
from rules_dsl.effects.choices import card_options
from rules_dsl.effects.values import CardExpr, Cond, Num, NumExpr
from rules_dsl.knowledge import OWN
from rules_dsl.state import CardState, Decision, Frame, GameState, Lasting

SUBJECTS = ("you", "opponent", "player")


@attrs.define
class Listeners:
    """What the compiled abilities listen to. Filled while compiling, read while playing."""

    moments: set[str] = attrs.Factory(set)  # moments some triggered ability answers
    windows: set[str] = attrs.Factory(set)  # windows some activated ability uses
    replaced: set[str] = attrs.Factory(set)  # moments some replacement ability answers
    prevented: set[str] = attrs.Factory(set)  # moments some mandatory PREVENT answers
    # moment -> where the cards of its replacement abilities must lie: (zone, facing)
    replace_spots: dict[str, list[tuple[str, str]]] = attrs.Factory(dict)
    zone: str = ""  # the pack's ability zone (per player)
    facing: str = ""  # "" any | "up" | "down"
    # (replacement ability, pass label) -> its block compiled to ask that pass first, for an
    # event that `you may` asks first (docs/dsl.md#replacement-abilities-instead-of-prevent)
    declinable: dict[tuple[int, str], int] = attrs.Factory(dict)


@attrs.frozen(eq=False)
class Modifier:
    """One change to a quantity: `add 1 to your hand-limit if ...`."""

    quantity: str
    sign: int
    amount: NumExpr
    cond: Cond | None
    zone: str = ""  # where the card must lie (for a card's continuous ability)
    facing: str = ""
    constant: int | None = None  # the change, when it depends on nothing

    def value(self, st: GameState, fr: Frame) -> int:
        if self.constant is not None:
            return self.constant
        if self.cond is not None and not self.cond.test(st, fr):
            return 0
        return self.sign * self.amount.num(st, fr)


def constant_of(sign: int, amount: NumExpr, cond: Cond | None) -> int | None:
    if cond is None and isinstance(amount, Num):
        return sign * amount.value
    return None


@attrs.frozen(eq=False)
class ModifyAbility(Effect):
    """A lasting change to a quantity (run only through `Quantity`)."""

    eid: int
    text: str
    modifier: Modifier


@attrs.frozen(eq=False)
class TriggerAbility(Effect):
    """`WHEN <subject> <moment> [this card]: body`. Run only by `Announce`."""

    eid: int
    text: str
    moment: str
    subject: str  # "you" | "opponent" | "player"
    this_card: bool
    body: Effect

    def hears(self, owner: int, announcer: int, card: int, subject_card: int) -> bool:
        if self.subject == "you" and owner != announcer:
            return False
        if self.subject == "opponent" and owner == announcer:
            return False
        return not self.this_card or card == subject_card


@attrs.frozen(eq=False)
class ReplaceAbility(Effect):
    """`[MAY] INSTEAD OF <subject> <moment>: body`, or `[MAY] PREVENT <subject> <moment>`
    (body None). Run only by `Replaceable`."""

    eid: int
    text: str
    moment: str
    subject: str  # "you" | "opponent" | "player": whom the event happens to, from the owner
    optional: bool
    body: Effect | None
    zone: str = ""  # where the card must lie (its owner's zone), and which way up
    facing: str = ""

    def hears(self, owner: int, affected: int) -> bool:
        if self.subject == "you":
            return owner == affected
        if self.subject == "opponent":
            return owner != affected
        return True


@attrs.frozen(eq=False)
class ActivatedAbility(Effect):
    """`ONCE PER TURN, during your <window>: body`, or `DURING your <window>: body` (once
    False: no limit, usable each time the rules offer the window). Run only by
    `UseAbilities` and `UseAbility`."""

    eid: int
    text: str
    window: str
    body: Effect
    once: bool = True


def _spot_cards(st: GameState, zone: str, facing: str, player: int) -> list[int]:
    cards = st.zones[f"{zone}.{player}"]
    if not facing:
        return cards
    up = facing == "up"
    return [c for c in cards if st.cards[c].up is up]


def usable(st: GameState, fr: Frame, window: str, lis: Listeners) -> list[tuple[int, ActivatedAbility]]:
    """The activated abilities of `window` that the player of `fr` may use now: on a card in
    the ability zone, not used this turn if once per turn, and whose body can start (it sees
    the names the rules have bound: `the role`, `N`, `the target`)."""
    if window not in lis.windows:
        return []
    types = st.rules.cards
    states = st.cards
    facing = lis.facing
    up = facing == "up"
    out = []
    for c in st.zones[f"{lis.zone}.{fr.player}"]:
        cs = states[c]
        activated = types[cs.type].activated
        # most cards have no activated ability: look at them before their facing
        if not activated or (facing and cs.up != up):
            continue
        for ab in activated:
            if ab.window != window or (ab.once and f"{ab.eid}:{c}" in st.used):
                continue
            probe = frame(ab.body.eid, fr.player, c, {})
            st.frames.append(probe)
            try:
                ok = ab.body.can_start(st, probe)
            finally:
                st.frames.pop()
            if ok:
                out.append((c, ab))
    return out


def _run(st: GameState, fr: Frame, value: Any) -> None:
    """Use the chosen ability: `[card, eid]`. A once-per-turn use is remembered."""
    card, eid = value
    ab = st.rules.effects[eid]
    assert isinstance(ab, ActivatedAbility)
    if ab.once:
        st.used.append(f"{eid}:{card}")
    body = ab.body.eid if st.trace is None else st.rules.step_twins.get(ab.body.eid, ab.body.eid)
    st.frames.append(frame(body, fr.player, card, {}))


@attrs.frozen(eq=False)
class Announce(Effect):
    """`announce MOMENT [for CARD]`: every ability that answers the moment runs, in seat
    order from the announcing player; each absorbs its own failure."""

    eid: int
    text: str
    moment: str
    card_expr: CardExpr | None
    listeners: Listeners

    @property
    def atomic(self) -> bool:  # type: ignore[override]
        return self.moment not in self.listeners.moments

    def execute(self, st: GameState, fr: Frame) -> bool:
        if st.trace is not None:
            st.trace.append(f"player {fr.player + 1}: {self.moment}")
        return True  # nobody listens

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.data is None:
            if st.trace is not None:
                st.trace.append(f"player {fr.player + 1}: {self.moment}")
            fr.data = self.collect(st, fr)
        st.failed = False  # the previous ability's failure is its own
        if not fr.data:
            st.frames.pop()
            return
        eid, player, src, names = fr.data.pop(0)
        if st.trace is not None:  # a scenario watches: the body step by step, if it has a twin
            eid = st.rules.step_twins.get(eid, eid)
        st.frames.append(frame(eid, player, src, dict(names)))

    def collect(self, st: GameState, fr: Frame) -> list[Any]:
        rules = st.rules
        lis = self.listeners
        subject = self.card_expr.card(st, fr) if self.card_expr is not None else -1
        found: list[Any] = []
        types = rules.cards
        states = st.cards
        zone = lis.zone + "."
        facing = lis.facing
        up = facing == "up"
        moment = self.moment
        lasting = st.lasting
        for i in range(st.players):
            owner = (fr.player + i) % st.players
            for c in st.zones[zone + str(owner)]:
                cs = states[c]
                triggers = types[cs.type].triggers
                # most cards answer nothing: look at their triggers before their facing
                if not triggers or (facing and cs.up != up):
                    continue
                for t in triggers:
                    if t.moment == moment and t.hears(owner, fr.player, c, subject):
                        found.append([t.body.eid, owner, c, {}])
            for entry in lasting:
                if entry.player != owner:
                    continue
                ab = rules.effects[entry.ability]
                if isinstance(ab, TriggerAbility) and ab.moment == self.moment and ab.hears(owner, fr.player, -1, -1):
                    found.append([ab.body.eid, owner, entry.src, dict(entry.vars)])
        return found


@attrs.frozen(eq=False)
class UseAbilities(Effect):
    """`use WINDOW abilities`: you may use, one after another, each activated ability of
    your cards for this window that you have not used this turn, or stop."""

    eid: int
    text: str
    window: str
    listeners: Listeners

    @property
    def atomic(self) -> bool:  # type: ignore[override]
        return self.window not in self.listeners.windows

    def execute(self, st: GameState, fr: Frame) -> bool:
        return True  # no card has such an ability

    def step(self, st: GameState, fr: Frame) -> None:
        st.failed = False  # a used ability that failed part-way is done
        found = usable(st, fr, self.window, self.listeners)
        if not found:
            st.frames.pop()
            return
        ids, values = _options(st, found, fr.player)
        st.pending = Decision(
            fr.player, f"use an ability ({self.window})?", [*ids, "pass"], [*values, None], source_of(st, fr)
        )

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        if value is None:
            st.frames.pop()
            return
        _run(st, fr, value)

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return True


def _options(st: GameState, found: list[tuple[int, ActivatedAbility]], player: int) -> tuple[list[str], list[Any]]:
    """Option ids (the cards, as for `choose`) and values (`[card, eid]`) of usable abilities;
    the compiler allows one ability per card and window, so a card is one option."""
    cards = [c for c, _ in found]
    # all in the player's own ability zone: shown to it unless its cards are hidden from their owner
    blind = st.rules.views[st.cards[cards[0]].loc][player] != OWN if cards else False
    ids, chosen = card_options(st, cards, player, blind)
    return ids, [[c, ab.eid] for c, ab in found if c in chosen]


@attrs.frozen(eq=False)
class UseAbility(Effect):
    """`use a WINDOW ability`: exactly one usable ability of the window (the player picks
    the card when several can start). It can start only when one can, so `A OR use a boost
    ability` offers the cards' way only when a card gives one; with none it fails. Once one
    is chosen, a failure inside it is absorbed, as in an alternative."""

    eid: int
    text: str
    window: str
    listeners: Listeners

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 1:
            st.failed = False
            st.frames.pop()
            return
        found = usable(st, fr, self.window, self.listeners)
        if not found:
            st.failed = True
            st.frames.pop()
            return
        ids, values = _options(st, found, fr.player)
        if len(values) == 1:
            if st.trace is not None:  # a scenario watches (`forced:`)
                st.trace.forced(st, fr.player, f"use which {self.window} ability?", ids[0])
            self.resume(st, fr, values[0])
            return
        st.pending = Decision(fr.player, f"use which {self.window} ability?", ids, values, source_of(st, fr))

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        fr.pc = 1
        _run(st, fr, value)

    def can_start(self, st: GameState, fr: Frame) -> bool:
        return bool(usable(st, fr, self.window, self.listeners))


@attrs.frozen(eq=False)
class CanUse(Cond):
    """`you can use a WINDOW ability`: `use a WINDOW ability` could start now."""

    window: str
    listeners: Listeners

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        return bool(usable(st, fr, self.window, self.listeners))


@attrs.frozen(eq=False)
class StartLasting(Effect):
    """`for the rest of this turn: ...`: the abilities are kept in the state, with the
    names the card's own text has bound, until the end of the turn. (Names the rules
    bound around it are left out: a lasting trigger must see the live `the kind` or
    `the target` of the moment it answers, not a stale one.)"""

    eid: int
    text: str
    abilities: tuple[Effect, ...]
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        names: dict[str, Any] = {}
        for f in st.frames:
            if f.vars and f.src == fr.src:
                names.update(f.vars)
        for ab in self.abilities:
            st.lasting.append(Lasting(ab.eid, fr.player, fr.src, dict(names)))
        return True


@attrs.frozen
class Quantity(NumExpr):
    """`your hand-limit`: the quantity's start plus what every ability in force adds."""

    name: str
    start: NumExpr
    opponent: bool = False

    def num(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        player = (fr.player + 1) % st.players if self.opponent else fr.player
        start = self.start
        total = start.value if start.__class__ is Num else start.num(st, fr, cand)
        rules = st.rules
        spots = rules.quantity_spots.get(self.name)
        if spots:
            types = rules.cards
            states = st.cards
            seat = f".{player}"
            for zone, _facing in spots:
                for c in st.zones[zone + seat]:
                    cs = states[c]
                    mods = types[cs.type].mods.get(self.name)
                    if mods:
                        total += modifiers_total(st, mods, zone, c, cs, player)
        if st.lasting:
            total += lasting_total(st, player, self.name)
        return total


def modifiers_total(st: GameState, mods: Any, zone: str, c: int, cs: CardState, player: int) -> int:
    """What card `c`'s modifiers of a quantity add while it lies in `zone` (the generated
    quantities call this too)."""
    total = 0
    for m in mods:
        if m.zone != zone or (m.facing and cs.up is not (m.facing == "up")):
            continue
        if m.constant is not None:
            total += m.constant
        else:
            total += m.value(st, frame(-1, player, c))
    return total


def lasting_total(st: GameState, player: int, name: str) -> int:
    """What the lasting abilities in force add to `player`'s quantity `name`."""
    total = 0
    rules = st.rules
    for entry in st.lasting:
        ab = rules.effects[entry.ability]
        if entry.player != player or not isinstance(ab, ModifyAbility) or ab.modifier.quantity != name:
            continue
        probe = frame(-1, player, entry.src, dict(entry.vars))
        st.frames.append(probe)
        try:
            total += ab.modifier.value(st, probe)
        finally:
            st.frames.pop()
    return total


def _replacements(st: GameState, fr: Frame, moment: str, lis: Listeners, owner: int) -> list[tuple[int, Any]]:
    """The replacement abilities of `owner`'s cards that answer `moment` happening to the
    player of `fr` where they lie, and can start now, in zone order."""
    rules = st.rules
    out: list[tuple[int, Any]] = []
    for zone, facing in lis.replace_spots[moment]:
        for c in _spot_cards(st, zone, facing, owner):
            for ab in rules.cards[st.cards[c].type].replacements:
                if ab.moment == moment and ab.zone == zone and ab.facing == facing and ab.hears(owner, fr.player):
                    _add_if_it_can_start(st, out, c, ab, owner)
    return out


def _add_if_it_can_start(st: GameState, out: list[tuple[int, Any]], c: int, ab: ReplaceAbility, owner: int) -> None:
    if ab.body is not None:
        probe = frame(ab.body.eid, owner, c, {})
        st.frames.append(probe)
        try:
            if not ab.body.can_start(st, probe):
                return
        finally:
            st.frames.pop()
    out.append((c, ab))


def _ask_owners(eff: Effect, st: GameState, fr: Frame, moment: str, lis: Listeners) -> bool:
    """Ask the owners, in seat order from the player of `fr`, whether a replacement of
    `moment` answers; True when one was taken at once or a decision is pending (then
    `eff.resume` goes on), False when nobody (more) answers."""
    if fr.data is None:
        fr.data = [0]
    while fr.data[0] < st.players:
        owner = (fr.player + fr.data[0]) % st.players
        fr.data[0] += 1
        found = _replacements(st, fr, moment, lis, owner)
        if not found:
            continue
        forced = [(c, ab) for c, ab in found if not ab.optional]
        if forced:
            eff.resume(st, fr, [forced[0][0], forced[0][1].eid, owner])
            return True
        ids, chosen = card_options(st, [c for c, _ in found], owner)
        values = [[c, ab.eid, owner] for c, ab in found if c in chosen]
        ask = f"{moment}: use a card instead?"
        st.pending = Decision(owner, ask, [*ids, "pass"], [*values, None], source_of(st, fr))
        return True
    return False


def _run_chosen(st: GameState, fr: Frame, value: list[int], note: str, block: int = -1) -> tuple[int, int]:
    """The replacement `_ask_owners` offered and its owner took (`[card, ability, owner]`):
    its block runs next, as its owner on its card, and `fr` goes on after it (pc 1);
    `block`, when given, is its block compiled to ask an event's `you may` pass first.
    Returns the card and the ability."""
    card, eid, owner = value
    ab = st.rules.effects[eid]
    assert isinstance(ab, ReplaceAbility)
    fr.pc = 1
    if st.trace is not None:
        st.trace.append(f"player {fr.player + 1}: {note}")
    if ab.body is not None:
        st.frames.append(frame(block if block >= 0 else ab.body.eid, owner, card, {}))
    return card, eid


def _kept_answer(st: GameState, player: int, moment: str) -> bool | None:
    """The answer `answer MOMENT first` kept for `player` (taken out of the lasting
    entries): True a replacement, False none, None no answer kept."""
    effects = st.rules.effects
    for i, entry in enumerate(st.lasting):
        ab = effects[entry.ability]
        if entry.player == player and isinstance(ab, ReplaceAbility | AnswerFirst) and ab.moment == moment:
            del st.lasting[i]
            return isinstance(ab, ReplaceAbility)
    return None


@attrs.frozen(eq=False)
class Replaceable(Effect):
    """`you MOMENT: BODY`: the body happens to the player, unless a replacement ability
    answers. Players are asked in seat order from that player; the first of them whose
    cards (in the ability zone) answer decides: a mandatory replacement is taken at once
    (the first in zone order), an optional one is offered (its cards, or `pass`). The
    chosen ability's body runs instead (with "you" its card's owner and `this card` the
    card; PREVENT runs nothing), and its failure is its own. With none taken, the body
    runs as if written alone: this frame becomes it, so its failure goes on."""

    eid: int
    text: str
    moment: str
    body: Effect
    listeners: Listeners
    # the pass label of `you may` (or a loop's `done`) when the body asks it first: the
    # replacing block asks it too, and its failure (a pass) goes on as the body's would
    optional: str = ""

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 1:  # a replacement ran
            if not self.optional:
                st.failed = False
            st.frames.pop()
            return
        if fr.data is None and st.lasting:
            kept = _kept_answer(st, fr.player, self.moment)
            if kept:  # answered first with a replacement, which ran then: nothing happens now
                if st.trace is not None:
                    st.trace.append(f"player {fr.player + 1}: {self.moment} replaced")
                st.frames.pop()
                return
            if kept is not None:  # answered first with none: the body happens, nobody is asked
                fr.eid = self.body.eid
                fr.pc = 0
                return
        if self.moment in self.listeners.replaced and _ask_owners(self, st, fr, self.moment, self.listeners):
            return
        # nothing replaces it: this frame becomes the body
        fr.eid = self.body.eid
        fr.pc = 0
        fr.data = None

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        if value is None:  # passed: the next player may answer
            self.step(st, fr)
            return
        st.failed = False  # only the block's own failure (a pass) goes on
        block = self.listeners.declinable.get((value[1], self.optional), -1) if self.optional else -1
        _run_chosen(st, fr, value, f"{self.moment} replaced", block)

    def can_start(self, st: GameState, fr: Frame) -> bool:
        """The body can start, or a replacement that answers the event can: a card's way
        counts where the rules offer the text only if it can start (`A OR B`). An event
        that a mandatory PREVENT would stop (asked as `_ask_owners` asks: the first owner
        with a mandatory replacement takes it) cannot start, unless an optional `INSTEAD
        OF` asked before it could be taken: offering it would offer nothing."""
        if self.moment not in self.listeners.replaced:
            return self.body.can_start(st, fr)
        if self.moment not in self.listeners.prevented:  # no card stops it: as written
            return self.body.can_start(st, fr) or any(
                ab.body is not None  # a prevention does nothing: it starts nothing the body could not
                for i in range(st.players)
                for _, ab in _replacements(st, fr, self.moment, self.listeners, (fr.player + i) % st.players)
            )
        may = False  # an optional INSTEAD OF, asked before any mandatory replacement
        for i in range(st.players):
            found = _replacements(st, fr, self.moment, self.listeners, (fr.player + i) % st.players)
            forced = [ab for _, ab in found if not ab.optional]
            if forced:  # taken without asking: a prevention does nothing, a block can start
                return may or forced[0].body is not None
            # a prevention does nothing: it starts nothing the body could not
            may = may or any(ab.body is not None for _, ab in found)
        return may or self.body.can_start(st, fr)


@attrs.frozen(eq=False)
class AnswerFirst(Effect):
    """`you answer MOMENT first`: the replacements of MOMENT are asked now, as the event
    `you MOMENT: ...` would ask them, and the chosen one's block runs now; the answer (that
    replacement, or none) is kept until the next `you MOMENT: ...` happens to you this turn,
    which takes it without asking again: nothing happens then if a replacement was chosen,
    else the body. An answer not taken by the end of the turn is dropped with the turn's
    lasting abilities."""

    eid: int
    text: str
    moment: str
    listeners: Listeners

    def step(self, st: GameState, fr: Frame) -> None:
        if fr.pc == 1:  # the chosen replacement's block ran
            st.failed = False
            st.frames.pop()
            return
        if self.moment in self.listeners.replaced and _ask_owners(self, st, fr, self.moment, self.listeners):
            return
        st.lasting.append(Lasting(self.eid, fr.player))
        st.frames.pop()

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        if value is None:  # passed: the next player may answer
            self.step(st, fr)
            return
        card, eid = _run_chosen(st, fr, value, f"{self.moment} answered first")
        st.lasting.append(Lasting(eid, fr.player, card))


@attrs.frozen(eq=False)
class WildGrant:
    """`your copies of CARD are wild [if COND]` in a card's continuous ability, as compiled:
    `WildWhile` tests it; the card type keeps it to show (`rules-dsl cards`)."""

    text: str
    card: str  # whose copies are wild
    source: str  # the card the ability is on
    zone: str  # where that card must lie (its owner's zone), and which way up
    facing: str
    cond: Cond | None


@attrs.frozen(eq=False)
class WildWhile(Cond):
    """Whether a card counts as one of every symbol for its owner (the frame's player) by
    cards' continuous abilities `your copies of CARD are wild [if COND]`: one of `grants`
    (the ability's card type, the owner's zone and facing where it works, its condition,
    read with "you" the owner and `this card` that card) lies there and its condition
    holds; or the card's own `wild:` condition (`also`) holds."""

    grants: tuple[tuple[int, str, str, Cond | None], ...]
    also: Cond | None = None

    @property
    def owner_only(self) -> bool:  # type: ignore[override]
        # the grants are read for the owner alone; a card's own `wild:` may read the card
        return self.also is None

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        if self.also is not None and self.also.test(st, fr, cand):
            return True
        seat = f".{fr.player}"
        cards = st.cards
        for source, zone, facing, cond in self.grants:
            for c in st.zones[zone + seat]:
                cs = cards[c]
                if cs.type != source or (facing and cs.up is not (facing == "up")):
                    continue
                if cond is None or cond.test(st, frame(-1, fr.player, c)):
                    return True
        return False
