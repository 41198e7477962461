"""`rules-dsl lsp`: a language server for pack files (pygls, the optional extra `lsp`).

While a pack file is edited, the server compiles its pack (with the packs it requires)
from the editor's unsaved text and publishes the compiler's problems as errors and the
warnings of what can never happen (compiler/never.py) as warnings, each at its file,
line and column. It completes the words the packs declare (zones, counters, quantities,
moments, windows, kinds, symbols, sections, card ids) and shows, on hover over a card
id, the card's facts and canonical text as `rules-dsl cards` does.

The pack is compiled from a copy of its folder in which the edited files hold the
editor's text, so the loader reads files exactly as it does for `validate`. The copy takes
only regular files of at most `MAX_FILE_BYTES` (no FIFO, device or link out of the folder,
which would block or never end); what it skips is reported as a warning.

Nothing the client sends can raise out of the server: `serve` reads the framing itself
(`read_messages`: bounded header lines, a `Content-Length` of at most `MAX_MESSAGE_BYTES`,
a larger body skipped in chunks, never held), `Session.dispatch` checks each message
before pygls sees it (JSON, the JSON-RPC envelope, the params' shape, document URIs, no
request after `shutdown`) and answers a bad request with the JSON-RPC error the protocol
asks for, and `guarded` wraps every feature handler, so a failure is one clear line.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

import attrs

from rules_dsl import files
from rules_dsl.errors import PackError, PackProblem, RulesError
from rules_dsl.packs.loader import MANIFEST, MAX_FILE_BYTES
from rules_dsl.rules import Rules

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")

# What may be written where the cursor is, from the text before it on its line: a YAML key
# at the start of a line, a zone after `in`, a card id after `copy of`, a moment after
# `WHEN you` (or `INSTEAD OF` / `PREVENT`), else any word the packs declare.
_CONTEXTS = (
    (re.compile(r"^\s*(?:- )?$"), "key"),
    (re.compile(r"\bcop(?:y|ies) of\s+$"), "card"),
    (re.compile(r"\b(?:WHEN(?:EVER)?|INSTEAD OF|PREVENT)\s+(?:you|(?:a|an|each|any)\s+\S+)\s+$"), "moment"),
    (re.compile(r"\bin\s+(?:(?:your|the|their|its|a|an|each)\s+)?$"), "zone"),
)
# the completion item kind (lsprotocol's CompletionItemKind name) of each sort of word
ITEM_KINDS = {
    "key": "Field",
    "zone": "Folder",
    "card": "Value",
    "moment": "Event",
    "window": "Event",
    "counter": "Variable",
    "quantity": "Variable",
    "kind": "Class",
    "symbol": "EnumMember",
    "token": "EnumMember",
    "property": "Property",
    "section": "Keyword",
}


def completion_context(before: str) -> str:
    """The sort of word wanted after `before` (the line up to the word being typed): one of
    key, card, moment, zone, or "" for any declared word."""
    for pattern, sort in _CONTEXTS:
        if pattern.search(before):
            return sort
    return ""


def yaml_keys(before: str) -> dict[str, str]:
    """The keys a pack file may have here: at the top level the file's parts, indented the
    fields of a card (a pack's own properties come from its words)."""
    from rules_dsl.packs import shape

    record = shape.PACK_FILE if not before.strip(" -") and not before.startswith((" ", "-")) else shape.CARD
    return {name: f.doc or "key" for name, f in record.fields.items()}


SURROGATE = re.compile(r"[\ud800-\udfff]")  # json.loads joins pairs: any left is alone
BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")

# Bounds (docs/editor.md#limits). A pack file is read as the loader reads it: a regular
# file of at most MAX_FILE_BYTES (the editor's unsaved text too).
MAX_PACK_FILES = 2_000  # files and folders walked in a pack folder's copy
MAX_PACK_BYTES = 64_000_000  # bytes copied from a pack folder
MAX_PACK_DEPTH = 16  # nested folders in a pack folder
MAX_MESSAGE_BYTES = 16_000_000  # one JSON-RPC message (a Content-Length above it is refused)
MAX_HEADER_BYTES = 1_000  # one header line
MAX_HEADERS = 16  # header lines before one message's body
SKIP_CHUNK = 1 << 20  # a refused body is read and dropped this much at a time
MAX_SHOWN = 300  # characters of a client's value or of an error shown in a message

# JSON-RPC error codes
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


def _server_module() -> Any:
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise RulesError(
            "the language server needs pygls: pip install 'rules-dsl[lsp]' (or pip install pygls)"
        ) from None
    return types, LanguageServer


def shown_value(value: object) -> str:
    """A client's value in a message: its repr, escapes visible, cut to MAX_SHOWN."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def uri_problem(uri: str) -> str | None:
    """Why a document URI cannot name a file the server reads, or None if it can."""
    if SURROGATE.search(uri):
        return "it holds a lone surrogate, which is not Unicode"
    if any(ord(c) < 32 or ord(c) == 127 for c in uri):
        return "it holds a control character; escape it"
    try:
        parsed = urlparse(uri)
    except ValueError as exc:
        return f"it is not a URI ({exc})"
    if parsed.scheme != "file":
        return None  # untitled:, git:, ... : not a pack file, left alone
    if BAD_ESCAPE.search(parsed.path):
        return "it has a '%' that is not followed by two hex digits"
    try:
        path = unquote(parsed.path, errors="strict")
    except UnicodeDecodeError:
        return "its %-escapes are not UTF-8"
    if "\x00" in path:
        return "its path holds a NUL byte (%00), which no file name can"
    if any(ord(c) < 32 or ord(c) == 127 for c in path):
        return "its path holds an escaped control character"
    if not path.startswith("/"):
        return "its path is not absolute"
    return None


def path_of(uri: str) -> Path | None:
    """The file a document URI names, or None: not a file: URI, or one no file can have."""
    if uri_problem(uri) is not None or urlparse(uri).scheme != "file":
        return None
    return Path(os.path.normpath(unquote(urlparse(uri).path)))  # no `..` out of a folder


def pack_folder(path: Path) -> Path | None:
    """The pack folder a file belongs to: the nearest folder up with a pack.yaml."""
    for folder in [path.parent, *path.parent.parents]:
        if (folder / MANIFEST).is_file():
            return folder
    return None


@attrs.define
class Words:
    """What the loaded packs declare, for completion and hover: word -> what it is."""

    words: dict[str, str] = attrs.Factory(dict)
    cards: dict[str, list[str]] = attrs.Factory(dict)  # card id -> its facts and canonical text


@attrs.define
class Checked:
    problems: list[PackProblem]
    words: Words
    compiled: bool = False  # the packs compiled: words.cards holds every card


def keep_last_good(previous: Words | None, result: Checked) -> Words:
    """The words to answer with after a check: while the pack does not compile, the cards
    of the last compile that did (hover is wanted most while fixing an error)."""
    if result.compiled or previous is None:
        return result.words
    return Words({**previous.words, **result.words.words}, previous.cards)


def copy_pack(folder: Path, copy: Path) -> list[str]:
    """Copy the regular files of folder (not hidden ones, not __pycache__) into copy, each
    read as the loader reads a pack file; what is skipped, and why, is returned."""
    skipped: list[str] = []
    walked = copied = 0
    todo: list[tuple[Path, int]] = [(folder, 0)]
    while todo:
        here, depth = todo.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(f"{here.relative_to(folder)}/: cannot list it ({exc.strerror or exc})")
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            walked += 1
            name = str(Path(entry.path).relative_to(folder))
            if walked > MAX_PACK_FILES:
                skipped.append(f"the rest: a pack folder is read up to {MAX_PACK_FILES} files and folders")
                return skipped
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth + 1 >= MAX_PACK_DEPTH:
                        skipped.append(f"{name}/: folders are read {MAX_PACK_DEPTH} deep")
                    else:
                        (copy / name).mkdir(parents=True, exist_ok=True)
                        todo.append((Path(entry.path), depth + 1))
                    continue
                if entry.is_symlink() and Path(entry.path).is_dir():
                    skipped.append(f"{name}: a link to a folder, not followed")
                    continue
                data = files.read_bytes(entry.path, MAX_FILE_BYTES, "a pack file", inside=folder)
            except files.FileProblem as exc:
                skipped.append(f"{name}: {exc.reason}")
                continue
            except OSError as exc:
                skipped.append(f"{name}: {exc.strerror or exc}")
                continue
            copied += len(data)
            if copied > MAX_PACK_BYTES:
                skipped.append(f"{name} and the rest: a pack folder is read up to {MAX_PACK_BYTES} bytes")
                return skipped
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes(data)
    return skipped


def text_problems(file: Path, text: str) -> list[PackProblem]:
    """What keeps the editor's text of file from being compiled: too big, lone surrogates."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        return [
            PackProblem(str(file), 1, 1, f"the text is {size} bytes; a pack file may hold at most {MAX_FILE_BYTES}")
        ]
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for m in SURROGATE.finditer(line):
            found.append(
                PackProblem(
                    str(file),
                    number,
                    m.start() + 1,
                    f"a lone surrogate (U+{ord(m.group(0)):04X}) is not Unicode text; "
                    "the file cannot be saved as UTF-8: delete it",
                )
            )
            if len(found) >= 10:
                return found
    return found


def check(folder: Path, edited: dict[Path, str]) -> Checked:
    """Compile the pack in folder, with the edited files' text instead of what is saved."""
    from rules_dsl.card_view import render, setting, view
    from rules_dsl.compiler import compile_packs
    from rules_dsl.packs.installed import resolve
    from rules_dsl.packs.pack_schema import pack_vocabulary

    own = [p for path, text in edited.items() if path.is_relative_to(folder) for p in text_problems(path, text)]
    if own:  # the text itself is wrong: nothing to compile until it is fixed
        return Checked(own, Words())
    with tempfile.TemporaryDirectory(prefix="rules-dsl-lsp-") as tmp:
        copy = Path(tmp) / folder.name
        copy.mkdir()
        skipped = copy_pack(folder, copy)
        for path, text in edited.items():
            if path.is_relative_to(folder):
                target = copy / path.relative_to(folder)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")

        def back(problems: list[PackProblem]) -> list[PackProblem]:
            return [attrs.evolve(p, file=p.file.replace(str(copy), str(folder), 1)) for p in problems]

        notes = [PackProblem(str(folder / MANIFEST), 1, 1, f"not read: {why}", severity="warning") for why in skipped]
        words = Words()
        rules: Rules | None = None
        try:
            paths = resolve([str(copy)])
        except RulesError as exc:  # a PackError too
            problems = back(exc.problems) if isinstance(exc, PackError) else []
            message = str(exc).replace(str(copy), str(folder))
            return Checked(notes + (problems or [PackProblem(str(folder / MANIFEST), 1, 1, message)]), words)
        try:
            rules = compile_packs(paths)
        except PackError as exc:
            problems = notes + back(exc.problems)
        else:
            problems = notes + back(list(rules.warnings))
        try:
            _, voc = pack_vocabulary(paths)
        except PackError:
            voc = None
        if voc is not None:
            groups: list[tuple[str, Any]] = [
                ("zone", voc.zones),
                ("counter", voc.counters),
                ("quantity", {q: meaning for q, (_, meaning) in voc.quantities.items()}),
                ("moment", voc.moments),
                ("window", voc.windows),
                ("kind", voc.kinds),
                ("symbol", voc.symbols),
                ("token", voc.tokens),
                ("property", voc.properties),
            ]
            for what, names in groups:
                for name in names:
                    meaning = names[name] if isinstance(names, dict) and isinstance(names[name], str) else ""
                    words.words.setdefault(str(name), f"{what}: {meaning}" if meaning else what)
            for label in voc.sections:
                words.words.setdefault(f"{label}:", "section")
        if rules is not None:
            game = setting(rules, None, None)
            for ct in rules.cards:
                words.words.setdefault(ct.id, f"card: {ct.name}")
                lines = render(attrs.evolve(view(rules, ct, game), compiled={}))
                words.cards[ct.id] = lines
        return Checked(problems, words, rules is not None)


def tell(server: Any, text: str, error: bool = True) -> None:
    """One clear line for the user: on stderr (the editor's server log) and to the client
    as window/logMessage. Never raises: it is how failures are reported."""
    print(f"rules-dsl lsp: {text}", file=sys.stderr, flush=True)
    try:
        types, _ = _server_module()
        kind = types.MessageType.Error if error else types.MessageType.Info
        server.window_log_message(types.LogMessageParams(type=kind, message=text))
    except Exception as exc:  # the client is gone: stderr has it already
        print(f"rules-dsl lsp: cannot tell the client ({type(exc).__name__}: {exc})", file=sys.stderr, flush=True)


def guarded(server: Any, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The handler guard: whatever a feature handler raises becomes one clear line
    (`tell`) and an empty answer (no hover, no completion, no diagnostics), never a
    traceback. A bad document is reported by the handler itself, as a diagnostic."""

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(handler)
        def run(ls: Any, params: Any) -> Any:
            try:
                return handler(ls, params)
            except (RulesError, OSError, ValueError, RecursionError, MemoryError) as exc:
                tell(server, f"{name} failed: {shown_value(str(exc))[1:-1]}")
            except Exception as exc:  # a bug: still one line, with what to report
                tell(server, f"{name} failed: internal error {type(exc).__name__}: {exc}; please report it")
            return None

        return run

    return wrap


def build_server() -> LanguageServer:
    types, server_class = _server_module()
    from rules_dsl import __version__

    server: LanguageServer = server_class("rules-dsl", __version__)
    reported: dict[Path, set[str]] = {}  # pack folder -> the files it has diagnostics in
    known: dict[Path, Words] = {}  # pack folder -> its words, from the last check

    def diagnostic(p: PackProblem) -> Any:
        hint = []
        if p.expected:
            shown = ", ".join(p.expected[:12]) + (", ..." if len(p.expected) > 12 else "")
            hint.append(f"expected one of: {shown}")
        if p.suggestion:
            hint.append(p.suggestion)
        start = types.Position(line=max(0, p.line - 1), character=max(0, p.column - 1))
        end = types.Position(line=start.line, character=start.character + max(1, p.width))
        return types.Diagnostic(
            range=types.Range(start=start, end=end),
            message=(f"card {p.card!r}: " if p.card else "") + p.message + ("\n" + "; ".join(hint) if hint else ""),
            severity=types.DiagnosticSeverity.Warning if p.severity == "warning" else types.DiagnosticSeverity.Error,
            source="rules-dsl",
        )

    def refresh(uri: str) -> None:
        path = path_of(uri)
        folder = pack_folder(path) if path is not None else None
        if path is None or folder is None:
            return
        edited: dict[Path, str] = {}
        for doc in server.workspace.text_documents.values():
            doc_path = path_of(doc.uri)
            if doc_path is not None and doc_path.is_relative_to(folder):
                edited[doc_path] = doc.source
        result = check(folder, edited)
        known[folder] = keep_last_good(known.get(folder), result)
        by_file: dict[str, list[Any]] = {}
        for p in result.problems:
            by_file.setdefault(str(Path(p.file).resolve()), []).append(diagnostic(p))
        for file in reported.get(folder, set()) | set(by_file) | {str(path.resolve())}:
            server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=Path(file).as_uri(), diagnostics=by_file.get(file, []))
            )
        reported[folder] = set(by_file)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded(server, "didOpen")
    def did_open(ls: Any, params: Any) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(server, "didChange")
    def did_change(ls: Any, params: Any) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded(server, "didSave")
    def did_save(ls: Any, params: Any) -> None:
        refresh(params.text_document.uri)

    def words_for(uri: str) -> Words:
        path = path_of(uri)
        folder = pack_folder(path) if path is not None else None
        if folder is None:
            return Words()
        if folder not in known:
            refresh(uri)
        return known.get(folder, Words())

    def word_at(uri: str, position: Any, whole: bool = True) -> str:
        """The word at the cursor (whole: all of it; else the part before the cursor), in
        a document the editor opened (pygls would read any other from disk, a FIFO too)."""
        doc = server.workspace.text_documents.get(unquote(uri))
        if doc is None:
            return ""
        lines = doc.source.splitlines()
        if not 0 <= position.line < len(lines):
            return ""
        line = lines[position.line]
        for m in WORD.finditer(line):
            if m.start() <= position.character <= m.end():
                return m.group(0) if whole else line[m.start() : position.character]
        return ""

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", "-"]))
    @guarded(server, "completion")
    def completion(ls: Any, params: Any) -> Any:
        words = words_for(params.text_document.uri)
        typed = word_at(params.text_document.uri, params.position, whole=False)
        doc = server.workspace.text_documents.get(unquote(params.text_document.uri))
        lines = doc.source.splitlines() if doc is not None else []
        line = lines[params.position.line] if 0 <= params.position.line < len(lines) else ""
        before = line[: max(0, params.position.character - len(typed))]
        wanted = completion_context(before)
        if wanted == "key":
            keys = yaml_keys(before)
            if before.startswith((" ", "-")):  # a card's own properties too
                keys |= {w: what for w, what in words.words.items() if what.split(":")[0] == "property"}
            offered = [(key, "key", what) for key, what in keys.items()]
        else:
            offered = [
                (word, what.split(":")[0], what)
                for word, what in words.words.items()
                if not wanted or what.split(":")[0] == wanted
            ]
        items = [
            types.CompletionItem(
                label=word, detail=what, kind=getattr(types.CompletionItemKind, ITEM_KINDS.get(sort, "Keyword"))
            )
            for word, sort, what in sorted(offered)
            if word.startswith(typed) or not typed
        ]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded(server, "hover")
    def hover(ls: Any, params: Any) -> Any:
        words = words_for(params.text_document.uri)
        word = word_at(params.text_document.uri, params.position)
        if word in words.cards:
            text = "\n".join(words.cards[word])
        elif word in words.words:
            text = f"{word}: {words.words[word]}"
        else:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=text))

    return server


# ---- the transport: framing, checks before pygls, the JSON-RPC errors ------------------


@attrs.define
class Body:
    """One message's body as read."""

    data: bytes


@attrs.define
class Refused:
    """A message the transport would not read (its body skipped, if it could be), and why."""

    reason: str
    fatal: bool = False  # the stream cannot be followed past it: the server stops


def read_messages(stream: IO[bytes]) -> Iterator[Body | Refused]:
    """The bodies framed by Content-Length headers on stream, until its end. Every read is
    bounded: a header line by MAX_HEADER_BYTES, a message's headers by MAX_HEADERS, a body
    by MAX_MESSAGE_BYTES (a larger one is read in chunks and dropped, never held)."""
    while True:
        length: int | None = None
        for count in range(MAX_HEADERS + 1):
            line = stream.readline(MAX_HEADER_BYTES + 1)
            if not line:
                return
            if len(line) > MAX_HEADER_BYTES:
                yield Refused(f"a header line is longer than {MAX_HEADER_BYTES} bytes", fatal=True)
                return
            if line in (b"\r\n", b"\n"):
                break
            if count == MAX_HEADERS:
                yield Refused(f"a message has more than {MAX_HEADERS} header lines", fatal=True)
                return
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                text = value.strip()
                if not text.isdigit() or len(text) > 20:
                    yield Refused(f"Content-Length {shown_value(text)} is not a number of bytes", fatal=True)
                    return
                length = int(text)
        if length is None:
            yield Refused("a message has no Content-Length header; it is skipped")
            continue
        if length > MAX_MESSAGE_BYTES:
            yield Refused(f"a message of {length} bytes is refused: at most {MAX_MESSAGE_BYTES} bytes")
            left = length
            while left > 0:
                chunk = stream.read(min(left, SKIP_CHUNK))
                if not chunk:
                    return
                left -= len(chunk)
            continue
        data = stream.read(length)
        if len(data) < length:
            yield Refused(f"the input ended inside a message ({len(data)} of {length} bytes)", fatal=True)
            return
        yield Body(data)


def _uris(value: Any) -> Iterator[str]:
    """The strings under a key `uri` or `...Uri` in a JSON value (an iterative walk: the
    value came from a bounded message, so it is bounded too)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            for key, sub in item.items():
                if isinstance(sub, str) and (key == "uri" or key.endswith("Uri")):
                    yield sub
                else:
                    todo.append(sub)
        elif isinstance(item, list):
            todo.extend(item)


@attrs.define
class Session:
    """One client's connection: checks each message, then hands it to pygls."""

    server: Any
    shut_down: bool = False

    def error(self, msg_id: Any, code: int, message: str) -> None:
        """Answer request msg_id (None: one whose id could not be read) with an error."""
        self.server.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def dispatch(self, body: bytes) -> None:
        """Check one message and hand it to pygls; a bad one gets the JSON-RPC error (a
        request) or is dropped with a log line (a notification)."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:
            self.error(None, PARSE_ERROR, f"the message is not JSON: {shown_value(str(exc))[1:-1]}")
            return
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            self.error(None, INVALID_REQUEST, 'a message must be a JSON object with "jsonrpc": "2.0"')
            return
        msg_id = data.get("id")
        if "id" in data and (isinstance(msg_id, bool) or not isinstance(msg_id, int | str)):
            self.error(None, INVALID_REQUEST, f"a request id must be a number or a string, not {shown_value(msg_id)}")
            return
        method = data.get("method")
        if "method" not in data:  # a response to a request of the server's
            self.handle(data, None)
            return
        if not isinstance(method, str):
            self.refuse(data, INVALID_REQUEST, f"a method must be a string, not {shown_value(method)}")
            return
        if self.shut_down and method != "exit":
            self.refuse(data, INVALID_REQUEST, f"{method}: the server is shut down; only exit is accepted")
            return
        for uri in _uris(data.get("params")):
            why = uri_problem(uri)
            if why is not None:
                self.refuse(data, INVALID_PARAMS, f"{method}: bad document URI {shown_value(uri)}: {why}")
                return
        self.handle(data, method)
        if method == "shutdown" and "id" in data:
            self.shut_down = True

    def refuse(self, data: dict[str, Any], code: int, message: str) -> None:
        if "id" in data:
            self.error(data["id"], code, message)
        else:
            tell(self.server, f"notification ignored: {message}")

    def handle(self, data: dict[str, Any], method: str | None) -> None:
        """Structure the message as pygls would (but never from inside json.loads), then
        let pygls run it."""
        from cattrs.errors import ClassValidationError
        from cattrs.v import transform_error
        from lsprotocol.types import ResponseErrorMessage
        from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

        protocol = self.server.protocol
        if method is None:
            kind: Any = ResponseErrorMessage if "error" in data else JsonRPCResponseMessage
        else:
            fallback = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
            kind = protocol.get_message_type(method) or fallback
        try:
            message = protocol._converter.structure(data, kind)
        except ClassValidationError as exc:
            why = "; ".join(transform_error(exc, path="$")[:5])
            why = re.sub(r"_([a-z])", lambda m: m.group(1).upper(), why)  # the protocol's names
            self.refuse(data, INVALID_PARAMS, f"{method}: invalid params: {shown_value(why)[1:-1]}")
            return
        except Exception as exc:  # cattrs raises what the value raised (TypeError, ...)
            self.refuse(data, INVALID_PARAMS, f"{method}: invalid params: {type(exc).__name__}: {exc}")
            return
        try:
            protocol.handle_message(message)
        except Exception as exc:
            tell(self.server, f"{method}: failed: internal error {type(exc).__name__}: {exc}; please report it")


def serve() -> int:
    """Run the server over stdin and stdout until the client ends it (exit, or the end of
    stdin). pygls runs the handlers; the framing and the checks are `read_messages` and
    `Session.dispatch`."""
    server: Any = build_server()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    from pygls.io_ import StdoutWriter

    server.protocol.set_writer(StdoutWriter(stdout))
    session = Session(server)
    stop = threading.Event()
    server._stop_event = stop  # what pygls's shutdown sets

    async def loop() -> None:
        messages = read_messages(stdin)
        running = asyncio.get_running_loop()
        while not stop.is_set():
            item = await running.run_in_executor(server.thread_pool, next, messages, None)
            if item is None:
                return
            if isinstance(item, Refused):
                tell(server, item.reason)
                if item.fatal:
                    return
                continue
            session.dispatch(item.data)

    try:
        asyncio.run(loop())
    except SystemExit as done:  # pygls's exit handler: 0 after shutdown, else 1
        return int(done.code or 0)
    except BrokenPipeError:
        print("rules-dsl lsp: the client closed the connection", file=sys.stderr, flush=True)
        return 1
    finally:
        server.shutdown()
    return 0
