"""Compiled rules: immutable, shared by every game of the same packs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from rules_dsl.effects.base import Effect
    from rules_dsl.effects.values import Cond, NumExpr
    from rules_dsl.errors import PackProblem


@attrs.frozen
class CardType:
    id: str
    name: str
    kind: str
    symbols: dict[str, int]
    slots: dict[str, int]
    props: dict[str, Any]
    sections: dict[str, int]  # section label -> effect id
    text: str
    count: int | str  # copies, or a parameter name
    zone: str  # where the copies start
    public_props: tuple[str, ...]  # what shows on the back of a face-down card
    # abilities (effects/abilities.py): quantity -> its continuous modifiers, triggered, activated
    mods: dict[str, tuple[Any, ...]] = attrs.Factory(dict)
    triggers: tuple[Any, ...] = ()
    activated: tuple[Any, ...] = ()
    replacements: tuple[Any, ...] = ()  # `INSTEAD OF ...` / `PREVENT ...` (abilities.ReplaceAbility)
    wilds: tuple[Any, ...] = ()  # `your copies of CARD are wild` (abilities.WildGrant): WildWhile tests them
    # the text and the expression properties as written (line breaks kept), for display
    source: dict[str, str] = attrs.Factory(dict)


@attrs.frozen
class ZoneType:
    name: str
    per_player: bool
    visibility: str  # public | owner | hidden | top | others (rules_dsl/knowledge.py)
    refill_from: str  # zone name shuffled in when this one runs out, or ""
    facing: str  # "" keep | "up" | "down"

    def key(self, player: int) -> str:
        return f"{self.name}.{player}" if self.per_player else self.name


@attrs.frozen
class CounterType:
    name: str
    plural: str
    per_player: bool
    start: int | str
    supply: str  # a shared counter this one is taken from, or ""
    may_be_negative: bool = False  # `lose` may take it below 0 (a penalty); else it stops at 0


@attrs.frozen
class EndTrigger:
    name: str
    cond: Cond
    at_once: bool = False  # watched at every step ("checked: at-once"), not only after each turn
    ends: str = ""  # its own `ends:` (after-round | after-turn | after-rotation), "" for the game-end's


@attrs.frozen
class Invariant:
    """A pack's claim about every position of its game (see compiler/invariants.py)."""

    name: str
    kind: str  # holds | constant | never-decreases | never-increases
    claim: Any  # a Cond for holds, else a NumExpr
    each_player: NumExpr | None  # added once per player, for the expression claims
    file: str
    line: int


@attrs.frozen
class Feature:
    """A named expression for "you" that the search bots weigh (compiler/features.py)."""

    name: str
    expr: NumExpr
    place: str  # file:line:col of its declaration


@attrs.frozen
class Statistic:
    """A named count of card moves (for reports): any card moved from one of `sources` to one of `targets`."""

    name: str
    sources: tuple[str, ...]  # zone names
    targets: tuple[str, ...]


@attrs.frozen
class Variant:
    name: str
    description: str
    params: dict[str, Any]


@attrs.frozen
class Choosable:
    """A pack's `choosable:` entry: cards a game may be told to use by name (rules_dsl/chosen.py)."""

    option: str  # OPTION of `OPTION=NAME` in a game's variants (`--scenario NAME` is `scenario=NAME`)
    source: str  # the zone the cards start in
    target: str  # the zone a chosen card is put in before the set-up, the first chosen on top
    prefix: str  # NAME is the card id without it
    variant: str  # a variant a choice turns on, or ""
    description: str


@attrs.frozen
class Look:
    """How a pack's cards look on the table and on paper (its `look:` part, rules_dsl/card_face.py):
    nothing here changes play."""

    colours: dict[str, str] = attrs.Factory(dict)  # card kind -> #rrggbb
    glyphs: dict[str, str] = attrs.Factory(dict)  # symbol -> the glyph drawn for it
    words: dict[str, str] = attrs.Factory(dict)  # moment, window or procedure -> the words a card shows
    faces: str = ""  # a property: cards sharing its value are the faces of one double-sided card
    symbols: tuple[str, ...] = ()  # the declared symbols, in order (a default colour each)


@attrs.frozen
class Rules:
    packs: tuple[str, ...]
    name: str
    min_players: int
    max_players: int
    effects: tuple[Effect, ...]
    cards: tuple[CardType, ...]
    card_index: dict[str, int]
    zones: dict[str, ZoneType]
    zone_groups: dict[str, tuple[tuple[str, str], ...]]
    counters: dict[str, CounterType]
    shared_counters: dict[str, int | str]
    params: dict[str, Any]
    variants: dict[str, Variant]
    default_variants: tuple[str, ...]
    setup: int  # effect id
    game_loop: int  # effect id
    phases: tuple[tuple[str, int], ...]
    end_triggers: tuple[EndTrigger, ...]
    score: NumExpr
    tiebreak: NumExpr
    draw_from: str
    draw_to: str
    overrides: tuple[str, ...] = ()  # what later packs replaced, for the loader's report
    additions: tuple[str, ...] = ()  # what packs added to the packs they require ("added: ...", "extended: ...")
    wild: dict[int, Cond] = attrs.Factory(dict)  # card type -> when it counts as every symbol
    # a text's body of several steps -> its twin that runs it step by step while a scenario
    # watches (control.StepByStep): phases, deal parts, procedures, card sections, abilities
    step_twins: dict[int, int] = attrs.Factory(dict)
    # bounds on a running game (a pack's `limits:` part overrides them, docs/modding.md#limits)
    step_limit: int = 20000  # steps of the rules between two decisions
    decision_limit: int = 1000  # decisions in one turn
    frame_limit: int = 500  # frames on the stack (nested procedure calls and sections)
    game_decision_limit: int = 100_000  # decisions in one game: a game not over by then never ends
    # quantity -> the (zone, facing) spots where some card's continuous ability changes it
    quantity_spots: dict[str, tuple[tuple[str, str], ...]] = attrs.Factory(dict)
    # valued properties: property -> value -> the expression it stands for, as written
    valued: dict[str, dict[str, str]] = attrs.Factory(dict)
    invariants: tuple[Invariant, ...] = ()
    evaluation: NumExpr | None = None  # the pack's `evaluation:`, how good a position is for "you" (for bots)
    statistics: tuple[Statistic, ...] = ()
    features: tuple[Feature, ...] = ()  # the packs' `features:`, in pack order
    weights: tuple[float, ...] | None = None  # one per feature (`weights:`); None when the packs give none
    weights_place: str = ""  # file:line:col of the `weights:` in use
    # the game loop's end triggers checked at once (effects/watching.py): the counters and
    # zones their conditions read, which the effects changing one test on the spot, and
    # whether a condition reads more than those (then tested after every changing step)
    watched: bool = False
    watch_counters: frozenset[str] = frozenset()
    watch_zones: frozenset[str] = frozenset()
    watch_sizes: frozenset[str] = frozenset()  # of watch_zones, those read beyond emptiness
    watch_every: bool = False
    # the keys of every player's `owner` zone, and of every `hidden` or `top` pile: a card
    # taken from a hand where another seat cannot follow it, or from inside a pile, mixes
    # the cards left there in the eyes of the seats that could not see which went
    # (knowledge.taken_unseen)
    private_zones: frozenset[str] = frozenset()
    piles: frozenset[str] = frozenset()
    # the keys of every `public` zone: a face-up card put there is in everyone's sight, so
    # its pool is reset (knowledge: where it goes from there is public)
    open_zones: frozenset[str] = frozenset()
    # zone key -> which way up a card put there lies: True face up, False face down, None
    # as it was (the zone's `facing`), so placing a card reads one dict (effects.base.place)
    facings: dict[str, bool | None] = attrs.Factory(dict)
    # zone key -> how it shows its cards to each seat, the last entry for nobody in
    # particular (knowledge.views: LIST, COUNT, TOP, BACKS, OWN, TOP_OWN)
    views: dict[str, tuple[int, ...]] = attrs.Factory(dict)
    # the choices of cards that may offer a card the chooser cannot identify (compiler/blind.py):
    # the others name every card by what it is without asking
    blind_choices: frozenset[int] = frozenset()
    # a card slot named by a token group holds one token of any of its kinds ("any resource")
    slot_groups: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    choosable: dict[str, Choosable] = attrs.Factory(dict)  # option -> the cards it chooses from
    # all players win or lose together (the scoring's `co-operative: {win: ...}`); the score is
    # worked out once, for the start player, and is every seat's
    cooperative: bool = False
    # what outputs call one turn of every seat (GameState.round): the vocabulary's
    # `rotation-word`, else "rotation" in a game with deals (whose own rounds are deals), else "round"
    rotation_word: str = "round"
    # what the packs write that can never happen (compiler/never.py): validate shows them
    warnings: tuple[PackProblem, ...] = ()
    look: Look = attrs.Factory(Look)  # colours, glyphs and display words of the cards (`look:`)
    # not rules: the Python generated from them (rules_dsl/codegen, `RULES_DSL_COMPILED`),
    # set by `codegen.install`; None runs them on the interpreter. It never pickles
    fused: Any = attrs.field(default=None, eq=False, repr=False)

    def written_effects(self) -> int:
        """How many effects the packs' texts compiled to (what `validate` reports): not the
        twins the engine adds to run a text step by step while a scenario watches."""
        from rules_dsl.effects.control import EachIteration, StepByStep

        return sum(not isinstance(e, StepByStep | EachIteration) for e in self.effects)


def ability_names(card_types: Iterable[CardType]) -> list[tuple[int, str]]:
    """Each card's triggered and activated abilities: (body id, `CARD WHEN MOMENT` or `CARD
    DURING WINDOW`), the names a scenario's `at: after step N of NAME` gives them."""
    out = []
    for ct in card_types:
        out += [(t.body.eid, f"{ct.id} WHEN {t.moment}") for t in ct.triggers]
        out += [(ab.body.eid, f"{ct.id} DURING {ab.window}") for ab in ct.activated]
    return out
