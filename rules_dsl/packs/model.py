"""A pack as read from its files, before compiling: plain values with their positions."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Loc:
    file: str
    line: int  # 1-based
    column: int  # 1-based
    text_line: int = 0  # where the first line of a text value starts (block scalars)
    text_column: int = 0
    indent: int = 0  # column of the text's lines after the first, for block scalars
    # a text joined from several pack files (a part and the packs' additions to it):
    # (first line in the joined text, where that piece is written), in order
    segments: tuple[tuple[int, Loc], ...] = ()

    def place(self) -> str:
        """file:line:col, as a message names another declaration."""
        return f"{self.file}:{self.line}:{self.column}"

    def value(self) -> Loc:
        """Where the value of a field starts (its key when that is not known): a problem with
        the value is shown there, as the value is what to change."""
        if self.text_line == 0:
            return self
        return Loc(self.file, self.text_line, self.text_column)


@attrs.define
class Located:
    value: Any
    loc: Loc


@attrs.define
class CardSource:
    id: str
    fields: dict[str, Located]
    loc: Loc
    pack: str


@attrs.define
class PackSource:
    """Everything one pack folder declares, merged over its files."""

    id: str
    name: str
    version: str
    folder: str
    requires: list[str]
    players: tuple[int, int] | None
    sections: dict[str, Located] = attrs.Factory(dict)  # top-level key -> value
    cards: list[CardSource] = attrs.Factory(list)
