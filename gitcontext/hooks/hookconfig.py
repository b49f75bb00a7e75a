"""The config as the hooks read it: the defaults without importing yaml when the file says nothing more.

Its own module so that the fast path and the runner both import it and imports flow one way
(fast -> runner -> hookconfig).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def load_config(root: str | Path) -> dict:
    """The config; one that only says `version: 1` (as `init` writes it) is the defaults, read
    without importing yaml (12 ms)."""
    from gitcontext import config as config_mod

    if _is_default(os.path.join(root, config_mod.CONFIG_PATH)):
        return config_mod.defaults()
    return config_mod.load(root)


def _is_default(path: str) -> bool:
    try:
        if not os.path.isfile(path) or os.path.islink(path) or os.stat(path).st_size > 4096:
            return not os.path.lexists(path)  # absent: defaults; anything odd: config.load judges it
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return True
    except (OSError, UnicodeDecodeError):
        return False  # config.load reports it properly
    meaningful = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return meaningful in ([], ["version: 1"])
