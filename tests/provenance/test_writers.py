"""Writers under attack: a concurrent burst loses no event, a killed retire is finished or rolled back by
the next command, a killed writer's temp file is never staged and is cleaned."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from gitcontext.provenance import locks
from gitcontext.provenance.store import read_note
from tests.helpers import commit, git, run_cli, run_json

RULES = "# Rules\n\n- Use uv for installs.\n- Run pytest -q always.\n- Keep the build green.\n"
_fork = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
pytestmark = pytest.mark.skipif(_fork is None, reason="needs fork")


@pytest.fixture
def store(repo: Path, capsys) -> Path:
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "init")
    return repo


def _recur(n: int) -> int:
    from gitcontext.cli.main import main

    return main(["recur", "uv for installs", "--failure", f"pip broke the lockfile, run {n}"])


def test_recur_burst_of_80_writes_80_events(store, capsys):
    ident = run_json(capsys, "show", "uv for installs")["id"]
    with _fork.Pool(16) as pool:
        codes = pool.map(_recur, range(80))
    assert codes == [0] * 80
    events = read_note(store, ident)
    assert sum(e["kind"] == "recurred" for e in events) == 80
    assert sum(e["kind"] == "added" for e in events) >= 1


def _die_at(stage: str, target: str) -> None:
    """Run `retire TARGET` and SIGKILL ourselves at STAGE, as `kill -9` would."""
    from gitcontext.cli.main import main
    from gitcontext.provenance import retire, store

    real_append, real_write = store.append_events, store.write_atomic

    def append(root, events):
        if stage == "before-note":
            os.kill(os.getpid(), signal.SIGKILL)
        written = real_append(root, events)
        if stage == "after-note":
            os.kill(os.getpid(), signal.SIGKILL)
        return written

    def write(path, data, root=None):
        if stage == "mid-file":
            os.kill(os.getpid(), signal.SIGKILL)
        return real_write(path, data, root)

    retire.append_events, retire.write_atomic = append, write
    main(["retire", target, "--reason", "renovate pins versions now"])


@pytest.mark.parametrize("stage", ["before-note", "after-note", "mid-file"])
def test_retire_killed_midway_is_finished_or_rolled_back_by_the_next_command(store, capsys, stage):
    ident = run_json(capsys, "show", "Keep the build")["id"]
    child = _fork.Process(target=_die_at, args=(stage, "Keep the build"))
    child.start()
    child.join(60)
    assert child.exitcode == -signal.SIGKILL
    listed = run_json(capsys, "ls")["instructions"]  # the next command, any command
    in_file = "Keep the build green." in (store / "CLAUDE.md").read_text()
    retired = run_json(capsys, "show", ident)["status"] == "retired"
    assert in_file != retired, "the note and the file disagree"
    texts = {row["text"]: row["id"] for row in listed}
    assert texts.get("Keep the build green.", ident) == ident  # never back under a new id
    code, out, _ = run_cli(capsys, "doctor")
    assert "interrupted" not in out
    assert retired and (store / "CLAUDE.md").read_text() == RULES.replace("- Keep the build green.\n", "")


def _killed_writer(root: str) -> None:
    real = os.replace

    def die(src, dst, *args, **kwargs):
        if ".context" in str(dst):  # caches may be written first; the note's write is the one to kill
            os.kill(os.getpid(), signal.SIGKILL)
        return real(src, dst, *args, **kwargs)

    os.replace = die  # the writer dies between writing its temp file and renaming it
    from gitcontext.cli.main import main

    os.chdir(root)
    main(["record", "uv for installs", "--why", "pip broke the lockfile twice"])


def test_killed_writer_leaves_no_temp_file_git_add_would_stage(store, capsys):
    for _ in range(3):
        child = _fork.Process(target=_killed_writer, args=(str(store),))
        child.start()
        child.join(60)
        assert child.exitcode == -signal.SIGKILL
    tmp = locks.git_dir_of(store) / "gitcontext" / "tmp"
    assert len(list(tmp.iterdir())) == 1  # each writer removed the one its killed predecessor left
    git(store, "add", ".context")
    assert git(store, "status", "--porcelain", "--untracked-files=all").strip() == ""
    code, out, _ = run_cli(capsys, "doctor")
    assert "1 temporary file(s) left by killed writers" in out
    assert run_cli(capsys, "record", "uv for installs", "--why", "pip broke the lockfile twice")[0] == 0
    assert list(tmp.iterdir()) == []


def test_write_cache_replaces_atomically_and_never_writes_through_a_planted_symlink(tmp_path) -> None:
    cache = tmp_path / "git" / "gitcontext" / "some.json"
    locks.write_cache(cache, '{"v": "é"}')
    assert cache.read_bytes() == '{"v": "é"}'.encode()
    locks.write_cache(cache, b"\x00bytes")
    assert cache.read_bytes() == b"\x00bytes"
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    (cache.parent / f"some.json.{os.getpid()}.tmp").symlink_to(victim)
    locks.write_cache(cache, "new")  # skipped: the planted link is not followed
    assert victim.read_text() == "keep me" and cache.read_bytes() == b"\x00bytes"
