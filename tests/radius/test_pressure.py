"""staged_pressure: the hook's one-line warning from the staged diff and the cached graph."""

from __future__ import annotations

from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.git import Repo
from gitcontext.radius.blast import compute
from gitcontext.radius.pressure import staged_pressure
from tests.helpers import commit, git, write


def _repo(repo: Path) -> None:
    commit(
        repo,
        {
            "lib/core.py": "A = 1\n",
            "lib/__init__.py": "",
            "lib/a.py": "from lib import core\n",
            "lib/b.py": "import lib.core\n",
        },
        "base",
    )


def test_staged_pressure_risk_names_file_tier_and_cached_reach(repo: Path) -> None:
    _repo(repo)
    compute(Repo.open(repo, config_mod.load(repo)))  # saves the graph the hook reads
    write(repo, "lib/core.py", "A = 1\n" + "B = 2\n" * 550)
    git(repo, "add", "lib/core.py")
    message = staged_pressure(repo, config_mod.load(repo))
    assert message is not None
    assert "lib/core.py" in message and "550 lines (RISK)" in message and "reaching 2 files" in message


def test_staged_pressure_without_cache_omits_reach(repo: Path) -> None:
    _repo(repo)
    write(repo, "lib/core.py", "A = 1\n" + "B = 2\n" * 1200)
    git(repo, "add", "lib/core.py")
    message = staged_pressure(repo, config_mod.load(repo))
    assert message is not None and "(DEADLY)" in message and "reaching" not in message


def test_staged_pressure_ignores_unstaged_and_small_changes(repo: Path) -> None:
    _repo(repo)
    write(repo, "lib/core.py", "A = 1\n" + "B = 2\n" * 900)  # not staged
    write(repo, "lib/a.py", "from lib import core\nC = 3\n")
    git(repo, "add", "lib/a.py")
    assert staged_pressure(repo, config_mod.load(repo)) is None


def test_staged_pressure_excluded_lockfile_is_not_pressure(repo: Path) -> None:
    _repo(repo)
    write(repo, "yarn.lock", "dep\n" * 2000)
    git(repo, "add", "yarn.lock")
    assert staged_pressure(repo, config_mod.load(repo)) is None


def test_staged_pressure_first_commit(repo: Path) -> None:
    write(repo, "big.py", "x = 1\n" * 700)
    git(repo, "add", "big.py")
    assert "big.py churns 700 lines (RISK)" in staged_pressure(repo, config_mod.load(repo))


def test_staged_pressure_survives_a_corrupt_cache(repo: Path) -> None:
    from gitcontext.radius import cache

    _repo(repo)
    path = cache.path_for(repo)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database at all" * 100)
    write(repo, "lib/core.py", "A = 1\n" + "B = 2\n" * 600)
    git(repo, "add", "lib/core.py")
    message = staged_pressure(repo, config_mod.load(repo))
    assert message is not None and "(RISK)" in message and "reaching" not in message
