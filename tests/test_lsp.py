"""`rules-dsl lsp` driven over stdio by a real LSP client (pytest-lsp, on pygls's client),
as an editor would: open a pack file, get the compiler's problems and the warnings as
diagnostics, edit it, complete declared words, hover over a card id."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from conftest import ROOT
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from rules_dsl.lsp import MAX_MESSAGE_BYTES

MOD = ROOT / "examples" / "mods" / "veteran-survey"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "rules_dsl", "lsp"]))
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    folder = tmp_path / "veteran-survey"
    shutil.copytree(MOD, folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return folder


async def opened(client: LanguageClient, path: Path, text: str | None = None) -> list[types.Diagnostic]:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="yaml", version=1, text=path.read_text(encoding="utf-8") if text is None else text
            )
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


@pytest.mark.asyncio
async def test_problems_while_editing(client: LanguageClient, mod: Path) -> None:
    cards = mod / "cards.yaml"
    assert await opened(client, cards) == []  # the shipped mod is clean
    # an unsaved edit: a misspelt verb, reported at its place with the suggestion
    text = cards.read_text(encoding="utf-8").replace("OR draw 1 card", "OR drow 1 card")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=cards.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    (d,) = list(client.diagnostics[cards.as_uri()])
    line = next(i for i, t in enumerate(text.splitlines()) if "drow" in t)
    assert d.range.start == types.Position(line=line, character=text.splitlines()[line].index("drow"))
    assert d.range.end.character - d.range.start.character == len("drow")
    assert d.severity == types.DiagnosticSeverity.Error and d.source == "rules-dsl"
    assert d.message.startswith("card 'scout': unknown word 'drow'") and "did you mean 'draw'?" in d.message
    assert cards.read_text(encoding="utf-8").count("drow") == 0  # the saved file is untouched


@pytest.mark.asyncio
async def test_warnings_are_diagnostics(client: LanguageClient, mod: Path) -> None:
    cards = mod / "cards.yaml"
    text = cards.read_text(encoding="utf-8") + (
        "\n  - id: sleeper\n    kind: role-card\n    zone: scout-reserve\n    text: |\n"
        "      WHEN you nap-time: draw 1 card\n"
    )
    vocabulary = "vocabulary:\n  moments:\n    nap-time: never announced\n"
    rules = mod / "rules.yaml"
    rules_text = rules.read_text(encoding="utf-8").replace("vocabulary:\n", vocabulary.rstrip("\n") + "\n", 1)
    await opened(client, rules, rules_text)
    found = await opened(client, cards, text)
    messages = {(d.severity, d.message.split(":")[1].strip()) for d in found}
    assert (types.DiagnosticSeverity.Warning, "no rule announces 'nap-time'") in messages, found


@pytest.mark.asyncio
async def test_completion_and_hover(client: LanguageClient, mod: Path) -> None:
    cards = mod / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    await opened(client, cards)
    lines = text.splitlines()
    at = next(i for i, t in enumerate(lines) if "zone: scout-reserve" in t)
    column = lines[at].index("scout-reserve") + len("sco")
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=cards.as_uri()),
            position=types.Position(line=at, character=column),
        )
    )
    assert isinstance(result, types.CompletionList)
    labels = {item.label: item.detail for item in result.items}
    assert labels["scout-reserve"] == "zone" and labels["scout"] == "card: Scout"
    everything = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=cards.as_uri()),
            position=types.Position(line=at, character=lines[at].index("scout-reserve")),
        )
    )
    assert isinstance(everything, types.CompletionList)
    words = {item.label: item.detail or "" for item in everything.items}
    assert words["hand"] == "zone" and words["fighter"] == "counter" and "ACTION:" in words
    assert words["hand-limit"].startswith("quantity: ") and words["dissent"].startswith("moment: ")
    assert "survey-role" in words  # a card id of the base pack it requires
    # hover over a card id: its facts and canonical text
    at = next(i for i, t in enumerate(lines) if t.strip() == "- id: scout")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=cards.as_uri()),
            position=types.Position(line=at, character=lines[at].index("scout") + 1),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    shown = hover.contents.value
    assert shown.startswith("Scout (scout), role-card, starts in scout-reserve")
    assert "symbols: survey" in shown and "ACTION: survey 2 OR draw 1 card" in shown


async def complete(client: LanguageClient, path: Path, line: int, character: int) -> dict[str, types.CompletionItem]:
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=line, character=character),
        )
    )
    assert isinstance(result, types.CompletionList)
    return {item.label: item for item in result.items}


@pytest.mark.asyncio
async def test_completion_offers_what_may_be_written_at_the_cursor(client: LanguageClient, mod: Path) -> None:
    cards = mod / "cards.yaml"
    places = [
        "  - id: spare",  # a card field's key goes on the next line
        "    ",
        "    text: 'ACTION: draw 1 card in your ",
        "    text: 'ACTION: gain 1 copy of ",
        "    text: 'WHEN you ",
    ]
    text = cards.read_text(encoding="utf-8").rstrip("\n") + "\n" + "\n".join(places) + "\n"
    await opened(client, cards)  # then edited as one types: the half-written text does not compile
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=cards.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    first = len(text.splitlines()) - len(places)
    kinds = types.CompletionItemKind

    key = await complete(client, cards, first + 1, 4)  # where a card's key goes
    assert {"kind", "zone", "text", "symbols"} <= set(key) and {i.kind for i in key.values()} == {kinds.Field}
    assert "ACTION:" not in key and "hand" not in key
    top = await complete(client, cards, 0, 0)  # a file's part at the top level
    assert {"cards", "vocabulary", "procedures"} <= set(top) and "kind" not in top

    zone = await complete(client, cards, first + 2, len(places[2]))
    assert "hand" in zone and "scout-reserve" in zone and "scout" not in zone and "fighter" not in zone
    assert {i.kind for i in zone.values()} == {kinds.Folder}
    card = await complete(client, cards, first + 3, len(places[3]))
    assert "scout" in card and "survey-role" in card and "hand" not in card
    assert {i.kind for i in card.values()} == {kinds.Value}
    moment = await complete(client, cards, first + 4, len(places[4]))
    assert "dissent" in moment and "hand" not in moment and {i.kind for i in moment.values()} == {kinds.Event}


@pytest.mark.asyncio
async def test_hover_keeps_the_last_good_compile_while_the_pack_has_an_error(client: LanguageClient, mod: Path) -> None:
    cards = mod / "cards.yaml"
    await opened(client, cards)
    text = cards.read_text(encoding="utf-8").replace("OR draw 1 card", "OR drow 1 card")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=cards.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert client.diagnostics[cards.as_uri()]  # the pack does not compile now
    lines = text.splitlines()
    at = next(i for i, t in enumerate(lines) if t.strip() == "- id: scout")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=cards.as_uri()),
            position=types.Position(line=at, character=lines[at].index("scout") + 1),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.startswith("Scout (scout), role-card, starts in scout-reserve")


def test_lsp_without_pygls_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rules_dsl.cli import main

    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    assert main(["lsp"]) == 1
    assert "pip install 'rules-dsl[lsp]'" in capsys.readouterr().err


# ---- malformed input, spoken as raw JSON-RPC over the real server's stdio (issue 33) ----

INIT: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
END: list[dict[str, Any]] = [{"jsonrpc": "2.0", "id": 99, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]


def frame(message: dict[str, Any] | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def talk(*messages: dict[str, Any] | bytes, tail: bytes = b"") -> tuple[int, list[dict[str, Any]], str]:
    """Send the messages (then tail) to `rules-dsl lsp` and read to its end: its exit code,
    the messages it wrote, its stderr (which must never hold a traceback)."""
    done = subprocess.run(
        [sys.executable, "-m", "rules_dsl", "lsp"],
        input=b"".join(frame(m) for m in messages) + tail,
        capture_output=True,
        timeout=90,
    )
    out, sent = done.stdout, []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        sent.append(json.loads(rest[:length]))
        out = rest[length:]
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return done.returncode, sent, err


def answer(sent: list[dict[str, Any]], msg_id: int) -> dict[str, Any]:
    (found,) = [m for m in sent if m.get("id") == msg_id and "method" not in m]
    return found


def logged(sent: list[dict[str, Any]]) -> list[str]:
    return [m["params"]["message"] for m in sent if m.get("method") == "window/logMessage"]


def published(sent: list[dict[str, Any]], path: Path) -> list[dict[str, Any]]:
    """The last diagnostics published for path."""
    found = [
        m["params"]["diagnostics"]
        for m in sent
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == path.as_uri()
    ]
    assert found, sent
    last: list[dict[str, Any]] = found[-1]
    return last


def did_open(uri: str, text: str) -> dict[str, Any]:
    document = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}


def hover(msg_id: int, uri: Any, line: Any = 0, character: Any = 0) -> dict[str, Any]:
    position = {"line": line, "character": character}
    params = {"textDocument": {"uri": uri}, "position": position}
    return {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover", "params": params}


def test_fifo_and_link_to_dev_zero_in_the_pack_folder_are_not_read(mod: Path) -> None:
    os.mkfifo(mod / "pipe.yaml")
    (mod / "zero.yaml").symlink_to("/dev/zero")
    cards = mod / "cards.yaml"
    opened = did_open(cards.as_uri(), cards.read_text(encoding="utf-8"))
    code, sent, _ = talk(INIT, opened, hover(2, (mod / "pipe.yaml").as_uri()), *END)
    assert code == 0 and answer(sent, 99)["result"] is None
    assert answer(sent, 2) == {"id": 2, "jsonrpc": "2.0", "result": None}  # not opened: not read
    assert published(sent, cards) == []  # the pack still compiles
    notes = sorted(d["message"] for d in published(sent, mod / "pack.yaml"))
    assert notes == [
        "not read: pipe.yaml: it is a FIFO (named pipe), not a regular file",
        f"not read: zero.yaml: it is a link to a file outside {mod}",
    ]
    assert all(d["severity"] == types.DiagnosticSeverity.Warning for d in published(sent, mod / "pack.yaml"))


def test_a_lone_surrogate_in_the_text_is_a_diagnostic(mod: Path) -> None:
    cards = mod / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    body = json.dumps(did_open(cards.as_uri(), "x\ud800" + text))  # json.dumps writes "\ud800"
    assert "\\ud800" in body
    change = {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {
            "textDocument": {"uri": cards.as_uri(), "version": 2},
            "contentChanges": [{"text": "\ud800\n" + text}],
        },
    }
    code, sent, _ = talk(INIT, body.encode(), change, *END)
    assert code == 0
    lists = [m["params"]["diagnostics"] for m in sent if m.get("method") == "textDocument/publishDiagnostics"]
    message = "a lone surrogate (U+D800) is not Unicode text; the file cannot be saved as UTF-8: delete it"
    assert [(d[0]["range"]["start"], d[0]["message"]) for d in lists if d] == [
        ({"line": 0, "character": 1}, message),
        ({"line": 0, "character": 0}, message),
    ]


def test_odd_escapes_in_a_document_uri_are_a_clear_error(mod: Path) -> None:
    base = (mod / "cards.yaml").as_uri()
    nul, percent, latin = base + "%00x", base.replace("cards", "c%zzards"), base.replace("cards", "c%ffards")
    code, sent, _ = talk(INIT, did_open(nul, "x"), hover(2, nul), hover(3, percent), hover(4, latin), *END)
    assert code == 0
    said = f"bad document URI {nul!r}: its path holds a NUL byte (%00), which no file name can"
    assert logged(sent) == [f"notification ignored: textDocument/didOpen: {said}"]
    assert answer(sent, 2)["error"] == {"code": -32602, "message": f"textDocument/hover: {said}"}
    assert answer(sent, 3)["error"] == {
        "code": -32602,
        "message": f"textDocument/hover: bad document URI {percent!r}: "
        "it has a '%' that is not followed by two hex digits",
    }
    assert answer(sent, 4)["error"] == {
        "code": -32602,
        "message": f"textDocument/hover: bad document URI {latin!r}: its %-escapes are not UTF-8",
    }


def test_an_oversized_message_is_refused_without_reading_it() -> None:
    # a header announcing a terabyte, then the end of input: refused, the server ends cleanly
    code, sent, err = talk(INIT, tail=b"Content-Length: 1000000000000\r\n\r\n")
    said = f"a message of 1000000000000 bytes is refused: at most {MAX_MESSAGE_BYTES} bytes"
    assert code == 0 and answer(sent, 1)["result"]["serverInfo"]["name"] == "rules-dsl"
    assert logged(sent) == [said] and f"rules-dsl lsp: {said}" in err
    # one just over the limit, really sent: skipped, and the server goes on
    big = b"Content-Length: %d\r\n\r\n" % (MAX_MESSAGE_BYTES + 1) + b" " * (MAX_MESSAGE_BYTES + 1)
    code, sent, _ = talk(INIT, tail=big + b"".join(frame(m) for m in END))
    assert code == 0 and answer(sent, 99) == {"id": 99, "jsonrpc": "2.0", "result": None}
    assert logged(sent) == [f"a message of {MAX_MESSAGE_BYTES + 1} bytes is refused: at most {MAX_MESSAGE_BYTES} bytes"]


def test_invalid_params_are_an_error_or_an_ignored_notification(mod: Path) -> None:
    cards = mod / "cards.yaml"
    bad_init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": 5}}
    change = {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": 7}}
    completion = hover(4, cards.as_uri(), "one", None) | {"method": "textDocument/completion"}
    code, sent, _ = talk(
        bad_init,
        INIT | {"id": 2},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": 5}}},
        change,
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": {}}},
        completion,
        b"{not json",
        *END,
    )
    assert code == 0 and "capabilities" in answer(sent, 2)["result"]
    invalid = "invalid value for type, expected"
    assert answer(sent, 1)["error"] == {
        "code": -32602,
        "message": f"initialize: invalid params: {invalid} ClientCapabilities @ $.params.capabilities",
    }
    assert answer(sent, 3)["error"] == {
        "code": -32602,
        "message": "textDocument/hover: invalid params: required field missing @ $.params.textDocument.uri; "
        "required field missing @ $.params.position",
    }
    assert answer(sent, 4)["error"]["code"] == -32602
    assert answer(sent, 4)["error"]["message"].startswith("textDocument/completion: invalid params: ")
    assert "$.params.position.line" in answer(sent, 4)["error"]["message"]
    (parse,) = [m for m in sent if m.get("id") is None and "error" in m]
    assert parse["error"]["code"] == -32700 and parse["error"]["message"].startswith("the message is not JSON: ")
    ignored = logged(sent)
    assert len(ignored) == 2 and all(m.startswith("notification ignored: textDocument/did") for m in ignored)
    assert "required field missing @ $.params.textDocument.languageId" in ignored[0]
    assert "$.params.contentChanges" in ignored[1]


def test_a_request_after_shutdown_is_an_invalid_request(mod: Path) -> None:
    code, sent, _ = talk(INIT, END[0], hover(5, (mod / "cards.yaml").as_uri()), END[1])
    assert code == 0 and answer(sent, 99)["result"] is None
    assert answer(sent, 5)["error"] == {
        "code": -32600,
        "message": "textDocument/hover: the server is shut down; only exit is accepted",
    }
