"""The example agent configs under editors/agents/ parse and name only commands that exist."""

from __future__ import annotations

import json
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

EXAMPLES = Path(__file__).resolve().parents[2] / "editors" / "agents"


def commands(node: object) -> list[str]:
    if isinstance(node, dict):
        found = [node["command"]] if isinstance(node.get("command"), str) else []
        if isinstance(node.get("args"), list):
            found = [" ".join([node["command"], *node["args"]])]
        return found + [c for v in node.values() for c in commands(v)]
    if isinstance(node, list):
        return [c for v in node for c in commands(v)]
    return []


def test_examples_name_existing_commands_only() -> None:
    from gitcontext.cli.main import cli

    files = sorted(EXAMPLES.rglob("*.json")) + sorted(EXAMPLES.rglob("*.toml"))
    assert len(files) == 7
    seen = set()
    for path in files:
        data = tomllib.loads(path.read_text()) if path.suffix == ".toml" else json.loads(path.read_text())
        for command in commands(data):
            words = command.split()
            assert words[:2] == ["git", "context"], (path, command)
            group = cli.get_command(None, words[2])  # type: ignore[arg-type]
            assert group is not None, (path, command)
            if len(words) > 3:
                assert group.get_command(None, words[3]) is not None, (path, command)  # type: ignore[attr-defined]
            seen.add(" ".join(words[2:]))
    assert seen == {"mcp", "hook agent-start", "hook agent-edit", "hook agent-stop"}
