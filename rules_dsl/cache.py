"""A cache of compiled rules, so that loading a pack set already compiled takes milliseconds.

An entry is the pickled `Rules` of one list of pack folders, stored under a key of
everything the compilation reads: the contents (and names) of every file in those pack
folders, the engine's own source (its version and the text of its modules and grammar,
so an edited checkout never gets rules compiled by older code), and the Python version.
A changed file gives another key, so a stale entry is never used; an entry that cannot
be read is compiled again and rewritten. Only rules that compiled without a problem are
stored: a pack with mistakes is compiled (and reported) every time.

Where: `$RULES_DSL_CACHE_DIR`, else the user's cache folder (`$XDG_CACHE_HOME/rules-dsl`,
`~/.cache/rules-dsl`; `%LOCALAPPDATA%\\rules-dsl\\cache` on Windows). `RULES_DSL_NO_CACHE=1`
turns it off. Entries are pickles: anyone who can write to that folder can run code as
the user (as with any file in their home folder); give a private folder when sharing.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from rules_dsl import files

if TYPE_CHECKING:
    from rules_dsl.rules import Rules

ENV_DIR = "RULES_DSL_CACHE_DIR"
ENV_OFF = "RULES_DSL_NO_CACHE"
FORMAT = b"rules-dsl compiled rules 1\n"
# A folder bigger than this is not a pack anyone plays often: compile it, do not hash it.
MAX_FILES = 2_000
MAX_BYTES = 50_000_000
# Entries kept: every edit of the engine's source (in a checkout) starts new ones, so the
# oldest go when a write makes more than this (about 100 KB each).
MAX_ENTRIES = 64
_SKIP = {"__pycache__", ".git", ".hypothesis", ".pytest_cache"}


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off."""
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return None
    given = os.environ.get(ENV_DIR)
    if given:
        return Path(given)
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "rules-dsl" / "cache"
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # no home folder (a bare service account): no cache
            return None
    return Path(base) / "rules-dsl"


_ENGINE: str | None = None


def engine_fingerprint() -> str:
    """The engine's version and the text of its source: whatever could change what a
    compilation gives (hashed once per process, a few milliseconds)."""
    global _ENGINE
    if _ENGINE is None:
        import rules_dsl

        root = Path(rules_dsl.__file__).parent
        h = hashlib.sha256(f"{rules_dsl.__version__}\n{sys.version_info[:2]}\n".encode())
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".lark") and "__pycache__" not in p.parts):
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
        _ENGINE = h.hexdigest()
    return _ENGINE


def _folder_files(folder: Path) -> list[Path] | None:
    """Every file in a pack folder (subfolders too), or None if it is too big to hash."""
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP)
        out.extend(Path(dirpath) / f for f in sorted(filenames))
        if len(out) > MAX_FILES:
            return None
    return out


def content_key(folders: list[str]) -> str | None:
    """The key of these pack folders as they are now, or None (do not cache): any
    file's name or a byte of it changes the key."""
    from rules_dsl.packs.loader import find_pack_folders

    h = hashlib.sha256(engine_fingerprint().encode() + b"\0")
    h.update(repr(folders).encode() + b"\0")
    total = 0
    for folder in find_pack_folders(folders):
        listed = _folder_files(folder) if folder.is_dir() else None
        if listed is None:
            return None
        h.update(str(folder.resolve()).encode() + b"\0")
        for path in listed:
            try:  # a FIFO, a device or a link out of the folder: never read here
                data = files.read_bytes(path, MAX_BYTES - total, inside=folder)
            except files.FileProblem:
                return None
            total += len(data)
            if total > MAX_BYTES:
                return None
            h.update(str(path.relative_to(folder)).encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _entry(folder: Path, folders: list[str]) -> Path:
    """One entry per list of folders and engine: a new compilation replaces the old one."""
    name = hashlib.sha256((engine_fingerprint() + repr(folders)).encode()).hexdigest()[:32]
    return folder / f"{name}.rules"


def load_rules(folders: list[str]) -> Rules:
    """The compiled rules of these pack folders (with their requirements already added):
    from the cache if it holds them for exactly these files, else compiled and stored."""
    where = cache_dir()
    key = content_key(folders) if where is not None else None
    if where is not None and key is not None:
        entry = _entry(where, folders)
        rules = _read(entry, key)
        if rules is not None:
            return rules
    from rules_dsl.compiler import compile_packs

    rules = compile_packs(folders)
    if where is not None and key is not None:
        _write(_entry(where, folders), key, rules)
    return rules


def _read(entry: Path, key: str) -> Rules | None:
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    head = FORMAT + key.encode() + b"\n"
    if not data.startswith(head):
        return None  # another version of the files, or not an entry at all
    try:
        rules = pickle.loads(data[len(head) :])
    except Exception:  # noqa: BLE001 - a damaged entry or one of classes since changed: compile again
        return None
    from rules_dsl.rules import Rules

    return rules if isinstance(rules, Rules) else None


def _write(entry: Path, key: str, rules: Rules) -> None:
    """Atomically (a whole entry or none, even with several processes); a cache that
    cannot be written is no error, only slower."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        data = FORMAT + key.encode() + b"\n" + pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-", suffix=".rules")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, entry)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(entry.parent)
    except (OSError, pickle.PicklingError, RecursionError):
        pass


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob("*.rules"), key=lambda p: p.stat().st_mtime_ns)
    for old in entries[: max(0, len(entries) - MAX_ENTRIES)]:
        old.unlink(missing_ok=True)
