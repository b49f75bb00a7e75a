from __future__ import annotations

import inspect
from pathlib import Path

from gitcontext.audit.docs import render
from gitcontext.audit.select import modules

ROOT = Path(__file__).resolve().parents[2]


def test_docs_checks_md_is_current() -> None:
    current = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    assert current == render(), "docs/checks.md is stale: run `python -m gitcontext.audit.docs --write`"


def test_docs_every_check_has_an_example() -> None:
    for id, module in modules().items():
        doc = inspect.cleandoc(module.__doc__ or "")
        assert doc.startswith(f"{id} {module.CHECK.name}:"), id
        assert "Example" in doc and f"{id} {module.CHECK.name}" in doc.partition("Example")[2], id
