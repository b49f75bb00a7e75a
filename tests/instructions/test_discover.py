"""Discovery against real git: globs, config, ignored files, symlinks, revisions and the index."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.errors import UserError
from gitcontext.instructions.discover import INDEX, discover, load, read
from tests.helpers import commit, git, write

RULE = "- Always run the tests before pushing.\n"


def _config(repo: Path) -> dict:
    return config_mod.load(repo)


def test_discover_default_globs_anywhere_in_tree(repo: Path) -> None:
    files = [
        "CLAUDE.md",
        "pkg/AGENTS.md",
        "GEMINI.md",
        ".github/copilot-instructions.md",
        ".github/instructions/py/api.instructions.md",
        ".cursorrules",
        ".cursor/rules/ts/api.mdc",
        ".windsurf/rules/style.md",
        ".claude/rules/db.md",
        ".agents/rules/x.md",
        ".junie/guidelines.md",
        "sub/.clinerules",
    ]
    for path in files:
        write(repo, path, RULE)
    write(repo, "README.md", RULE)
    write(repo, "docs/CLAUDE.md.bak", RULE)
    assert discover(repo, _config(repo)) == sorted(files)


def test_discover_roo_and_continue_rules(repo: Path) -> None:
    files = [
        ".roorules",
        ".roorules-code",
        ".roo/rules/general.md",
        ".roo/rules-architect/plan.md",
        ".continue/rules/style.md",
    ]
    for path in files:
        write(repo, path, RULE)
    write(repo, ".roo/mcp.json", "{}\n")
    assert discover(repo, _config(repo)) == sorted(files)


def test_discover_clinerules_folder(repo: Path) -> None:
    write(repo, ".clinerules/general.md", RULE)
    write(repo, ".clinerules/workflows/release.md", RULE)
    assert discover(repo, _config(repo)) == [".clinerules/general.md", ".clinerules/workflows/release.md"]


def test_discover_never_tracks_local_or_ignored(repo: Path) -> None:
    write(repo, "CLAUDE.md", RULE)
    write(repo, "CLAUDE.local.md", RULE)
    write(repo, "sub/CLAUDE.local.md", RULE)
    write(repo, "build/AGENTS.md", RULE)
    write(repo, ".gitignore", "build/\n")
    assert discover(repo, _config(repo)) == ["CLAUDE.md"]


def test_discover_leaves_out_vendored_copies_unless_the_config_says_otherwise(repo: Path) -> None:
    write(repo, "AGENTS.md", RULE)
    write(repo, "core/vendor/github.com/x/y/AGENTS.md", RULE)
    write(repo, "web/node_modules/pkg/CLAUDE.md", RULE)
    write(repo, "vendors/AGENTS.md", RULE)  # a folder named otherwise is the repository's own
    assert discover(repo, _config(repo)) == ["AGENTS.md", "vendors/AGENTS.md"]
    write(repo, ".context/config.yml", "discovery:\n  exclude: []\n")
    assert "core/vendor/github.com/x/y/AGENTS.md" in discover(repo, _config(repo))


def test_discover_config_overrides_globs(repo: Path) -> None:
    write(
        repo, ".context/config.yml", "discovery:\n  include: ['docs/agents/*.md']\n  exclude: ['docs/agents/old.md']\n"
    )
    write(repo, "docs/agents/style.md", RULE)
    write(repo, "docs/agents/old.md", RULE)
    write(repo, "CLAUDE.md", RULE)
    assert discover(repo, _config(repo)) == ["docs/agents/style.md"]


@pytest.mark.parametrize(
    "content, needle",
    [
        ("discovery:\n  includes: ['x']\n", "discovery.includes"),
        ("colour: true\n", "'colour'"),
        ("discovery: [1, 2]\n", "must be a mapping"),
        ("matcher: [unclosed\n", "cannot read config"),
        ("matcher: fuzzy\n", "must be one of"),
    ],
)
def test_config_invalid_is_user_error_naming_the_key(repo: Path, content: str, needle: str) -> None:
    write(repo, ".context/config.yml", content)
    with pytest.raises(UserError) as info:
        _config(repo)
    assert needle in str(info.value) and ".context/config.yml" in str(info.value)


def test_config_unreadable_is_user_error(repo: Path) -> None:
    (repo / ".context" / "config.yml").mkdir(parents=True)  # a directory cannot be read as a file
    with pytest.raises(UserError, match="cannot read config"):
        _config(repo)


def test_discover_symlink_to_context_file_counted_once(repo: Path) -> None:
    write(repo, "AGENTS.md", RULE)
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    os.symlink("../AGENTS.md", (repo / ".github").mkdir() or repo / ".github" / "copilot-instructions.md")
    assert discover(repo, _config(repo)) == ["AGENTS.md"]
    git(repo, "add", ".")
    assert discover(repo, _config(repo), INDEX) == ["AGENTS.md"]
    sha = commit(repo, {})
    assert discover(repo, _config(repo), sha) == ["AGENTS.md"]


def test_discover_symlinks_to_same_other_file_followed_once(repo: Path) -> None:
    write(repo, "CONTRIBUTING.md", RULE)
    os.symlink("CONTRIBUTING.md", repo / "CLAUDE.md")
    os.symlink("CONTRIBUTING.md", repo / "AGENTS.md")
    assert discover(repo, _config(repo)) == ["AGENTS.md"]
    git(repo, "add", ".")
    sha = commit(repo, {})
    assert discover(repo, _config(repo), sha) == ["AGENTS.md"]
    assert read(repo, "CLAUDE.md", sha) == RULE
    assert [i.text for i in load(repo, _config(repo), sha)["AGENTS.md"]] == ["Always run the tests before pushing."]


def test_discover_broken_and_outside_symlinks_skipped(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text(RULE)
    os.symlink("missing.md", repo / "CLAUDE.md")
    os.symlink(str(outside), repo / "AGENTS.md")
    os.symlink("../../elsewhere.md", (repo / "sub").mkdir() or repo / "sub" / "GEMINI.md")
    assert discover(repo, _config(repo)) == []
    git(repo, "add", ".")
    sha = commit(repo, {})
    assert discover(repo, _config(repo), sha) == []
    assert load(repo, _config(repo), sha) == {}


@pytest.mark.parametrize(
    "data, needle, line",
    [
        (b"- Use caf\xe9 names.\n- ok\n", "not valid UTF-8", 1),
        (b"ok\n\x00\x01\x02binary", "binary", None),
        (b"- x\n" * (3 * 1024 * 1024), "limit for a context file", None),
    ],
)
def test_read_bad_input_is_user_error_naming_the_file(repo: Path, data: bytes, needle: str, line: int | None) -> None:
    write(repo, "docs/CLAUDE.md", data)
    with pytest.raises(UserError) as info:
        load(repo, _config(repo))
    assert needle in str(info.value)
    assert info.value.path == "docs/CLAUDE.md" and info.value.line == line
    git(repo, "add", ".")
    with pytest.raises(UserError, match=needle):
        load(repo, _config(repo), INDEX)


def test_load_reads_index_and_revision_separately(repo: Path) -> None:
    first = commit(repo, {"CLAUDE.md": RULE})
    write(repo, "CLAUDE.md", RULE + "- Never commit secrets to git.\n")
    git(repo, "add", "CLAUDE.md")
    write(repo, "CLAUDE.md", "")
    assert len(load(repo, _config(repo), first)["CLAUDE.md"]) == 1
    assert len(load(repo, _config(repo), INDEX)["CLAUDE.md"]) == 2
    assert load(repo, _config(repo))["CLAUDE.md"] == []


def test_load_limits_to_paths(repo: Path) -> None:
    write(repo, "CLAUDE.md", RULE)
    write(repo, "pkg/a/AGENTS.md", RULE)
    write(repo, "pkg/ab/AGENTS.md", RULE)
    assert list(load(repo, _config(repo), paths=["pkg/a"])) == ["pkg/a/AGENTS.md"]
    assert list(load(repo, _config(repo), paths=["pkg/ab/"])) == ["pkg/ab/AGENTS.md"]
    assert len(load(repo, _config(repo), paths=["."])) == 3


def test_read_at_revision_and_index(repo: Path) -> None:
    sha = commit(repo, {"CLAUDE.md": RULE, "docs/a b.md": "x\n", "docs/[x].md": "y\n"})
    os.symlink("CLAUDE.md", repo / "AGENTS.md")
    git(repo, "add", "AGENTS.md")
    assert read(repo, "CLAUDE.md", sha) == RULE
    assert read(repo, "docs/a b.md", sha) == "x\n" and read(repo, "docs/[x].md", INDEX) == "y\n"
    assert read(repo, "docs/?.md", sha) is None
    assert read(repo, "AGENTS.md", sha) is None and read(repo, "AGENTS.md", INDEX) == RULE
    assert read(repo, "docs", sha) is None and read(repo, "missing.md", INDEX) is None
