"""GC104 and GC500 on real repositories (run directly; the audit command runs every registered check)."""

from __future__ import annotations

import json
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.audit.checks import gc104_superseded_ruling, gc500_open_ask
from gitcontext.audit.context import AuditContext
from tests.helpers import commit, run_cli


def _ctx(repo: Path) -> AuditContext:
    return AuditContext(repo, config_mod.load(repo))


def _add(capsys, *args: str) -> str:
    code, out, err = run_cli(capsys, "ruling", "add", *args, "--json")
    assert code == 0, err
    return json.loads(out)["id"]


def test_gc104_rule_citing_a_superseded_ruling_names_the_newer(repo: Path, capsys) -> None:
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Release only on Tuesdays.\n- Run the linter before pushing.\n"})
    old = _add(capsys, "--topic", "releases", "--summary", "Releases go out on Tuesdays only", "--source", "o")
    assert run_cli(capsys, "record", "Release only", "--why", "owner decision", "--ref", f"ruling:{old}")[0] == 0
    assert run_cli(capsys, "record", "Run the linter", "--why", "CI failed on lint 3x")[0] == 0
    assert list(gc104_superseded_ruling.run(_ctx(repo))) == []
    mid = _add(
        capsys,
        "--topic",
        "releases",
        "--summary",
        "Releases go out Tuesday or Thursday",
        "--source",
        "o",
        "--supersedes",
        old,
    )
    new = _add(
        capsys,
        "--topic",
        "releases",
        "--summary",
        "Releases go out any weekday with a green canary",
        "--source",
        "o",
        "--supersedes",
        mid,
    )
    [f] = gc104_superseded_ruling.run(_ctx(repo))
    assert (f.check, f.file, f.line) == ("GC104", "CLAUDE.md", 3)
    assert f.evidence["superseded_by"] == new and "green canary" in f.message


def test_gc500_open_ask_past_reminder_days(repo: Path, capsys, monkeypatch) -> None:
    commit(repo, {"README.md": "x\n"})
    monkeypatch.setenv("GITCONTEXT_NOW", "2020-01-01T00:00:00Z")
    _, out, _ = run_cli(
        capsys, "ask", "propose", "--topic", "arm-runners", "--question", "May CI use ARM runners?", "--json"
    )
    aid = json.loads(out)["id"]
    monkeypatch.delenv("GITCONTEXT_NOW")
    _, out, _ = run_cli(
        capsys, "ask", "propose", "--topic", "docs-site", "--question", "Which docs generator?", "--json"
    )
    [f] = gc500_open_ask.run(_ctx(repo))
    assert f.evidence["ask"] == aid and f"--answers {aid}" in f.fix


def test_pre_commit_hook_reminds_of_overdue_asks_without_refusing(repo: Path, capsys, monkeypatch) -> None:
    from gitcontext.hooks.fast import main as hook_main

    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the linter before pushing.\n"})
    monkeypatch.setenv("GITCONTEXT_NOW", "2020-01-01T00:00:00Z")
    run_cli(capsys, "ask", "propose", "--topic", "arm-runners", "--question", "May CI use ARM runners?")
    monkeypatch.delenv("GITCONTEXT_NOW")
    (repo / "CLAUDE.md").write_text("# Rules\n\n- Run the linter before pushing.\n- Keep functions short.\n")
    from tests.helpers import git

    git(repo, "add", "CLAUDE.md", ".context")
    capsys.readouterr()
    assert hook_main(["pre-commit"]) == 0
    err = capsys.readouterr().err
    assert "reminder: ask A-" in err and "May CI use ARM runners?" in err
