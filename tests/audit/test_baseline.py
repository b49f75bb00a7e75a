from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcontext.audit import baseline
from gitcontext.audit.finding import Finding
from gitcontext.errors import UserError


def _f(line: int, message: str = "rationale not verified for 120 days", **kw) -> Finding:
    return Finding("GC101", "unverified", "warning", "ctx-aaaaaaaaaaaa", "CLAUDE.md", line, message, **kw)


def test_fingerprint_survives_line_moves_and_changing_numbers() -> None:
    assert baseline.fingerprint(_f(3)) == baseline.fingerprint(_f(9, "rationale not verified for 121 days"))


def test_fingerprint_tells_checks_ids_and_keys_apart() -> None:
    a = _f(3)
    assert baseline.fingerprint(a) != baseline.fingerprint(a._replace(check="GC102"))
    assert baseline.fingerprint(a) != baseline.fingerprint(a._replace(id="ctx-bbbbbbbbbbbb"))
    assert baseline.fingerprint(_f(3, evidence={"key": "x"})) != baseline.fingerprint(_f(3, evidence={"key": "y"}))


def test_baseline_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(baseline.dumps([_f(3), _f(4)]), encoding="utf-8")
    assert baseline.load(path) == {baseline.fingerprint(_f(3))}


@pytest.mark.parametrize("text", ["not json", "[]", '{"fingerprints": [1]}'])
def test_baseline_bad_file_names_it(tmp_path: Path, text: str) -> None:
    path = tmp_path / "b.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as err:
        baseline.load(path)
    assert err.value.path == str(path) and "--write-baseline" in err.value.fix


def test_baseline_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not found"):
        baseline.load(tmp_path / "none.json")
    assert json.loads(baseline.dumps([]))["fingerprints"] == []


def test_every_check_with_a_changing_message_sets_a_fingerprint_key() -> None:
    """Messages that carry dates, shas, tiers or commands must not make the fingerprint drift."""
    import inspect

    from gitcontext.audit.select import modules

    for id in ("GC101", "GC102", "GC106", "GC107", "GC302", "GC400"):
        assert '"key":' in inspect.getsource(modules()[id]), id
