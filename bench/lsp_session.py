"""The language server end to end: `python -m gitcontext lsp` in its own process, driven over stdio by pygls'
client, on bench/lsp.py's repository. Imported by bench/lsp.py (`--session`).

Per request: the wall time from the message sent to the answer (a hover) or to the diagnostics published
(a save, an edit), the minimum of RUNS; and the server's CPU time (user+sys of the server process and of
the git processes it waited for, from /proc/PID/stat, in clock ticks) over the RUNS requests, divided by
RUNS. An edit's diagnostics wait for the server's debounce (DEBOUNCE_SECONDS): its wall time is given
after the debounce.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from gitcontext.lsp.server import DEBOUNCE_SECONDS

TICK = os.sysconf("SC_CLK_TCK")
PATIENCE = 120.0


def server_cpu(pid: int) -> float:
    """Seconds of CPU the process PID and its waited-for children have used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / TICK  # utime stime cutime cstime


async def measure(pid: int, runs: int, request: Callable[[int], Awaitable[float]]) -> tuple[float, float]:
    """(min wall ms, CPU ms per request) of RUNS calls of REQUEST(n) (each returns its wall seconds),
    after one untimed."""
    await request(0)
    before = server_cpu(pid)
    walls = [await request(n) for n in range(1, runs + 1)]
    return min(walls) * 1000, (server_cpu(pid) - before) / runs * 1000


class Session:
    """One server on ROOT with CLAUDE.md open; each request waits for what it causes."""

    def __init__(self, root: Path, text: str, line: int) -> None:
        self.root, self.text, self.line = root, text, line
        self.uri = from_fs_path(str(root / "CLAUDE.md")) or ""
        self.version = 1
        self.client = LanguageClient("bench", "1")
        self.published: asyncio.Queue[None] = asyncio.Queue()
        self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda *_: self.published.put_nowait(None))

    async def start(self) -> int:
        await self.client.start_io(sys.executable, "-m", "gitcontext", "lsp", cwd=str(self.root))
        await self.client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(self.root)))
        )
        self.client.initialized(types.InitializedParams())
        item = types.TextDocumentItem(uri=self.uri, language_id="markdown", version=1, text=self.text)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))
        await self.diagnostics()
        assert self.client._server is not None
        return self.client._server.pid

    async def diagnostics(self) -> None:
        await asyncio.wait_for(self.published.get(), PATIENCE)

    async def hover(self, _: int = 0) -> float:
        at = types.Position(self.line - 1, 3)
        start = time.perf_counter()
        got = await self.client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(self.uri), at))
        assert got is not None
        return time.perf_counter() - start

    def change(self, n: int) -> None:
        self.version += 1
        text = self.text + f"\n- Always regenerate client {n} before the tests run.\n"
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
                [types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def edited(self, n: int) -> float:
        """After the debounce: what the server spends once the edits pause."""
        start = time.perf_counter()
        self.change(n)
        await self.diagnostics()
        return time.perf_counter() - start - DEBOUNCE_SECONDS

    async def hover_new_version(self, n: int) -> float:
        self.change(n)
        wall = await self.hover()
        await self.diagnostics()  # the debounced refresh of that version, before the next edit
        return wall

    async def saved(self, _: int) -> float:
        start = time.perf_counter()
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(self.uri)))
        await self.diagnostics()
        return time.perf_counter() - start

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


async def figures(root: Path, text: str, line: int, runs: int) -> dict[str, tuple[float, float]]:
    session = Session(root, text, line)
    pid = await session.start()
    try:
        return {
            "hover (version analysed)": await measure(pid, runs, session.hover),
            "save: audit + diagnostics": await measure(pid, runs, session.saved),
            "edit: diagnostics": await measure(pid, runs, session.edited),
            # wall: the hover's; CPU: the hover and the debounced refresh of its version after it
            "hover (new version)": await measure(pid, runs, session.hover_new_version),
        }
    finally:
        await session.stop()


def run(root: Path, text: str, line: int, runs: int) -> dict[str, tuple[float, float]]:
    return asyncio.run(figures(root, text, line, runs))
