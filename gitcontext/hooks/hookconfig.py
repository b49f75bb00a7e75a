"""The config as the hooks read it: the defaults without importing yaml when the file says nothing more.

Its own module so that the fast path and the runner both import it and imports flow one way
(fast -> runner -> hookconfig).
"""
from __future__ import annotations

import os
from pathlib import Path


def load_config(root: Path) -> dict:
    """The config; one that only says `version: 1` (as `init` writes it) is the defaults, read
    without importing yaml (12 ms)."""
    import copy

    from gitcontext import config as config_mod

    if _is_default(root / config_mod.CONFIG_PATH):
        return copy.deepcopy(config_mod.DEFAULTS)
    return config_mod.load(root)


def _is_default(path: Path) -> bool:
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > 4096:
            return not os.path.lexists(path)   # absent: defaults; anything odd: config.load judges it
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    except (OSError, UnicodeDecodeError):
        return False                   # config.load reports it properly
    meaningful = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return meaningful in ([], ["version: 1"])
