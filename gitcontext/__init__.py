"""gitcontext: keep the why of every instruction in agent context files, in git."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

DISTRIBUTION = "git-context-provenance"


def __getattr__(name: str) -> Any:
    """`__version__` from the installed distribution's metadata, computed on first use: importing
    importlib.metadata costs ~18 ms, which the commit hook's fast path must not pay."""
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a source tree that was never installed
        found = "0.0.0+unknown"
    globals()["__version__"] = found
    return found
