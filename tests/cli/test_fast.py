"""`ls`, `blame TARGET` and `history` without click (cli.fast through cli.entry): the same bytes, errors and exit
codes as the click command for every form it takes, and click for every form it does not."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.cli import fast
from gitcontext.provenance.record import record
from tests.helpers import backfilled, git

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


def _run(capsys: pytest.CaptureFixture[str], entry: bool, *args: str) -> tuple[int, str, str]:
    from gitcontext.cli.entry import main as fast_main
    from gitcontext.cli.main import main as click_main

    capsys.readouterr()
    code = (fast_main if entry else click_main)(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _ids(repo: Path) -> list[str]:
    from gitcontext.provenance.notecache import folded_notes

    return sorted(folded_notes(repo))


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
def test_run_fast_same_output_errors_and_exit_code_as_click(noted: Path, capsys, args: tuple[str, ...]) -> None:
    assert fast.run_fast(list(args)) is not None  # the fast path takes the form (and runs it once)
    assert _run(capsys, True, *args) == _run(capsys, False, *args)


def test_run_fast_same_for_an_id_and_from_a_subfolder(noted: Path, capsys, monkeypatch) -> None:
    for id in _ids(noted)[:3]:
        assert _run(capsys, True, "blame", id) == _run(capsys, False, "blame", id)
    monkeypatch.chdir(noted / "pkg")
    for args in (("ls",), ("ls", "."), ("ls", "AGENTS.md"), ("blame", "AGENTS.md"), ("ls", "..")):
        assert _run(capsys, True, *args) == _run(capsys, False, *args)


def test_run_fast_strips_ansi_codes_as_click_echo_does(noted: Path, capsys) -> None:
    code, out, _ = _run(capsys, True, "ls")
    assert code == 0 and "\x1b" not in out and "Keep PRs small and focused." in out


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["ls", "-h"],
        ["ls", "--help"],
        ["ls", "--bogus"],
        ["ls", "--", "x"],
        ["ls", "--json=1"],
        ["ls", "-"],
        ["blame"],
        ["blame", "a", "b"],
        ["blame", "--json"],
        ["show", "x"],
        ["--version"],
        ["help", "ls"],
        ["LS"],
        ["history", "--rev", "HEAD"],
        ["history", "--svg", "h.svg"],
        ["history", "-h"],
        ["history", "--matcher", "paper", "--json"],
    ],
)
def test_run_fast_leaves_every_other_form_to_click(noted: Path, capsys, args: list[str]) -> None:
    assert fast.run_fast(args) is None
    assert _run(capsys, True, *args) == _run(capsys, False, *args)


def test_run_fast_leaves_shell_completion_to_click(noted: Path, monkeypatch) -> None:
    monkeypatch.setenv(fast.COMPLETE_VAR, "bash_complete")
    assert fast.run_fast(["ls"]) is None


def test_run_fast_outside_a_repository_same_error(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    fast_result, click_result = _run(capsys, True, "ls"), _run(capsys, False, "ls")
    assert fast_result == click_result and fast_result[0] != 0 and "not inside a git repository" in fast_result[2]


@pytest.mark.parametrize(("args", "shown"), [(["ls"], "Run the tests"), (["history", "--json"], '"births"')])
def test_entry_reads_import_no_click(noted: Path, args: list[str], shown: str) -> None:
    code = (
        f"import sys; from gitcontext.cli.entry import main; status = main({args!r}); "
        "sys.stderr.write(str('click' in sys.modules)); sys.exit(status)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code], cwd=noted, capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stderr.endswith("False") and shown in done.stdout


@pytest.mark.parametrize("replayed", [False, True], ids=["computed", "replayed"])
def test_entry_ls_to_a_closed_pipe_exits_as_click_does(noted: Path, replayed: bool) -> None:
    """`git context ls | head -1`: the broken pipe ends the command quietly, with click's status, whether
    the answer is computed or replayed by the read cache."""
    env = {**os.environ, "GITCONTEXT_READ_CACHE": "wait"}
    if replayed:
        past = time.time() - 3600
        for path in [noted, *noted.rglob("*"), *Path(os.environ["HOME"]).rglob("*")]:
            os.utime(path, (past, past), follow_symlinks=False)
        subprocess.run([sys.executable, "-m", "gitcontext", "ls"], cwd=noted, check=True, capture_output=True, env=env)
        assert list((noted / ".git" / "gitcontext" / "reads").iterdir())
    results = []
    for module in ("gitcontext.cli.entry", "gitcontext.cli.main", "run"):
        script = (
            "import sys; sys.argv[1:] = ['ls']; from gitcontext.cli.entry import run; run()"
            if module == "run"
            else f"import sys; from {module} import main; sys.exit(main(['ls']))"
        )
        read_end, write_end = os.pipe()
        os.close(read_end)  # the reader is gone before anything is written
        proc = subprocess.Popen(
            [sys.executable, "-c", script], cwd=noted, stdout=write_end, stderr=subprocess.PIPE, env=env
        )
        os.close(write_end)
        err = proc.stderr.read()
        results.append((proc.wait(), b"Traceback" in err))
    assert results[0] == results[1] == results[2] == (1, False)


@pytest.mark.parametrize("cache", ["0", "wait"], ids=["computed", "kept"])
@pytest.mark.parametrize("args", [["ls", "--json"], ["history", "--json"], ["blame", "CLAUDE.md"]], ids=" ".join)
def test_the_program_leaves_without_teardown_but_with_every_byte_written(noted: Path, capsys, args, cache) -> None:
    """`python -m gitcontext` (entry.run) ends a fast read with os._exit: its whole output is out first, the
    same bytes as `main` in this process, through a pipe that must be drained as it is written."""
    env = {**os.environ, "GITCONTEXT_READ_CACHE": cache}
    for _ in range(2):  # with "wait", the second run replays the kept answer
        done = subprocess.run([sys.executable, "-m", "gitcontext", *args], cwd=noted, capture_output=True, env=env)
        code, out, err = _run(capsys, True, *args)
        assert (done.returncode, done.stdout.decode(), done.stderr.decode()) == (code, out, err) and code == 0


def test_run_fast_gives_an_in_process_caller_its_garbage_collector_back(noted: Path, capsys) -> None:
    import gc

    assert gc.isenabled()
    assert _run(capsys, True, "ls")[0] == 0 and gc.isenabled()
    assert _run(capsys, True, "ls", "no-such-file")[0] != 0 and gc.isenabled()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("cache", ["0", "wait"], ids=["computed", "kept"])
@pytest.mark.parametrize("args", [["ls"], ["history", "--json"], ["doctor"], ["audit", "--json"]], ids=" ".join)
def test_a_full_disk_is_one_error_line_and_status_3_not_a_traceback(noted: Path, args, cache) -> None:
    env = {**os.environ, "GITCONTEXT_READ_CACHE": cache}
    for _ in range(2):  # with "wait", the second `ls` replays its kept answer
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "gitcontext", *args],
                cwd=noted,
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        assert done.returncode == 3, done.stderr
        assert "Traceback" not in done.stderr and "the output could not be written: No space left" in done.stderr
        assert "fix: free space" in done.stderr
