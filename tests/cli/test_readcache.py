"""The read cache (gitcontext.cli.readcache): a kept answer is replayed only while nothing it was computed
from has changed, and is kept only when it may be. Every run is a real `python -m gitcontext` process.

A replay is told from a computation by planting: the kept answer's bytes are rewritten (its fingerprint
kept), so a run that prints the planted bytes replayed, and one that prints the real answer computed.
Inputs are backdated an hour: the cache keeps nothing changed in the last RACY seconds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gitcontext.cli import readcache
from gitcontext.git import spawn
from tests.helpers import backfilled, commit, git, write

RULES = "# Rules\n\n- Run the tests before every push.\n- Never force-push to main.\n\n@docs/GUIDE.md\n"
GUIDE = "# Guide\n\n- Always pin the toolchain version.\n"
PLANTED = b"planted answer\n"


def _gc(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """`git context ARGS`, its answer kept before it exits (GITCONTEXT_READ_CACHE=wait), so that what was
    kept can be looked at; test_the_answer_is_kept_after_the_command_is_done checks the detached way."""
    return subprocess.run(
        [sys.executable, "-m", "gitcontext", *args],
        cwd=repo,
        capture_output=True,
        env={**os.environ, "GITCONTEXT_READ_CACHE": "wait", **(env or {})},
    )


def _backdate(repo: Path) -> None:
    """Every file and folder of REPO and git's config files, an hour old."""
    past = time.time() - 3600
    home = Path(os.environ["HOME"])
    for path in [repo, *repo.rglob("*"), *home.rglob("*")]:
        os.utime(path, (past, past), follow_symlinks=False)


def _entries(repo: Path) -> list[Path]:
    folder = repo / ".git" / readcache.FOLDER
    return sorted(folder.iterdir()) if folder.is_dir() else []


def _plant(repo: Path) -> None:
    """Rewrite every kept answer's output, keeping its fingerprint and paths."""
    for entry in _entries(repo):
        data = entry.read_bytes()
        head, _, rest = data[len(readcache.MAGIC) :].partition(b"\n")
        size, _, rest = rest.partition(b"\n")
        entry.write_bytes(readcache.MAGIC + head + b"\n" + size + b"\n" + rest[: int(size)] + PLANTED)


@pytest.fixture
def kept(repo: Path) -> Path:
    backfilled(repo, {"CLAUDE.md": RULES, "docs/GUIDE.md": GUIDE, "pkg/AGENTS.md": "- Use the package linter.\n"})
    _backdate(repo)
    return repo


def _fresh(repo: Path, *args: str) -> bytes:
    out = _gc(repo, *args, env={"GITCONTEXT_READ_CACHE": "0"})
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("ls",),
        ("ls", "--json"),
        ("ls", "pkg"),
        ("blame", "CLAUDE.md"),
        ("blame", "--json", "CLAUDE.md"),
        ("history", "CLAUDE.md", "--json"),
    ],
    ids=" ".join,
)
def test_a_kept_answer_is_the_computed_one_and_is_replayed(kept: Path, args: tuple[str, ...]) -> None:
    first = _gc(kept, *args)
    assert first.returncode == 0 and first.stdout == _fresh(kept, *args) and len(_entries(kept)) == 1
    assert _gc(kept, *args).stdout == first.stdout
    _plant(kept)
    assert _gc(kept, *args).stdout == PLANTED  # the second run did not compute


def _edit_context_file(repo: Path) -> None:  # the same size, an old mtime: only the stat's ns and ctime tell
    text = (repo / "CLAUDE.md").read_text().replace("every push", "every merge")
    (repo / "CLAUDE.md").write_text(text)
    os.utime(repo / "CLAUDE.md", (time.time() - 1800, time.time() - 1800))


def _edit_guide(repo: Path) -> None:
    write(repo, "docs/GUIDE.md", GUIDE + "- Never commit generated files.\n")


def _new_untracked_context_file(repo: Path) -> None:
    write(repo, "sub/CLAUDE.md", "- Keep the sub rules short.\n")


def _remove_a_note(repo: Path) -> None:
    next((repo / ".context" / "notes").glob("*.jsonl")).unlink()


def _change_config(repo: Path) -> None:
    write(repo, ".context/config.yml", "version: 1\ndiscovery:\n  include: ['CLAUDE.md']\n")


def _new_commit(repo: Path) -> None:
    commit(repo, {"README.md": "readme\n"}, "docs: a readme")


CHANGES = [_edit_context_file, _edit_guide, _new_untracked_context_file, _remove_a_note, _change_config, _new_commit]


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("args", [("ls",), ("blame", "--json", "CLAUDE.md")], ids=" ".join)
def test_any_change_to_what_it_read_is_a_miss(kept: Path, change, args: tuple[str, ...]) -> None:
    assert _gc(kept, *args).returncode == 0 and _entries(kept)
    _plant(kept)
    change(kept)
    after = _gc(kept, *args)
    assert after.stdout != PLANTED and after.stdout == _fresh(kept, *args)


def test_a_change_to_what_it_did_not_read_is_still_a_hit(kept: Path) -> None:
    assert _gc(kept, "ls").returncode == 0
    _plant(kept)
    write(kept, "src/app.py", "print('hello')\n")  # a new file: the listing changes
    assert _gc(kept, "ls").stdout != PLANTED
    _backdate(kept)
    assert _gc(kept, "ls").returncode == 0
    _plant(kept)
    write(kept, "src/app.py", "print('bye')\n")  # the same listing, a file ls never opens
    assert _gc(kept, "ls").stdout == PLANTED


def test_another_day_folder_or_environment_is_another_answer(kept: Path) -> None:
    assert _gc(kept, "ls", env={"GITCONTEXT_NOW": "2026-01-01T00:00:00Z"}).returncode == 0
    _plant(kept)
    assert _gc(kept, "ls", env={"GITCONTEXT_NOW": "2026-01-01T00:00:00Z"}).stdout == PLANTED
    assert _gc(kept, "ls", env={"GITCONTEXT_NOW": "2026-01-02T00:00:00Z"}).stdout != PLANTED
    assert _gc(kept, "ls", env={"GITCONTEXT_NOW": "2026-01-01T00:00:00Z", "GITCONTEXT_CONFIG": "x"}).stdout != PLANTED
    assert (
        subprocess.run(
            [sys.executable, "-m", "gitcontext", "ls"],
            cwd=kept / "pkg",
            capture_output=True,
            env={**os.environ, "GITCONTEXT_READ_CACHE": "wait"},
        ).stdout
        != PLANTED
    )


def test_nothing_is_kept_when_an_input_is_fresh(kept: Path) -> None:
    (kept / "CLAUDE.md").write_text(RULES + "- Prefer small commits.\n")  # modified now
    assert _gc(kept, "ls").returncode == 0 and _entries(kept) == []


def test_nothing_is_kept_with_a_secret_a_warning_or_an_error(kept: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    write(kept, "CLAUDE.md", RULES + f"- Authenticate with {token} in CI.\n")
    _backdate(kept)
    out = _gc(kept, "ls")
    assert token.encode() in out.stdout and _entries(kept) == []  # printed, never written under .git
    assert _gc(kept, "blame", "no-such-file.md").returncode != 0 and _entries(kept) == []
    git(kept, "checkout", "-q", "--", "CLAUDE.md")
    git(kept, "commit", "-q", "--allow-empty", "-m", "empty")
    shallow = kept.parent / "shallow"
    git(kept.parent, "clone", "-q", "--depth", "1", f"file://{kept}", str(shallow))
    _backdate(shallow)
    out = _gc(shallow, "history", "CLAUDE.md", "--json")
    assert b"shallow clone" in out.stderr and _entries(shallow) == []  # a replay would drop the warning


def test_the_answer_is_kept_after_the_command_is_done(kept: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gitcontext", "ls"], cwd=kept, capture_output=True, env={**os.environ}
    )  # the environment _gc passes (pytest's C-level one differs)
    assert out.returncode == 0 and out.stdout == _fresh(kept, "ls")
    deadline = time.monotonic() + 20
    while not _entries(kept) and time.monotonic() < deadline:  # a detached process keeps it
        time.sleep(0.05)
    _plant(kept)
    assert _gc(kept, "ls").stdout == PLANTED


def test_a_broken_entry_is_a_miss(kept: Path) -> None:
    assert _gc(kept, "ls").returncode == 0
    for broken in (b"", b"gitcontext-reads 1\n", readcache.MAGIC + b"x" * 40 + b"\n99999\nabc", b"\xff" * 64):
        for entry in _entries(kept):
            entry.write_bytes(broken)
        assert _gc(kept, "ls").stdout == _fresh(kept, "ls")


def test_a_symlinked_entry_is_a_miss_and_is_not_written_through(kept: Path, tmp_path: Path) -> None:
    assert _gc(kept, "ls").returncode == 0
    (entry,) = _entries(kept)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(entry.read_bytes().replace(_gc(kept, "ls").stdout, PLANTED))
    entry.unlink()
    entry.symlink_to(elsewhere)
    assert _gc(kept, "ls").stdout == _fresh(kept, "ls")
    assert PLANTED in elsewhere.read_bytes()  # replaced beside it, never written into


def test_switched_off_it_keeps_nothing(kept: Path) -> None:
    assert _fresh(kept, "ls") and _entries(kept) == []


def test_spawn_output_is_gits_or_none(repo: Path) -> None:
    commit(repo, {"a.txt": "a\n"}, "base")
    assert spawn.output(["rev-parse", "HEAD"], str(repo)).decode().strip() == git(repo, "rev-parse", "HEAD").strip()
    assert spawn.output(["rev-parse", "--verify", "-q", "no-such-ref"], str(repo)) is None
    assert spawn.output(["ls-files", "-z"], str(repo)) == b"a.txt\0"


def test_a_progress_line_is_not_a_warning() -> None:
    import io

    counted = readcache._Counted(io.StringIO())
    counted.write("\rhistory [####....] 3/8")
    counted.write("\r\x1b[K")
    assert counted.writes == 0
    counted.write("gitcontext: warning: shallow clone\n")
    assert counted.writes == 1 and counted.stream.getvalue().endswith("shallow clone\n")


def test_at_most_max_entries_answers_are_kept(kept: Path) -> None:
    folder = kept / ".git" / readcache.FOLDER
    folder.mkdir(parents=True)
    for n in range(readcache.MAX_ENTRIES + 3):
        (folder / f"old{n:03d}").write_bytes(b"x")
        os.utime(folder / f"old{n:03d}", (time.time() - 7200 + n, time.time() - 7200 + n))
    assert _gc(kept, "ls").returncode == 0
    names = sorted(p.name for p in folder.iterdir())
    assert (
        len(names) == readcache.MAX_ENTRIES and "old000" not in names and f"old{readcache.MAX_ENTRIES + 2:03d}" in names
    )


def test_history_computes_for_the_head_the_fingerprint_holds(repo: Path, monkeypatch) -> None:
    """The read cache resolves HEAD (and shallow) once; `history` computes for that commit instead of
    asking git again, so a commit landing between the two can never be kept under the older HEAD."""
    from gitcontext import git as gitmod
    from gitcontext.cli import reads

    first = commit(repo, {"CLAUDE.md": RULES}, "rules")
    commit(repo, {"CLAUDE.md": RULES + "- Keep PRs small.\n"}, "more")
    top = os.path.realpath(repo)
    common = os.path.realpath(repo / ".git")
    gitmod.know_head(top, common, first, False)
    try:
        assert reads._resolve(Path(top), "HEAD") == ((first, Path(common)), False)
        assert reads._resolve(Path(top), "HEAD~1")[0][0] == first  # another rev: git is asked
        from gitcontext.provenance.trailer_cache import head_commit

        assert head_commit(Path(top)) == first  # the trailers' HEAD too
    finally:
        gitmod.forget_head(top)
    assert reads._resolve(Path(top), "HEAD")[0][0] != first
    monkeypatch.chdir(repo)
    entry = readcache.open_reads(["history"])
    assert entry is not None and entry.head == git(repo, "rev-parse", "HEAD").strip() and entry.shallow is False
    assert (entry.top, entry.common) == (top, common)


def test_a_program_writes_its_history_caches_after_its_answer_and_a_caller_in_process_at_once(
    kept: Path, capsys, monkeypatch
) -> None:
    """`python -m gitcontext history` (entry.run, which exits right after its answer) leaves the history
    caches to the detached keeper (gitcontext.afterwards); `main` in a caller's process writes them before
    it returns; with GITCONTEXT_READ_CACHE=0 the program still writes them, in a child of its own."""
    from gitcontext.cli.entry import main

    caches = kept / ".git" / "gitcontext" / "history"
    for env in ({}, {"GITCONTEXT_READ_CACHE": "0"}):
        shutil.rmtree(kept / ".git" / "gitcontext", ignore_errors=True)
        out = subprocess.run(
            [sys.executable, "-m", "gitcontext", "history", "--json"],
            cwd=kept,
            capture_output=True,
            env={**os.environ, **env},
        )
        assert out.returncode == 0 and b'"files"' in out.stdout
        deadline = time.monotonic() + 20
        while len(list(caches.glob("*.json"))) < 2 and time.monotonic() < deadline:  # replay and measure
            time.sleep(0.05)
        assert len(list(caches.glob("*.json"))) >= 2
    shutil.rmtree(kept / ".git" / "gitcontext")
    monkeypatch.chdir(kept)
    monkeypatch.setenv("GITCONTEXT_READ_CACHE", "0")
    assert main(["history", "--json"]) == 0 and '"files"' in capsys.readouterr().out
    assert len(list(caches.glob("*.json"))) >= 2  # written before main returned


def test_afterwards_queues_only_while_collecting() -> None:
    from gitcontext import afterwards

    done: list[int] = []
    assert afterwards.later(lambda: done.append(1)) is False and afterwards.take() == []
    afterwards.collect()
    assert afterwards.later(lambda: done.append(2)) is True
    work = afterwards.take()
    assert afterwards.later(lambda: done.append(3)) is False  # collecting ended
    afterwards.run(work)
    assert done == [2]
