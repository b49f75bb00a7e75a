"""A repository with rules, a recorded why, a recorded failure and a ruling; the MCP client over stdio."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tests.helpers import commit, git

WHY = "WHY-MARKER-7f3a: the cache poisoned three release builds"  # the recorded rationale
FAILURE = "E9988 codegen stale: schema.graphql newer than generated/types.ts"  # the recorded failure
RULES = "# Rules\n\n- Always run codegen before tests.\n- Keep the changelog in order.\n"
NEW_RULE = "- Use uv for every install."


def rules_repo(repo: Path) -> Path:
    """REPO with CLAUDE.md committed, the first rule's why and failure recorded and committed, and a
    ruling on `ci-runners`; the work tree then adds NEW_RULE (no why yet)."""
    from gitcontext import config as config_mod
    from gitcontext.provenance.record import record
    from gitcontext.provenance.store import init_store
    from gitcontext.rulings.decide import add

    commit(repo, {"CLAUDE.md": RULES}, "rules")
    init_store(repo)
    record(repo, config_mod.load(repo), "Always run codegen", WHY, FAILURE)
    add(repo, ["ci-runners"], "CI stays on x86 runners until the ARM images are signed.", "review of #120")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "notes")
    (repo / "CLAUDE.md").write_text(RULES + NEW_RULE + "\n")
    return repo


def server_params(root: Path) -> Any:
    from mcp.client.stdio import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable, args=["-m", "gitcontext", "mcp"], cwd=root, env=dict(os.environ)
    )


@contextlib.asynccontextmanager
async def session(root: Path) -> AsyncIterator[Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client

    with open(os.devnull, "w") as errlog:
        async with stdio_client(server_params(root), errlog=errlog) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                yield s


def text_of(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def data_of(result: Any) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    return json.loads(text_of(result))


def note_text(root: Path, id: str) -> str:
    return (root / ".context" / "notes" / f"{id}.jsonl").read_text()


def note_events(root: Path, id: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in note_text(root, id).splitlines()]
