"""The content checks on a real history rebuilt from ../shared/corpus (context files only)."""

from __future__ import annotations

from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.audit.checks import gc103_dead_reference, gc200_duplicate, gc301_budget
from gitcontext.audit.context import AuditContext
from tests.helpers import build_corpus_repo


def test_content_checks_on_browser_use_history(repo: Path) -> None:
    build_corpus_repo(repo, "browser-use__browser-use")
    ctx = AuditContext(repo, config_mod.load(repo))
    budget = list(gc301_budget.run(ctx))
    assert [(f.file, f.view, f.severity) for f in budget] == [("AGENTS.md", "codex:.", "warning")]
    assert budget[0].evidence["bytes"] > 32 * 1024
    dead = list(gc103_dead_reference.run(ctx))
    assert len(dead) == 1 and dead[0].file is None and "no source tree" in dead[0].message
    dups = list(gc200_duplicate.run(ctx))
    together = [f for f in dups if f.evidence["kind"] == "duplicate"]
    assert together and all(f.file == f.evidence["other"]["file"] for f in together)  # CLAUDE.md and AGENTS.md
    assert all(f.severity == "note" for f in dups if f.evidence["kind"] == "drift")  # are never loaded together
