"""The import contracts of .importlinter (STYLE.md §15) hold for the whole package."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_architecture_import_contracts_kept(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlinter.cli import lint_imports

    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    code = lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert code == 0, report
    assert "Contracts: 3 kept, 0 broken." in report


def test_architecture_contract_detects_an_upward_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The layers contract is not vacuous: a model module importing cli breaks it."""
    from importlinter.cli import lint_imports

    files = {
        "__init__.py": "",
        "cli/__init__.py": "",
        "cli/main.py": "",
        "identity/__init__.py": "",
        "instructions/__init__.py": "",
        "instructions/segment.py": "from gitcontext.cli import main\n",
        "git.py": "",
        "config.py": "",
        "environment.py": "",
        "progress.py": "",
        "errors.py": "",
        "digests.py": "",
        "stamps.py": "",
    }
    for name, body in files.items():
        (tmp_path / "gitcontext" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "gitcontext" / name).write_text(body)
    layers_only = (ROOT / ".importlinter").read_text().split("[importlinter:contract:light-hot-path]")[0]
    (tmp_path / ".importlinter").write_text(layers_only)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "gitcontext" or m.startswith("gitcontext.")]:
        monkeypatch.delitem(sys.modules, name)
    code = lint_imports(config_filename=str(tmp_path / ".importlinter"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert code == 1 and "gitcontext.instructions is not allowed to import gitcontext.cli" in report


def test_architecture_no_import_circle_inside_any_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside every package imports flow one way too: no module imports one that reaches back to it (the
    circles once in history/, hooks/, identity/, audit/ and provenance/ stay broken)."""
    import grimp

    monkeypatch.syspath_prepend(str(ROOT))
    graph = grimp.build_graph("gitcontext", cache_dir=None)
    assert {"gitcontext.hooks.fast", "gitcontext.hooks.runner", "gitcontext.audit.views"} <= graph.modules
    circles = set()
    for module in graph.modules:
        package = ".".join(module.split(".")[:2]) + "."
        for other in graph.find_modules_directly_imported_by(module):
            if (
                other != module
                and module.startswith(package)
                and other.startswith(package)
                and graph.chain_exists(importer=other, imported=module)
            ):
                circles.add(tuple(sorted((module, other))))
    assert sorted(circles) == []
