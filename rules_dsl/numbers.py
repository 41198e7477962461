"""Text that becomes a number: one bound wherever a user's text is read as one.

Python turns at most 4,300 digits into an int (a ValueError traceback beyond), and a
number of hundreds of digits makes sums slow and floats overflow. No seed, count, limit
or answer the engine needs has more than MAX_DIGITS digits, so every boundary (command-line
values, answers typed into `play`, JSON of saved games and results, YAML of packs,
scenarios and golden lists, numbers in card text, version specifiers) goes through here
first; each field then checks its own range.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rules_dsl.errors import RulesError

MAX_DIGITS = 20  # any 64-bit value (a saved game's random state is one): every seed, count or limit fits
# the largest value a rules text may compute (a product, a counter): beyond it a text that
# squares a counter in a loop would take all the memory in a few steps
MAX_VALUE = 10**18
_WHOLE = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: str.isdigit takes '²' and '١'
_DIGIT_RUN = re.compile(r"[0-9]+")


class NumberError(RulesError, ValueError):
    """Text that is not a whole number, or one out of its field's bounds (also a
    ValueError, so argparse reports it as a usage error)."""


def _shown(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:27] + "...")


def too_big(text: str) -> str:
    """Why `text` holds a number too long to read (a run of more than MAX_DIGITS digits), or ''."""
    longest = max((len(m) for m in _DIGIT_RUN.findall(text)), default=0)
    if longest > MAX_DIGITS:
        return f"a number of {longest} digits is too big: at most {MAX_DIGITS} digits"
    return ""


def bounded(value: int, text: str) -> int:
    """`value`, computed by the rules text `text`, if it is within MAX_VALUE either way; else
    a RulesError naming the text."""
    if -MAX_VALUE <= value <= MAX_VALUE:
        return value
    # both operands were within the bound, so the value has at most 37 digits to print
    digits = len(str(abs(value)))
    raise RulesError(f"{text}: gives a number of {digits} digits; the rules compute numbers of at most 18 digits")


def whole(text: str, what: str = "the number", least: int | None = None, most: int | None = None) -> int:
    """`text` (ASCII digits, an optional sign) as an int from `least` to `most`; NumberError
    naming `what` otherwise."""
    stripped = text.strip()
    if not _WHOLE.fullmatch(stripped):
        raise NumberError(f"{what}: {_shown(text)} is not a whole number")
    problem = too_big(stripped)
    if problem:
        raise NumberError(f"{what}: {problem}")
    value = int(stripped)
    if least is not None and value < least:
        raise NumberError(f"{what}: {value} is too small: give at least {least}")
    if most is not None and value > most:
        raise NumberError(f"{what}: {value} is too big: give at most {most}")
    return value


def json_int(text: str) -> int:
    """`json.loads(..., parse_int=json_int)`: JSON's integers through the same bound."""
    if len(text) <= MAX_DIGITS:  # JSON's grammar made it an integer already: only its length is left to check
        return int(text)
    return whole(text, "a number in the JSON")


# bytes.translate table: every ASCII digit to "0", every other byte to " "
_DIGITS_ONLY = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_TOO_LONG = b"0" * (MAX_DIGITS + 1)


def json_loads(text: str) -> Any:
    """`json.loads(text, parse_int=json_int)`, faster where no run of digits in the text is
    longer than MAX_DIGITS (every saved game): then no integer in it can be, `json_int`
    would be `int` for each, and the C parser reads them without a Python call per number."""
    if text.isascii() and _TOO_LONG not in text.encode("ascii").translate(_DIGITS_ONLY):
        return json.loads(text)
    return json.loads(text, parse_int=json_int)
