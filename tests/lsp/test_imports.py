"""The language server stays off every other path: pygls loads only in `git context lsp`."""

from __future__ import annotations

import subprocess
import sys


def test_the_analysis_never_imports_pygls() -> None:
    """Only gitcontext.lsp.server imports pygls, and only `git context lsp` imports the server."""
    probe = (
        "import sys, gitcontext.cli.main, gitcontext.cli.lsp, gitcontext.lsp.problems, gitcontext.lsp.hover, "
        "gitcontext.lsp.links, gitcontext.lsp.actions, gitcontext.hooks.runner; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
