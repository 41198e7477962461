"""The whole game state as plain attrs data.

Everything that changes during a game is here, including the interpreter's stack of
frames (effects waiting on a decision), so a state can be saved to JSON at any decision,
loaded, cloned and replayed. Nothing here refers to compiled rules except by index.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.define(slots=True, eq=True)
class CardState:
    """One physical card: its type, where it is, which way up, what it holds."""

    type: int  # index into Rules.cards
    loc: str  # zone key such as "hand.0" or "draw-pile"; "^7" when tucked under card 7
    up: bool = True
    under: list[int] = attrs.Factory(list)  # cards tucked under this one
    tokens: list[str] = attrs.Factory(list)  # token kinds placed on this card
    marks: list[str] = attrs.Factory(list)  # names set by "mark it as ..." until cleared
    seen: list[int] = attrs.Factory(list)  # players who peeked at it while it was hidden


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
class Decision:
    """Who must decide what, with every legal option (ids) and what each one means."""

    player: int
    prompt: str
    options: list[str]
    values: list[Any]
    source: str = ""  # the card or rule text asking


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
    failed: bool = False
    active: int = 0
    first: int = 0  # the start player's seat: a round ends after the seat before it
    turn: int = 0  # turns completed
    round: int = 0
    phase: str = "setup"
    end_trigger: str = ""
    final_turns: list[int] = attrs.Factory(list)  # players still to take a turn after the end
    extra_rounds_left: int = 0
    over: bool = False
    scores: list[int] = attrs.Factory(list)
    tiebreaks: list[int] = attrs.Factory(list)
    winners: list[int] = attrs.Factory(list)
    breakdown: dict[str, list[int]] = attrs.Factory(dict)  # named parts of the final score
    notes: dict[str, list[str]] = attrs.Factory(dict)  # "sold.0": values noted for a player
    log: list[str] = attrs.Factory(list)

    def clone(self) -> GameState:
        """A deep copy, much faster than a generic one: the hot path of search bots."""
        return GameState(
            packs=self.packs,
            variants=self.variants,
            players=self.players,
            seed=self.seed,
            rng=self.rng,
            params=self.params,
            cards=[CardState(c.type, c.loc, c.up, c.under[:], c.tokens[:], c.marks[:], c.seen[:]) for c in self.cards],
            zones={k: v[:] for k, v in self.zones.items()},
            counters={k: v[:] for k, v in self.counters.items()},
            shared=dict(self.shared),
            frames=[
                Frame(
                    f.eid,
                    f.player,
                    f.src,
                    f.pc,
                    None if f.vars is None else dict(f.vars),
                    None if f.data is None else list(f.data),
                )
                for f in self.frames
            ],
            pending=None
            if self.pending is None
            else Decision(
                self.pending.player,
                self.pending.prompt,
                self.pending.options[:],
                list(self.pending.values),
                self.pending.source,
            ),
            failed=self.failed,
            active=self.active,
            first=self.first,
            turn=self.turn,
            round=self.round,
            phase=self.phase,
            end_trigger=self.end_trigger,
            final_turns=self.final_turns[:],
            extra_rounds_left=self.extra_rounds_left,
            over=self.over,
            scores=self.scores[:],
            tiebreaks=self.tiebreaks[:],
            winners=self.winners[:],
            breakdown={k: v[:] for k, v in self.breakdown.items()},
            notes={k: v[:] for k, v in self.notes.items()},
            log=self.log[:],
        )
