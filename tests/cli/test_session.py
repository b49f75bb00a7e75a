"""A read command is one repository session: git lists the tree once and resolves HEAD once (GIT_TRACE)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import commit, run_cli, run_json, write

RULES = "# Rules\n\n- Run `make test` before you push.\n- Never edit `gen/` by hand.\n"


def _asked(trace: Path) -> list[str]:
    lines = [line.split("built-in: ", 1)[1] for line in trace.read_text().splitlines() if "built-in: git " in line]
    trace.unlink()
    return lines


@pytest.mark.parametrize("args", [("ls",), ("blame", "CLAUDE.md"), ("blame", "CLAUDE.md:3"), ("budget",), ("show",)])
def test_a_read_command_lists_the_tree_once_and_asks_head_once(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args
) -> None:
    commit(repo, {"CLAUDE.md": RULES, "web/AGENTS.md": "# Web\n\n- Keep components small.\n"}, "rules")
    write(repo, "notes.txt", "untracked\n")
    if args == ("show",):
        args = ("show", run_json(capsys, "ls")["instructions"][0]["id"])
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    code, _, err = run_cli(capsys, *args)
    assert code == 0, err
    asked = _asked(trace)
    assert len([a for a in asked if a.startswith("git ls-files")]) <= 1, asked
    heads = [a for a in asked if a.startswith("git rev-parse") and "HEAD" in a]
    assert len(heads) == 1, asked  # the session's one `rev-parse`; nothing asks HEAD again
