from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcontext.audit.finding import Check, Finding
from gitcontext.audit.run import Report
from gitcontext.environment import Environment
from gitcontext.report import audit_github, audit_json, audit_markdown, audit_sarif, audit_text

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
CHECKS = (
    Check("GC100", "orphan", "warning", "No rationale."),
    Check("GC201", "falsified", "warning", "Falsified."),
    Check("GC107", "verification-fails", "error", "Verification failed."),
)
HOSTILE = "Ping @octocat <img src=x onerror=alert(1)> `rm -rf` | *bold* %0A\r\nnext"


def _report(n: int = 1, **extra) -> Report:
    findings = [
        Finding(
            "GC100",
            "orphan",
            "warning",
            f"ctx-{i:012x}",
            "CLAUDE.md",
            i + 1,
            "no rationale recorded",
            {"text": HOSTILE},
            fix=f'git context record ctx-{i:012x} --why "…"',
        )
        for i in range(n)
    ]
    findings.append(
        Finding(
            "GC201",
            "falsified",
            "warning",
            "ctx-ffffffffffff",
            "AGENTS.md",
            3,
            "recurred 2 time(s)",
            {
                "candidate": True,
                "calibration": {"reason": "GC201", "k": 2, "e": 0, "q": 0.25},
                "trial": {"verdict": "removable", "reason": "removing it passed 3/3 runs of `make test`"},
            },
            fix='git context retire ctx-ffffffffffff --reason "GC201 falsified: x"',
            confidence=0.75,
        )
    )
    findings.append(Finding("GC107", "verification-fails", "error", None, None, None, "a\nb%c"))
    return Report(findings, {"instructions": 5, "documented": 1, "stale": 1, "orphan": 3}, CHECKS, **extra)


def test_json_keeps_the_section_5_contract() -> None:
    data = json.loads(audit_json.render(_report()))
    assert set(data["coverage"]) >= {"instructions", "documented", "stale", "orphan"}
    for f in data["findings"]:
        assert set(f) >= {"check", "name", "severity", "id", "file", "line", "message", "evidence"}
    assert data["candidates"] == {"candidates": 1, "ids": ["ctx-ffffffffffff"], "without_evidence": []}


def test_sarif_validates_against_the_2_1_0_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    log = json.loads(audit_sarif.render(_report(3)))
    jsonschema.validate(log, json.loads(SCHEMA.read_text(encoding="utf-8")))
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["GC100", "GC201", "GC107"]
    first = run["results"][0]
    assert first["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    assert first["partialFingerprints"][audit_sarif.FINGERPRINT_KEY]
    assert run["results"][0]["ruleIndex"] == 0 and all(r["locations"] for r in run["results"])
    [note] = run["invocations"][0]["toolExecutionNotifications"]
    assert note["descriptor"]["id"] == "GC107" and note["level"] == "error"


def test_github_caps_each_level_at_ten_then_one_notice() -> None:
    lines = audit_github.render(_report(14)).splitlines()
    warnings = [line for line in lines if line.startswith("::warning")]
    assert len(warnings) == 10 and lines[-1].startswith("::notice") and "5 more" in lines[-1]
    assert lines[0].startswith("::error title=GC107 verification-fails::a%0Ab%25c")


def test_github_escapes_properties() -> None:
    f = Finding("GC100", "orphan", "note", None, "a,b:c.md", 2, "m")
    assert audit_github.annotation(f) == "::notice file=a%2Cb%3Ac.md,line=2,title=GC100 orphan (experimental)::m"


def test_markdown_neutralizes_instruction_text() -> None:
    text = audit_markdown.render(_report())
    assert "@octocat" not in text and "@\u2060octocat" in text
    item = [line for line in text.splitlines() if "octocat" in line][0]
    assert item.strip().startswith("``Ping") and "`rm -rf`" in item  # inside a longer fence, verbatim
    assert "<img" in item and item.count("<img") == text.count("<img")  # only ever inside the code span


def test_markdown_sections_for_the_pr_comment() -> None:
    keys = [s.key for s in audit_markdown.sections(_report())]
    assert keys == ["summary", "errors", "candidates", "GC100"]  # what to act on first, orphans last
    assert "q = 0.25; k = 2, e = 0" in audit_markdown.render(_report())


def test_markdown_escape_prose() -> None:
    assert audit_markdown.escape("@team <b>x</b> *y*") == "@\u2060team &lt;b&gt;x&lt;/b&gt; \\*y\\*"
    assert audit_markdown.code("a `b` c") == "``a `b` c``"
    assert audit_markdown.code("`x`") == "`` `x` ``"


def test_text_what_to_act_on_first_and_colours_only_on_request() -> None:
    plain = audit_text.render(_report(), Environment(color=False))
    assert "\x1b[" not in plain
    assert plain.index("Errors (1)") < plain.index("GC107") < plain.index("Deletion candidates (1)")
    assert plain.index("GC201") < plain.index("Rules without a why (1)") < plain.index("GC100 orphan")
    assert "confidence 0.75 (q = 0.25 from k = 2" in plain
    assert "trial (removable): removing it passed 3/3 runs of `make test`" in plain
    assert "coverage: 5 instructions, 1 documented, 1 stale, 3 orphan" in plain
    assert "\x1b[1;31merror" in audit_text.render(_report(), Environment(color=True))


def test_text_long_group_ends_in_a_count_per_file() -> None:
    plain = audit_text.render(_report(80), Environment(color=False))
    group = plain[plain.index("GC100 orphan (80)") : plain.index("coverage:")]
    assert group.count("no rationale recorded") == 10  # ten in full
    assert group.count("  warning  CLAUDE.md:") == 50  # then forty one line each
    assert "… 30 more: CLAUDE.md (30)" in group


def test_markdown_message_spaces_between_spans_and_prose() -> None:
    # pipecat's finding read "`changelog/x.md`was deleted in 614b8e1a6 …; bring it back with`git checkout …`"
    out = audit_markdown.message("`a.md` was deleted in 614b8e1; bring it back with `git checkout 614b8e1^ -- a.md`")
    assert out == "`a.md` was deleted in 614b8e1; bring it back with `git checkout 614b8e1^ -- a.md`"
