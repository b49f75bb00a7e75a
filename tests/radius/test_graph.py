"""The resolved graph is cached whole by tree state and updated only where blobs changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.cli.radius import format_radius
from gitcontext.git import Repo
from gitcontext.radius import cache, graph, scan
from gitcontext.radius.blast import compute, to_json
from tests.helpers import commit, write

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def core():\n    return 1\n",
    **{f"pkg/m{i}.py": "from pkg.core import core\n" for i in range(25)},
}


def _analyse(repo: Path) -> graph.Analysis:
    conn = cache.open_cache(repo)
    try:
        return graph.analyse(repo, conn)
    finally:
        conn.close()


def _count_resolves(monkeypatch) -> list[str]:
    seen: list[str] = []
    original = graph._resolve

    def counting(path, result, tree):
        seen.append(path)
        return original(path, result, tree)

    monkeypatch.setattr(graph, "_resolve", counting)
    return seen


def test_graph_unchanged_tree_loads_the_snapshot_without_parsing(repo: Path, monkeypatch) -> None:
    commit(repo, FILES, "base")
    first = _analyse(repo)
    monkeypatch.setattr(scan, "scan", lambda *a, **k: pytest.fail("an unchanged tree was parsed again"))
    again = _analyse(repo)
    assert again.graph.edges == first.graph.edges and len(first.graph.importers["pkg/core.py"]) == 25
    assert again.imports == first.imports == {"resolved": 25, "external": 0, "unresolved": {}}


def test_graph_an_edit_resolves_only_the_changed_file(repo: Path, monkeypatch) -> None:
    commit(repo, FILES, "base")
    _analyse(repo)
    seen = _count_resolves(monkeypatch)
    write(repo, "pkg/m3.py", "from pkg.core import core\nfrom pkg import m4\n")
    found = _analyse(repo)
    assert seen == ["pkg/m3.py"]
    assert found.graph.importers["pkg/m4.py"] == ["pkg/m3.py"]


def test_graph_a_new_file_resolves_everything_and_matches_a_cold_build(repo: Path, monkeypatch) -> None:
    commit(repo, FILES, "base")
    _analyse(repo)
    seen = _count_resolves(monkeypatch)
    write(repo, "pkg/extra.py", "from pkg import core\n")
    warm = _analyse(repo)
    assert len(seen) == len(FILES) + 1  # the listing changed: every source, the new one included
    cold = graph.analyse(repo, None)
    assert warm.graph.edges == cold.graph.edges and ("pkg/extra.py", "pkg/core.py") in warm.graph.edges


def test_graph_malformed_manifest_is_counted_and_named(repo: Path) -> None:
    commit(
        repo,
        {
            "Cargo.toml": "[package\nname = 'x'\n",
            "src/lib.rs": "mod a;\n",
            "src/a.rs": "",
            "go.mod": "modul example.com/x\n",
            "main.go": "package main\n",
        },
        "base",
    )
    write(repo, "src/a.rs", "pub fn a() {}\n")
    result = compute(Repo.open(repo, config_mod.load(repo)))
    assert result.skipped["malformed manifest"] == 2
    assert set(result.errors) == {"Cargo.toml", "go.mod"} and "line 1" in result.errors["go.mod"]
    assert [f.reach for f in result.files if f.path == "src/a.rs"] == [1]
    text = format_radius(to_json(result))
    assert "warning: Cargo.toml: not TOML" in text and "skipped: " in text


def test_format_radius_flags_a_small_change_with_wide_reach(repo: Path) -> None:
    commit(repo, FILES, "base")
    write(repo, "pkg/core.py", "def core():\n    return 2\n")
    data = to_json(compute(Repo.open(repo, config_mod.load(repo))))
    text = format_radius(data, wide=20)
    assert "small change, 25 importers within 2 hops" in text
    assert "small change" not in format_radius(data, wide=26)
    assert text.index("pkg/core.py") < text.index("imports:")
