"""What a cache under `.git/gitcontext/` keys its code on: the name, size and mtime of each module file
whose code decides its entries, so an edited or upgraded gitcontext never meets an entry of other code."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def code_stamps(files: Iterable[str]) -> list[list[object]]:
    """[path under the package, size, mtime in ns] of each of FILES (absolute paths of modules)."""
    stamps: list[list[object]] = []
    for file in files:
        info = os.stat(file)
        stamps.append([os.path.relpath(file, PACKAGE), info.st_size, info.st_mtime_ns])
    return stamps


def folder_modules(*folders: str) -> list[str]:
    """Every module file of FOLDERS (packages of gitcontext, by name), in a fixed order."""
    return [
        os.path.join(PACKAGE, folder, name)
        for folder in folders
        for name in sorted(os.listdir(os.path.join(PACKAGE, folder)))
        if name.endswith(".py")
    ]
