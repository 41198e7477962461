"""What every effect shares, and the small operations on frames and zones they use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from rules_dsl import knowledge, rng
from rules_dsl.errors import RulesError, RulesLoopError
from rules_dsl.state import Decision, Frame, GameState, without

if TYPE_CHECKING:
    from rules_dsl.rules import Rules


class Effect:
    """A compiled statement. `eid` is its index in Rules.effects, used by frames.

    Atomic effects never ask anything: `execute` does the whole job and says whether it
    could. The others are run a step at a time by the interpreter through `step`, which
    pushes and pops frames and may leave a decision pending.
    """

    eid: int
    atomic: bool = False
    # whether a step of it may change the game (cards, counters, tokens, marks, notes): an
    # end trigger checked at once whose condition reads more than counters and zone sizes
    # is tested after each such step
    changes: bool = False
    # a choice whose answer only binds a name: several seats may be asked it at once
    # (`effects.simultaneous`)
    secret: bool = False
    # answers come from several seats in any order (`effects.simultaneous.AtOnce`)
    simultaneous: bool = False
    text: str

    def execute(self, st: GameState, fr: Frame) -> bool:
        raise NotImplementedError

    def step(self, st: GameState, fr: Frame) -> None:
        if not self.execute(st, fr):
            st.failed = True
        st.frames.pop()

    def resume(self, st: GameState, fr: Frame, value: Any) -> None:
        raise NotImplementedError

    def can_start(self, st: GameState, fr: Frame) -> bool:
        """Whether this could do anything now (used to offer only doable options)."""
        return True


def watch(st: GameState) -> None:
    """Test the at-once end triggers now: an effect changed something their conditions read."""
    rules = st.rules
    rules.effects[rules.game_loop].watch(st)  # type: ignore[attr-defined]


def running_card(rules: Rules, st: GameState) -> str:
    """The card whose text is running ("'scout' (Scout)"), or ""."""
    for fr in reversed(st.frames):
        if 0 <= fr.src < len(st.cards):
            card = rules.cards[st.cards[fr.src].type]
            return f"{card.id!r} ({card.name})"
    return ""


def game_limit_error(rules: Rules) -> RulesLoopError:
    """A game not over after the rules' `game_decision_limit` decisions: it never ends."""
    return RulesLoopError(
        f"the game is not over after {rules.game_decision_limit} decisions: it never ends (its end "
        "triggers or a deal's end never hold; game-end: turn-limit ends it, a pack's limits: "
        "decisions-per-game raises the bound)"
    )


def check_depth(st: GameState, what: str, name: str) -> None:
    """Refuse to go deeper than the rules' frame limit: a procedure or section that keeps
    calling itself would otherwise grow the stack until memory runs out."""
    rules = st.rules
    if len(st.frames) > rules.frame_limit:
        card = running_card(rules, st)
        raise RulesLoopError(
            f"{'card ' + card if card else 'the rules'}: {what} {name!r} nested more than {rules.frame_limit} deep: "
            "it keeps calling itself (a pack's limits: frames raises the bound)"
        )


# Asking whether a procedure call can start asks its body, by Python recursion: no real
# pack nests more than a few; a procedure whose first step calls itself would nest for ever.
MAX_PROBE_DEPTH = 50


_new = object.__new__


def frame(eid: int, player: int, src: int = -1, scope: dict[str, Any] | None = None) -> Frame:
    """A frame made as `clone` makes them (slots set directly): about twice as fast as
    `Frame(...)`, for the hot paths that make one per step or per card."""
    fr = _new(Frame)
    fr.eid = eid
    fr.player = player
    fr.src = src
    fr.pc = 0
    fr.vars = scope
    fr.data = None
    return fr


def push(st: GameState, eid: int, player: int, src: int, scope: bool = False) -> Frame:
    # as `frame` makes one, inline: the hottest maker of frames
    fr = _new(Frame)
    fr.eid = eid
    fr.player = player
    fr.src = src
    fr.pc = 0
    fr.vars = {} if scope else None
    fr.data = None
    st.frames.append(fr)
    return fr


def lookup(st: GameState, name: str) -> Any:
    for fr in reversed(st.frames):
        v = fr.vars
        if v is not None and name in v:
            return v[name]
    params = st.params
    if name in params:
        return params[name]
    raise RulesError(f"nothing is called {name!r} here")


def bind(st: GameState, name: str, value: Any) -> None:
    """Bind a name in the nearest scope below the running (top) frame."""
    for fr in reversed(st.frames):
        v = fr.vars
        if v is not None:
            v[name] = value
            return


def detach(st: GameState, card: int) -> None:
    """Take a card out of its zone, or from under the card it is tucked under."""
    loc = st.cards[card].loc
    if loc[0] == "^":
        host = st.card_to_change(int(loc[1:]))
        host.under = without(host.under, card)
    else:
        zone = st.zones[loc]
        rules = st.rules
        if loc in rules.piles and zone[-1] != card and zone[0] != card:
            # from inside a pile nobody may look through: which card went is not public
            zone.remove(card)
            knowledge.taken_unseen(st, card, loc)
        else:
            zone.remove(card)
        if loc in rules.watch_zones and (not zone or loc in rules.watch_sizes):
            watch(st)


def place(st: GameState, card: int, dest: str, facing: str = "", bottom: bool = False) -> None:
    """Put a detached card into a zone, facing as said or as the zone's rules say."""
    zone = st.zones[dest]
    if bottom:
        zone.insert(0, card)
    else:
        zone.append(card)
    rules = st.rules
    if dest in rules.watch_zones and (len(zone) == 1 or dest in rules.watch_sizes):
        watch(st)
    # `card_to_change`, its usual case inline: a card this state already owns
    cs = st.cards[card] if card in st.own else st.card_to_change(card)
    if st.recorder is not None:
        st.recorder.moved(st, cs, dest)
    source = cs.loc
    cs.loc = dest
    up = rules.facings[dest] if not facing else facing == "up"
    if up is None:
        up = cs.up
    else:
        cs.up = up
    if up and dest in rules.open_zones:
        cs.pool = -1  # in everyone's sight: where it goes from here is public
        if cs.allowed:
            cs.allowed = ()
    elif source in rules.private_zones:  # out of a hand: could the others follow it?
        knowledge.taken_unseen(st, card, source)


def move_card(st: GameState, card: int, dest: str, facing: str = "", bottom: bool = False) -> None:
    detach(st, card)
    place(st, card, dest, facing, bottom)


def refill(st: GameState, key: str) -> bool:
    """Shuffle the zone's refill pile into it when it is empty. True if it has cards."""
    cards = st.zones[key]
    if cards:
        return True
    name, _, seat = key.partition(".")
    source = st.rules.zones[name].refill_from
    if not source:
        return False
    skey = f"{source}.{seat}" if seat else source
    pile = st.zones[skey]
    if not pile:
        return False
    cards.extend(pile)
    pile.clear()
    if key in st.rules.watch_zones or skey in st.rules.watch_zones:
        watch(st)
    knowledge.shuffled(st, cards)
    recorder = st.recorder
    states = st.cards
    own = st.own  # `card_to_change` inline: after `shuffled` this state owns every card
    for c in cards:
        cs = states[c] if c in own else st.card_to_change(c)
        if recorder is not None:
            recorder.moved(st, cs, key)
        cs.loc = key
        cs.up = False
    st.rng = rng.shuffle(st.rng, cards)
    return True


def refill_possible(st: GameState, key: str) -> bool:
    name, _, seat = key.partition(".")
    source = st.rules.zones[name].refill_from
    if not source:
        return False
    return bool(st.zones[f"{source}.{seat}" if seat else source])


def take_top(st: GameState, key: str, dest: str, facing: str = "") -> bool:
    zone = st.zones[key]
    if not zone and not refill(st, key):
        return False
    place(st, zone.pop(), dest, facing)
    if key in st.rules.watch_zones and (not zone or key in st.rules.watch_sizes):  # a zone an end trigger reads
        watch(st)
    return True


def ask(st: GameState, fr: Frame, player: int, prompt: str, options: list[str], values: list[Any]) -> None:
    """Leave a decision pending, from where `source_of` says: the Decision made with its
    slots set directly (as `frame` makes frames), one call for the hot choices."""
    d = _new(Decision)
    d.player = player
    d.prompt = prompt
    d.options = options
    d.values = values
    src = fr.src
    d.source = st.rules.cards[st.cards[src].type].name if src >= 0 else f"{st.phase} phase"  # source_of, inline
    st.pending = d


def source_of(st: GameState, fr: Frame) -> str:
    """Where a decision comes from: the card whose text asks, or the phase."""
    if fr.src >= 0:
        return st.rules.cards[st.cards[fr.src].type].name
    return f"{st.phase} phase"


@attrs.frozen
class Nothing(Effect):
    eid: int
    text: str
    atomic = True

    def execute(self, st: GameState, fr: Frame) -> bool:
        return True
