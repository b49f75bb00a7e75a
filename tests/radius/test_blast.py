"""The blast radius end to end: tiers, pressure, importers, instructions in the radius, cache, skips."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.git import Repo
from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.model import normalize
from gitcontext.radius import cache
from gitcontext.radius.blast import compute, to_json
from tests.helpers import commit, git, run_cli, run_json, write

CORE = "def core():\n    return 1\n"
CLAUDE = (
    "# Rules\n\n"
    "- Keep `src/app/core.py` free of network calls.\n"
    "- Write the changelog entry in `docs/changes.md` for every release.\n"
)


def _three_importers(repo: Path) -> None:
    commit(
        repo,
        {
            "src/app/__init__.py": "",
            "src/app/core.py": CORE,
            "src/app/api.py": "from app.core import core\n",
            "src/app/cli.py": "from . import core\n",
            "tests/test_core.py": "from app import core\n",
            "docs/changes.md": "notes\n",
            "CLAUDE.md": CLAUDE,
        },
        "base",
    )


def test_blast_six_hundred_lines_raise_risk_pressure_and_list_importers(repo: Path, capsys) -> None:
    _three_importers(repo)
    write(repo, "src/app/core.py", CORE + "".join(f"X{i} = {i}\n" for i in range(600)))
    data = run_json(capsys, "radius")
    (core,) = [f for f in data["files"] if f["path"] == "src/app/core.py"]
    assert (core["churn"], core["tier"], core["reach"]) == (600, "RISK", 3)
    assert [i["path"] for i in core["importers"]] == ["src/app/api.py", "src/app/cli.py", "tests/test_core.py"]
    assert core["score"] == 600 * 3 + 600
    assert data["pressure"] is True
    first = "Keep `src/app/core.py` free of network calls."
    assert data["instructions_in_radius"] == [instruction_id("CLAUDE.md", normalize(first))]
    assert data["instructions"][0]["via"] == ["mention"]


def test_blast_small_change_has_no_pressure_and_text_output(repo: Path, capsys) -> None:
    _three_importers(repo)
    write(repo, "src/app/core.py", CORE + "Y = 2\n")
    code, out, _ = run_cli(capsys, "radius")
    assert code == 0
    assert "LOW" in out and "src/app/core.py" in out and "commit pressure" not in out
    assert "Keep `src/app/core.py`" in out


def test_blast_gate_makes_pressure_exit_one(repo: Path, capsys) -> None:
    _three_importers(repo)
    write(repo, ".context/config.yml", "radius:\n  gate: true\n")
    write(repo, "src/app/core.py", CORE + "".join(f"X{i} = {i}\n" for i in range(1000)))
    code, out, _ = run_cli(capsys, "radius")
    assert code == 1 and "DEADLY" in out and "commit pressure" in out


def test_blast_unknown_base_is_a_user_error(repo: Path, capsys) -> None:
    _three_importers(repo)
    code, _, err = run_cli(capsys, "radius", "--base", "no-such-rev")
    assert code == 2 and "no-such-rev" in err


def test_blast_cache_deletion_changes_nothing(repo: Path) -> None:
    _three_importers(repo)
    commit(repo, {"src/app/core.py": CORE + "Z = 3\n" * 80}, "grow")
    write(repo, "src/app/api.py", "from app.core import core\nfrom app import cli\n")
    config = config_mod.load(repo)
    cold = to_json(compute(Repo.open(repo, config), base="HEAD~1"))
    warm = to_json(compute(Repo.open(repo, config), base="HEAD~1"))
    shutil.rmtree(cache.path_for(repo).parent)
    again = to_json(compute(Repo.open(repo, config), base="HEAD~1"))
    uncached = to_json(compute(Repo.open(repo, config), base="HEAD~1", use_cache=False))
    assert cold == warm == again == uncached
    assert {f["path"] for f in cold["files"]} == {"src/app/core.py", "src/app/api.py"}
    assert cache.path_for(repo).exists()


def test_blast_skipped_files_are_counted(repo: Path) -> None:
    _three_importers(repo)
    commit(repo, {".gitattributes": "gen/** linguist-generated\n"}, "attrs")
    write(repo, "src/app/blob.py", b"\0\1\2binary")
    write(repo, "src/app/huge.py", "x = 1\n" * 200_000)
    os.symlink("core.py", repo / "src/app/alias.py")
    write(repo, "src/app/broken.py", "def f(:\n    return\n")
    write(repo, "package-lock.json", "{}\n")
    write(repo, "gen/api_pb2.py", "A = 1\n")
    write(repo, "logo.png", b"\x89PNG\0\0")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{git(repo, 'rev-parse', 'HEAD').strip()},sub")
    result = compute(Repo.open(repo, config_mod.load(repo)))
    assert result.skipped == {
        "binary": 2,
        "excluded": 1,
        "generated or vendored": 1,
        "huge": 1,
        "submodule": 1,
        "symlink": 1,
    }
    assert result.partial == 1
    paths = {f.path for f in result.files}
    assert "package-lock.json" not in paths and "gen/api_pb2.py" not in paths
    assert "src/app/broken.py" in paths


def test_blast_json_schema_keys(repo: Path, capsys) -> None:
    _three_importers(repo)
    write(repo, "src/app/core.py", CORE + "W = 1\n")
    data = run_json(capsys, "radius", "--hops", "1")
    assert {"files", "pressure", "instructions_in_radius", "skipped", "base", "hops"} <= set(data)
    assert set(data["files"][0]) >= {"path", "churn", "reach", "score", "tier", "importers"}
    assert json.loads(json.dumps(data)) == data and data["hops"] == 1


def test_blast_cached_resolution_expires_when_a_file_appears(repo: Path) -> None:
    commit(repo, {"app/__init__.py": "", "app/main.py": "from app import helpers\n", "app/x.py": "X = 1\n"}, "base")
    config = config_mod.load(repo)
    write(repo, "app/helpers.py", "H = 1\n" * 3)  # untracked: changes the file listing
    (first,) = [f for f in compute(Repo.open(repo, config)).files if f.path == "app/helpers.py"]
    assert [p for p, _ in first.importers] == ["app/main.py"]
    (repo / "app/helpers.py").unlink()  # `from app import helpers` now names app/__init__.py
    write(repo, "app/__init__.py", "helpers = None\n")
    (again,) = compute(Repo.open(repo, config)).files
    assert again.path == "app/__init__.py" and [p for p, _ in again.importers] == ["app/main.py"]


def test_blast_cache_of_an_older_layout_is_rebuilt(repo: Path) -> None:
    import sqlite3

    _three_importers(repo)
    path = cache.path_for(repo)
    path.parent.mkdir(parents=True)
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE parsed (junk TEXT)")
    old.commit()
    old.close()
    write(repo, "src/app/core.py", CORE + "Q = 1\n")
    assert [f.reach for f in compute(Repo.open(repo, config_mod.load(repo))).files] == [3]


def test_blast_corrupt_cache_is_replaced(repo: Path) -> None:
    _three_importers(repo)
    path = cache.path_for(repo)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage" * 1000)
    write(repo, "src/app/core.py", CORE + "Q = 1\n")
    assert [f.reach for f in compute(Repo.open(repo, config_mod.load(repo))).files] == [3]


def test_blast_negative_hops_is_a_user_error(repo: Path, capsys) -> None:
    _three_importers(repo)
    code, _, err = run_cli(capsys, "radius", "--hops", "-1")
    assert code == 2 and "--hops" in err


def test_blast_hops_zero_has_no_reach(repo: Path, capsys) -> None:
    _three_importers(repo)
    write(repo, "src/app/core.py", CORE + "W = 1\n")
    data = run_json(capsys, "radius", "--hops", "0")
    assert [(f["path"], f["reach"], f["score"]) for f in data["files"]] == [("src/app/core.py", 0, 1.0)]


def test_blast_worker_pool_gives_the_same_graph(repo: Path, monkeypatch) -> None:
    from gitcontext.radius import scan

    files = {"pkg/__init__.py": ""}
    files.update({f"pkg/m{i}.py": f"from pkg import m{i - 1}\n" if i else "A = 1\n" for i in range(12)})
    commit(repo, files, "chain")
    serial = scan.scan(repo, workers=1)
    monkeypatch.setattr(scan, "POOL_THRESHOLD", 4)
    pooled = scan.scan(repo, workers=2)
    assert pooled.parsed == serial.parsed and len(pooled.parsed) == 13


def test_scan_fans_out_sooner_where_workers_fork(monkeypatch) -> None:
    import multiprocessing

    from gitcontext.radius import scan

    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "fork")
    assert scan._pool_threshold() == scan.FORK_POOL_THRESHOLD
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "spawn")
    assert scan._pool_threshold() == scan.SPAWN_POOL_THRESHOLD > scan.FORK_POOL_THRESHOLD
    monkeypatch.setattr(scan, "POOL_THRESHOLD", 7)
    assert scan._pool_threshold() == 7
