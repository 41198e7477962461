"""Eminent Domain's Learning Game (2-4 players) by hand, in plain Python: a speed yardstick.

Written from the base rulebook (Variants, Learning Game: the base game without the
Research role, the technologies and the 3 Advanced planets with a Research symbol), with
the planet facts transcribed from the reference card data. It imports nothing from
`rules_dsl` and reads no pack: it is a second, independent program of the same game, so
`benchmarks/bench.py --yardstick` can compare the engine's speed with it and the two
programs' statistics with each other (a difference beyond noise is a rules reading that
differs).

Where the rulebook leaves a choice, it follows the base pack's documented readings
(docs/rulings.md): B1 (the starting decks are dealt out of full stacks: 16/14/16/12 left
with 2 players), B2 (the 2 Research cards stay in each deck; their Action removes up to 2
cards), B3/B4 (the end is checked after every turn and the round is completed; 400 turns
end the game at once, the engine's safety net), B5, B6 (seat 0 starts), B7 (an Action's
card goes to the discard pile as soon as it is resolved), B8 (the Escalation errata: an
empty Survey or Warfare stack gives +1 symbol, as do Produce and Trade; Colonize none),
B9-B20 and B21/B22 (the tie-break; a remaining tie is shared).

A random player picks uniformly among the same options as the engine's random bot, one
decision at a time as the engine asks them (docs/dsl.md, Decisions), so decisions per game
compare:

- copies of a card in one place are one option (E2): the action phase offers each kind of
  card in hand once, plus `pass`; each boost is one card at a time, (card, done); cleanup
  discards one card at a time, each kind once, plus `done` while discarding is optional;
- a choice with one option and no way to pass is not a decision (E1);
- alternatives (`gain 1 fighter OR attack 1 planet`) are asked only when more than one can
  start now (E3); the Research Action tells its own card (in the action area) from a copy
  in hand (E4);
- producing offers each empty slot (planet and resource kind), trading each resource token.

The decisions are the engine's, one for one; what differs is only what cannot change the
statistics: the order in which options are listed, and the random streams (one
`random.Random(seed)` shuffles and chooses here; the engine shuffles with its own
generator and the bot has another), so a seed does not give the same game on both sides.
Choices use `randrange`, as the engine's `RandomBot` does (about a third of this
program's time).

Cards are small ints, a hand is six counts (one per kind), planets are indexes into the
tables below.
"""

from __future__ import annotations

import random
from collections.abc import Callable

# ---- role cards ----------------------------------------------------------------------
SURVEY, WARFARE, COLONIZE, PRODUCE_TRADE, RESEARCH, POLITICS = range(6)
CARD_NAMES = ("survey", "warfare", "colonize", "produce-trade", "research", "politics")
# cards per stack (the starting decks are dealt from them) and per starting deck
STACK_CARDS = (20, 16, 20, 16, 20)
DECK_CARDS = (2, 1, 2, 2, 2)
HAND_SIZE = 5
HAND_LIMIT = 5
INFLUENCE_SUPPLY = 24
END_STACKS = {2: 1, 3: 1, 4: 2}  # empty stacks that trigger the end
TURN_LIMIT = 400

# ---- roles: survey, warfare, colonize, produce, trade (no Research in this game) -----
# a role's symbol is its index; research's is 5 (no Learning Game card can use it)
ROLE_NAMES = ("survey", "warfare", "colonize", "produce", "trade")
ROLE_CARD = (SURVEY, WARFARE, COLONIZE, PRODUCE_TRADE, PRODUCE_TRADE)  # its stack and boosting card
EMPTY_BONUS = (1, 1, 0, 1, 1)  # Survey and Warfare: the Escalation errata (rulings B8)
NO_SYMBOL = -1

# ---- planets: name, type, symbol, resource slots, influence, warfare cost, colonize cost, hand bonus
# slots are ints: 0 food, 1 water, 2 iron, 3 silicon
FOOD, WATER, IRON, SILICON = range(4)
ADVANCED, FERTILE, METALLIC = range(3)
S, W, C, P, T, R = range(6)
START_PLANETS = (
    ("Pomerene", ADVANCED, NO_SYMBOL, (SILICON,), 2, 2, 2, 0),
    ("Drawde", FERTILE, NO_SYMBOL, (FOOD,), 2, 2, 2, 0),
    ("Piedra Seca", METALLIC, NO_SYMBOL, (IRON,), 2, 2, 2, 0),
    ("Mesia Sednim", FERTILE, NO_SYMBOL, (WATER,), 2, 2, 2, 0),
    ("Chrispen", METALLIC, NO_SYMBOL, (IRON,), 2, 2, 2, 0),
    ("Liagiba", ADVANCED, NO_SYMBOL, (SILICON,), 2, 2, 2, 0),
)
DECK_PLANETS = (
    ("Lyttle", ADVANCED, R, (SILICON,), 3, 5, 4, 0),
    ("Echo Rose", ADVANCED, R, (SILICON,), 3, 4, 5, 0),
    ("Srod Avain N2", ADVANCED, R, (), 4, 6, 3, 0),
    ("Ral Gai'Gaw", ADVANCED, T, (SILICON,), 3, 5, 4, 0),
    ("Hanoj - T", ADVANCED, T, (SILICON,), 3, 4, 5, 0),
    ("Zhephan", ADVANCED, T, (), 4, 6, 3, 0),
    ("Oknow", ADVANCED, NO_SYMBOL, (SILICON,), 2, 5, 4, 1),
    ("Sima-07C", ADVANCED, NO_SYMBOL, (SILICON,), 2, 4, 5, 1),
    ("Sholmican", ADVANCED, NO_SYMBOL, (SILICON,), 4, 6, 3, 0),
    ("Styku", FERTILE, C, (WATER,), 3, 5, 4, 0),
    ("Mik-Mik", FERTILE, C, (FOOD,), 3, 4, 5, 0),
    ("New Texas", FERTILE, C, (FOOD, WATER), 2, 6, 3, 0),
    ("Gerdland", FERTILE, P, (WATER,), 3, 5, 4, 0),
    ("Mishburr ITO-A", FERTILE, P, (FOOD,), 3, 4, 5, 0),
    ("Artigas GNS-111", FERTILE, P, (FOOD, WATER), 2, 6, 3, 0),
    ("Spielbany VI", FERTILE, NO_SYMBOL, (WATER,), 2, 5, 4, 1),
    ("Nelos IV", FERTILE, NO_SYMBOL, (FOOD,), 2, 4, 5, 1),
    ("Angus Daffy", FERTILE, NO_SYMBOL, (FOOD, WATER), 3, 6, 3, 0),
    ("Voson", METALLIC, S, (IRON,), 3, 5, 4, 0),
    ("Pink Sonar", METALLIC, S, (IRON,), 3, 4, 5, 0),
    ("Kyrie & Juno", METALLIC, S, (), 4, 6, 3, 0),
    ("Tankahshin", METALLIC, W, (IRON,), 3, 5, 4, 0),
    ("Erkam-W", METALLIC, W, (IRON,), 3, 4, 5, 0),
    ("Overlord Betzel's Domain", METALLIC, W, (), 4, 6, 3, 0),
    ("Marghannah Prime", METALLIC, NO_SYMBOL, (), 3, 5, 4, 1),
    ("8910 Spielen", METALLIC, NO_SYMBOL, (IRON,), 2, 4, 5, 1),
    ("Idroyos", METALLIC, NO_SYMBOL, (), 5, 6, 3, 0),
)
# the Learning Game's planets: the 6 start planets (ids 0-5), then the 24 of the deck
PLANETS = START_PLANETS + tuple(p for p in DECK_PLANETS if p[2] != R)
PLANET_NAME = tuple(p[0] for p in PLANETS)
PLANET_SYMBOL = tuple(p[2] for p in PLANETS)
PLANET_SLOTS = tuple(p[3] for p in PLANETS)
PLANET_INFLUENCE = tuple(p[4] for p in PLANETS)
WARFARE_COST = tuple(p[5] for p in PLANETS)
COLONIZE_COST = tuple(p[6] for p in PLANETS)
HAND_BONUS = tuple(p[7] for p in PLANETS)
# a slot is a bit of the planet's resource mask: (bit, kind) per slot
SLOT_BITS = tuple(tuple((1 << i, kind) for i, kind in enumerate(p[3])) for p in PLANETS)
N_START = len(START_PLANETS)


class Player:
    """One seat: its cards (deck top = end of the list; hand and role area as counts per kind),
    its empire (face-down and face-up planet ids, in the order they came), its tokens."""

    __slots__ = (
        "deck",
        "hand",
        "discard",
        "down",
        "up",
        "symbols",
        "hand_bonus",
        "fighters",
        "influence",
        "area",
    )

    def __init__(self) -> None:
        self.deck: list[int] = []
        self.hand: list[int] = [0] * 6
        self.discard: list[int] = []
        self.down: list[int] = []
        self.up: list[int] = []
        self.symbols: list[int] = [0] * 6  # symbols on face-up planets, per symbol
        self.hand_bonus = 0
        self.fighters = 0
        self.influence = 0
        self.area = 0  # cards in the role area this role phase (all of the role's card kind)


class Game:
    """One Learning Game between random players. `play()` runs it to the end."""

    def __init__(self, players: int, seed: int) -> None:
        if players not in END_STACKS:
            raise ValueError(f"the Learning Game is for 2 to 4 players, not {players}")
        rng = random.Random(seed)
        self.rng = rng
        self.n = players
        self.players = [Player() for _ in range(players)]
        self.stacks = list(STACK_CARDS)
        self.colonies = [0] * len(PLANETS)  # Colonize cards tucked under each planet
        self.resources = [0] * len(PLANETS)  # filled slots of each planet, a bit mask
        self.supply = INFLUENCE_SUPPLY
        self.box = 0  # role cards removed from the game
        self.turns = 0
        self.decisions = 0
        self.end_reason = ""
        self.planet_deck = list(range(N_START, len(PLANETS)))
        rng.shuffle(self.planet_deck)
        self.planet_discard: list[int] = []
        starts = list(range(N_START))
        rng.shuffle(starts)
        for p in self.players:
            p.down.append(starts.pop())
            deck = [POLITICS]
            for kind, count in enumerate(DECK_CARDS):
                deck += [kind] * count
                self.stacks[kind] -= count
            rng.shuffle(deck)
            p.deck = deck
            self.draw(p, HAND_SIZE)
        self.boxed_starts = len(starts)

    # ---- decisions -------------------------------------------------------------------
    def pick(self, options: int) -> int:
        """A uniformly random option among `options`; a forced one (1) is not a decision."""
        if options <= 1:
            return 0
        self.decisions += 1
        return self.rng.randrange(options)

    # ---- the game --------------------------------------------------------------------
    def play(self, after_turn: Callable[[Game], None] | None = None) -> Game:
        """Every turn until the end; `after_turn(self)` after each (for tests)."""
        end = END_STACKS[self.n]
        stacks = self.stacks
        while True:
            for seat in range(self.n):
                self.turn(seat)
                self.turns += 1
                if after_turn is not None:
                    after_turn(self)
                if self.turns >= TURN_LIMIT and not self.end_reason:
                    self.end_reason = "turn limit"
                    return self
                if not self.end_reason:
                    if self.supply == 0:
                        self.end_reason = "influence supply exhausted"
                    elif (not stacks[0]) + (not stacks[1]) + (not stacks[2]) + (not stacks[3]) >= end:
                        self.end_reason = "role stacks exhausted"
            if self.end_reason:
                return self

    def turn(self, seat: int) -> None:
        players = self.players
        me = players[seat]
        hand = me.hand
        pick = self.pick
        # action phase: play one card for its Action, or pass
        kinds = [k for k in range(6) if hand[k]]
        if kinds:
            i = pick(len(kinds) + 1)
            if i < len(kinds):
                self.action(me, kinds[i])
        # role phase: lead a role, boost one card at a time, then each opponent follows or dissents
        role = pick(5)
        card = ROLE_CARD[role]
        if self.stacks[card]:
            self.stacks[card] -= 1
            area, bonus = 1, 0
        else:
            area, bonus = 0, EMPTY_BONUS[role]
        while hand[card] and not pick(2):
            hand[card] -= 1
            area += 1
        me.area = area
        x = area + me.symbols[role] + bonus
        if role == 0:
            self.survey(me, x)
        elif role == 1:
            attackable = [pl for pl in me.down if WARFARE_COST[pl] <= me.fighters]
            if attackable and pick(2):
                self.attack(me, attackable)
            else:
                me.fighters += x
        elif role == 2:
            ready = self.ready(me)
            if ready and pick(2):
                self.flip(me, ready[pick(len(ready))])  # the cards stay in the role area
            else:
                self.add_colonies(me)
        elif role == 3:
            self.produce(me, x)
        else:
            self.trade(me, x)
        for k in range(1, self.n):
            other = players[(seat + k) % self.n]
            if pick(2):
                self.draw(other, 1)  # dissent
                continue
            ohand = other.hand
            area = 0
            while ohand[card] and not pick(2):
                ohand[card] -= 1
                area += 1
            other.area = area
            x = area + other.symbols[role]
            if role == 0:
                self.survey(other, x - 1)
            elif role == 1:
                other.fighters += x
            elif role == 2:
                self.add_colonies(other)
            elif role == 3:
                self.produce(other, x)
            else:
                self.trade(other, x)
        # cleanup: every role area to its discard pile; discard any, then down to the limit; draw up
        for p in players:
            if p.area:
                p.discard += [card] * p.area
                p.area = 0
        discard = me.discard
        while True:
            kinds = [k for k in range(6) if hand[k]]
            if not kinds:
                break
            i = pick(len(kinds) + 1)
            if i == len(kinds):
                break
            hand[kinds[i]] -= 1
            discard.append(kinds[i])
        limit = HAND_LIMIT + me.hand_bonus
        held = sum(hand)
        while held > limit:
            kinds = [k for k in range(6) if hand[k]]
            k = kinds[pick(len(kinds))]
            hand[k] -= 1
            discard.append(k)
            held -= 1
        if held < limit:
            self.draw(me, limit - held)

    def action(self, me: Player, kind: int) -> None:
        """Play a card of `kind` from hand for its Action; it then goes to the discard pile
        unless the Action moved it (rulings B7)."""
        hand = me.hand
        hand[kind] -= 1
        pick = self.pick
        if kind == SURVEY:
            self.draw(me, 2)
        elif kind == WARFARE:
            attackable = [pl for pl in me.down if WARFARE_COST[pl] <= me.fighters]
            if attackable and pick(2):
                self.attack(me, attackable)
            else:
                me.fighters += 1
        elif kind == COLONIZE:
            down = me.down
            if down:
                ready = self.ready(me)
                if ready and pick(2):
                    self.flip(me, ready[pick(len(ready))])
                else:
                    self.colonies[down[pick(len(down))]] += 1
                    return  # tucked under the planet
        elif kind == PRODUCE_TRADE:
            can_produce = any(not self.resources[pl] & bit for pl in me.up for bit, _ in SLOT_BITS[pl])
            can_trade = any(self.resources[pl] for pl in me.up)
            if can_produce and can_trade:
                if pick(2):
                    self.trade(me, 1)
                else:
                    self.produce(me, 1)
            elif can_produce:
                self.produce(me, 1)
            elif can_trade:
                self.trade(me, 1)
        elif kind == RESEARCH:
            # up to 2 times: a card of the hand (each kind once) or this card, or done
            here = 1
            for _ in range(2):
                kinds = [k for k in range(6) if hand[k]]
                i = pick(len(kinds) + here + 1)
                if i == len(kinds) + here:
                    break
                self.box += 1
                if i < len(kinds):
                    hand[kinds[i]] -= 1
                else:
                    here = 0
            if not here:
                return
        else:  # Politics: to the box, then the top card of a non-empty stack into hand
            self.box += 1
            stacks = self.stacks
            open_stacks = [s for s in range(4) if stacks[s]]
            if open_stacks:
                s = open_stacks[pick(len(open_stacks))]
                stacks[s] -= 1
                hand[s] += 1
            return
        me.discard.append(kind)

    # ---- the pieces of the roles -----------------------------------------------------
    def draw(self, p: Player, n: int) -> None:
        deck, hand = p.deck, p.hand
        for _ in range(n):
            if not deck:
                if not p.discard:
                    return
                deck = p.deck = p.discard
                p.discard = []
                self.rng.shuffle(deck)
            hand[deck.pop()] += 1

    def survey(self, p: Player, n: int) -> None:
        """Look at n planets, keep one face down in the empire, the rest to the planet discard."""
        seen = []
        for _ in range(n):
            if not self.planet_deck:
                if not self.planet_discard:
                    break
                self.planet_deck, self.planet_discard = self.planet_discard, []
                self.rng.shuffle(self.planet_deck)
            seen.append(self.planet_deck.pop())
        if seen:
            p.down.append(seen.pop(self.pick(len(seen))))
            self.planet_discard += seen

    def ready(self, p: Player) -> list[int]:
        """Face-down planets whose colonies plus the empire's Colonize symbols meet the cost."""
        discount = p.symbols[C]
        colonies = self.colonies
        return [pl for pl in p.down if colonies[pl] + discount >= COLONIZE_COST[pl]]

    def attack(self, p: Player, attackable: list[int]) -> None:
        pl = attackable[self.pick(len(attackable))]
        p.fighters -= WARFARE_COST[pl]
        self.flip(p, pl)

    def flip(self, p: Player, pl: int) -> None:
        """Settle or attack: face up; its colonies go to the discard pile (rulings B14)."""
        p.down.remove(pl)
        p.up.append(pl)
        if self.colonies[pl]:
            p.discard += [COLONIZE] * self.colonies[pl]
            self.colonies[pl] = 0
        if PLANET_SYMBOL[pl] != NO_SYMBOL:
            p.symbols[PLANET_SYMBOL[pl]] += 1
        p.hand_bonus += HAND_BONUS[pl]

    def add_colonies(self, p: Player) -> None:
        """Each Colonize card of the role area under a face-down planet of the player's choice."""
        down = p.down
        if not down:
            return
        colonies = self.colonies
        for _ in range(p.area):
            colonies[down[self.pick(len(down))]] += 1
        p.area = 0

    def produce(self, p: Player, n: int) -> None:
        resources = self.resources
        for _ in range(n):
            slots = [(pl, bit) for pl in p.up for bit, _ in SLOT_BITS[pl] if not resources[pl] & bit]
            if not slots:
                return
            pl, bit = slots[self.pick(len(slots))]
            resources[pl] |= bit

    def trade(self, p: Player, n: int) -> None:
        resources = self.resources
        for _ in range(n):
            tokens = [(pl, bit) for pl in p.up for bit, _ in SLOT_BITS[pl] if resources[pl] & bit]
            if not tokens:
                return
            pl, bit = tokens[self.pick(len(tokens))]
            resources[pl] &= ~bit
            p.influence += 1
            if self.supply:
                self.supply -= 1

    # ---- the end ---------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Influence tokens plus the influence of face-up planets (rulings B21)."""
        return [p.influence + sum(PLANET_INFLUENCE[pl] for pl in p.up) for p in self.players]

    def tiebreaks(self) -> list[int]:
        """Fighters plus resources on face-up planets (rulings B22)."""
        return [p.fighters + sum(bin(self.resources[pl]).count("1") for pl in p.up) for p in self.players]

    def winners(self) -> list[int]:
        best = max(zip(self.scores(), self.tiebreaks()))
        return [i for i, st in enumerate(zip(self.scores(), self.tiebreaks())) if st == best]

    def card_counts(self) -> tuple[int, int]:
        """(role cards, planets) wherever they are: for checking that none appears or vanishes."""
        cards = sum(self.stacks) + self.box + sum(self.colonies)
        planets = len(self.planet_deck) + len(self.planet_discard) + self.boxed_starts
        for p in self.players:
            cards += len(p.deck) + sum(p.hand) + len(p.discard) + p.area
            planets += len(p.down) + len(p.up)
        return cards, planets


def total_cards(players: int) -> tuple[int, int]:
    """The role cards (stacks, with the Research stack, and one Politics card each) and the
    planets (start planets and deck) of a Learning Game."""
    return sum(STACK_CARDS) + players, len(PLANETS)


def play(players: int, seed: int) -> Game:
    """One game between random players, played to the end."""
    return Game(players, seed).play()
