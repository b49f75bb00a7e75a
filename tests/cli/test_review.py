"""`git context review`: keys typed in a real terminal, piped answers, --accept-specific, --markdown; what an
accepted suggestion becomes, that it survives a merge through the driver, and that older readers can read it."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers import commit, git, run_cli

RULES = "# Rules\n\n- Run the tests before pushing.\n"
CODEGEN = "- Run `make codegen` before the tests.\n"
NODE = "- Pin node to 20 in CI.\n"
# What every gitcontext before round 8 accepts in a note (events.KINDS and _SOURCE of round 7):
OLD_KINDS = {
    "added": {"file", "text", "why", "failure", "refs", "scope", "safety", "owner", "commit", "subject", "headings"},
    "recurred": {"failure", "evidence", "commit", "subject"},
    "falsified": {"attempt", "outcome", "commit", "subject"},
    "reworded": {"old_text", "text", "commit", "file"},
    "moved": {"old_file", "file", "commit", "text"},
    "verified": {"how", "result", "commit", "output", "exit_status", "run", "subject"},
    "retired": {"reason", "restore", "commit", "subject"},
    "restored": {"commit", "file"},
    "linked": {"why", "failure", "refs", "scope", "safety", "owner", "commit", "subject"},
    "trialled": {"command", "runs", "removal", "control", "removed", "text", "file", "duration_ms", "commit"},
}
OLD_SOURCE = re.compile(r"(cli|hook|merge|trailer:[0-9a-f]{7,64}|backfill:[0-9a-f]{7,64})\Z")


def _adopted(repo: Path, capsys) -> dict[str, str]:
    """Two rules with a reason in history, one without; `init --backfill`; returns the commits by rule."""
    commit(repo, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    codegen = commit(repo, {"CLAUDE.md": RULES + CODEGEN}, "Run codegen first (#12)\n\nStale clients broke CI twice.")
    node = commit(repo, {"CLAUDE.md": RULES + CODEGEN + NODE}, "Pin node\n\nThe build broke when node 22 shipped.")
    code, out, err = run_cli(capsys, "init", "--hooks", "none", "--backfill")
    assert code == 0 and "2 specific suggestions" in out, out + err
    return {"codegen": codegen, "node": node}


def _status(capsys) -> dict[str, str]:
    code, out, _ = run_cli(capsys, "ls", "--json")
    return {" ".join(i["text"].split()): i["status"] for i in json.loads(out)["instructions"]}


def _notes(repo: Path) -> list[dict]:
    return [json.loads(line) for p in sorted((repo / ".context/notes").glob("*.jsonl")) for line in p.open()]


def test_review_piped_answers_accept_and_reject(repo, capsys, monkeypatch) -> None:
    commits = _adopted(repo, capsys)
    assert set(_status(capsys).values()) == {"orphan"}  # a suggestion is never documentation
    monkeypatch.setattr(sys, "stdin", io.StringIO("a\nr\n"))
    code, out, err = run_cli(capsys, "review")
    assert code == 0, err
    assert out.index("[1/2] CLAUDE.md:5") < out.index("[2/2] CLAUDE.md:4")  # newest first
    assert "why      The build broke when node 22 shipped." in out
    assert "review: 1 accepted, 1 rejected; 0 left; commit .context/ to share them" in out
    status = _status(capsys)
    assert (
        status["Pin node to 20 in CI."] == "documented" and status["Run `make codegen` before the tests."] == "orphan"
    )
    [linked] = [e for e in _notes(repo) if e["kind"] == "linked"]
    assert linked["source"] == f"backfill:{commits['node']}" and linked["commit"] == commits["node"]
    assert linked["why"] == "The build broke when node 22 shipped." and linked["suggestion"].startswith("e-")
    verdicts = [json.loads(line) for line in (repo / ".context/suggestions.jsonl").open()][-2:]
    assert [v["verdict"] for v in verdicts] == ["accepted", "rejected"]
    assert run_cli(capsys, "review", "--json")[1].strip() == '{\n  "pending": []\n}'
    assert "0 new written, 1 already suggested" in run_cli(capsys, "suggest")[1]  # rejected stays rejected


def test_review_accept_specific_and_older_readers(repo, capsys) -> None:
    _adopted(repo, capsys)
    code, out, err = run_cli(capsys, "review", "--accept-specific")
    assert code == 0, err
    assert "accepted" in out and "Stale clients broke CI twice. (#12)" in out and "review: 2 accepted unread" in out
    assert "suggested whys are a first draft" in out  # said after accepting without reading
    assert list(_status(capsys).values()).count("documented") == 2
    for event in _notes(repo):  # an accepted suggestion is a note event every older gitcontext reads
        assert event["kind"] in OLD_KINDS and OLD_SOURCE.match(event["source"])
        for key, value in event.items():
            if key not in OLD_KINDS[event["kind"]] | {"v", "eid", "id", "at", "kind", "source"}:
                assert isinstance(value, str), key  # unknown fields are read as strings
    [codegen] = [e for e in _notes(repo) if e["kind"] == "linked" and "codegen" not in e["why"] and "#12" in e["why"]]
    assert codegen["refs"] == ["#12"]


def test_review_markdown_checklist_escapes_repository_text(repo, capsys) -> None:
    commit(repo, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    commit(
        repo,
        {"CLAUDE.md": RULES + "- Ask @ana before <b>merging</b> `x`.\n"},
        "Ask first\n\nA merge by @bob broke <script>alert(1)</script> the release.",
    )
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    code, out, _ = run_cli(capsys, "review", "--markdown")
    assert code == 0 and out.startswith("### gitcontext: 1 suggested why from history")
    assert "- [ ] `CLAUDE.md:4` " in out and "<script>" not in out and "&lt;script&gt;" in out
    assert "@bob" not in out and "@\u2060bob" in out and "@ana" not in out
    assert "_Suggested whys are a first draft: on fresh repositories" in out


def test_review_an_accepted_suggestion_survives_a_merge_through_the_driver(repo, capsys, monkeypatch) -> None:
    _adopted(repo, capsys)
    git(repo, "add", ".context", ".gitattributes")
    git(repo, "commit", "-q", "--no-verify", "-m", "Adopt gitcontext")
    git(repo, "checkout", "-q", "-b", "ana")
    monkeypatch.setattr(sys, "stdin", io.StringIO("a\nq\n"))
    run_cli(capsys, "review")  # accepts the node rule's why on ana
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "Accept one suggestion")
    git(repo, "checkout", "-q", "main")
    monkeypatch.setattr(sys, "stdin", io.StringIO("s\nr\n"))
    run_cli(capsys, "review")  # rejects the codegen rule's on main
    run_cli(capsys, "record", "Run the tests before", "--why", "pushes broke main twice")
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "Reject one, record one")
    merged = subprocess.run(["git", "merge", "--no-edit", "ana"], cwd=repo, capture_output=True, text=True)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "<<<<<<<" not in (repo / ".context/suggestions.jsonl").read_text()
    assert _status(capsys) == {
        "Run the tests before pushing.": "documented",
        "Run `make codegen` before the tests.": "orphan",
        "Pin node to 20 in CI.": "documented",
    }
    verdicts = [json.loads(line).get("verdict") for line in (repo / ".context/suggestions.jsonl").open()]
    assert sorted(v for v in verdicts if v) == ["accepted", "rejected"]
    assert run_cli(capsys, "doctor", "--check-merge", "HEAD~1", "HEAD")[0] in (0, 1)
    assert "lost" not in run_cli(capsys, "doctor", "--check-merge", "HEAD~2", "HEAD")[1]


def _terminal(repo: Path, env: dict[str, str], keys: list[str]) -> str:
    """`git context review` in a real terminal (a pty), typing KEYS one by one as each prompt appears."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gitcontext", "review"], cwd=repo, stdin=slave, stdout=slave, stderr=slave, env=env
    )
    os.close(slave)
    seen, pending = b"", list(keys)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if pending and seen.count(b"[q]uit? ") > len(keys) - len(pending):
                os.write(master, pending.pop(0).encode())
        elif proc.poll() is not None:
            break
    proc.wait(10)
    os.close(master)
    assert proc.returncode == 0, seen.decode("utf-8", "replace")
    return seen.decode("utf-8", "replace")


def test_review_in_a_terminal_one_key_each_and_the_editor(repo, capsys, tmp_path) -> None:
    _adopted(repo, capsys)
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys, pathlib\n"
        "p = pathlib.Path(sys.argv[1])\n"
        "text = p.read_text().replace('The build broke when node 22 shipped.', 'node 22 broke the build (#31)')\n"
        "p.write_text(text + 'Failure: error: engine node is incompatible\\n')\n"
    )
    env = {**os.environ, "EDITOR": f"{sys.executable} {editor}", "VISUAL": "", "TERM": "dumb"}
    out = _terminal(repo, env, ["e", "s"])
    assert "-> edited" in out and "-> skipped" in out and "review: 1 edited, 1 skipped; 1 left" in out
    [linked] = [e for e in _notes(repo) if e["kind"] == "linked"]
    assert linked["why"] == "node 22 broke the build (#31)" and linked["source"] == "cli"
    assert linked["failure"] == "error: engine node is incompatible"
    assert "node 22 broke" not in (repo / "CLAUDE.md").read_text()  # never shown to the executing agent


def test_review_nothing_to_review(repo, capsys) -> None:
    commit(repo, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    code, out, _ = run_cli(capsys, "review")
    assert code == 0 and out.startswith("review: nothing to review")
    assert run_cli(capsys, "review", "--markdown")[1] == "### gitcontext: no suggested whys to review\n"
