"""Driver registration, the managed .gitattributes block, and doctor's problems()."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from gitcontext.config import DEFAULTS
from gitcontext.merge import attributes, install
from tests.helpers import git, write


def _attr(repo: Path, path: str) -> str:
    return git(repo, "check-attr", "merge", "--", path).rsplit(": ", 1)[1].strip()


def test_configure_registers_driver_for_this_interpreter(repo: Path) -> None:
    install.configure(repo, copy.deepcopy(DEFAULTS))
    driver = git(repo, "config", "merge.gitcontext.driver").strip()
    assert driver.startswith(sys.executable) and "merge-driver %O %A %B %L %P --labels %S %X %Y" in driver
    assert git(repo, "config", "merge.gitcontext.name").strip()
    for path in (
        ".context/notes/ctx-1.jsonl",
        ".context/rulings.jsonl",
        "CLAUDE.md",
        "pkg/AGENTS.md",
        ".cursor/rules/style.mdc",
        ".github/copilot-instructions.md",
    ):
        assert _attr(repo, path) == "gitcontext", path
    assert _attr(repo, "README.md") == "unspecified"
    assert install.problems(repo) == []


def test_configure_is_idempotent_and_keeps_user_lines(repo: Path) -> None:
    write(repo, ".gitattributes", "*.png binary\r\n*.sh text eol=lf\r\n")
    install.configure(repo, copy.deepcopy(DEFAULTS))
    first = (repo / ".gitattributes").read_bytes()
    install.configure(repo, copy.deepcopy(DEFAULTS))
    assert (repo / ".gitattributes").read_bytes() == first
    assert first.startswith(b"*.png binary\r\n*.sh text eol=lf\r\n# >>> gitcontext")
    assert first.count(attributes.BEGIN.encode()) == 1 and b"\n" not in first.replace(b"\r\n", b"")


def test_configure_without_context_files_routes_only_notes(repo: Path) -> None:
    install.configure(repo, copy.deepcopy(DEFAULTS))
    install.configure(repo, copy.deepcopy(DEFAULTS), context_files=False)
    assert _attr(repo, ".context/notes/ctx-1.jsonl") == "gitcontext"
    assert _attr(repo, "CLAUDE.md") == "unspecified"
    text = (repo / ".gitattributes").read_text()
    assert text.count("merge=gitcontext") == 1


def test_configure_routes_discovered_files_the_globs_miss(repo: Path) -> None:
    config = copy.deepcopy(DEFAULTS)
    config["discovery"]["include"] = ["docs/{rules,guides}/*.md"]
    write(repo, "docs/rules/a.md", "- one rule here\n")
    assert install.patterns(repo, config) == [".context/**", "docs/rules/*.md", "docs/guides/*.md"]
    install.configure(repo, config)
    assert _attr(repo, "docs/rules/a.md") == "gitcontext"


def test_problems_attribute_without_driver(repo: Path) -> None:
    write(repo, ".gitattributes", ".context/** merge=gitcontext\n")
    write(repo, ".context/notes/ctx-1.jsonl", "")
    found = install.problems(repo)
    assert len(found) == 1
    message, fix = found[0]
    assert "merge.gitcontext.driver is not configured" in message and "silently" in message
    assert fix == "git context init"


def test_problems_driver_outdated_or_foreign_or_missing_program(repo: Path) -> None:
    install.configure(repo, copy.deepcopy(DEFAULTS))
    cases = {
        "mergiraf merge %O %A %B": "is not gitcontext's driver",
        f"{sys.executable} -m gitcontext merge-driver %O %A %B": "does not pass %L %P",
        "/nonexistent/python -m gitcontext merge-driver %O %A %B %L %P": "does not exist",
    }
    for line, expected in cases.items():
        git(repo, "config", "merge.gitcontext.driver", line)
        ((message, _),) = install.problems(repo)
        assert expected in message


def test_problems_context_folder_not_routed(repo: Path) -> None:
    git(repo, "config", "merge.gitcontext.driver", install.driver_command())
    write(repo, ".context/notes/ctx-1.jsonl", "")
    ((message, fix),) = install.problems(repo)
    assert "does not route .context/" in message and fix == "git context init"


def test_configure_unwritable_attributes_is_user_error(repo: Path) -> None:
    import pytest

    from gitcontext.errors import UserError

    (repo / ".gitattributes").mkdir()  # a directory where the file should be
    with pytest.raises(UserError, match="not a regular file"):
        install.configure(repo, copy.deepcopy(DEFAULTS))
    assert sorted(p.name for p in repo.iterdir()) == [".git", ".gitattributes"]
    assert git(repo, "config", "--get", "merge.gitcontext.driver", check=False) == ""


def test_problems_with_a_broken_config_uses_the_defaults(repo):
    from gitcontext.merge.install import problems

    write(repo, ".context/config.yml", "hooks:\n  time_budget: .nan\n")  # UserError inside: must be caught
    assert isinstance(problems(repo), list)
