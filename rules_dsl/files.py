"""The files users name: read only regular files, of bounded size, never blocking.

Every loader (packs, scenarios, results, golden lists, saved games, the compile cache)
reads through `open_regular`/`read_bytes`, so `/dev/zero`, a FIFO, a folder or a link to
one of them is refused with a clear message instead of being read forever or blocking,
and a link that leaves the folder it must stay in (a pack's) is refused without reading
what it points at.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from rules_dsl.errors import RulesError


class FileProblem(RulesError):
    """A file that cannot be read as asked; `reason` says why without the file's name."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"cannot read {path}: {reason}")
        self.path = str(path)
        self.reason = reason


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(path: str | Path, inside: str | Path | None = None) -> tuple[BinaryIO, int]:
    """An open binary handle on a regular file, and its size.

    `inside`: the folder the file must be in once every link is followed. A FIFO is opened
    without blocking and refused; so are devices, folders and sockets."""
    p = Path(path)
    if inside is not None:
        try:
            target = p.resolve()
            folder = Path(inside).resolve()
        except (OSError, RuntimeError) as exc:  # RuntimeError: a loop of links (Python < 3.13)
            raise FileProblem(p, f"cannot follow its links ({exc})") from None
        if not target.is_relative_to(folder):
            raise FileProblem(p, f"it is a link to a file outside {inside}")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise FileProblem(p, exc.strerror or str(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(p, f"it is {_kind(info.st_mode)}, not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb"), info.st_size
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, max_bytes: int, what: str = "the file", inside: str | Path | None = None) -> bytes:
    """A regular file's bytes, at most `max_bytes` of them (`what` names the file in the
    message: "a pack file may hold at most ..."); FileProblem otherwise."""
    handle, size = open_regular(path, inside)
    with handle:
        if size > max_bytes:
            raise FileProblem(path, f"the file is {size} bytes; {what} may hold at most {max_bytes}")
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise FileProblem(path, exc.strerror or str(exc)) from None
    if len(data) > max_bytes:  # it grew while being read
        raise FileProblem(path, f"the file is over {max_bytes} bytes; {what} may hold at most {max_bytes}")
    return data


def read_text(path: str | Path, max_bytes: int, what: str = "the file", inside: str | Path | None = None) -> str:
    """A regular file's text (UTF-8); a clear FileProblem for bytes that are not UTF-8."""
    raw = read_bytes(path, max_bytes, what, inside)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise FileProblem(
            path, f"it is not UTF-8 text (byte 0x{raw[exc.start]:02x} on line {line}); save it as UTF-8"
        ) from None


# ---- where output goes --------------------------------------------------------------------


def output_file(path: str | Path, what: str = "the output") -> Path:
    """A path a command may write a file to, checked before any work: its folder exists
    (and is a folder), and the path is not a folder, a device (/dev/full) or a FIFO."""
    p = Path(path)
    parent = p.parent
    if not parent.is_dir():
        why = "does not exist" if not parent.exists() else "is not a folder"
        raise RulesError(f"cannot write {what} to {p}: the folder {parent} {why}")
    if p.is_dir():
        raise RulesError(f"cannot write {what} to {p}: it is a folder; give a file name")
    if p.exists() and not p.is_file():
        mode = p.stat().st_mode
        raise RulesError(f"cannot write {what} to {p}: it is {_kind(mode)}, not a regular file")
    return p


def check_output_dir(path: str | Path, what: str = "the output") -> Path:
    """A folder a command will write files into, checked before any work (and not made
    yet): it is a folder, or it and its missing parents can be made in a folder."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise RulesError(f"cannot write {what} to {p}: it is a file, not a folder")
    ancestor = p
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if ancestor.exists() and not ancestor.is_dir():
        raise RulesError(f"cannot write {what} to {p}: {ancestor} is a file, not a folder")
    return p


def output_dir(path: str | Path, what: str = "the output") -> Path:
    """A folder a command writes files into (check_output_dir), made if missing."""
    p = check_output_dir(path, what)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RulesError(f"cannot write {what} to {p}: {exc.strerror or exc}") from None
    return p


def in_folder(folder: Path, name: str, what: str = "the file") -> Path:
    """FOLDER/NAME for a name made from user data, refused if it would leave the folder."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise RulesError(f"cannot write {what} {name!r}: a file name may not name another folder")
    return folder / name


def write_text(path: str | Path, text: str, what: str = "the output") -> Path:
    """Write a whole text file (through output_file), with a clear error if it fails part-way
    (a full disk, a read-only folder)."""
    p = output_file(path, what)
    try:
        p.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RulesError(f"cannot write {what} to {p}: {exc.strerror or exc}") from None
    return p
