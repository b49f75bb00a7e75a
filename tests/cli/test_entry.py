"""The programs (`git-context`, `gitcontext`, `python -m gitcontext`: gitcontext.cli.entry): the same bytes,
errors and exit codes as `main` in the caller's process; a closed pipe and a full disk end them quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.provenance.record import record
from tests.helpers import backfilled

RULES = (
    "# Rules\n\n- Run the tests before every push.\n- Never force-push to main.\n"
    "- Keep PRs \x1b[31msmall\x1b[0m and focused.\n\nPlain prose explains the layout of the repo.\n"
)


@pytest.fixture
def noted(repo: Path) -> Path:
    backfilled(repo, {"CLAUDE.md": RULES, "pkg/AGENTS.md": "- Use the package's own linter config.\n"})
    config = config_mod.load(repo)
    from gitcontext.provenance.notecache import folded_notes

    first = next(s.id for s in folded_notes(repo).values() if s.text == "Never force-push to main.")
    record(repo, config, first, why="it rewrote a release")
    (repo / "outside").mkdir()
    return repo


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from gitcontext.cli.entry import main

    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


FORMS = [
    ("ls",),
    ("ls", "--json"),
    ("ls", "CLAUDE.md"),
    ("ls", "--json", "pkg"),
    ("ls", "pkg", "--json", "CLAUDE.md"),
    ("ls", "--json", "--json"),
    ("ls", "no-such-file"),
    ("ls", "../"),
    ("ls", ""),
    ("ls", "outside"),
    ("blame", "CLAUDE.md"),
    ("blame", "--json", "CLAUDE.md"),
    ("blame", "pkg/AGENTS.md", "--json"),
    ("blame", "CLAUDE.md:3"),
    ("blame", "force-push"),
    ("blame", "no rule says this at all"),
    ("blame", "ctx-"),
    ("blame", "ctx-000000000000"),
    ("blame", "README.md"),
    ("history",),
    ("history", "--json"),
    ("history", "CLAUDE.md"),
    ("history", "pkg", "--json"),
    ("history", "no-such-file"),
    ("history", "../elsewhere"),
]


@pytest.mark.parametrize("args", FORMS, ids=" ".join)
def test_entry_program_same_bytes_errors_and_exit_code_as_main(noted: Path, capsys, args: tuple[str, ...]) -> None:
    """`python -m gitcontext ARGS` prints what `main(ARGS)` prints in this process, and exits with its status."""
    done = subprocess.run([sys.executable, "-m", "gitcontext", *args], cwd=noted, capture_output=True)
    assert (done.returncode, done.stdout.decode(), done.stderr.decode()) == _run(capsys, *args)


def test_entry_strips_ansi_codes_from_a_pipe(noted: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "gitcontext", "ls"], cwd=noted, capture_output=True, text=True)
    assert done.returncode == 0 and "\x1b" not in done.stdout and "Keep PRs small and focused." in done.stdout


def test_entry_outside_a_repository_says_so(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "ls")
    assert code == 3 and "not inside a git repository" in err


@pytest.mark.parametrize("script", ["main", "run"])
def test_entry_ls_to_a_closed_pipe_ends_quietly_with_status_1(noted: Path, script: str) -> None:
    """`git context ls | head -1` with the reader gone before anything is written: no traceback, status 1."""
    code = (
        "import sys; sys.argv[1:] = ['ls']; from gitcontext.cli.entry import run; run()"
        if script == "run"
        else "import sys; from gitcontext.cli.entry import main; sys.exit(main(['ls']))"
    )
    read_end, write_end = os.pipe()
    os.close(read_end)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=noted, stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    err = proc.stderr.read()
    assert (proc.wait(), b"Traceback" in err) == (1, False), err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["ls"], ["history", "--json"], ["doctor"], ["audit", "--json"]], ids=" ".join)
def test_entry_a_full_disk_is_one_error_line_and_status_3_not_a_traceback(noted: Path, args) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "gitcontext", *args], cwd=noted, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr and "the output could not be written: No space left" in done.stderr
    assert "fix: free space" in done.stderr
