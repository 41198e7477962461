"""A property of a card named by an expression: `the suit of the card in your lead`, and
the comparison of two cards' words (`its suit is the suit of the card in ...`).

docs/dsl.md#the-property-of-a-card. The property itself is read by values.CardProp, as
`its suit` is; this module adds the card that a few zones hold and the test that two
read values are the same word."""

from __future__ import annotations

import attrs

from rules_dsl.effects.values import CardExpr, CardProp, CardSet, Cond
from rules_dsl.state import Frame, GameState


@attrs.frozen
class CardIn(CardExpr):
    """`the card in ZONES`: the first card the zones hold (in the order written, each from
    the bottom); -1 when they hold none (reading a property of it is then an error)."""

    cset: CardSet

    def card(self, st: GameState, fr: Frame, cand: int = -1) -> int:
        found = self.cset.cards(st, fr, cand)
        return found[0] if found else -1


@attrs.frozen
class SameValue(Cond):
    """`A is B` / `A is not B` for two cards' words (text, symbol or zone properties)."""

    left: CardProp
    right: CardProp
    negated: bool

    def test(self, st: GameState, fr: Frame, cand: int = -1) -> bool:
        same: bool = self.left.value(st, fr, cand) == self.right.value(st, fr, cand)
        return same != self.negated
