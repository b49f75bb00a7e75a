"""Front matter of `.mdc` rules (and any context file): payload for the executor, metadata for us.

Cursor writes `globs: **/*.ts` unquoted, which is not valid YAML (`*` starts an alias), so a block
that YAML rejects is read again as plain `key: value` lines instead of failing.
"""

from __future__ import annotations

from typing import Any

from gitcontext.instructions.blocks import front_matter_end, split_lines


def front_matter(text: str) -> dict[str, Any]:
    """The front matter of TEXT as a dict; {} when there is none."""
    lines = split_lines(text)
    end = front_matter_end(lines)
    if end == 0:
        return {}
    body = "\n".join(lines[1 : end - 1])
    from gitcontext.config import parse_yaml  # yaml: only files that have front matter pay for it
    from gitcontext.errors import UserError

    try:
        data = parse_yaml(body.encode("utf-8", "surrogateescape"), "front matter")
    except UserError:
        data = None  # not YAML (or an alias bomb): read as plain `key: value` lines
    return data if isinstance(data, dict) else _plain_pairs(lines[1 : end - 1])


def _plain_pairs(lines: list[str]) -> dict[str, Any]:
    pairs: dict[str, Any] = {}
    for line in lines:
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t", "#")):
            pairs[key.strip()] = _scalar(value.strip())
    return pairs


def _scalar(value: str) -> Any:
    if value in ("true", "false"):
        return value == "true"
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def scope_globs(meta: dict[str, Any]) -> list[str]:
    """The `globs:` of front matter as a list, whether written as a list or a comma-separated string."""
    value = meta.get("globs")
    if isinstance(value, str):
        items = _split_commas(value)
    elif isinstance(value, list):
        items = [str(v) for v in value]
    else:
        return []
    return [item.strip().strip("'\"") for item in items if item.strip().strip("'\"")]


def _split_commas(value: str) -> list[str]:
    """Split "a/**,b/*.{ts,tsx}" at the commas outside braces: a brace's commas are the glob's own."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(value):
        if c == "{":
            depth += 1
        elif c == "}" and depth:
            depth -= 1
        elif c == "," and not depth:
            items.append(value[start:i])
            start = i + 1
    return items + [value[start:]]
