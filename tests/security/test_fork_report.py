"""Reports from forks (`pr-comment --from-report`) are untrusted (issue 29, "Attack"): mutated reports crashed
the renderer 799 times in 20,000 (`"radius": {"files": null}` -> traceback). Each is now checked against a
schema and refused in one clear line, or rendered."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.errors import UserError
from gitcontext.github import body, render, sticky
from gitcontext.github.report import load

SHA = "a" * 40
ROW = {"kind": "added", "id": "ctx-0123456789ab", "file": "AGENTS.md", "line": 3, "text": "Run tests."}
FINDING = {
    "check": "GC101",
    "name": "stale-rationale",
    "severity": "warning",
    "id": "ctx-0123456789ab",
    "file": "AGENTS.md",
    "line": 3,
    "message": "stale",
    "text": "Run tests.",
    "confidence": 0.9,
    "fix": None,
    "candidate": False,
    "evidence": {"n": 1},
    "other": {"file": "CLAUDE.md", "line": 2, "text": "x"},
    "advice": None,
}
REPORT: dict[str, Any] = {
    "version": 1,
    "base": SHA,
    "head": SHA.replace("a", "b"),
    "base_name": "main",
    "commits": 1,
    "check": {
        "base": SHA,
        "head": SHA,
        "commits": 1,
        "policy": "warn",
        "ok": False,
        "changes": [ROW],
        "missing": [ROW["id"]],
        "lines": ["1 change"],
    },
    "changes": [
        {**ROW, "why": None, "why_text": None, "failure": None, "subject": None, "missing": True},
        {
            **ROW,
            "kind": "retired",
            "why": "abc123",
            "why_text": "w",
            "failure": "f",
            "subject": "s",
            "missing": False,
            "restore": "- Run tests.\n",
        },
    ],
    "radius": {
        "pressure": True,
        "window": "main..HEAD",
        "files": [{"path": "a.py", "churn": 600, "reach": 3, "score": 700.5, "tier": "RISK", "exists": True}],
        "instructions": [{"id": ROW["id"], "file": "AGENTS.md", "line": 3, "text": "Run tests."}],
    },
    "candidates": [{**FINDING, "candidate": True, "fix": "git context retire ctx-0123456789ab"}],
    "stale": [FINDING],
    "audit": "ran",
}
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            out += _paths(v, prefix + (n,))
    return out


PATHS = [p for p in _paths(REPORT) if p]


def _comment(data: dict[str, Any]) -> str:
    links = render.Links("https://github.com", "o/r", data["head"])
    return body.assemble(sticky.MARKER, render.sections(data, links), limit=65536)


def test_the_sample_report_is_valid_and_renders() -> None:
    assert "Run tests" in _comment(load(copy.deepcopy(REPORT), "report.json"))


def test_radius_files_null_is_one_clear_line() -> None:
    data = copy.deepcopy(REPORT)
    data["radius"]["files"] = None
    with pytest.raises(UserError) as err:
        load(data, "report.json")
    assert "report.radius.files must be a list" in str(err.value) and "\n" not in str(err.value.args[0])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PATHS), JUNK, st.booleans()), min_size=1, max_size=4))
def test_mutated_reports_are_refused_or_rendered(edits: list[tuple[tuple, Any, bool]]) -> None:
    data = copy.deepcopy(REPORT)
    for path, junk, delete in edits:
        holder = data
        try:
            for key in path[:-1]:
                holder = holder[key]
            if delete and isinstance(holder, dict):
                holder.pop(path[-1], None)
            else:
                holder[path[-1]] = junk
        except (KeyError, IndexError, TypeError):
            continue
    try:
        checked = load(data, "report.json")
    except UserError:
        return
    _comment(checked)


@pytest.mark.parametrize("control", ["\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u202a", "\u200f", "\u061c"])
def test_bidi_controls_never_reach_the_comment(control: str) -> None:
    data = copy.deepcopy(REPORT)
    data["changes"][0]["text"] = f"Run {control}tests{control} daily."
    data["changes"][1]["restore"] = f"- Run {control}tests.\n"
    data["stale"][0]["message"] = f"stale {control}here"
    out = _comment(load(data, "report.json"))
    assert control not in out
    assert f"U+{ord(control):04X}" in out
