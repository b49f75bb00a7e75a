from __future__ import annotations

import json
from pathlib import Path

from tests.audit.conftest import RULES
from tests.helpers import commit, run_cli, write


def test_verify_all_reruns_recorded_commands(rules_repo: Path, capsys) -> None:
    flag = rules_repo / "ok"
    flag.write_text("")
    assert run_cli(capsys, "verify", "CLAUDE.md:3", "--how", "lint gate", "--run", "test -f ok")[0] == 0
    assert run_cli(capsys, "verify", "CLAUDE.md:4", "--run", "true")[0] == 0
    flag.unlink()
    code, out, _ = run_cli(capsys, "verify", "--all")
    assert code == 1 and "fails    " in out and "test -f ok" in out and "holds    " in out
    data = json.loads(run_cli(capsys, "audit", "--json", "--check", "GC107", "--fail-on", "never")[1])
    assert [f["line"] for f in data["findings"]] == [3]


def test_verify_all_scope_changed_only_reruns_touched_scopes(rules_repo: Path, capsys) -> None:
    commit(rules_repo, {"CLAUDE.md": RULES + "- Keep `src/app.py` free of I/O.\n", "src/app.py": "x = 1\n"}, "app")
    assert run_cli(capsys, "verify", "CLAUDE.md:6", "--run", "true")[0] == 0
    assert run_cli(capsys, "verify", "CLAUDE.md:4", "--run", "true")[0] == 0
    assert "no recorded" in run_cli(capsys, "verify", "--all", "--scope-changed")[1]
    write(rules_repo, "src/app.py", "x = 2\n")
    data = json.loads(run_cli(capsys, "verify", "--all", "--scope-changed", "--json")[1])
    assert [v["line"] for v in data["verifications"]] == [6]


def test_verify_all_usage(rules_repo: Path, capsys) -> None:
    assert run_cli(capsys, "verify", "--all", "CLAUDE.md:3")[0] == 2
    assert run_cli(capsys, "verify", "--scope-changed")[0] == 2
    assert run_cli(capsys, "verify")[0] == 2
