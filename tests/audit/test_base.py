from __future__ import annotations

from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.audit.run import audit
from tests.audit.conftest import RULES
from tests.helpers import git, run_cli, write


def test_base_keeps_only_what_the_change_introduced(rules_repo: Path) -> None:
    write(rules_repo, "CLAUDE.md", RULES + "- Never push on Fridays.\n")
    report = audit(rules_repo, config_mod.load(rules_repo), base="HEAD", checks=["GC100"])
    assert [(f.file, f.line) for f in report.findings] == [("CLAUDE.md", 6)]
    assert report.suppressed["base"] == 2 and report.base == git(rules_repo, "rev-parse", "HEAD").strip()


def test_base_keeps_findings_on_touched_instructions(rules_repo: Path) -> None:
    write(rules_repo, "CLAUDE.md", RULES.replace("Keep commits small.", "Keep every commit small."))
    report = audit(rules_repo, config_mod.load(rules_repo), base="HEAD", checks=["GC100"])
    assert [f.line for f in report.findings] == [5]


def test_base_leaves_no_worktree_behind(rules_repo: Path) -> None:
    audit(rules_repo, config_mod.load(rules_repo), base="HEAD")
    assert git(rules_repo, "worktree", "list").count("\n") == 1


def test_base_unknown_revision_is_a_usage_error(rules_repo: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "audit", "--base", "no-such-branch")
    assert code == 2 and "unknown revision" in err
