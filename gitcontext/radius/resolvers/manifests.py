"""Reading the manifests resolvers depend on: untrusted input, parsed or reported, never raised past.

TOML through `tomllib` (standard library from Python 3.11; `tomli`, the same parser, on 3.10),
JSON with comments and trailing commas (tsconfig.json is JSONC), YAML (pnpm-workspace.yaml) with
the safe loader, go.mod and go.work by their line grammar.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
import sys
from typing import Any

NAMES = frozenset(
    {"go.mod", "go.work", "Cargo.toml", "package.json", "pnpm-workspace.yaml", "pyproject.toml", "jsconfig.json"}
)
_JSONC = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/|,(?=\s*[}\]])', re.S)
_GO_LINE = re.compile(r"^\s*(module|go|toolchain|require|replace|exclude|retract|use|godebug|tool|ignore)\b(.*)$")


class Malformed(ValueError):
    """A manifest that does not parse; the message names the line where it can."""


def is_manifest(path: str) -> bool:
    name = posixpath.basename(path)
    return name in NAMES or (name.startswith("tsconfig") and name.endswith(".json"))


def parse(path: str, text: str) -> Any:
    name = posixpath.basename(path)
    if name.endswith(".toml"):
        if sys.version_info >= (3, 11):
            import tomllib  # here: a warm run reads no manifest
        else:
            import tomli as tomllib
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise Malformed(f"not TOML: {exc}") from None
    if name.endswith(".json"):
        try:
            return json.loads(_JSONC.sub(lambda m: m.group(1) or "", text))
        except (json.JSONDecodeError, RecursionError) as exc:
            raise Malformed(f"not JSON: line {getattr(exc, 'lineno', '?')}: {getattr(exc, 'msg', exc)}") from None
    if name.endswith(".yaml"):
        return _yaml(text)
    return go_directives(text)


def _yaml(text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark else ""
        raise Malformed(f"not YAML: {where}{getattr(exc, 'problem', None) or exc}") from None


def go_directives(text: str) -> list[tuple[str, list[str]]]:
    """go.mod / go.work as (directive, words) pairs; `( … )` blocks expanded, comments dropped."""
    found: list[tuple[str, list[str]]] = []
    block: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if block:
            if line == ")":
                block = None
            else:
                found.append((block, _words(line)))
            continue
        match = _GO_LINE.match(line)
        if not match:
            raise Malformed(f"line {number}: unknown directive {line.split()[0]!r}")
        verb, rest = match.group(1), match.group(2).strip()
        if rest == "(":
            block = verb
        elif rest:
            found.append((verb, _words(rest)))
    if block:
        raise Malformed(f"a {block} ( block is never closed")
    return found


def _words(text: str) -> list[str]:
    return [w.strip('"`') for w in text.split()]


@functools.lru_cache(maxsize=512)
def glob_regex(pattern: str) -> re.Pattern:
    """A workspace glob as a regex: `**` any depth, `*` and `?` within one folder."""
    out = []
    for part in re.split(r"(\*\*/?|\*|\?)", pattern):
        out.append({"**": ".*", "**/": "(?:.*/)?", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part)))
    return re.compile("".join(out))


def strings(value: Any) -> list[str]:
    """VALUE as a list of strings (a string alone is one); anything else is empty."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def table(value: Any) -> dict:
    return value if isinstance(value, dict) else {}
