"""Rust: `mod x;` declarations and `use crate::/super::/self::` paths, module files by directory."""
from __future__ import annotations

import posixpath
import re

_MOD = re.compile(r"\bmod\s+(r#)?(\w+)")


def resolve(spec: str, path: str, tree) -> list[str]:
    match = _MOD.search(spec) if spec.endswith(";") else None
    if match:
        return _module(_children_dir(path), [match.group(2)], tree)
    found: set[str] = set()
    for use in expand(spec):
        head, *rest = use.split("::")
        if head == "crate":
            base = _crate_dir(path, tree)
        elif head == "self":
            base = _children_dir(path)
        elif head == "super":
            base = posixpath.dirname(_children_dir(path))
        else:
            continue   # std or an external crate
        found.update(_module(base, [s for s in rest if s not in ("self", "*")], tree))
    return sorted(found - {path})


def expand(text: str) -> list[str]:
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]; aliases dropped."""
    text = re.sub(r"\s+as\s+\w+", "", text).replace(" ", "")
    open_at = text.find("{")
    if open_at < 0:
        return [text]
    prefix, inner = text[:open_at], text[open_at + 1: text.rfind("}")]
    parts, depth, start = [], 0, 0
    for i, char in enumerate(inner + ","):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            if inner[start:i]:
                parts.append(inner[start:i])
            start = i + 1
    return [full for part in parts for full in expand(prefix + part)]


def _module(base: str, segments: list[str], tree) -> list[str]:
    """The file of the longest prefix of SEGMENTS that is a module under BASE."""
    for n in range(len(segments), 0, -1):
        stem = posixpath.join(base, *segments[:n])
        hit = tree.first([f"{stem}.rs", f"{stem}/mod.rs"])
        if hit:
            return hit
    return []


def _children_dir(path: str) -> str:
    directory, name = posixpath.split(path)
    if name in ("lib.rs", "main.rs", "mod.rs"):
        return directory
    return posixpath.join(directory, name[:-3])


def _crate_dir(path: str, tree) -> str:
    directory = posixpath.dirname(path)
    while True:
        if posixpath.join(directory, "Cargo.toml") in tree.files or any(
                posixpath.join(directory, f) in tree.files for f in ("lib.rs", "main.rs")):
            src = posixpath.join(directory, "src")
            return src if f"{src}/lib.rs" in tree.files or f"{src}/main.rs" in tree.files else directory
        if not directory:
            return ""
        directory = posixpath.dirname(directory)
