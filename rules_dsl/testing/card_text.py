"""Hypothesis strategies for card texts, for fuzzing the parser, compiler and interpreter.

`card_texts(words)` writes texts rule by rule from `grammar/effects.lark`: each function
below is one rule of the grammar and draws one of its alternatives, so every text it makes
is syntactically valid and reaches the compiler (only names and nesting vary). Names come
from `Words`, usually the words of a real pack, so that many texts also compile and run.
`mutated_texts(texts)` takes real card texts and deletes, repeats, swaps, replaces or
inserts a few tokens: texts that are almost right, the kind a modder writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

import attrs
from hypothesis import strategies as st

from rules_dsl.compiler import params as named
from rules_dsl.parser import GRAMMAR
from rules_dsl.rules import Rules

Text = st.SearchStrategy[str]

# the grammar's keywords (the quoted words of its rules, not of its comments), for mutations
_RULES_TEXT = "\n".join(line.split("//")[0] for line in GRAMMAR.read_text(encoding="utf-8").splitlines())
KEYWORDS = tuple(sorted(set(re.findall(r'"([^"]+)"', _RULES_TEXT))))
# upper-case words the lexer takes as keywords, quoted or in a terminal (WHEN.2: "WHEN" | ...)
UPPER_KEYWORDS = frozenset(w for k in KEYWORDS for w in k.split() if w.isupper()) | {"WHEN", "WHENEVER"}


@attrs.frozen
class Words:
    """The names texts are written with: a pack's zones, counters, and so on."""

    zones: tuple[str, ...] = ("hand", "deck", "discard")
    counters: tuple[str, ...] = ("gold", "point", "points")
    kinds: tuple[str, ...] = ("card", "cards")
    symbols: tuple[str, ...] = ("star",)
    properties: tuple[str, ...] = ("cost",)
    sections: tuple[str, ...] = ("ACTION",)
    variables: tuple[str, ...] = ("X", "N")
    names: tuple[str, ...] = ("it", "role")  # procedures, bound names, marks, groups, any other


def words_of(rules: Rules, texts: Iterable[str] = ()) -> Words:
    """The words of compiled rules, plus every name and variable found in `texts`."""
    found_names: set[str] = set()
    found_vars: set[str] = set()
    for text in texts:
        found_names.update(re.findall(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b", text))
        # upper-case keywords ("OR", "WHEN", "ONCE PER TURN") are not variables
        found_vars.update(w for w in re.findall(r"\b[A-Z][A-Z0-9_]*\b", text) if w not in UPPER_KEYWORDS)
    counters = {c.name for c in rules.counters.values()} | {c.plural for c in rules.counters.values()}
    kinds = {c.kind for c in rules.cards}
    symbols = {s for c in rules.cards for s in c.symbols}
    sections = {s for c in rules.cards for s in c.sections}
    props = {p for c in rules.cards for p in c.props}

    def tup(words: Iterable[str], fallback: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(words)) or fallback

    default = Words()
    return Words(
        zones=tup(rules.zones, default.zones),
        counters=tup(counters, default.counters),
        kinds=tup(kinds | {k + "s" for k in kinds}, default.kinds),
        symbols=tup(symbols, default.symbols),
        properties=tup(props, default.properties),
        sections=tup(sections, default.sections),
        variables=tup(found_vars | set(rules.params) | {"X", "N"}, default.variables),
        names=tup(found_names - set(KEYWORDS), default.names),
    )


def _join(parts: Sequence[str]) -> str:
    return " ".join(p for p in parts if p)


def _seq(*parts: Text | str) -> Text:
    """Parts in order, joined by spaces; a plain string is a keyword."""
    return st.tuples(*(st.just(p) if isinstance(p, str) else p for p in parts)).map(_join)


def _opt(part: Text | str) -> Text:
    return st.one_of(st.just(""), part if not isinstance(part, str) else st.just(part))


class _Grammar:
    """One method per grammar rule; `d` is how much deeper statements may nest."""

    def __init__(self, words: Words) -> None:
        w = words
        self.zone = st.sampled_from(w.zones)
        self.counter = st.sampled_from(w.counters)
        self.kind = st.sampled_from(w.kinds)
        self.symbol = st.sampled_from(w.symbols)
        self.prop = st.sampled_from(w.properties)
        self.var = st.sampled_from(w.variables)
        self.label = st.sampled_from(w.sections)
        # NAME is whatever fits the place; any name, now and then, to reach "unknown ..." paths
        self.any_name = st.sampled_from(sorted({*w.zones, *w.counters, *w.kinds, *w.symbols, *w.names}))
        self.name = st.one_of(self.any_name, st.sampled_from(w.names))
        self.int = st.one_of(st.integers(0, 5), st.integers(0, 10**12)).map(str)

    # ---- top level ---------------------------------------------------------------
    def start(self, d: int) -> Text:
        # section+ (a card's text), now and then with a replacement or continuous ability;
        # now and then a bare block, which a card must refuse
        items = st.one_of(self.section(d), self.section(d), self.section(d), self.replacement(d), self.continuous(d))
        sections = st.lists(items, min_size=1, max_size=3).map("\n".join)
        block = self.block(d)
        return st.integers(0, 9).flatmap(lambda i: block if i == 0 else sections)

    def replacement(self, d: int) -> Text:
        """`[MAY] INSTEAD OF <subject> MOMENT [while in your ZONE]: block` or `[MAY] PREVENT ...`."""
        subject = st.sampled_from(["you", "an opponent", "a player"])
        spot = _opt(_seq("while", _opt(st.sampled_from(["face-up", "face-down"])), "in your", self.zone))
        return st.one_of(
            _seq(_opt("MAY"), "INSTEAD OF", subject, self.name, spot, ":", self.block(d)),
            _seq(_opt("MAY"), "PREVENT", subject, self.name, spot),
        )

    def continuous(self, d: int) -> Text:
        """`WHILE [face-up|face-down] in your ZONE: item; ...`, each item a change to a
        quantity or `your copies of CARD are wild [if COND]`."""
        spot = _seq(_opt(st.sampled_from(["face-up", "face-down"])), "in your", self.zone)
        when = _opt(_seq("if", self.cond(d)))
        modify = st.one_of(
            _seq("add", self.expr(d), "to your", self.name, when),
            _seq("subtract", self.expr(d), "from your", self.name, when),
        )
        wild = _seq("your copies of", self.name, "are wild", when)
        items = st.lists(st.one_of(modify, wild), min_size=1, max_size=2).map("; ".join)
        return _seq("WHILE", spot, ":", items)

    def section(self, d: int) -> Text:
        return st.tuples(self.label, self.block(d)).map(lambda t: f"{t[0]}: {t[1]}")

    @cache  # noqa: B019  (one grammar per Words; the strategies are reused)
    def block(self, d: int) -> Text:
        return st.tuples(st.lists(self.stmt(d), min_size=1, max_size=3), st.booleans()).map(
            lambda t: "; ".join(t[0]) + (";" if t[1] else "")
        )

    def stmt(self, d: int) -> Text:
        if d <= 0:
            return self.simple(d)
        return st.one_of(self.alternatives(d), self.compound(d), self.simple(d), self.simple(d))

    def alternatives(self, d: int) -> Text:
        alt = self.body(d)  # alt and body are the same rule
        return st.tuples(_opt("either"), st.lists(alt, min_size=2, max_size=3)).map(
            lambda t: _join([t[0], " OR ".join(t[1])])
        )

    def body(self, d: int) -> Text:
        return st.one_of(self.simple(d), self.block(d - 1).map(lambda b: f"({b})"))

    def compound(self, d: int) -> Text:
        b, c, e = self.body(d), self.cond(d), self.expr(d)
        return st.one_of(
            _seq("you may", b),
            _seq("if", c, "then", b, _opt(_seq("otherwise", b))),
            _seq("repeat", e, "times:", b),
            _seq("up to", e, "times:", b),
            _seq("any number of times:", b),
            _seq("while", c, ":", b),
            _seq("for each", st.sampled_from(["player", "opponent"]), _opt("in turn order"), ":", b),
            _seq("for each", self.query(d), _opt(self.bind()), ":", b),
            _seq("for each", st.sampled_from(["player", "opponent"]), "where", c, ":", b),
            _seq("for the", self.name, ":", b),
            _seq("for", self.seat(), ":", b),  # a player by where they sit
            _seq(st.sampled_from(["you", "they"]), self.name, ":", b),  # an event abilities may replace
        )

    @cache  # noqa: B019
    def simple(self, d: int) -> Text:
        e, q, ref, cref, name = self.expr(d), self.query(d), self.ref(), self.card_ref(d), self.name
        art = st.sampled_from(["a", "an"])
        return st.one_of(
            _seq("choose", art, q, _opt(self.bind())),
            _seq("choose", art, st.sampled_from(["card", "cards"]), "under", st.one_of(cref, q), _opt(self.bind())),
            _seq("choose", art, name, "that is not empty", _opt(self.bind())),
            _seq("move", self.cards(d), "to", ref, _opt(self.facing())),
            _seq("move", self.cards(d), "to the bottom of", ref, _opt(self.facing())),
            _seq("only if", self.cond(d)),
            _seq(st.sampled_from(["you", "they"]), "answer", name, "first"),  # a replaceable event, asked early
            _seq("tuck", cref, "under", cref),
            _seq("flip", cref, self.facing()),
            _seq("draw", e, st.sampled_from(["card", "cards"])),
            _seq("shuffle", ref),
            _seq(st.sampled_from(["gain", "lose", "pay"]), e, self.counter),
            _seq("fill an empty slot on", art, q),
            _seq("remove a token from", art, q),
            _seq("remove", art, name, "token from", art, q),
            _seq("put", art, name, "token on", cref),
            _seq("note", self.value(), "as", name),
            _seq("clear all", name, "notes"),
            _seq("choose", art, name, "kind", _opt(self.bind())),
            # players as values: a chosen player (always named), a property's value, the turn order
            _seq("choose", self.chosen_player(), self.player_where(d), self.bind()),
            _seq("choose", art, self.prop, "value", _opt(_seq("other than", e)), _opt(self.bind())),
            _seq("choose", art, self.prop, "value where", self.cond(d), _opt(self.bind())),
            st.sampled_from(
                ["leave the turn order", "join the turn order", "take the next turn", "become the start player"]
            ),
            _seq("let", self.var, "be", e),
            _seq("set", self.var, "to", e),
            _seq(st.sampled_from(["mark", "unmark"]), cref, "as", _opt("the"), name),
            _seq("clear all", name, "marks"),
            _seq("peek at", cref),
            _seq("do", self.section_ref()),
            st.just("nothing"),
            _seq(name, _opt(e), _opt(name), _opt(self.using())),  # a procedure call
            _seq("given", self.params()),  # a procedure's named parameters
        )

    def using(self) -> Text:
        # `using prize: coins, pile: deck`: a word for each named parameter
        arg = st.tuples(self.name, self.any_name).map(lambda t: f"{t[0]}: {t[1]}")
        return st.lists(arg, min_size=1, max_size=3).map(lambda a: "using " + ", ".join(a))

    def params(self) -> Text:
        # `a counter ships, a property icons`: the kinds, now and then a word that is none
        kind = st.one_of(st.sampled_from(named.KINDS), self.name)
        param = st.tuples(_opt(st.sampled_from(["a", "an"])), kind, self.name).map(_join)
        return st.lists(param, min_size=1, max_size=3).map(", ".join)

    def bind(self) -> Text:
        return _seq("as", _opt("the"), self.name)

    def facing(self) -> Text:
        return st.sampled_from(["face up", "face down"])

    # ---- queries and cards ---------------------------------------------------------
    @cache  # noqa: B019
    def query(self, d: int) -> Text:
        noun = st.one_of(st.sampled_from(["card", "cards"]), self.kind, self.any_name)
        zones = st.one_of(
            st.lists(self.ref(), min_size=1, max_size=2).map(" or ".join),
            _seq(st.sampled_from(["a", "an"]), self.name),  # every zone of a zone group
        )
        filters = st.lists(self.filter(d), max_size=2).map(" ".join)
        return _seq(_opt(st.sampled_from(["face-up", "face-down"])), noun, "in", zones, filters)

    def filter(self, d: int) -> Text:
        symref = st.one_of(self.symbol, self.ref())
        filters = [
            _seq("with", _opt(st.sampled_from(["a", "an"])), symref, st.sampled_from(["symbol", "symbols"])),
            _seq("with", self.label),
            _seq("whose", self.prop, "is", self.value()),
            _seq("whose", self.prop, "is not", self.value()),
        ]
        if d > 0:
            filters.append(_seq("where", self.cond(d - 1)))
        return st.one_of(*filters)

    def value(self) -> Text:
        return st.one_of(self.name, self.ref(), self.prop_of())

    @cache  # noqa: B019
    def prop_of(self) -> Text:
        """`the PROPERTY of CARD`: of a card as anywhere (`it`, `the top card of ZONE`, ...)
        or of `the card in ZONES`; now and then `the cards in`, refused."""
        zones = st.one_of(
            st.lists(self.ref(), min_size=1, max_size=2).map(" or ".join),
            _seq(st.sampled_from(["a", "an"]), self.name),
        )
        card_in = _seq("the", st.sampled_from(["card", "card", "cards"]), "in", zones)
        return _seq("the", self.prop, "of", st.one_of(self.card_ref(0), card_in))

    def cards(self, d: int) -> Text:
        return st.one_of(
            self.card_ref(d),
            _seq("the top", self.expr(d - 1), st.sampled_from(["card", "cards"]), "of", self.ref()),
            _seq("all", self.query(d - 1)),
            _seq("the", st.sampled_from(["card", "cards"]), "under", self.card_ref(d - 1)),
        )

    def card_ref(self, d: int) -> Text:
        return st.one_of(
            st.just("it"),
            st.just("this card"),
            _seq("the top", st.sampled_from(["card", "cards"]), "of", self.ref()),
            self.ref(),
        )

    @cache  # noqa: B019
    def ref(self) -> Text:
        n = st.one_of(self.zone, self.counter, self.prop, self.name)
        players = st.sampled_from(["player", "opponent"])
        return st.one_of(
            _seq(st.sampled_from(["your", "their", "the", "its"]), n),
            st.tuples(self.name, n).map(lambda t: f"the {t[0]}'s {t[1]}"),
            n.map(lambda x: f"this card's {x}"),
            st.tuples(st.sampled_from(["the", "an"]), players, n).map(lambda t: f"{t[0]} {t[1]}'s {t[2]}"),
            st.tuples(self.seat(), n).map(lambda t: f"{t[0]}'s {t[1]}"),
        )

    @cache  # noqa: B019
    def seat(self) -> Text:
        """`the player to your left`, `the player to the right of the target` (nested now and
        then), `the previous player`, `the start player`; now and then `opponent`, refused."""
        word = st.sampled_from(["player", "player", "opponent"])
        side = st.sampled_from(["left", "right"])
        simple = st.one_of(
            st.tuples(word, side).map(lambda t: f"the {t[0]} to your {t[1]}"),
            word.map(lambda w: f"the previous {w}"),
            word.map(lambda w: f"the start {w}"),
        )
        of = st.one_of(self.name.map(lambda n: f"the {n}"), simple)
        return st.one_of(simple, st.tuples(word, side, of).map(lambda t: f"the {t[0]} to the {t[1]} of {t[2]}"))

    def section_ref(self) -> Text:
        return st.one_of(
            self.label.map(lambda s: f"its {s}"),
            st.tuples(self.name, self.label).map(lambda t: f"the {t[0]}'s {t[1]}"),
            self.label.map(lambda s: f"this card's {s}"),
        )

    # ---- conditions ------------------------------------------------------------------
    @cache  # noqa: B019
    def cond(self, d: int) -> Text:
        return st.lists(self.cond_not(d), min_size=1, max_size=2).map(" and ".join)

    def cond_not(self, d: int) -> Text:
        return _seq(_opt("not"), self.cond_atom(d))

    def cond_atom(self, d: int) -> Text:
        e = self.expr(d)
        atoms = [
            _seq(e, st.sampled_from(["is at least", "is at most", "is more than", "is less than", "is", "is not"]), e),
            _seq(e, st.sampled_from(["is empty", "is not empty", "is face-up", "is face-down"])),
            _seq(e, "is in", self.ref()),
            _seq(e, st.sampled_from(["is marked", "is not marked", "is noted as"]), self.name),
            _seq(e, st.sampled_from(["is a copy of", "is not a copy of"]), self.name),
        ]
        atoms.append(st.sampled_from(["you are in the turn order", "they are in the turn order"]))
        if d > 0:
            atoms.append(st.lists(self.cond(d - 1), min_size=1, max_size=2).map(lambda c: f"any of ({'; '.join(c)})"))
            atoms.append(_seq(st.sampled_from(["any", "every", "no"]), self.player_word(), "where", self.cond(d - 1)))
        return st.one_of(*atoms)

    def chosen_player(self) -> Text:
        return st.sampled_from(["a player", "an opponent", "another player"])

    def player_word(self) -> Text:
        return st.sampled_from(["player", "opponent"])

    def player_where(self, d: int) -> Text:
        """An optional `where C` after players (C is about each player in turn)."""
        return _opt(_seq("where", self.cond(d - 1))) if d > 0 else st.just("")

    # ---- expressions -----------------------------------------------------------------
    @cache  # noqa: B019
    def expr(self, d: int) -> Text:
        op = st.sampled_from(["plus", "minus"])
        rest = st.lists(st.tuples(op, self.product(d)).map(_join), max_size=2).map(" ".join)
        return _seq(self.product(d), rest)

    @cache  # noqa: B019
    def product(self, d: int) -> Text:
        """A term, or terms multiplied and divided (`2 times X divided by 3 rounded up`)."""
        op = st.sampled_from(["times", "divided by", "divided by"])
        rounding = st.sampled_from(["", "", "rounded up", "rounded down"])
        factor = st.tuples(op, self.term(d), rounding).map(lambda t: _join(t if t[0] != "times" else t[:2]))
        return _seq(self.term(d), st.lists(factor, max_size=1).map(" ".join))

    @cache  # noqa: B019
    def term(self, d: int) -> Text:
        terms = [self.int, self.int, self.var, st.just("it"), st.just("this card"), self.ref(), self.prop_of()]
        if d > 0:
            terms += [
                _seq("the number of", self.countable(d - 1)),
                _seq("the total", self.prop, "of", self.query(d - 1)),
                _seq(
                    st.sampled_from(["the smaller of", "the larger of"]),
                    self.term(d - 1).map(_closed),
                    "and",
                    self.term(d - 1),
                ),
                _seq(
                    st.sampled_from(["the highest", "the lowest"]),
                    self.expr(d - 1),
                    "among",
                    st.sampled_from(["players", "opponents"]),
                    _opt(_seq("where", self.cond(d - 1))),
                ),
                _seq(st.sampled_from(["the highest", "the lowest"]), self.prop, "of", self.query(d - 1)),
                self.expr(d - 1).map(lambda e: f"({e})"),
            ]
        return st.one_of(*terms)

    def countable(self, d: int) -> Text:
        card_set = st.one_of(
            self.query(d), _seq("the", st.sampled_from(["card", "cards"]), "under", self.card_ref(d)), self.card_ref(d)
        )
        return st.one_of(
            self.query(d),
            _seq(st.sampled_from(["card", "cards"]), "under", self.card_ref(d)),
            _seq(st.one_of(self.symbol, self.ref()), st.sampled_from(["symbol", "symbols"]), "on", card_set),
            _seq("empty", self.name),
            _seq("tokens on", card_set),
            _seq(self.name, "tokens on", card_set),
            _seq(self.name, "notes"),
            _seq(st.sampled_from(["players", "opponents"]), _opt(_seq("where", self.cond(d)))),
        )


def _closed(term: str) -> str:
    """A first operand of `the smaller of A and B` that ends in `where C` is parenthesised,
    as a writer must: C's own `and` would take the `and B` (docs/dsl.md)."""
    return f"({term})" if " where " in f" {term} " else term


@cache
def _grammar(words: Words) -> _Grammar:
    return _Grammar(words)


def card_texts(words: Words | None = None, depth: int = 3) -> Text:
    """Texts of the `start` rule: sections of statements nested up to `depth` deep."""
    return _grammar(words or Words()).start(depth)


def tokens(text: str) -> list[str]:
    """A text's tokens for mutation: words (with a section label's colon) and punctuation."""
    return re.findall(r"[A-Za-z0-9_-]+(?:'s)?:?|[^\sA-Za-z0-9_-]", text)


_MUTATIONS = ("delete", "repeat", "swap", "replace", "insert", "number")
ODD_TOKENS = ("(", ")", ";", ":", "OR", "X", "ACTION:", "0", "-1", "99999999999999999999", "'s", "é", "\t", "#")


def mutate(text: str, edits: Sequence[tuple[str, int, str]]) -> str:
    """`text` with each (mutation, where, token) edit applied to its tokens in turn."""
    toks = tokens(text)
    for kind, where, token in edits:
        i = where % (len(toks) + 1)
        if kind == "insert" or not toks:
            toks.insert(i, token)
            continue
        i %= len(toks)
        if kind == "delete":
            del toks[i]
        elif kind == "repeat":
            toks.insert(i, toks[i])
        elif kind == "swap" and len(toks) > 1:
            j = (i + 1) % len(toks)
            toks[i], toks[j] = toks[j], toks[i]
        elif kind == "replace":
            toks[i] = token
        elif kind == "number":
            numbers = [k for k, t in enumerate(toks) if t.isdigit()] or [i]
            toks[numbers[where % len(numbers)]] = token if token.lstrip("-").isdigit() else "1000000"
    return " ".join(toks)


def mutated_texts(texts: Sequence[str], extra_tokens: Iterable[str] = ()) -> Text:
    """Real texts with one to four token edits (delete, repeat, swap, replace, insert)."""
    pool = sorted({t for text in texts for t in tokens(text)} | set(KEYWORDS) | set(ODD_TOKENS) | set(extra_tokens))
    edit = st.tuples(st.sampled_from(_MUTATIONS), st.integers(0, 10**6), st.sampled_from(pool))
    return st.builds(mutate, st.sampled_from(list(texts)), st.lists(edit, min_size=1, max_size=4))
