"""The pre-commit hook's commit pressure: counted only for files that may reach a tier, and the same
warning `radius.pressure.staged_pressure` gives for the same staged state."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext import git as gitmod
from gitcontext.git import Repo
from gitcontext.hooks.fast import FEW, main, pressure_rows
from gitcontext.radius.blast import compute
from gitcontext.radius.pressure import staged_pressure
from tests.helpers import commit, git, write

STATES = {
    "risk": {"lib/core.py": "A = 1\n" + "B = 2\n" * 550},
    "deadly and more": {"lib/core.py": "B = 2\n" * 1200, "lib/a.py": "C = 3\n" * 600},
    "lockfile": {"yarn.lock": "dep\n" * 2000},
    "generated": {"gen/api.py": "X = 1\n" * 900, ".gitattributes": "gen/** linguist-generated\n"},
    "small": {"lib/a.py": "from lib import core\nC = 3\n"},
    "removal": {"lib/big.py": None},
}


def _repo(repo: Path) -> None:
    commit(
        repo,
        {
            "lib/core.py": "A = 1\n",
            "lib/__init__.py": "",
            "lib/a.py": "from lib import core\n",
            "lib/b.py": "import lib.core\n",
            "lib/big.py": "Y = 1\n" * 700,
        },
        "base",
    )


def _hook_warning(capsys: pytest.CaptureFixture[str]) -> str | None:
    assert main(["pre-commit"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "commit pressure" in line]
    return lines[0].removeprefix("gitcontext: warning: ") if lines else None


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("graph", [False, True])
def test_pre_commit_pressure_equals_staged_pressure(repo: Path, capsys, monkeypatch, state: str, graph: bool) -> None:
    _repo(repo)
    if graph:
        compute(Repo.open(repo, config_mod.load(repo)))
    for path, text in STATES[state].items():
        if text is None:
            git(repo, "rm", "-q", path)
        else:
            write(repo, path, text)
            git(repo, "add", path)
    monkeypatch.chdir(repo)
    expected = staged_pressure(repo, config_mod.load(repo))
    assert _hook_warning(capsys) == expected
    if state in ("risk", "deadly and more", "removal"):
        assert expected is not None


def _many_small(repo: Path) -> None:
    """More than FEW staged files: the size pre-filter is used."""
    for i in range(FEW + 1):
        write(repo, f"small/m{i}.py", f"V = {i}\n")
    git(repo, "add", "small")


def test_pressure_rows_count_only_files_that_may_reach_a_tier(repo: Path) -> None:
    _repo(repo)
    _many_small(repo)
    write(repo, "lib/core.py", "A = 1\n" + "B = 2\n" * 550)
    git(repo, "add", "-A")
    rows = pressure_rows(repo, gitmod.staged_raw(repo))
    assert [path for _, _, path in rows] == ["lib/core.py"]
    assert rows[0][:2] == (550, 0)


def test_pressure_rows_count_a_file_whose_filter_may_grow_it(repo: Path) -> None:
    """A clean filter can make the blob larger than the file git recorded: such a file is counted."""
    _repo(repo)
    git(repo, "config", "filter.grow.clean", "awk '{for (i = 0; i < 200; i++) print}'")
    write(repo, ".gitattributes", "*.grow filter=grow\n")
    write(repo, "data.grow", "x\ny\nz\n")
    git(repo, "add", ".gitattributes", "data.grow")
    _many_small(repo)
    rows = {path: (added, removed) for added, removed, path in pressure_rows(repo, gitmod.staged_raw(repo))}
    assert rows["data.grow"] == (600, 0)
    assert ".gitattributes" not in rows


def test_pressure_rows_count_an_entry_without_recorded_size(repo: Path) -> None:
    """`update-index --cacheinfo` stages a blob with no stat data: its size is unknown, so it is counted."""
    _repo(repo)
    oid = git(repo, "hash-object", "-w", "--stdin", input="Z = 0\n" * 650).strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{oid},lib/made.py")
    _many_small(repo)
    rows = {path: (added, removed) for added, removed, path in pressure_rows(repo, gitmod.staged_raw(repo))}
    assert rows["lib/made.py"] == (650, 0)


def test_pressure_rows_few_staged_files_are_counted_directly(repo: Path) -> None:
    _repo(repo)
    write(repo, "lib/a.py", "from lib import core\nC = 3\n")
    write(repo, "lib/core.py", "B = 2\n" * 500 + "A = 1\n")
    git(repo, "add", "lib")
    assert pressure_rows(repo, gitmod.staged_raw(repo)) == [(500, 0, "lib/core.py")]  # lib/a.py is below the tier
