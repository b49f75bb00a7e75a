"""sync over a history it did not write: a Latin-1 commit message with a trailer does not break it."""

from __future__ import annotations

import subprocess

from gitcontext.provenance.store import all_notes
from tests.helpers import commit, git, run_cli, write


def test_sync_reads_a_latin1_commit_message_with_a_trailer(repo, capsys):
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Use uv for installs.\n"}, "rules")
    write(repo, "CLAUDE.md", "# Rules\n\n- Use uv for installs.\n- Never edit the caf\u00e9 schema.\n")
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "Add a rule\n\nContext-Why: the caf\u00e9 migration broke prod")
    raw = subprocess.run(["git", "cat-file", "commit", "HEAD"], cwd=repo, capture_output=True, check=True).stdout
    latin1 = raw.replace("caf\u00e9".encode(), "caf\u00e9".encode("latin-1"))  # no encoding header: raw bytes
    sha = (
        subprocess.run(
            ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
            cwd=repo,
            input=latin1,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    git(repo, "update-ref", "HEAD", sha)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "--no-verify", "-m", "later"], cwd=repo, check=True)
    for _ in range(2):  # and every later sync
        code, out, err = run_cli(capsys, "sync")
        assert code == 0, err
    whys = [e.get("why") for events in all_notes(repo).values() for e in events]
    assert "the caf\u00e9 migration broke prod" in whys


def test_verify_timeout_must_be_a_positive_number(repo, capsys):
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Use uv for installs.\n"}, "rules")
    for value in ("nan", "-1", "0", "inf"):
        code, _, err = run_cli(capsys, "verify", "uv for installs", "--run", "true", "--timeout", value)
        assert code == 2 and "--timeout" in err, (value, err)
    assert not (repo / ".context" / "notes").exists() or not list((repo / ".context/notes").glob("*.jsonl"))


def test_sync_skips_a_trailer_no_event_can_hold_and_keeps_working(repo, capsys):
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Use uv for installs.\n"}, "rules")
    commit(
        repo,
        {"CLAUDE.md": "# Rules\n\n- Use uv for installs.\n- Pin every version.\n"},
        "Add\n\nContext-Why: ctx-" + "9" * 300 + ": a 300-character id\nContext-Safety: ctx-0123456789ab: critical",
    )
    for _ in range(2):
        code, out, err = run_cli(capsys, "sync")
        assert code == 0, err
