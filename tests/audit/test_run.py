from __future__ import annotations

import copy
from pathlib import Path

import pytest

from gitcontext.audit.run import audit
from gitcontext.audit.select import select
from gitcontext.config import DEFAULTS
from gitcontext.errors import UserError
from tests.helpers import write


def _config(**audit_keys):
    config = copy.deepcopy(DEFAULTS)
    config["audit"].update(audit_keys)
    return config


def test_select_disables_by_id_and_by_name() -> None:
    ids = {m.CHECK.id for m in select(_config(disable=["GC100", "unverified"]))}
    assert "GC100" not in ids and "GC101" not in ids and "GC105" in ids


def test_select_only_overrides_disable() -> None:
    assert [m.CHECK.id for m in select(_config(disable=["GC100"]), ["orphan"])] == ["GC100"]


def test_select_unknown_check_names_the_place() -> None:
    with pytest.raises(UserError, match="--check"):
        select(_config(), ["GC999"])
    with pytest.raises(UserError, match="audit.disable"):
        select(_config(disable=["nope"]))


def test_audit_coverage_and_sorted_findings(rules_repo: Path) -> None:
    report = audit(rules_repo, _config(), checks=["GC100"])
    assert report.coverage == {
        "instructions": 3,
        "documented": 1,
        "stale": 0,
        "orphan": 2,
        "suggested": 0,
        "recording": 1,
    }
    assert [(f.file, f.line) for f in report.findings] == [("CLAUDE.md", 4), ("CLAUDE.md", 5)]


def test_audit_paths_limit_findings_and_coverage(rules_repo: Path) -> None:
    write(rules_repo, "docs/AGENTS.md", "- Write docs in plain English only.\n")
    report = audit(rules_repo, _config(), checks=["GC100"], paths=["docs"])
    assert [f.file for f in report.findings] == ["docs/AGENTS.md"]
    assert report.coverage["instructions"] == 1


def test_audit_is_deterministic(rules_repo: Path) -> None:
    first = audit(rules_repo, _config())
    assert first == audit(rules_repo, _config())


def test_audit_counts_a_trailer_why_before_sync_as_ls_does(repo, capsys):
    import json as _json

    from tests.helpers import commit, run_cli, run_json

    commit(repo, {"CLAUDE.md": "- Pin every CI action by sha.\n- Keep PRs small.\n"}, "rules")
    pin = next(r["id"] for r in run_json(capsys, "ls")["instructions"] if r["text"].startswith("Pin"))
    commit(repo, {}, f"why\n\nContext-Why: {pin}: a retagged action ran unreviewed code")
    statuses = {r["id"]: r["status"] for r in run_json(capsys, "ls")["instructions"]}
    data = _json.loads(run_cli(capsys, "audit", "--json", "--check", "GC100", "--fail-on", "never")[1])
    orphans = {f["id"] for f in data["findings"]}
    assert pin not in orphans and orphans == {i for i, s in statuses.items() if s == "orphan"}
    assert data["coverage"]["documented"] == 1


def test_audit_shallow_clone_says_what_it_cannot_judge(repo: Path, tmp_path: Path) -> None:
    from tests.helpers import commit, git

    commit(
        repo,
        {
            "CLAUDE.md": "- Build the SDK in `sdk/ts/` first.\n",
            "sdk/ts/index.ts": "export {}\n",
            "src/app.py": "x = 1\n",
        },
        "sdk",
    )
    commit(repo, {"sdk/ts/index.ts": None}, "drop the sdk")
    commit(repo, {"src/app.py": "x = 2\n"}, "later")
    full = audit(repo, _config(), checks=["GC103"])
    assert [f.evidence["class"] for f in full.findings] == ["deleted"] and not full.notes
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    report = audit(shallow, _config(), checks=["GC103"])
    [note] = report.findings
    assert note.severity == "note" and "`sdk/ts/` (CLAUDE.md:1)" in note.message
    assert "git fetch --unshallow" in note.message and note.evidence["count"] == 1
    assert any(n.startswith("shallow clone:") and "git fetch --unshallow" in n for n in report.notes)


def test_audit_coverage_counts_the_orphans_with_a_suggested_why(repo, capsys) -> None:
    """Issue 27: coverage shows documented / suggested / orphan, and the text says the one command."""
    import json

    from tests.helpers import commit as _commit
    from tests.helpers import run_cli

    _commit(repo, {"CLAUDE.md": "# Rules\n\n- Keep commits small.\n"}, "rules")
    _commit(
        repo,
        {"CLAUDE.md": "# Rules\n\n- Keep commits small.\n- Run codegen before the tests.\n"},
        "Tell the agent to run codegen before tests\n\nIt kept committing stale clients: CI failed three times in #4412.",
    )
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    code, out, _ = run_cli(capsys, "audit", "--format", "json", "--fail-on", "never")
    coverage = json.loads(out)["coverage"]
    assert coverage["orphan"] == 2 and coverage["documented"] == 0 and coverage["suggested"] == 1
    code, out, _ = run_cli(capsys, "audit", "--fail-on", "never")
    assert "1 rule has a suggested why from history: `git context review`" in out


def test_audit_first_line_starts_recording_until_init(repo, capsys) -> None:
    """Session 7: on a repository nobody ran `init` in, the default audit's first line was coverage
    ("98 instructions, … 98 orphan") with no command; it now names the one that starts recording."""
    from tests.helpers import commit as _commit
    from tests.helpers import run_cli

    _commit(repo, {"AGENTS.md": "# Rules\n\n- Keep commits small.\n- Run codegen before the tests.\n"}, "rules")
    out = run_cli(capsys, "audit", "--fail-on", "never")[1]
    assert out.splitlines()[0].startswith("not recording yet: 2 rules in context files, no `.context/`")
    assert "`git context init --backfill`" in out.splitlines()[0]
    assert "not recording yet" in run_cli(capsys, "audit", "--format", "markdown", "--fail-on", "never")[1]
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    assert "not recording yet" not in run_cli(capsys, "audit", "--fail-on", "never")[1]
