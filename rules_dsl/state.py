"""The whole game state as plain attrs data.

Everything that changes during a game is here, including the interpreter's stack of
frames (effects waiting on a decision), so a state can be saved to JSON at any decision,
loaded, cloned and replayed. The game data refers to compiled rules only by index; beside
it, a state carries the rules it is played by (`GameState.rules`), which no JSON holds.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import attrs

from rules_dsl.rules import Rules


class Trace(list[str]):
    """What a scenario watching a decision is told (docs/scenarios.md): the list is the
    moments announced, "player N: MOMENT"; `began`/`ended`/`reached` mark the turn's
    boundaries (a phase's start and end, a turn's end) and `forced` a choice with one legal
    option, taken without asking. The engine calls these only where `GameState.trace` is
    set (never in play); this base class keeps the moments only, the scenario runner's
    subclass keeps the rest."""

    __slots__ = ("running",)

    def __init__(self) -> None:
        super().__init__()
        self.running = ""  # the phase whose body runs now, once its start was seen ("" none)

    def began(self, st: GameState, phase: str) -> None:
        self.running = phase
        self.reached(st, f"start of {phase}")

    def ended(self, st: GameState) -> None:
        """The game loop steps again: the phase that ran (if any) is over."""
        if self.running:
            phase, self.running = self.running, ""
            self.reached(st, f"end of {phase}")

    def reached(self, st: GameState, boundary: str) -> None:
        """The game stands at `boundary` ("start of PHASE", "end of turn", ...)."""

    def forced(self, st: GameState, player: int, prompt: str, option: str) -> None:
        """`player` had one legal option, `option`, taken without asking."""


@attrs.define(slots=True, eq=True)
class CardState:
    """One physical card: its type, where it is, which way up, what it holds.

    A card is shared between a state and its clones until one of them changes it: change a
    card only through `GameState.card_to_change` (copy on write). What a card holds is a
    tuple, replaced (never changed in place) when it changes: most cards hold nothing, and
    the empty tuple is one shared object. In JSON they are arrays."""

    type: int  # index into Rules.cards
    loc: str  # zone key such as "hand.0" or "draw-pile"; "^7" when tucked under card 7
    up: bool = True
    under: tuple[int, ...] = ()  # cards tucked under this one, bottom to top
    tokens: tuple[str, ...] = ()  # token kinds placed on this card
    marks: tuple[str, ...] = ()  # names set by "mark it as ..." until cleared
    seen: tuple[int, ...] = ()  # players who peeked at it while it was hidden
    pool: int = -1  # the pool of cards it was mixed up with (rules_dsl/knowledge.py); -1: none yet
    # the card types it may be, by what was pointed out of it in public ("point out ...";
    # rules_dsl/knowledge.py), sorted; empty: nothing was
    allowed: tuple[int, ...] = ()


def new_card(card_type: int, loc: str, up: bool) -> CardState:
    """`CardState(card_type, loc, up)` with its slots set directly: every card of every new
    game is made here (attrs' `__init__` is a call more per card)."""
    c = object.__new__(CardState)
    c.type = card_type
    c.loc = loc
    c.up = up
    c.under = ()
    c.tokens = ()
    c.marks = ()
    c.seen = ()
    c.pool = -1
    c.allowed = ()
    return c


def without(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    """`items` without the first `item` (ValueError if it is not there), as `list.remove`."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


@attrs.define(slots=True, eq=True)
class Frame:
    """One running effect: which effect (by id), for whom, and its small locals."""

    eid: int
    player: int
    src: int = -1  # the card whose text is running ("this card"), -1 for rules text
    pc: int = 0
    vars: dict[str, Any] | None = None  # a scope: names bound here are visible above
    data: list[Any] | None = None  # loop bookkeeping


@attrs.define(slots=True, eq=True)
class Lasting:
    """An ability a card's text started "for the rest of this turn", until the turn ends.

    `ability` is the effect id of the ability, `player` whom it serves, `src` the card that
    started it, `vars` the names that were visible then (the ability reads them later).
    """

    ability: int
    player: int
    src: int = -1
    vars: dict[str, Any] = attrs.Factory(dict)


@attrs.define(slots=True, eq=True)
class Decision:
    """Who must decide what, with every legal option (ids) and what each one means."""

    player: int
    prompt: str
    options: list[str]
    values: list[Any]
    source: str = ""  # the card or rule text asking


class MoveRecorder(Protocol):
    """What counts a game's card moves (`statistics.Recorder`)."""

    def moved(self, st: GameState, cs: CardState, dest: str) -> None: ...


@attrs.define(slots=True, eq=True)
class GameState:
    packs: list[str]
    variants: list[str]
    players: int
    seed: int
    rng: int
    params: dict[str, int]
    cards: list[CardState]
    zones: dict[str, list[int]]  # bottom .. top
    counters: dict[str, list[int]]  # per-player counters, one value per seat
    shared: dict[str, int]  # counters of the game itself
    frames: list[Frame] = attrs.Factory(list)
    pending: Decision | None = None
    # further decisions pending at the same time, other seats' (`effects.simultaneous`): a
    # plain option answers `pending`, "@N:option" the decision of player N
    also: list[Decision] = attrs.Factory(list)
    failed: bool = False
    active: int = 0
    first: int = 0  # the start player's seat: a round ends after the seat before it
    turn: int = 0  # turns completed
    round: int = 0
    phase: str = "setup"
    end_trigger: str = ""
    final_turns: list[int] = attrs.Factory(list)  # players still to take a turn after the end
    out: list[int] = attrs.Factory(list)  # seats that left the turn order: their turns are skipped
    next_turns: list[int] = attrs.Factory(list)  # seats to play the next turns, before the order goes on
    extra_rounds_left: int = 0
    over: bool = False
    scores: list[int] = attrs.Factory(list)
    tiebreaks: list[int] = attrs.Factory(list)
    winners: list[int] = attrs.Factory(list)
    breakdown: dict[str, list[int]] = attrs.Factory(dict)  # named parts of the final score
    notes: dict[str, list[str]] = attrs.Factory(dict)  # "sold.0": values noted for a player
    log: list[str] = attrs.Factory(list)
    turn_decisions: int = 0  # decisions taken in this turn, for the rules' decision limit
    pools: int = 0  # the number the next pool of mixed-up cards gets (rules_dsl/knowledge.py)

    lasting: list[Lasting] = attrs.Factory(list)  # abilities started for the rest of the turn
    used: list[str] = attrs.Factory(list)  # "EFFECT:CARD": once-per-turn abilities used this turn

    # Not game data (no JSON, no equality): the cards this state may change in place. The
    # others may be shared with a clone, see `card_to_change`.
    own: set[int] = attrs.field(factory=set, init=False, eq=False, repr=False)
    # Not game data either: the compiled rules this state is played by (set by every entry
    # point of the interpreter, so the rules travel with the state, never in a global, and
    # engines of different packs run side by side in threads), the card-move recorder of
    # the one game being counted (a clone has none: a search bot's playouts are not
    # counted), and how deep "could this procedure start?" questions are nested now.
    rules: Rules = attrs.field(default=cast(Rules, None), init=False, eq=False, repr=False)
    recorder: MoveRecorder | None = attrs.field(default=None, init=False, eq=False, repr=False)
    probe_depth: int = attrs.field(default=0, init=False, eq=False, repr=False)
    # while a scenario watches a decision (`trace:`, `at:`, `forced:`): each moment announced,
    # "player N: MOMENT", and what `Trace` is told; None in play, so the engine only tests it
    trace: Trace | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def card_to_change(self, card: int) -> CardState:
        """The card, ready to be changed: copied first unless this state already owns it.

        A clone shares every `CardState` with the state it was copied from (a copy of the
        state is then one list copy for all the cards, not 180 objects), so nothing may set
        a field of `cards[i]` directly; the first change of a card after a clone makes it
        this state's own copy."""
        if card in self.own:
            return self.cards[card]
        c = self.cards[card]
        d = object.__new__(CardState)
        d.type = c.type
        d.loc = c.loc
        d.up = c.up
        d.under = c.under
        d.tokens = c.tokens
        d.marks = c.marks
        d.seen = c.seen
        d.pool = c.pool
        d.allowed = c.allowed
        self.cards[card] = d
        self.own.add(card)
        return d

    def share_cards(self) -> None:
        """From now on copy a card before changing it, as after a clone: a `CardState` this
        state holds now is never changed in place afterwards, so a reader may keep what it
        worked out from a card object for as long as the object is the one in `cards`
        (rules_dsl/envs/features.py caches each zone's features this way)."""
        self.own = set()

    def restore(self, saved: GameState) -> None:
        """Become `saved` (a clone taken before): how a failed move is undone."""
        for field in attrs.fields(GameState):
            if field.name not in _NOT_GAME_DATA:
                setattr(self, field.name, getattr(saved, field.name))
        # both now hold the same card objects: neither may change one in place
        self.own = set()
        saved.own = set()

    def clone(self) -> GameState:
        """A copy that play cannot tell from a deep one, much faster: the hot path of search
        bots and of `apply`'s undo. Cards are shared, copied on their first change (see
        `card_to_change`); strings, numbers and the never-changed `packs`/`variants`/`params`
        are shared; every other list and dict that play changes is copied, and objects are
        made with `object.__new__` with their slots set directly (no `__init__` defaults or
        keyword handling). A new field of these classes must be set here too
        (tests/test_properties.py compares clones field by field)."""
        new = object.__new__
        self.own = set()  # the clone shares every card: from now on both copy before changing one
        frames: list[Frame] = []
        for f in self.frames:
            g = new(Frame)
            g.eid = f.eid
            g.player = f.player
            g.src = f.src
            g.pc = f.pc
            g.vars = None if f.vars is None else f.vars.copy()
            g.data = None if f.data is None else f.data.copy()
            frames.append(g)
        st = new(GameState)
        st.packs = self.packs
        st.variants = self.variants
        st.players = self.players
        st.seed = self.seed
        st.rng = self.rng
        st.params = self.params
        st.cards = self.cards.copy()
        st.own = set()
        st.rules = self.rules
        st.recorder = None
        st.probe_depth = 0
        st.trace = None
        st.zones = {k: v.copy() for k, v in self.zones.items()}
        st.counters = {k: v.copy() for k, v in self.counters.items()}
        st.shared = self.shared.copy()
        st.frames = frames
        p = self.pending
        if p is None:
            st.pending = None
        else:
            d = st.pending = new(Decision)
            d.player = p.player
            d.prompt = p.prompt
            d.options = p.options.copy()
            d.values = p.values.copy()
            d.source = p.source
        st.also = [_copied(a) for a in self.also] if self.also else []
        st.failed = self.failed
        st.active = self.active
        st.first = self.first
        st.turn = self.turn
        st.round = self.round
        st.phase = self.phase
        st.end_trigger = self.end_trigger
        st.final_turns = self.final_turns.copy()
        st.out = self.out.copy()
        st.next_turns = self.next_turns.copy()
        st.extra_rounds_left = self.extra_rounds_left
        st.over = self.over
        st.scores = self.scores.copy()
        st.tiebreaks = self.tiebreaks.copy()
        st.winners = self.winners.copy()
        st.breakdown = {k: v.copy() for k, v in self.breakdown.items()} if self.breakdown else {}
        st.notes = {k: v.copy() for k, v in self.notes.items()} if self.notes else {}
        st.log = self.log.copy()
        st.turn_decisions = self.turn_decisions
        st.pools = self.pools
        # (a comprehension is a function call in CPython 3.11: none for the usual empty list)
        st.lasting = [Lasting(x.ability, x.player, x.src, x.vars.copy()) for x in self.lasting] if self.lasting else []
        st.used = self.used.copy()
        return st


def _copied(d: Decision) -> Decision:
    return Decision(d.player, d.prompt, d.options.copy(), d.values.copy(), d.source)


# The fields `restore` keeps: what a state is played by, not what it is.
_NOT_GAME_DATA = frozenset({"own", "rules", "recorder", "probe_depth", "trace"})
