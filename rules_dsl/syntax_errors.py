"""Lark's parse errors -> a DslSyntaxError in a modder's words.

A modder sees the words of card text, never the grammar's terminal names: "expected one
of" lists words (`draw`, `WHENEVER`, `':'`, `a name`), a misspelt keyword gets a
suggestion (`WHENEVR` -> `WHENEVER`), and the common slips (a section label without its
colon, a parenthesis left open, a missing ':' after a heading) are named as such. The
words come from the grammar itself, so a construct added to it is described here without
a change.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import lru_cache

import lark
from lark.lexer import PatternStr

from rules_dsl.errors import DslSyntaxError

# Named terminals whose pattern is not a word list: how a modder calls them.
_NAMED = {
    "NAME": "a name",
    "VAR": "a variable such as X",
    "INT": "a number",
    "SECTION": "a section label such as ACTION:",
    "TIMES": "times",
    "$END": "end of text",
}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")

# What a punctuation mark or a joining word would start, said in words (a bare `')'` or
# `using` in a list tells a modder nothing); they come first, as the likeliest continuations.
_PHRASES = {
    "';'": "';' and the next statement",
    "')'": "')' closing the '('",
    "'('": "'(' opening a group",
    "':'": "':' ending the heading",
    "','": "',' and the next item",
    "OR": "OR and another choice",
    "otherwise": "otherwise and what happens if not",
    "using": "using and the procedure's inputs",
}
_ARITHMETIC = ("plus", "minus", "times", "divided")
# words that start another section or ability of the card: one phrase, listed last
_HEADINGS = (
    "a section label such as ACTION:",
    "WHEN or WHENEVER",
    "WHILE",
    "DURING",
    "ONCE",
    "MAY",
    "INSTEAD",
    "PREVENT",
)
_ALTERNATIVES = re.compile(r"\(\?:((?:[A-Za-z\\-]+\|)*[A-Za-z\\-]+)\)")


def _alternatives(terminal: lark.lexer.TerminalDef) -> list[str]:
    """The words a terminal matches, when it matches a fixed list of words ('WHEN', 'WHENEVER')."""
    pattern = terminal.pattern
    if isinstance(pattern, PatternStr):
        return [pattern.value]
    m = _ALTERNATIVES.fullmatch(pattern.value)
    return [] if m is None else sorted(w.replace("\\", "") for w in m.group(1).split("|"))


class Describer:
    """The words of one grammar: terminal -> modder's word, and every keyword."""

    def __init__(self, parser: lark.Lark) -> None:
        self.words: dict[str, str] = dict(_NAMED)
        keywords: set[str] = set()
        for terminal in parser.terminals:
            if terminal.name in _NAMED:
                continue
            alts = _alternatives(terminal)
            if not alts:
                continue  # whitespace, comments: never expected
            if len(alts) == 1:
                alt = alts[0]
                self.words[terminal.name] = alt if _WORD.fullmatch(alt) else repr(alt)
            else:
                self.words[terminal.name] = " or ".join(alts)
            keywords.update(a for a in alts if _WORD.fullmatch(a))
        self.keywords = frozenset(keywords)

    def expected(self, terminals: Iterable[str], before: str | None = None) -> list[str]:
        """What may come here, in words: punctuation and joining words say what they start,
        arithmetic is one item, and the headings of another section are one item, last.
        With the text `before` the place, a ')' is offered only when a '(' is open."""
        words = {self.words.get(t, t.lower()) for t in terminals}
        if before is not None and before.count("(") <= before.count(")"):
            words.discard("')'")
        # `then:` ends only the choice of a `for each player at once:` (the grammar's LALR
        # states share it with every statement; an `if`'s `then` follows its condition)
        if before is not None and "at once" not in before and " if " not in f" {before}":
            words.discard("then")
        first = [_PHRASES[w] for w in _PHRASES if w in words]
        if "plus" in words or "minus" in words:
            present = [w for w in _ARITHMETIC if w in words]
            joined = " or ".join([", ".join(present[:-1]), present[-1]] if len(present) > 1 else present)
            first.append(f"{joined} and a number")
            words -= set(_ARITHMETIC)
        headings = [h.split(" or ")[0] for h in _HEADINGS if h in words]
        rest = sorted(words - set(_PHRASES) - set(_HEADINGS))
        end = ["end of text"] if "end of text" in rest else []
        rest = [w for w in rest if w != "end of text"]
        if len(headings) > 1:
            last = ["another section (" + ", ".join(headings[:-1]) + " or " + headings[-1] + ")"]
        else:
            last = [h for h in _HEADINGS if h in words]
        return first + rest + last + end

    def keywords_of(self, terminals: Iterable[str]) -> list[str]:
        out: set[str] = set()
        for t in terminals:
            word = self.words.get(t, "")
            out.update(w for w in word.split(" or ") if w in self.keywords)
        return sorted(out)

    def close_keyword(self, word: str, first: Iterable[str] = ()) -> str:
        """A keyword `word` is probably a misspelling of (of the same case), or ''."""
        if word in self.keywords:
            return ""
        same_case = [k for k in self.keywords if k.isupper() == word.isupper()]
        for pool in ([k for k in first if k in same_case], same_case):
            close = difflib.get_close_matches(word, pool, n=1, cutoff=0.7)
            if close:
                return close[0]
        return ""


def outside_cards(expected: list[str]) -> list[str]:
    """`expected` for rules text (phases, procedures, set-up): sections and abilities belong
    on cards, so another section's headings are not offered."""
    return [e for e in expected if e not in _HEADINGS and not e.startswith("another section (")]


@lru_cache(maxsize=4)
def describer(parser: lark.Lark) -> Describer:
    return Describer(parser)


def _word_at(text: str, pos: int) -> tuple[int, str]:
    """The whole word of text that covers pos (the lexer may have split 'WHENEVR' as WHEN + EVR)."""
    start = pos
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_-"):
        start -= 1
    m = _WORD.match(text, start)
    return (start, m.group(0)) if m else (pos, "")


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


# words after which a statement starts: its verb comes next
_BEFORE_VERB = frozenset({"OR", "either", "then", "otherwise", "may"})


def _misspelt_before(text: str, pos: int, words: Describer) -> tuple[int, str, str]:
    """The nearest verb before pos in its statement that is no keyword but close to one
    (`drow` of `gain 2 gold OR drow 1 card`): (where, word, keyword), or (pos, '', '').
    Only verb places count: elsewhere a word is a name the packs declare (`hand`)."""
    start = max(text.rfind(c, 0, pos) for c in ";:(") + 1
    found = list(_WORD.finditer(text, start, pos))
    for i in range(len(found) - 1, -1, -1):
        word = found[i].group(0)
        if i > 0 and found[i - 1].group(0) not in _BEFORE_VERB:
            continue
        keyword = words.close_keyword(word) if word.islower() else ""
        if keyword:
            return found[i].start(), word, keyword
    return pos, "", ""


def _unknown(text: str, pos: int, word: str, keyword: str, expected: list[str]) -> DslSyntaxError:
    line, col = _line_col(text, pos)
    return DslSyntaxError(
        f"unknown word {word!r}",
        line,
        col,
        expected=expected,
        width=len(word),
        suggestion=f"did you mean {keyword!r}?",
    )


def from_lark(exc: lark.exceptions.LarkError, text: str, parser: lark.Lark) -> DslSyntaxError:
    """The DslSyntaxError that says what is wrong with text in a modder's words."""
    words = describer(parser)
    if isinstance(exc, lark.exceptions.UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        expected = words.expected(exc.allowed or (), text[:pos])
        start, word = _word_at(text, pos)
        keyword = words.close_keyword(word, words.keywords_of(exc.allowed or ())) if word else ""
        if keyword:
            return _unknown(text, start, word, keyword, expected)
        return DslSyntaxError(f"unexpected character {text[pos]!r}", exc.line, exc.column, expected=expected)
    if isinstance(exc, lark.exceptions.UnexpectedToken):
        return _unexpected_token(exc, text, words)
    if isinstance(exc, lark.exceptions.UnexpectedEOF):
        line, col = _line_col(text, len(text))
        return DslSyntaxError("unexpected end of text", line, col, expected=words.expected(exc.expected, text))
    raise exc


def _unexpected_token(exc: lark.exceptions.UnexpectedToken, text: str, words: Describer) -> DslSyntaxError:
    tok = exc.token
    terminals = set(exc.expected)
    at_end = tok.type == "$END"
    pos = len(text.rstrip()) if at_end or tok.start_pos is None else tok.start_pos
    expected = words.expected(terminals, text[:pos])
    line, col = _line_col(text, pos)
    what = "end of text" if at_end else f"word {str(tok)!r}"

    def error(message: str, suggestion: str = "", width: int = max(1, len(str(tok)))) -> DslSyntaxError:
        return DslSyntaxError(message, line, col, expected=expected, width=width, suggestion=suggestion)

    if not at_end:
        # a keyword misspelt: the word here, or the verb that starts this statement
        start, word = _word_at(text, pos)
        keyword = words.close_keyword(word, words.keywords_of(terminals)) if word else ""
        if keyword and (word != str(tok) or tok.type in ("NAME", "VAR")):
            # what was expected after a glued-on keyword ('WHEN' of 'WHENEVR') says nothing here
            return _unknown(text, start, word, keyword, expected if word == str(tok) else [])
        head_at, head, keyword = _misspelt_before(text, pos, words)
        if keyword:
            return _unknown(text, head_at, head, keyword, expected)
        if tok.type == "VAR" and "SECTION" in terminals:
            return error(f"missing ':' after the section label {str(tok)!r}", f"write '{tok}:'")
    if "COLON" in terminals and len(terminals) <= 3:
        return error(f"missing ':' before the {what}", "a heading such as 'WHEN you trade' ends with ':'")
    if terminals == {"RPAR"}:
        return error(f"missing ')': unexpected {what}", "a '(' is not closed")
    return error(f"unexpected {what}")
