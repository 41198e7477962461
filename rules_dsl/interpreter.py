"""Running compiled rules on a state: set-up, the step loop, applying a decision."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules_dsl import chosen, rng
from rules_dsl.effects.base import game_limit_error, running_card, watch
from rules_dsl.errors import GameRecord, GameRuntimeError, IllegalOption, RulesError, RulesLoopError
from rules_dsl.rules import Rules
from rules_dsl.state import CardState, Decision, Frame, GameState, new_card
from rules_dsl.statistics import Recorder


def resolve_params(rules: Rules, players: int, variants: Iterable[str]) -> dict[str, int]:
    params: dict[str, int] = {"PLAYERS": players}
    for name, value in rules.params.items():
        if isinstance(value, dict):
            if players not in value:
                raise RulesError(f"parameter {name} has no value for {players} players")
            params[name] = value[players]
        else:
            params[name] = value
    for vname in variants:
        if chosen.is_choice(vname):  # OPTION=NAME: a chosen card turns on its option's variant
            option, _ = chosen.parse(rules, vname)
            if not option.variant:
                continue
            vname = option.variant
        variant = rules.variants.get(vname)
        if variant is None:
            known = ", ".join(sorted(rules.variants)) or "none"
            raise RulesError(f"unknown variant {vname!r} (known: {known})")
        for name, value in variant.params.items():
            if isinstance(value, dict):
                if players in value:
                    params[name] = value[players]
            else:
                params[name] = value
    return params


def new_game(
    rules: Rules, players: int, seed: int, variants: Iterable[str] | None = None, recorder: Recorder | None = None
) -> GameState:
    """A game at its first decision, after set-up; `recorder` counts its card moves (set-up's too)."""
    return _created(rules, players, seed, variants, recorder, start=True)


def set_up(rules: Rules, players: int, seed: int, variants: Iterable[str] | None = None) -> GameState:
    """A game right after its set-up, before the first turn starts (a scenario lays its
    position out on it); a set-up that asks a decision stops there."""
    return _created(rules, players, seed, variants, None, start=False)


def _created(
    rules: Rules, players: int, seed: int, variants: Iterable[str] | None, recorder: Recorder | None, start: bool
) -> GameState:
    if not rules.min_players <= players <= rules.max_players:
        fewest, most = rules.min_players, rules.max_players
        allowed = f"exactly {fewest}" if fewest == most else f"{fewest} to {most}"
        raise RulesError(f"{rules.name} is for {allowed} players, not {players}")
    variant_names = [
        chosen.canonical(rules, v) if chosen.is_choice(v) else v
        for v in (rules.default_variants if variants is None else variants)
    ]
    params = resolve_params(rules, players, variant_names)
    zones: dict[str, list[int]] = {}
    for z in rules.zones.values():
        if z.per_player:
            for p in range(players):
                zones[z.key(p)] = []
        else:
            zones[z.name] = []
    cards: list[CardState] = []
    for t, ct in enumerate(rules.cards):
        count = ct.count if isinstance(ct.count, int) else params[ct.count]
        up = rules.zones[ct.zone].facing != "down"
        for _ in range(count):
            zones[ct.zone].append(len(cards))
            cards.append(new_card(t, ct.zone, up))
    chosen.place(rules, variant_names, cards, zones, params)
    counters = {
        c.name: [c.start if isinstance(c.start, int) else params[c.start]] * players
        for c in rules.counters.values()
        if c.per_player
    }
    shared = {name: (v if isinstance(v, int) else params[v]) for name, v in rules.shared_counters.items()}
    st = GameState(
        packs=list(rules.packs),
        variants=variant_names,
        players=players,
        seed=seed,
        rng=rng.seed_state(seed),
        params=params,
        cards=cards,
        zones=zones,
        counters=counters,
        shared=shared,
    )
    st.rules = rules
    if rules.statistics:
        st.recorder = recorder
    if start:
        st.frames.append(Frame(rules.game_loop, 0, -1, 0, {}, None))
    if rules.setup >= 0:
        st.frames.append(Frame(rules.setup, 0, -1, 0, {}, None))
    try:
        run(rules, st)
    except Exception as exc:
        raise _in_game(rules, st, exc) from None
    return st


def run(rules: Rules, st: GameState, fresh: bool = True) -> None:
    """Step effects until a player must decide or the game is over.

    End triggers checked at once are watched (`effects.base.watch`): the effects that change what
    they read test them on the spot, so the end is triggered the moment one holds, not
    only after the turn. `fresh`: the state may have changed outside the effects (a new
    game, a scenario's position), so they are tested first; `apply` passes False.
    """
    st.rules = rules
    effects = rules.effects
    frames = st.frames
    limit = rules.step_limit
    steps = 0
    if fresh and rules.watched:
        watch(st)
    fused = rules.fused
    if fused is not None:  # the generated step functions (rules_dsl/codegen), by effect id
        _run_fused(rules, st, fused.steps)
        return
    if rules.watch_every:  # a watched condition that reads cards: tested after each changing step
        while frames and st.pending is None:
            fr = frames[-1]
            effect = effects[fr.eid]
            effect.step(st, fr)
            if effect.changes:
                watch(st)
            steps += 1
            if steps > limit:
                raise RulesLoopError(_loop_message(rules, st))
        return
    while frames and st.pending is None:
        fr = frames[-1]
        effects[fr.eid].step(st, fr)
        steps += 1
        if steps > limit:
            raise RulesLoopError(_loop_message(rules, st))


def _run_fused(rules: Rules, st: GameState, steps: tuple[Any, ...]) -> None:
    """`run`'s loop with the generated steps: the same frames, the same steps counted."""
    frames = st.frames
    limit = rules.step_limit
    steps_taken = 0
    if rules.watch_every:
        effects = rules.effects
        while frames and st.pending is None:
            eid = frames[-1].eid
            steps[eid](st, frames[-1])
            if effects[eid].changes:
                watch(st)
            steps_taken += 1
            if steps_taken > limit:
                raise RulesLoopError(_loop_message(rules, st))
        return
    while frames and st.pending is None:
        fr = frames[-1]
        steps[fr.eid](st, fr)
        steps_taken += 1
        if steps_taken > limit:
            raise RulesLoopError(_loop_message(rules, st))


def _loop_message(rules: Rules, st: GameState) -> str:
    card = running_card(rules, st)
    if card:
        return f"card {card} ran {rules.step_limit} steps without a decision: its effects never finish"
    texts = [rules.effects[fr.eid].text for fr in st.frames[-3:]]
    return f"the rules ran {rules.step_limit} steps without a decision (in: {' / '.join(texts)})"


def _decision_limit_message(rules: Rules, st: GameState) -> str:
    card = running_card(rules, st)
    where = f"card {card}" if card else "the rules"
    return (
        f"{where} asked for more than {rules.decision_limit} decisions in one turn: "
        "the turn never ends (a pack's limits: decisions-per-turn raises the bound)"
    )


def record(st: GameState) -> GameRecord:
    return GameRecord(tuple(st.packs), st.players, st.seed, tuple(st.variants), tuple(st.log))


def _in_game(rules: Rules, st: GameState, exc: Exception) -> Exception:
    """The error with the card that was running and what reproduces the game.

    A user's error (RulesError) becomes a GameRuntimeError that says it; any other
    exception is a bug in the engine and goes on as it is, with the same facts as a note.
    """
    card = running_card(rules, st)
    if isinstance(exc, GameRuntimeError):
        if exc.game is None:
            exc.game = record(st)
            exc.card = exc.card or card
        return exc
    if isinstance(exc, RulesError):
        where = f"card {card}: " if card else ""
        return GameRuntimeError(where + str(exc), card, record(st))
    exc.add_note(("while running card " + card + ", " if card else "") + record(st).describe())
    return exc


def apply(rules: Rules, st: GameState, option: str) -> None:
    """Apply one legal option: the fast path for batch runners that drop a failed game.

    An illegal option raises IllegalOption and changes nothing. A legal one that fails
    part-way (a limit, a rules error) raises GameRuntimeError and leaves the state half
    applied; `apply_atomic` (`Engine.apply`) undoes it.
    """
    d = st.pending
    if d is None:
        raise IllegalOption("the game is over: there is nothing to decide" if st.over else "no decision is pending")
    if st.also:
        _apply_among(rules, st, option)
        return
    try:
        index = d.options.index(option)
    except ValueError:
        if option[:1] == "@":  # `@N:option`, for one seat of several
            _apply_among(rules, st, option)
            return
        raise IllegalOption(_not_legal(d, option)) from None
    st.pending = None
    st.log.append(option)
    st.turn_decisions += 1
    try:
        # (a game's decisions are counted at the end of each turn: `GameLoop.end_turn`)
        if st.turn_decisions > rules.decision_limit:
            raise RulesLoopError(_decision_limit_message(rules, st))
        fr = st.frames[-1]
        st.rules = rules
        fused = rules.fused
        if fused is not None:  # the generated answer, and `run`'s loop at once
            fused.resumes[fr.eid](st, fr, d.values[index])
            _run_fused(rules, st, fused.steps)
            return
        # (the last seat of a simultaneous decision to answer: `AtOnce.resume`)
        rules.effects[fr.eid].resume(st, fr, d.values[index])
        run(rules, st, fresh=False)
    except Exception as exc:
        raise _in_game(rules, st, exc) from None


def _not_legal(d: Decision, option: str) -> str:
    legal = ", ".join(repr(o) for o in d.options)
    return (
        f"{option!r} is not a legal option now. Player {d.player + 1} must {d.prompt} ({d.source}); "
        f"legal options: {legal}"
    )


def pending_decisions(st: GameState) -> list[Decision]:
    """Every decision pending now: one, or one per seat of a simultaneous decision."""
    d = st.pending
    if d is None:
        return []
    if not st.also:
        return [d]
    return [d, *st.also]


def deciding_at_once(st: GameState) -> bool:
    """Whether the pending decisions are seats' answers to a simultaneous decision."""
    frames = st.frames
    return bool(st.also) or (bool(frames) and st.rules.effects[frames[-1].eid].simultaneous)


def addressed(st: GameState, option: str) -> tuple[Decision, str]:
    """The decision an option answers and the option itself: a plain option answers
    `GameState.pending`, `@N:option` the pending decision of player N (several seats
    decide at once, `effects.simultaneous`). IllegalOption if there is none."""
    d = st.pending
    if d is None:
        raise IllegalOption("the game is over: there is nothing to decide" if st.over else "no decision is pending")
    if option[:1] != "@":
        return d, option
    seat_text, colon, bare = option[1:].partition(":")
    if not colon or not seat_text.isdigit():
        raise IllegalOption(f"{option!r}: an option for one seat is written @N:OPTION, N the player's number")
    seat = int(seat_text) - 1
    for x in pending_decisions(st):
        if x.player == seat:
            return x, bare
    waiting = ", ".join(str(x.player + 1) for x in pending_decisions(st))
    raise IllegalOption(f"{option!r}: player {seat_text} has no decision pending (pending: player {waiting})")


def _apply_among(rules: Rules, st: GameState, option: str) -> None:
    """One seat's answer to a simultaneous decision: kept until every seat has answered,
    then the game goes on. Logged plain when it answers `pending`, else as `@N:option`."""
    d, bare = addressed(st, option)
    try:
        index = d.options.index(bare)
    except ValueError:
        raise IllegalOption(_not_legal(d, bare)) from None
    fr = st.frames[-1] if st.frames else None
    effect = rules.effects[fr.eid] if fr is not None else None
    if (fr is None or effect is None or not effect.simultaneous) and d is st.pending and not st.also:
        apply(rules, st, bare)  # `@N:` for the one seat deciding: the plain option
        return
    if fr is None or effect is None or not effect.simultaneous:
        raise IllegalOption(f"{option!r}: only a simultaneous decision is answered for one seat")
    first = d is st.pending
    if first:
        st.pending = st.also.pop(0) if st.also else None
    else:
        st.also.remove(d)
    st.log.append(bare if first else f"@{d.player + 1}:{bare}")
    st.turn_decisions += 1
    try:
        _limits(rules, st)
        st.rules = rules
        effect.answer(st, fr, d.player, d.values[index])  # type: ignore[attr-defined]
        if st.pending is None:
            run(rules, st, fresh=False)
    except Exception as exc:
        raise _in_game(rules, st, exc) from None


def _limits(rules: Rules, st: GameState) -> None:
    if st.turn_decisions > rules.decision_limit:
        raise RulesLoopError(_decision_limit_message(rules, st))
    if len(st.log) > rules.game_decision_limit:
        raise game_limit_error(rules)


def apply_atomic(rules: Rules, st: GameState, option: str) -> None:
    """Apply one option all or nothing: on any error the state is exactly as before.

    Costs a clone of the state per decision (cheap: cards are shared until changed, see
    `GameState.card_to_change`); batch runners that drop a failed game use `apply`.
    """
    saved = st.clone()
    try:
        apply(rules, st, option)
    except BaseException:
        st.restore(saved)
        raise


def replay(rules: Rules, players: int, seed: int, variants: list[str] | None, log: list[str]) -> GameState:
    st = new_game(rules, players, seed, variants)
    for option in log:
        apply(rules, st, option)
    return st


def score_now(rules: Rules, st: GameState) -> tuple[list[int], list[int], dict[str, list[int]]]:
    """The pack's score, tie-break and breakdown for each player, worked out now."""
    from rules_dsl.effects.turns import GameLoop

    st.rules = rules
    loop = rules.effects[rules.game_loop]
    assert isinstance(loop, GameLoop)
    return loop.score_now(st)


def check_state(rules: Rules, st: GameState, settled: bool = True) -> list[str]:
    """Problems with a state's consistency (for loaded files and property tests)."""
    problems: list[str] = []
    where: dict[int, str] = {}

    def place(card: int, loc: str) -> None:
        if not 0 <= card < len(st.cards):
            problems.append(f"{loc} holds card {card}, which does not exist")
            return
        if card in where:
            problems.append(f"card {card} is in two places: {where[card]} and {loc}")
        where[card] = loc
        if st.cards[card].loc != loc:
            problems.append(f"card {card} is in {loc} but says it is in {st.cards[card].loc}")

    for key, cards in st.zones.items():
        for c in cards:
            place(c, key)
    for i, cs in enumerate(st.cards):
        for c in cs.under:
            place(c, f"^{i}")
        if not 0 <= cs.type < len(rules.cards):
            problems.append(f"card {i} has unknown type {cs.type}")
    for i in range(len(st.cards)):
        if i not in where:
            problems.append(f"card {i} is nowhere")
    # only a counter the pack lets go below 0 (`may-be-negative: true`) may be negative
    counters = rules.counters
    for name, values in st.counters.items():
        for p, value in enumerate(values):
            if value < 0 and not (name in counters and counters[name].may_be_negative):
                problems.append(f"counter {name} of player {p} is negative ({value})")
    for name, value in st.shared.items():
        if value < 0 and not (name in counters and counters[name].may_be_negative):
            problems.append(f"counter {name} is negative ({value})")
    for fr in st.frames:
        if not 0 <= fr.eid < len(rules.effects):
            problems.append(f"a frame names unknown effect {fr.eid}")
    for entry in st.lasting:
        if not 0 <= entry.ability < len(rules.effects) or not 0 <= entry.player < st.players:
            problems.append(f"a lasting effect names unknown ability {entry.ability} or player {entry.player}")
    if settled and st.frames and st.pending is None:
        problems.append("the game is not over but no decision is pending")
    if st.pending is not None and len(st.pending.options) != len(st.pending.values):
        problems.append("the pending decision's options and values do not match")
    return problems


def decision_summary(st: GameState) -> dict[str, Any] | None:
    d = st.pending
    if d is None:
        return None
    return {"player": d.player, "prompt": d.prompt, "source": d.source, "options": list(d.options)}
