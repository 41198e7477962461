"""`rules-dsl lsp`: a language server for pack files (pygls, the optional extra `lsp`).

While a pack file is edited, the server compiles its pack (with the packs it requires)
from the editor's unsaved text and publishes the compiler's problems as errors and the
warnings of what can never happen (compiler/never.py) as warnings, each at its file,
line and column. It completes the words the packs declare (zones, counters, quantities,
moments, windows, kinds, symbols, sections, card ids) and shows, on hover over a card
id, the card's facts and canonical text as `rules-dsl cards` does.

The pack is compiled from a copy of its folder in which the edited files hold the
editor's text, so the loader reads files exactly as it does for `validate`.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

import attrs

from rules_dsl.errors import PackError, PackProblem, RulesError
from rules_dsl.packs.loader import MANIFEST
from rules_dsl.rules import Rules

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")


def _server_module() -> Any:
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise RulesError(
            "the language server needs pygls: pip install 'rules-dsl[lsp]' (or pip install pygls)"
        ) from None
    return types, LanguageServer


def path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


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


def check(folder: Path, edited: dict[Path, str]) -> Checked:
    """Compile the pack in folder, with the edited files' text instead of what is saved."""
    from rules_dsl.card_view import render, setting, view
    from rules_dsl.compiler import compile_packs
    from rules_dsl.packs.installed import resolve
    from rules_dsl.packs.pack_schema import pack_vocabulary

    with tempfile.TemporaryDirectory(prefix="rules-dsl-lsp-") as tmp:
        copy = Path(tmp) / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".*", "__pycache__"))
        for path, text in edited.items():
            if path.is_relative_to(folder):
                (copy / path.relative_to(folder)).write_text(text, encoding="utf-8")

        def back(problems: list[PackProblem]) -> list[PackProblem]:
            return [attrs.evolve(p, file=p.file.replace(str(copy), str(folder), 1)) for p in problems]

        paths = resolve([str(copy)])
        words = Words()
        rules: Rules | None = None
        try:
            rules = compile_packs(paths)
        except PackError as exc:
            problems = back(exc.problems)
        else:
            problems = back(list(rules.warnings))
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
        return Checked(problems, words)


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
        folder = pack_folder(path)
        if folder is None:
            return
        edited = {
            path_of(doc.uri): doc.source
            for doc in server.workspace.text_documents.values()
            if path_of(doc.uri).is_relative_to(folder)
        }
        result = check(folder, edited)
        known[folder] = result.words
        by_file: dict[str, list[Any]] = {}
        for p in result.problems:
            by_file.setdefault(str(Path(p.file).resolve()), []).append(diagnostic(p))
        for file in reported.get(folder, set()) | set(by_file) | {str(path.resolve())}:
            server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=Path(file).as_uri(), diagnostics=by_file.get(file, []))
            )
        reported[folder] = set(by_file)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Any, params: Any) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Any, params: Any) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: Any, params: Any) -> None:
        refresh(params.text_document.uri)

    def words_for(uri: str) -> Words:
        folder = pack_folder(path_of(uri))
        if folder is None:
            return Words()
        if folder not in known:
            refresh(uri)
        return known.get(folder, Words())

    def word_at(uri: str, position: Any, whole: bool = True) -> str:
        """The word at the cursor (whole: all of it; else the part before the cursor)."""
        doc = server.workspace.get_text_document(uri)
        lines = doc.source.splitlines()
        if position.line >= len(lines):
            return ""
        line = lines[position.line]
        for m in WORD.finditer(line):
            if m.start() <= position.character <= m.end():
                return m.group(0) if whole else line[m.start() : position.character]
        return ""

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", "-"]))
    def completion(ls: Any, params: Any) -> Any:
        words = words_for(params.text_document.uri)
        typed = word_at(params.text_document.uri, params.position, whole=False)
        items = [
            types.CompletionItem(label=word, detail=what, kind=types.CompletionItemKind.Keyword)
            for word, what in sorted(words.words.items())
            if word.startswith(typed) or not typed
        ]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
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


def serve() -> int:
    """Run the server over stdin and stdout until the client ends it."""
    build_server().start_io()
    return 0
