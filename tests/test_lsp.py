"""`rules-dsl lsp` driven over stdio by a real LSP client (pytest-lsp, on pygls's client),
as an editor would: open a pack file, get the compiler's problems and the warnings as
diagnostics, edit it, complete declared words, hover over a card id."""

from __future__ import annotations

import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from conftest import ROOT
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

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
            text_document=types.TextDocumentIdentifier(uri=cards.as_uri()), position=types.Position(line=0, character=0)
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


def test_lsp_without_pygls_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rules_dsl.cli import main

    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    assert main(["lsp"]) == 1
    assert "pip install 'rules-dsl[lsp]'" in capsys.readouterr().err
