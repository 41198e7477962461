"""Working out a pack's invariants (`invariants:` in the pack) in a position.

An invariant that cannot be worked out (it names a zone of a player who does not exist, a
name nothing binds...) is a problem of the invariant, not of the game:
`InvariantUnusable` says so, apart from `Broken`.
"""

from __future__ import annotations

from typing import Any

from rules_dsl.checking.failures import Broken, InvariantUnusable
from rules_dsl.rules import Invariant, Rules
from rules_dsl.state import Frame, GameState


def _frame(rules: Rules, player: int) -> Frame:
    return Frame(rules.game_loop, player, -1, 0, {}, None)


def value(rules: Rules, st: GameState, inv: Invariant) -> Any:
    """The claim's value: a number (expression claims) or, for `holds`, the seats where it is false."""
    st.rules = rules
    saved = st.frames
    # names resolve against the pack's parameters only, never the running text's variables
    st.frames = []
    try:
        if inv.kind == "holds":
            return [p for p in range(st.players) if not inv.claim.test(st, _frame(rules, p))]
        total = int(inv.claim.num(st, _frame(rules, 0)))
        if inv.each_player is not None:
            total += sum(int(inv.each_player.num(st, _frame(rules, p))) for p in range(st.players))
        return total
    except Exception as exc:  # any failure to work it out is the invariant's problem
        raise InvariantUnusable(
            f"pack invariant '{inv.name}'",
            f"cannot be worked out in this position ({inv.file}:{inv.line}): {type(exc).__name__}: {exc}",
        ) from None
    finally:
        st.frames = saved


class Tracker:
    """Checks every pack invariant position after position, remembering the last values."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.last: dict[str, int] = {}
        self.checked = 0

    def check(self, st: GameState) -> None:
        for inv in self.rules.invariants:
            now = value(self.rules, st, inv)
            self.checked += 1
            label = f"pack invariant '{inv.name}'"
            if inv.kind == "holds":
                if now:
                    seats = ", ".join(str(p + 1) for p in now)
                    raise Broken(label, f"is false for player {seats} ({inv.file}:{inv.line})", expected=True)
                continue
            before = self.last.get(inv.name)
            self.last[inv.name] = now
            if before is None:
                continue
            bad = (
                (inv.kind == "constant" and now != before)
                or (inv.kind == "never-decreases" and now < before)
                or (inv.kind == "never-increases" and now > before)
            )
            if bad:
                word = {
                    "constant": "must stay",
                    "never-decreases": "may not go below",
                    "never-increases": "may not go above",
                }[inv.kind]
                expected: Any = (
                    before
                    if inv.kind == "constant"
                    else ({"at-least": before} if inv.kind == "never-decreases" else {"at-most": before})
                )
                raise Broken(
                    label, f"went from {before} to {now}; it {word} {before} ({inv.file}:{inv.line})", expected=expected
                )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def scenario_check(rules: Rules, st: GameState, name: str, wanted: Any) -> tuple[bool, str]:
    """A scenario's `invariants: {NAME: WANTED}` expectation: (holds, detail)."""
    inv = next((i for i in rules.invariants if i.name == name), None)
    if inv is None:
        known = ", ".join(repr(i.name) for i in rules.invariants) or "none"
        return False, f"the packs declare no invariant {name!r} (declared: {known})"
    try:
        now = value(rules, st, inv)
    except InvariantUnusable as exc:
        return False, exc.detail
    if inv.kind == "holds":
        if not isinstance(wanted, bool):
            return False, f"invariant {name!r} holds or not: expect true or false, not {wanted!r}"
        ok = (not now) == wanted
        return ok, "" if ok else f"expected {wanted!r}; false for player(s) {[p + 1 for p in now]}"
    if isinstance(wanted, dict) and len(wanted) == 1 and set(wanted) <= {"at-least", "at-most"}:
        ((how, bound),) = wanted.items()
        if not _whole(bound):
            return False, f"{how}: is a whole number, not {bound!r}"
        ok = now >= bound if how == "at-least" else now <= bound
        return ok, "" if ok else f"expected {how} {bound}, got {now}"
    if not _whole(wanted):
        return (
            False,
            f"invariant {name!r} is a number: expect a whole number, {{at-least: N}} or {{at-most: N}}, not {wanted!r}",
        )
    ok = now == wanted
    return ok, "" if ok else f"expected {wanted!r}, got {now}"
