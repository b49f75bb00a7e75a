"""Notes are untrusted input: hostile notes from a merged branch never make a command write outside the
work tree, hang or crash; every reader (ls, show, restore, doctor) exits 2 naming the file and line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gitcontext.provenance.events import dumps
from tests.helpers import commit, git, run_cli, run_json

RULES = "# Rules\n\n- Use uv for installs.\n- Run pytest -q always.\n"
ID = "ctx-0123456789ab"
NOTE = f".context/notes/{ID}.jsonl"


def _retired_line(restore: dict, id: str = ID) -> str:
    """A retired event as a hostile pull request would commit it (canonical JSON, bypassing new_event)."""
    added = {
        "v": 1,
        "eid": "e-0000000000000001",
        "id": id,
        "at": "2026-01-01T00:00:00Z",
        "kind": "added",
        "source": "cli",
        "file": "CLAUDE.md",
        "text": "Pin every version.",
    }
    retired = {
        "v": 1,
        "eid": "e-0000000000000002",
        "id": id,
        "at": "2026-01-02T00:00:00Z",
        "kind": "retired",
        "source": "cli",
        "reason": "gone",
        "restore": restore,
    }
    return dumps(added) + dumps(retired)


def _merge_from_branch(repo: Path, files: dict[str, str | bytes]) -> None:
    """FILES arrive the way an attacker's change does: committed on a branch and merged."""
    git(repo, "checkout", "-q", "-b", "evil")
    commit(repo, files, "innocent-looking change")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "evil")


@pytest.fixture
def store(repo: Path, capsys) -> Path:
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "init")
    return repo


@pytest.mark.parametrize(
    "target",
    [
        "../../outside-x",
        "/tmp/gitcontext-abs-x",
        "notes/../../../x",
        "a//b",
        "./CLAUDE.md",
        "C:\\x",
        "CLAUDE.md\x00.png",
    ],
)
def test_restore_refuses_a_path_outside_the_work_tree(store, capsys, tmp_path, target):
    _merge_from_branch(store, {NOTE: _retired_line({"file": target, "text": "- Pin every version.\n"})})
    outside = (store / target) if not target.startswith("/") else Path(target)
    code, _, err = run_cli(capsys, "restore", ID)
    assert code == 2 and NOTE in err and "restore" in err
    assert not os.path.lexists(os.path.normpath(str(outside)).replace("\x00", "")) or target == "./CLAUDE.md"
    assert not Path("/tmp/gitcontext-abs-x").exists()
    code, out, _ = run_cli(capsys, "doctor")
    assert code == 1 and NOTE in out


def test_restore_refuses_a_symlinked_parent_folder_leading_outside(store, capsys, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    _merge_from_branch(store, {NOTE: _retired_line({"file": "docs/CLAUDE.md", "text": "- Pin every version.\n"})})
    os.symlink(outside, store / "docs")
    code, _, err = run_cli(capsys, "restore", ID)
    assert code == 2 and "outside the work tree" in err
    assert list(outside.iterdir()) == []


def test_retire_does_not_write_through_a_symlinked_parent_folder(store, capsys, tmp_path):
    commit(store, {"docs/CLAUDE.md": "# Docs\n\n- Write docs in English.\n"}, "docs")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "CLAUDE.md").write_text("# Docs\n\n- Write docs in English.\n")
    (store / "docs/CLAUDE.md").unlink()
    (store / "docs").rmdir()
    os.symlink(outside, store / "docs")  # the tracked folder is now a link out of the repository
    code, _, _ = run_cli(capsys, "retire", "Write docs in English", "--reason", "r")
    assert code == 2
    assert (outside / "CLAUDE.md").read_text() == "# Docs\n\n- Write docs in English.\n"
    code, out, _ = run_cli(capsys, "doctor")
    assert "docs/CLAUDE.md is a symlink out of the repository" in out


def test_record_refuses_a_committed_notes_symlink(repo, capsys, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    (repo / ".context").mkdir()
    os.symlink(outside, repo / ".context/notes")
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "-m", "notes live elsewhere now")
    code, _, err = run_cli(capsys, "record", "uv for installs", "--why", "pip broke the lockfile")
    assert code == 2 and ".context/notes is a symlink" in err
    assert list(outside.iterdir()) == []
    code, out, _ = run_cli(capsys, "doctor")
    assert code == 1 and ".context/notes is a symlink" in out


HOSTILE_LINES = {
    "kind-object": '{"at":"2026-01-01T00:00:00Z","eid":"e-0000000000000001","id":"%s","kind":{},"source":"cli","v":1}',
    "huge-number": '{"at":"2026-01-01T00:00:00Z","eid":"e-0000000000000001","id":"%s","kind":"added","source":"cli",'
    '"v":' + "9" * 4300 + "}",
    "deep-nesting": "[" * 100_000 + "]" * 100_000 + "%s"[:0],
    "huge-string-kind": '{"at":"2026-01-01T00:00:00Z","eid":"e-0000000000000001","id":"%s","kind":"'
    + "k" * 200_000
    + '","source":"cli","v":1}',
    "bad-restore": _retired_line({"text": 7}).rstrip("\n").split("\n")[1].replace(ID, "%s"),
    "restore-missing-text": _retired_line({"file": "CLAUDE.md"}).rstrip("\n").split("\n")[1].replace(ID, "%s"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_every_reader_rejects_a_hostile_note_line_naming_file_and_line(store, name):
    line = HOSTILE_LINES[name].replace("%s", ID) if "%s" in HOSTILE_LINES[name] else HOSTILE_LINES[name]
    _merge_from_branch(store, {NOTE: line + "\n"})
    for args in (["ls"], ["show", ID], ["restore", ID], ["doctor"]):
        done = _cli(store, *args)
        assert done.returncode in (1, 2), (args, done.stderr[-500:])
        said = done.stderr + done.stdout
        assert f"{NOTE}:1:" in said and "Traceback" not in said, (args, said[-500:])
        assert len(said) < 2000


@pytest.mark.parametrize("kind", ["directory", "fifo", "dev-zero", "link-out"])
def test_a_note_that_is_not_a_regular_file_is_an_error_not_a_hang(store, kind, tmp_path):
    path = store / NOTE
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", path)
    else:
        (tmp_path / "x.jsonl").write_text("")
        os.symlink(tmp_path / "x.jsonl", path)
    for args in (["ls"], ["doctor"], ["record", "uv for installs", "--why", "w"]):
        done = _cli(store, *args)
        assert done.returncode in (1, 2), (args, done.stderr)
        assert NOTE in done.stderr + done.stdout and "Traceback" not in done.stderr


def test_non_utf8_argument_is_a_clear_error(store):
    done = subprocess.run(
        [sys.executable, "-m", "gitcontext", "record", "uv for installs", "--why", b"\xff"],
        cwd=store,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert b"not valid UTF-8" in done.stderr and b"Traceback" not in done.stderr


def test_crlf_note_from_an_autocrlf_clone_is_read_and_rewritten_lf(store, capsys):
    assert run_cli(capsys, "record", "uv for installs", "--why", "pip broke the lockfile")[0] == 0
    note = next((store / ".context/notes").glob("ctx-*.jsonl"))
    note.write_bytes(note.read_bytes().replace(b"\n", b"\r\n"))  # what a pre-attribute clone checked out
    assert run_json(capsys, "show", "uv for installs")["why"] == "pip broke the lockfile"
    assert run_cli(capsys, "recur", "uv for installs", "--failure", "again")[0] == 0
    assert b"\r" not in note.read_bytes()
    code, out, _ = run_cli(capsys, "doctor")
    assert "notes" not in out or "problem" not in out.split("notes")[1][:5]


def test_init_marks_context_as_not_text_so_autocrlf_clones_keep_lf(store, capsys, tmp_path):
    assert run_cli(capsys, "record", "uv for installs", "--why", "pip broke the lockfile")[0] == 0
    git(store, "add", ".")
    git(store, "commit", "-q", "-m", "why")
    assert ".context/** merge=gitcontext -text" in (store / ".gitattributes").read_text()
    clone = tmp_path / "clone"
    subprocess.run(["git", "-c", "core.autocrlf=true", "clone", "-q", str(store), str(clone)], check=True)
    git(clone, "config", "core.autocrlf", "true")
    note = next((clone / ".context/notes").glob("ctx-*.jsonl"))
    assert b"\r\n" not in note.read_bytes()
    assert b"\r\n" in (clone / "CLAUDE.md").read_bytes()  # the clone does convert ordinary text
    done = _cli(clone, "doctor")
    assert "not in the canonical form" not in done.stdout


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed command, as a user runs it; a hang fails the test instead of the suite."""
    return subprocess.run(
        [sys.executable, "-m", "gitcontext", *args], cwd=cwd, capture_output=True, text=True, timeout=30
    )


def test_hostile_lines_are_json_as_written():
    assert json.loads(HOSTILE_LINES["bad-restore"].replace("%s", ID))["restore"] == {"text": 7}
