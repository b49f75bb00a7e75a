"""The tracked tree as the path checks judge it (gitcontext/audit/tree.py)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext import config as config_mod
from gitcontext import git
from gitcontext.audit.context import AuditContext
from gitcontext.audit.tree import package_of, read
from tests.helpers import commit


def _ctx(repo: Path) -> AuditContext:
    commit(repo, {"package.json": "{}", "web/package.json": "{}", "web/src/app.ts": "", "CLAUDE.md": "# R\n"})
    return AuditContext(repo, config_mod.load(repo))


def test_package_of_nearest_manifest(repo: Path) -> None:
    ctx = _ctx(repo)
    assert package_of(ctx, "web/src") == "web" and package_of(ctx, "docs") == "" and package_of(ctx, "") == ""


@settings(max_examples=200, deadline=None)
@given(folder=st.text(alphabet="/.a-_", max_size=12))
def test_package_of_ends_for_any_folder(tmp_path_factory, folder: str) -> None:
    """Absolute folders (an absolute `@import`'s), `..` and empty segments: every walk up ends."""
    repo = tmp_path_factory.mktemp("r")
    # the session as `Repo.open` builds it, its one listing given (no git process per example)
    listing = (frozenset({"package.json", "a/package.json"}), ("a/package.json", "package.json"))
    session = git.Repo(repo, repo / ".git", repo / ".git", None, False, {}, None, {"listing": listing})
    ctx = AuditContext(session)
    assert package_of(ctx, folder) in ("", "a")


def test_read_never_leaves_the_work_tree(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.md").write_text("secret")
    ctx = _ctx(repo)
    (repo / "link.md").symlink_to(tmp_path / "outside.md")
    assert read(ctx, "CLAUDE.md") == "# R\n"
    assert read(ctx, str(tmp_path / "outside.md")) == "" and read(ctx, "../outside.md") == ""
    assert read(ctx, "link.md") == ""
