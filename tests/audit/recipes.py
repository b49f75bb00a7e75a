"""Golden audit cases: a folder with recipe.json (how to build the repository) and expect.json.

recipe.json:
    {"steps": [ {"commit": {PATH: TEXT | null | {"lines": N, "word": W}}, "date": ISO, "message": M},
                {"write": {PATH: TEXT | {"lines": N}}},          # work tree only, not committed
                {"git": ["checkout", "-q", "-b", "topic"]},
                {"cli": ["record", "CLAUDE.md:3", "--why", "…"], "now": ISO} ],
     "config": {...} (written as .context/config.yml), "now": ISO (the audit's clock),
     "audit": ["--check", "GC101"] (extra audit arguments)}
expect.json:
    {"check": "GC101", "findings": [{"check", "file", "line", optional "candidate", "severity", "message_has",
                                     "confidence" (null: none), "no_evidence", "fix_starts"}]}
The findings of `check` must be exactly the expected ones (by check, file, line).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import commit, git, run_cli, write

CASES = Path(__file__).resolve().parents[1] / "cases" / "audit"


def cases() -> list[Path]:
    return sorted(p.parent for p in CASES.glob("*/*/recipe.json"))


def _content(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    word = value.get("word", "line")
    return "".join(f"{word} {n}\n" for n in range(value["lines"]))


def build(
    repo: Path, recipe: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if "config" in recipe:
        write(repo, ".context/config.yml", json.dumps(recipe["config"]) + "\n")
    for step in recipe["steps"]:
        if "commit" in step:
            files = {p: _content(v) for p, v in step["commit"].items()}
            if (repo / ".context").is_dir():
                files.update(_notes(repo))
            commit(repo, files, step.get("message", "change"), step.get("date"))
        elif "write" in step:
            for path, value in step["write"].items():
                write(repo, path, _content(value))
        elif "git" in step:
            git(repo, *step["git"])
        elif "cli" in step:
            monkeypatch.setenv("GITCONTEXT_NOW", step.get("now", recipe.get("now", "2026-01-01T00:00:00Z")))
            code, out, err = run_cli(capsys, *step["cli"])
            assert code in step.get("exit", (0,)), f"{step['cli']}: {out}{err}"


def _notes(repo: Path) -> dict[str, str]:
    """Everything under .context/ rides along with the next commit, like a user's `git add .context`."""
    out = {}
    for path in (repo / ".context").rglob("*"):
        if path.is_file():
            out[path.relative_to(repo).as_posix()] = path.read_text(encoding="utf-8")
    return out


def audit(repo: Path, recipe: dict[str, Any], capsys, monkeypatch) -> dict[str, Any]:
    monkeypatch.setenv("GITCONTEXT_NOW", recipe.get("now", "2026-01-01T00:00:00Z"))
    code, out, err = run_cli(capsys, "audit", "--format", "json", "--fail-on", "never", *recipe.get("audit", []))
    assert code == 0, err
    return json.loads(out)


def compare(found: list[dict[str, Any]], expected: dict[str, Any]) -> None:
    mine = [f for f in found if f["check"] == expected["check"]]
    assert sorted((f["file"], f["line"]) for f in mine) == sorted(
        (e["file"], e["line"]) for e in expected["findings"]
    ), json.dumps(mine, indent=1)
    for want in expected["findings"]:
        got = next(f for f in mine if (f["file"], f["line"]) == (want["file"], want["line"]))
        if "candidate" in want:
            assert bool(got["fix"] and got["evidence"].get("candidate")) == want["candidate"], got
        if "severity" in want:
            assert got["severity"] == want["severity"], got
        if "message_has" in want:
            assert want["message_has"] in got["message"], got
        if "confidence" in want and want["confidence"] is None:
            assert got["confidence"] is None, got
        elif "confidence" in want:
            assert got["confidence"] == pytest.approx(want["confidence"], abs=1e-3), got
        if "no_evidence" in want:
            assert bool(got["evidence"].get("no_evidence")) == want["no_evidence"], got
        if "fix_starts" in want:
            assert (got["fix"] or "").startswith(want["fix_starts"]), got
