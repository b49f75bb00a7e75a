"""The cache is never stale: after an edit, a staged change, a rename, a deletion, a new file or a checkout,
a warm run answers exactly what a run without any cache answers (real git, one change at a time)."""

from __future__ import annotations

import shutil
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext import git as gitmod
from gitcontext.git import Repo
from gitcontext.radius import cache, scan
from gitcontext.radius.blast import compute, to_json
from tests.helpers import commit, git, run_json, write

BASE = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def core():\n    return 1\n",
    "pkg/a.py": "from pkg.core import core\n",
    "pkg/b.py": "from pkg import core\n",
    "pkg/c.py": "from pkg import a\n",
    "CLAUDE.md": "# Rules\n\n- Keep `pkg/core.py` pure.\n",
}


def _warm(repo: Path) -> dict:
    """The warm answer, checked against a run with no cache and one from a deleted cache."""
    config = config_mod.load(repo)
    warm = to_json(compute(Repo.open(repo, config), base="HEAD"))
    assert warm == to_json(compute(Repo.open(repo, config), base="HEAD", use_cache=False))
    shutil.rmtree(cache.path_for(repo).parent)
    assert warm == to_json(compute(Repo.open(repo, config), base="HEAD"))
    return warm


def _reach(data: dict, path: str) -> list[str]:
    (row,) = [f for f in data["files"] if f["path"] == path]
    return [i["path"] for i in row["importers"]]


def _primed(repo: Path) -> None:
    commit(repo, BASE, "base")
    write(repo, "pkg/core.py", BASE["pkg/core.py"] + "X = 1\n")  # core changed: its reach is listed
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]
    to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))  # the cache now holds this state


def test_cache_edit_that_drops_an_import_is_seen(repo: Path) -> None:
    _primed(repo)
    write(repo, "pkg/a.py", "A = 1\n")
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/b.py"]


def test_cache_same_size_edit_right_after_a_run_is_seen(repo: Path) -> None:
    _primed(repo)
    write(repo, "pkg/b.py", "#" * 20 + "\n")  # as long as before, in the same second as the last run
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/c.py"]


def test_cache_staged_change_reverted_in_the_work_tree_reads_the_work_tree(repo: Path) -> None:
    _primed(repo)
    write(repo, "pkg/a.py", "A = 1\n")
    git(repo, "add", "pkg/a.py")
    write(repo, "pkg/a.py", BASE["pkg/a.py"])  # index: no import; work tree: as at HEAD
    config = config_mod.load(repo)
    assert _reach(to_json(compute(Repo.open(repo, config), base="HEAD")), "pkg/core.py") == [
        "pkg/a.py",
        "pkg/b.py",
        "pkg/c.py",
    ]
    write(repo, "pkg/a.py", "A = 1\n")  # now as in the index: its parse is cached by that blob
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/b.py"]


def test_cache_rename_is_seen(repo: Path) -> None:
    _primed(repo)
    git(repo, "mv", "pkg/a.py", "pkg/alpha.py")
    data = _warm(repo)
    assert _reach(data, "pkg/core.py") == ["pkg/alpha.py", "pkg/b.py"]  # pkg/c.py's `import a` names nothing now
    assert {f["path"] for f in data["files"]} == {"pkg/core.py", "pkg/a.py", "pkg/alpha.py"}


def test_cache_deleted_file_is_seen(repo: Path) -> None:
    _primed(repo)
    (repo / "pkg/b.py").unlink()
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/c.py"]
    git(repo, "rm", "-q", "--cached", "pkg/a.py")
    (repo / "pkg/a.py").unlink()
    assert _reach(_warm(repo), "pkg/core.py") == []


def test_cache_new_untracked_file_is_seen(repo: Path) -> None:
    _primed(repo)
    write(repo, "pkg/d.py", "from pkg.core import core\n")
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/d.py", "pkg/c.py"]  # nearest first


def test_cache_checkout_of_another_branch_and_back(repo: Path) -> None:
    commit(repo, BASE, "base")
    git(repo, "checkout", "-q", "-b", "other")
    commit(repo, {"pkg/a.py": "A = 1\n", "pkg/e.py": "from pkg import core\n"}, "other")
    git(repo, "checkout", "-q", "main")
    write(repo, "pkg/core.py", BASE["pkg/core.py"] + "X = 1\n")
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]
    to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    git(repo, "stash", "-q")
    git(repo, "checkout", "-q", "other")
    git(repo, "stash", "pop", "-q")
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/b.py", "pkg/e.py"]
    git(repo, "stash", "-q")
    git(repo, "checkout", "-q", "main")
    git(repo, "stash", "pop", "-q")
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]


def test_cache_command_warm_equals_cold_after_each_change(repo: Path, capsys) -> None:
    commit(repo, BASE, "base")
    write(repo, "pkg/core.py", BASE["pkg/core.py"] + "X = 1\n")
    steps = [
        lambda: write(repo, "pkg/a.py", "A = 1\n"),
        lambda: git(repo, "mv", "pkg/b.py", "pkg/bee.py"),
        lambda: (repo / "pkg/c.py").unlink(),
        lambda: git(repo, "add", "-A"),
        lambda: git(repo, "commit", "-q", "-m", "step"),
        lambda: git(repo, "checkout", "-q", "HEAD~1"),
    ]
    for step in steps:
        run_json(capsys, "radius", "--base", "HEAD")  # primes the cache with the state before STEP
        step()
        warm = run_json(capsys, "radius", "--base", "HEAD")
        shutil.rmtree(cache.path_for(repo).parent)
        assert warm == run_json(capsys, "radius", "--base", "HEAD")


def test_cache_unchanged_tree_skips_the_numstat_and_the_rev_list(repo: Path, monkeypatch) -> None:
    _primed(repo)
    git(repo, "commit", "-q", "-am", "core")
    seen = _verbs(monkeypatch)
    data = to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    assert data["files"] == [] and data["instructions"] == []
    verbs = seen()
    assert "rev-list" not in verbs and "diff" not in verbs
    assert verbs.count("ls-files") == 1 and verbs.count("status") == 1  # the index's blob ids; changes, untracked


def test_scan_listing_reads_a_staged_but_clean_file_by_its_blob(repo: Path) -> None:
    commit(repo, BASE, "base")
    write(repo, "pkg/a.py", "A = 1\n")
    git(repo, "add", "pkg/a.py")
    found = scan.listing(repo)
    assert found.changed == ("pkg/a.py",)
    (source,) = [s for s in found.sources if s.path == "pkg/a.py"]
    assert source.key[0] == git(repo, "rev-parse", ":pkg/a.py").strip()


def test_cache_edit_of_a_config_a_tsconfig_extends_is_seen(repo: Path) -> None:
    commit(
        repo,
        {
            "tsconfig.json": '{"extends": "./configs/base.json"}\n',
            "configs/base.json": '{"compilerOptions": {"baseUrl": "..", "paths": {"@lib/*": ["lib/*"]}}}\n',
            "lib/x.ts": "export const x = 1;\n",
            "other/x.ts": "export const x = 2;\n",
            "app/a.ts": "import { x } from '@lib/x';\n",
        },
        "base",
    )
    write(repo, "lib/x.ts", "export const x = 3;\n")
    write(repo, "other/x.ts", "export const x = 4;\n")
    data = _warm(repo)
    assert (_reach(data, "lib/x.ts"), _reach(data, "other/x.ts")) == (["app/a.ts"], [])
    to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    write(repo, "configs/base.json", '{"compilerOptions": {"baseUrl": "..", "paths": {"@lib/*": ["other/*"]}}}\n')
    data = _warm(repo)
    assert (_reach(data, "lib/x.ts"), _reach(data, "other/x.ts")) == ([], ["app/a.ts"])


def _verbs(monkeypatch):
    """A function giving the git subcommands run since this call, as git itself logs them (GIT_TRACE to a
    file): every git process, whichever module of gitcontext.git started it."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="gittrace-")) / "trace"
    monkeypatch.setenv("GIT_TRACE", str(path))

    def seen() -> list[str]:
        lines = path.read_text().splitlines() if path.exists() else []
        return [
            _verb(line.split("trace: built-in: git ", 1)[1].split())
            for line in lines
            if "trace: built-in: git " in line
        ]

    return seen


def _verb(args: list[str]) -> str:
    """The subcommand of `git ARGS`: the first word that is no option (`-c key=value` and `-C dir` skipped)."""
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a in ("-c", "-C"):
            skip = True
        elif not a.startswith("-"):
            return a
    return ""


def test_cache_unchanged_tree_is_found_without_listing_the_index(repo: Path, monkeypatch) -> None:
    _primed(repo)
    seen = _verbs(monkeypatch)
    data = to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    assert _reach(data, "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]
    assert data["instructions"] and "ls-files" not in seen()  # the discovery got the remembered listing


def test_cold_radius_lists_the_tree_once_for_the_graph_and_the_discovery(repo: Path, monkeypatch) -> None:
    commit(repo, BASE, "base")
    write(repo, "pkg/core.py", BASE["pkg/core.py"] + "X = 1\n")
    seen = _verbs(monkeypatch)
    data = to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    assert data["instructions"]  # the discovery ran, on the session the graph's listing was given to
    assert seen().count("ls-files") == 1, seen()  # the index with its blob ids, listed once


def test_cache_intent_to_add_and_staged_files_take_the_listing(repo: Path, monkeypatch) -> None:
    _primed(repo)
    write(repo, "pkg/d.py", "from pkg import core\n")
    git(repo, "add", "-N", "pkg/d.py")
    seen = _verbs(monkeypatch)
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/d.py", "pkg/c.py"]
    assert "ls-files" in seen()
    to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    git(repo, "add", "pkg/d.py")
    write(repo, "pkg/d.py", "D = 1\n")
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]


def test_cache_edit_of_an_untracked_manifest_is_seen(repo: Path) -> None:
    commit(
        repo,
        {
            "main.go": 'package main\n\nimport "example.com/a/lib"\n\nfunc main() { lib.F() }\n',
            "lib/lib.go": "package lib\n\nfunc F() {}\n",
        },
        "base",
    )
    write(repo, "go.mod", "module example.com/a\n\ngo 1.22\n")
    write(repo, "lib/lib.go", "package lib\n\nfunc F() {}\n\nfunc G() {}\n")
    assert _reach(_warm(repo), "lib/lib.go") == ["main.go"]
    to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    write(repo, "go.mod", "module example.com/b\n\ngo 1.22\n")
    assert _reach(_warm(repo), "lib/lib.go") == []


def test_quick_recall_refuses_a_state_saved_with_another_grammar_build(repo: Path, monkeypatch) -> None:
    from gitcontext.radius import quick

    commit(repo, BASE, "base")
    conn = cache.open_cache(repo)
    quick.remember(conn, "k", "s", scan.listing(repo))
    assert quick.recall(conn, "k") == "s" and quick.recall(conn, "other") is None
    scan._key_tail.cache_clear()
    monkeypatch.setattr(scan, "grammar_version", lambda lang: "tree_sitter_python=upgraded")
    assert quick.recall(conn, "k") is None
    scan._key_tail.cache_clear()
    conn.close()


def test_cache_second_edit_of_a_changed_file_is_seen(repo: Path) -> None:
    _primed(repo)
    write(repo, "pkg/a.py", "from pkg.core import core\nA = 1\n")
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]
    to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    write(repo, "pkg/a.py", "A = 2\n")  # the same changed paths, another content
    assert _reach(_warm(repo), "pkg/core.py") == ["pkg/b.py"]


def test_cache_deletion_staged_after_the_run_is_seen(repo: Path) -> None:
    _primed(repo)
    (repo / "pkg/a.py").unlink()  # still in the index: `from pkg import a` names it
    assert _reach(_warm(repo), "pkg/a.py") == ["pkg/c.py"]
    to_json(compute(Repo.open(repo, config_mod.load(repo)), base="HEAD"))
    git(repo, "rm", "-q", "--cached", "pkg/a.py")  # the same paths changed, the same work tree
    assert _reach(_warm(repo), "pkg/a.py") == []


def test_cache_table_rewritten_by_another_run_is_never_read(repo: Path) -> None:
    import pytest

    from gitcontext.errors import UserError
    from gitcontext.radius import graph

    _primed(repo)
    conn = cache.open_cache(repo)
    found = graph.analyse(repo, conn, lazy=True, status=gitmod.status_paths(repo), tree=gitmod.Repo.open(repo, {}).tree)
    cache.put_snapshot(conn, "another state", {}, {"importers": {"pkg/core.py": ["elsewhere.py"]}})
    with pytest.raises(UserError, match="rewritten"):
        found.graph.importers.get("pkg/core.py")
    conn.close()
