"""Escape hatches and sequencer states: the hooks stand aside, through real git."""

from __future__ import annotations

from tests.helpers import commit, git, write
from tests.hooks.support import NEW_RULE, RULES, attempt, last_message, native_repo, stage_new_rule


def test_guard_gitcontext_hooks_zero_skips_every_hook(repo):
    native_repo(repo)
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", env={"GITCONTEXT_HOOKS": "0"})
    assert done.returncode == 0, done.stderr
    assert "Context-Id" not in last_message(repo)
    assert "gitcontext" not in done.stderr


def test_guard_skip_gitcontext_honoured_natively(repo):
    native_repo(repo)
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", env={"SKIP": "flake8,gitcontext"})
    assert done.returncode == 0, done.stderr
    assert "Context-Id" not in last_message(repo)


def test_guard_skip_gitcontext_msg_skips_only_message_hooks(repo):
    native_repo(repo)
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", env={"SKIP": "gitcontext-msg"})
    assert done.returncode == 0, done.stderr
    assert "gitcontext: 1 added" in done.stderr  # pre-commit still ran
    assert "Context-Id" not in last_message(repo)


def test_guard_no_verify_bypasses(repo):
    native_repo(repo)
    stage_new_rule(repo)
    done = attempt(repo, "--no-verify", "-m", "Add rule")
    assert done.returncode == 0, done.stderr
    assert "Context-Id" not in last_message(repo)


def _conflicting_topic(repo):
    """topic adds a rule without a why (--no-verify); main adds another at the same place."""
    native_repo(repo)
    git(repo, "checkout", "-q", "-b", "topic")
    stage_new_rule(repo)
    git(repo, "commit", "-q", "--no-verify", "-m", "Add rule without why")
    git(repo, "checkout", "-q", "main")
    stage_new_rule(repo, "- Keep functions under thirty lines.\n")
    git(repo, "commit", "-q", "--no-verify", "-m", "main rule")


def _resolve_both(repo):
    write(repo, "CLAUDE.md", RULES + "- Keep functions under thirty lines.\n" + NEW_RULE)
    git(repo, "add", "CLAUDE.md")


def test_guard_cherry_pick_conflict_commit_untouched(repo):
    _conflicting_topic(repo)
    git(repo, "cherry-pick", "topic", check=False)
    assert (repo / ".git" / "CHERRY_PICK_HEAD").exists()
    _resolve_both(repo)
    done = attempt(repo, "--no-edit")  # hooks run; the new rule has no why
    assert done.returncode == 0, done.stderr
    assert git(repo, "log", "-1", "--format=%s").strip() == "Add rule without why"
    assert "Context-Id" not in last_message(repo)


def test_guard_rebase_conflict_commit_untouched(repo):
    _conflicting_topic(repo)
    git(repo, "checkout", "-q", "topic")
    git(repo, "rebase", "main", check=False)
    assert (repo / ".git" / "rebase-merge").exists() or (repo / ".git" / "rebase-apply").exists()
    _resolve_both(repo)
    done = attempt(repo, "--no-edit")
    assert done.returncode == 0, done.stderr
    assert "Context-Id" not in last_message(repo)
    git(repo, "-c", "core.editor=true", "rebase", "--continue")
    assert git(repo, "log", "-1", "--format=%s").strip() == "Add rule without why"


def test_guard_merge_commit_untouched(repo):
    _conflicting_topic(repo)
    git(repo, "merge", "topic", check=False)
    assert (repo / ".git" / "MERGE_HEAD").exists()
    _resolve_both(repo)
    done = attempt(repo, "--no-edit")
    assert done.returncode == 0, done.stderr
    assert git(repo, "log", "-1", "--format=%s").strip().startswith("Merge branch 'topic'")
    assert "Context-Id" not in last_message(repo)


def test_guard_same_commit_outside_sequencer_is_refused(repo):
    """The control for the three tests above: the resolved change alone would be refused."""
    _conflicting_topic(repo)
    _resolve_both(repo)
    done = attempt(repo, "-m", "Add rule without why")
    assert done.returncode == 1
    assert "without a why" in done.stderr


def test_guard_unrelated_commit_prints_nothing(repo):
    native_repo(repo)
    commit(repo, {}, "noop")
    (repo / "src.py").write_text("print(1)\n")
    git(repo, "add", "src.py")
    done = attempt(repo, "-m", "code only")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert RULES in (repo / "CLAUDE.md").read_text() and NEW_RULE not in (repo / "CLAUDE.md").read_text()
