"""Both ledgers through the merge driver in real git: branches adding rulings and revising asks never conflict."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from gitcontext.config import DEFAULTS
from gitcontext.merge import install
from tests.helpers import commit, git, run_cli


def _ids(path: Path) -> list[str]:
    return [json.loads(line).get("eid") or json.loads(line)["id"] for line in path.read_text().splitlines()]


def _add(capsys, *args: str) -> str:
    code, out, err = run_cli(capsys, "ruling", "add", *args, "--json")
    assert code == 0, err
    return json.loads(out)["id"]


def test_rulings_and_asks_on_two_branches_merge_clean(repo: Path, capsys, monkeypatch) -> None:
    install.configure(repo, copy.deepcopy(DEFAULTS))
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-01T09:00:00Z")
    base = _add(capsys, "--topic", "releases", "--summary", "Releases go out on Tuesdays only", "--source", "o")
    _, out, _ = run_cli(
        capsys, "ask", "propose", "--topic", "arm-runners", "--question", "May CI move to ARM runners?", "--json"
    )
    aid = json.loads(out)["id"]
    commit(repo, {".gitattributes": (repo / ".gitattributes").read_text()}, "base")
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "ledger")
    git(repo, "checkout", "-q", "-b", "feature")
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-03T09:00:00Z")
    newer = _add(
        capsys,
        "--topic",
        "releases",
        "--summary",
        "Releases go out on any weekday with a green canary",
        "--source",
        "owner",
        "--supersedes",
        base,
    )
    assert run_cli(capsys, "ask", "revise", aid, "--question", "May CI move to ARM runners this quarter?")[0] == 0
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "feature decisions")
    git(repo, "checkout", "-q", "main")
    monkeypatch.setenv("GITCONTEXT_NOW", "2026-11-02T09:00:00Z")
    other = _add(
        capsys, "--topic", "docs-site", "--summary", "The docs site is built with mkdocs-material", "--source", "review"
    )
    assert run_cli(capsys, "ask", "withdraw", aid, "--reason", "we stay on x86 for now")[0] == 0
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "main decisions")
    git(repo, "merge", "-q", "--no-edit", "feature")
    assert git(repo, "status", "--porcelain") == ""
    rulings = repo / ".context" / "rulings.jsonl"
    assert _ids(rulings) == [base, other, newer]
    code, out, _ = run_cli(capsys, "ruling", "lookup", "releases", "--json")
    rows = json.loads(out)["rulings"]
    assert [r["id"] for r in rows] == [newer, base] and rows[1]["superseded_by"] == [newer]  # supersede applies
    asks = [json.loads(line) for line in (repo / ".context" / "asks.jsonl").read_text().splitlines()]
    assert len(asks) == 3 and {a["id"] for a in asks} == {aid}
    _, listed, _ = run_cli(capsys, "ask", "list", "--json")
    state = json.loads(listed)["asks"][0]  # the newest line wins: feature's revision (11-03) after the withdrawal
    assert state["status"] == "open" and state["question"].endswith("this quarter?")
