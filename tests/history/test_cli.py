from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli, run_json

RULES = [
    "run ruff check on every changed Python module",
    "execute pytest with the quick marker enabled locally",
    "keep imports sorted alphabetically within each group",
    "never edit generated protobuf stubs by hand",
    "request two approvals for schema migrations",
    "describe public API changes inside CHANGELOG entries",
    "prefer dataclasses over dictionaries for records",
    "log through the structured logger only",
]


def _doc(*indexes: int) -> str:
    return "# Rules\n\n" + "".join(f"- {RULES[i]}\n" for i in indexes)


def _history(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": _doc(0, 1, 2, 3, 4, 5)}, "start")
    commit(repo, {"CLAUDE.md": _doc(0, 1, 2, 3, 4, 5, 6)}, "grow")
    commit(repo, {"CLAUDE.md": _doc(0, 1, 3, 4, 5, 6)}, "delete one")
    commit(repo, {"CLAUDE.md": _doc(0, 6, 7)}, "rewrite")
    commit(repo, {"CLAUDE.md": _doc(0, 6), "AGENTS.md": _doc(7)}, "migrate")


def test_history_json_follows_the_design_contract(repo: Path, capsys) -> None:
    _history(repo)
    data = run_json(capsys, "history")
    files = {f["path"]: f for f in data["files"]}
    claude = files["CLAUDE.md"]
    for key in (
        "path",
        "versions",
        "instructions_first",
        "instructions_last",
        "births",
        "deaths",
        "rewrites",
        "migrations",
        "growth",
    ):
        assert key in claude
    assert (claude["versions"], claude["instructions_first"], claude["instructions_last"]) == (5, 6, 2)
    assert claude["births"] == 2 and claude["deaths"] == 5 and claude["migrations"] == 1
    assert claude["deaths_by_cause"] == {"deleted": 1, "rewrite": 4, "migration": 1}
    assert claude["rewrites"] == 1 and claude["rewrite_events"][0]["subject"] == "rewrite"
    assert claude["growth"] == [[0.0, 6], [0.25, 7], [0.5, 6], [0.75, 3], [1.0, 2]]
    assert claude["net_changes_outside_rewrites"] == [1, -1, -1]
    assert files["AGENTS.md"]["migrations_in"] == 0 and files["AGENTS.md"]["instructions_first"] == 1
    assert set(data["hazard"]) >= {"ages", "cumulative_hazard", "log_slope"}
    assert data["summary"]["deaths_by_cause"]["rewrite"] == 4


def test_history_files_argument_limits_and_unknown_file_is_exit_2(repo: Path, capsys) -> None:
    _history(repo)
    data = run_json(capsys, "history", "AGENTS.md")
    assert [f["path"] for f in data["files"]] == ["AGENTS.md"]
    code, _, err = run_cli(capsys, "history", "NOPE.md")
    assert code == 2 and "no context-file history for NOPE.md" in err


def test_history_text_svg_and_html(repo: Path, capsys, tmp_path: Path) -> None:
    _history(repo)
    svg, html = tmp_path / "h.svg", tmp_path / "h.html"
    code, out, err = run_cli(capsys, "history", "--svg", str(svg), "--html", str(html))
    assert code == 0, err
    assert "CLAUDE.md" in out and "deletion hazard log-slope" in out and "1 in rewrites" not in out
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and "prefers-color-scheme:dark" in svg.read_text(encoding="utf-8")
    page = html.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<svg" in page and "CLAUDE.md" in page
    assert err == ""  # no progress bar when stderr is not a terminal


def test_history_unwritable_svg_is_exit_2(repo: Path, capsys) -> None:
    _history(repo)
    code, _, err = run_cli(capsys, "history", "--svg", str(repo / "missing" / "dir" / "h.svg"))
    assert code == 2 and "--svg" in err


def test_history_paper_matcher_and_empty_repository(repo: Path, capsys) -> None:
    assert run_json(capsys, "history")["files"] == []
    _history(repo)
    data = run_json(capsys, "history", "--matcher", "paper")
    assert json.dumps(data)  # serializable
    assert {f["path"] for f in data["files"]} == {"CLAUDE.md", "AGENTS.md"}


def test_history_unknown_rev_is_exit_2_with_the_fix(repo: Path, capsys) -> None:
    _history(repo)
    code, _, err = run_cli(capsys, "history", "--rev", "no-such-branch")
    assert code == 2 and "unknown revision 'no-such-branch'" in err and "git log --oneline" in err


def test_history_rev_measures_an_older_commit(repo: Path, capsys) -> None:
    _history(repo)
    data = run_json(capsys, "history", "--rev", "HEAD~2")
    assert [f["versions"] for f in data["files"]] == [3] and data["shallow"] is False


def test_history_shallow_clone_warns(repo: Path, capsys, tmp_path: Path) -> None:
    _history(repo)
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{repo}", str(clone))
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.chdir(clone)
    try:
        code, out, err = run_cli(capsys, "history", "--json")
    finally:
        monkeypatch.undo()
    assert code == 0 and "shallow clone" in err and json.loads(out)["shallow"] is True


def test_history_file_traces_only_it_and_its_siblings_with_the_same_numbers(repo: Path, capsys) -> None:
    _history(repo)
    for n in range(4):
        commit(repo, {f"pkg{n}/AGENTS.md": _doc(n, n + 1)}, f"package {n}")
    commit(repo, {"pkg0/AGENTS.md": _doc(0)}, "package edit")
    whole = run_json(capsys, "history")
    rows = {f["path"]: f for f in whole["files"]}
    for path in ("CLAUDE.md", "AGENTS.md", "pkg0/AGENTS.md"):
        alone = run_json(capsys, "history", path)
        assert alone["files"] == [rows[path]]
    from gitcontext import config as config_mod
    from gitcontext.history import hazard as hz
    from gitcontext.history.analyze import estimate_hazard, hazard_rows
    from gitcontext.history.replay import replay
    from gitcontext.history.tracer import trace

    full = replay(repo, config_mod.DEFAULTS)
    chain = next(c for c, versions in enumerate(full.chains) if versions[-1][1].path == "CLAUDE.md")
    rows = hazard_rows(full, trace(full), {chain})
    assert run_json(capsys, "history", "CLAUDE.md")["hazard"] == estimate_hazard(rows, hz.BOOTSTRAP).to_json()


def test_history_symlinked_file_is_shown_as_a_link_not_deleted(repo: Path, capsys) -> None:
    import os

    commit(repo, {"CLAUDE.md": _doc(0, 1, 2)}, "start")
    commit(repo, {"AGENTS.md": _doc(3, 4, 5)}, "agents file")
    (repo / "CLAUDE.md").unlink()
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    git(repo, "add", "CLAUDE.md")
    commit(repo, {}, "CLAUDE.md links to AGENTS.md")
    rows = {f["path"]: f for f in run_json(capsys, "history")["files"]}
    assert rows["CLAUDE.md"]["symlink_to"] == "AGENTS.md" and rows["AGENTS.md"]["symlink_to"] is None
    code, out, _ = run_cli(capsys, "history")
    line = next(x for x in out.splitlines() if x.startswith("CLAUDE.md"))
    assert line.endswith("(symlink to AGENTS.md)") and "(deleted)" not in line


def test_history_too_few_deletions_give_no_slope(repo: Path, capsys) -> None:
    _history(repo)
    data = run_json(capsys, "history")
    assert data["hazard"]["events"] < data["hazard"]["min_events"] and data["hazard"]["log_slope"] is None
    code, out, _ = run_cli(capsys, "history")
    assert "too few individual deletions to estimate one (needs 10)" in out


def test_history_cache_is_extended_by_new_commits_and_changes_nothing(repo: Path, capsys) -> None:
    import shutil

    from gitcontext.history import cache

    _history(repo)
    first = run_json(capsys, "history")
    assert run_json(capsys, "history") == first  # read back at the same head
    commit(repo, {"AGENTS.md": _doc(7, 1), "CLAUDE.md": _doc(0)}, "more")
    extended = run_json(capsys, "history")
    shutil.rmtree(cache.location(repo))
    assert run_json(capsys, "history") == extended != first
    git(repo, "reset", "-q", "--hard", "HEAD~1")  # another head: from scratch
    assert run_json(capsys, "history") == first
