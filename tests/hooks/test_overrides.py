"""The commit-msg hook honours `Context-Id: <old-id> reworded|added` written in the message at commit time:
it asks for the whys of the changes as the user stated them, shows the pairing so, and writes no
Context-Id line that contradicts the user's."""

from __future__ import annotations

from pathlib import Path

from gitcontext.hooks.overrides import stated
from tests.provenance.test_override import (
    BRANCHES,
    CSS,
    DUMPS,
    KEEP,
    SNAPSHOTS,
    _commit,
    _committed,
    _id,
    _ls,
    _rules,
    _team_repo,
)
from tests.provenance.test_override import _context_lines as _context_ids


def test_overrides_reworded_is_one_rewording_with_a_why_for_the_old_id(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    old = _id(DUMPS)
    done = _committed(
        repo,
        _rules(SNAPSHOTS, BRANCHES, KEEP),
        "dumps to s3",
        f"Context-Id: {old} reworded\nContext-Why: {old}: the vault was retired",
    )
    assert f"override: {old} reworded as you said, CLAUDE.md:1" in done.stderr
    assert _context_ids(repo) == [f"{old} reworded"]  # no `<new> added`, no `<old> retired`
    assert _ls(capsys)[SNAPSHOTS][0] == old


def test_overrides_reworded_without_a_why_is_refused_as_a_rewording(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    old = _id(DUMPS)
    done = _commit(repo, _rules(SNAPSHOTS, BRANCHES, KEEP), "dumps to s3", f"Context-Id: {old} reworded")
    assert done.returncode == 1
    assert f"reworded {old}  CLAUDE.md:1" in done.stderr and f"added {_id(SNAPSHOTS)}" not in done.stderr


def test_overrides_reworded_accepts_a_why_for_the_id_the_matcher_showed(repo: Path, capsys) -> None:
    """The user was refused for `added <new-id>`, then wrote the override and a why for that id."""
    _team_repo(repo, capsys)
    old, shown = _id(DUMPS), _id(SNAPSHOTS)
    refused = _commit(repo, _rules(SNAPSHOTS, BRANCHES, KEEP), "dumps to s3")
    assert refused.returncode == 1 and f"added {shown}" in refused.stderr
    _committed(
        repo,
        _rules(SNAPSHOTS, BRANCHES, KEEP),
        "dumps to s3",
        f"Context-Id: {old} reworded\nContext-Why: {shown}: the vault was retired",
    )
    assert _context_ids(repo) == [f"{old} reworded"]


def test_overrides_added_is_a_new_rule_with_its_own_id(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    old, new = _id(BRANCHES), _id(CSS)
    refused = _commit(repo, _rules(DUMPS, CSS, KEEP), "css naming", f"Context-Id: {old} added")
    assert refused.returncode == 1
    assert f"added {new}  CLAUDE.md:2" in refused.stderr and f"reworded {old}" not in refused.stderr
    assert f"override: CLAUDE.md:2 is a new rule {new}, as you said ({old} ends here)" in refused.stderr
    for why in (f"Context-Why: {old}: design tokens", f"Context-Why: {new}: design tokens", "Context-Why: tokens"):
        done = _commit(repo, _rules(DUMPS, CSS, KEEP), "css naming", f"Context-Id: {old} added\n{why}")
        assert done.returncode == 0, (why, done.stderr)
        assert _context_ids(repo) == [f"{old} added", f"{new} added"]  # never `<old> reworded`
        assert _ls(capsys)[CSS] == (new, "documented")
        from tests.helpers import git

        git(repo, "reset", "-q", "--soft", "HEAD~1")


def test_overrides_an_agreeing_line_changes_nothing(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    id = _id(KEEP)
    done = _committed(
        repo,
        _rules(DUMPS, BRANCHES, "Keep PRs small and focused."),
        "focus",
        f"Context-Id: {id} reworded\nContext-Why: big PRs hide bugs",
    )
    assert "override" not in done.stderr and _context_ids(repo) == [f"{id} reworded"]


def test_overrides_a_line_naming_no_removed_rule_is_reported(repo: Path, capsys) -> None:
    _team_repo(repo, capsys)
    done = _committed(
        repo,
        _rules(DUMPS, BRANCHES, KEEP, "Pin every CI action by sha."),
        "pin",
        f"Context-Id: {_id(KEEP)} reworded\nContext-Why: a retagged action ran unreviewed code",
    )
    assert f"`Context-Id: {_id(KEEP)} reworded` names no rule this commit removed; ignored" in done.stderr


def test_overrides_stated_added_wins_for_one_id() -> None:
    trailers = [
        ("Context-Id", "ctx-aaaaaaaaaaaa", "added"),
        ("Context-Why", None, "x"),
        ("Context-Id", "ctx-aaaaaaaaaaaa", "reworded"),
        ("Context-Id", "ctx-bbbbbbbbbbbb", "reworded"),
        ("Context-Id", "ctx-cccccccccccc", "retired"),
    ]
    assert stated(trailers) == [("ctx-aaaaaaaaaaaa", "added"), ("ctx-bbbbbbbbbbbb", "reworded")]


def test_overrides_check_over_the_range_decides_as_the_hook_did(repo: Path, capsys) -> None:
    """`git context check` (the server side) honours the overrides the hook honoured at commit time."""
    from tests.helpers import git, run_cli, run_json

    _team_repo(repo, capsys)
    base = git(repo, "rev-parse", "HEAD").strip()
    dumps, branches = _id(DUMPS), _id(BRANCHES)
    _committed(
        repo,
        _rules(SNAPSHOTS, CSS, KEEP),
        "storage and naming",
        f"Context-Id: {dumps} reworded\nContext-Id: {branches} added\n"
        f"Context-Why: {dumps}: the vault was retired\nContext-Why: {branches}: design tokens",
    )
    code, out, _ = run_cli(capsys, "check", "--base", base)
    assert code == 0, out
    changes = {(c["kind"], c["id"]) for c in run_json(capsys, "check", "--base", base)["changes"]}
    assert changes == {("reworded", dumps), ("added", _id(CSS))}
