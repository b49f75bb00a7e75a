"""A real LSP session: `python -m gitcontext lsp` over stdio, driven by pytest-lsp's client."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Union

import pytest

pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import LanguageClient, make_test_lsp_client  # noqa: E402

SERVER = [sys.executable, "-m", "gitcontext", "lsp"]
DIAGNOSTICS = "textDocument/publishDiagnostics"
PATIENCE = 60  # seconds before a missing notification fails the test (two shared cores)


def uri(path: Path) -> str:
    found = from_fs_path(str(path))
    assert found is not None
    return found


@contextlib.asynccontextmanager
async def session(root: Path) -> AsyncIterator[LanguageClient]:
    """An initialized client talking to a fresh server whose workspace is ROOT; shut down after."""
    client = make_test_lsp_client()
    _read_code_actions_whole(client)
    await client.start_io(*SERVER, cwd=str(root))
    try:
        await client.initialize_session(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                root_uri=uri(root),
                workspace_folders=[types.WorkspaceFolder(uri=uri(root), name=root.name)],
            )
        )
        yield client
        await client.shutdown_session()
    finally:
        await client.stop()


def expect(client: LanguageClient, method: str) -> asyncio.Future:
    """A future for the next METHOD notification, registered now (before the message that causes it)."""
    return asyncio.wrap_future(client.protocol.wait_for_notification(method))


def _read_code_actions_whole(client: LanguageClient) -> None:
    """lsprotocol reads any code action that has a `command` as a bare Command (its union hook asks
    only whether the key is there); a CodeAction's `command` is an object, a Command's a string."""
    converter = client.protocol._converter

    def hook(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    converter.register_structure_hook(Union[types.Command, types.CodeAction], hook)  # noqa: UP007


async def opened(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    """Open PATH (its text on disk) and return the diagnostics the server publishes for it."""
    waiting = expect(client, DIAGNOSTICS)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text=path.read_text())
        )
    )
    await asyncio.wait_for(waiting, PATIENCE)
    return list(client.diagnostics[uri(path)])


async def changed(client: LanguageClient, path: Path, text: str, version: int) -> list[types.Diagnostic]:
    """Replace the buffer of PATH by TEXT (not saved) and return the diagnostics published after it."""
    waiting = expect(client, DIAGNOSTICS)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    await asyncio.wait_for(waiting, PATIENCE)
    return list(client.diagnostics[uri(path)])


async def saved(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    waiting = expect(client, DIAGNOSTICS)
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri=uri(path))))
    await asyncio.wait_for(waiting, PATIENCE)
    return list(client.diagnostics[uri(path)])
