"""Which part of a change of several rules a statement explains: its own paragraph, a bare `## Why?` that
states the reason of the whole change, and a sign the rule carries inside a compound word."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.history.backfill import backfill
from gitcontext.suggest import judge
from gitcontext.suggest.derive import derive
from tests.helpers import commit

RULES = "# Rules\n\n- Run the tests before pushing.\n"
TESTIFY = (
    "## Test reliability\n\n"
    "- Never call testify assertions inside a `go func()`.\n"
    "- Never write to package-level variables in tests.\n"
    "- Never use `time.Sleep` to enforce ordering.\n"
)
TEMPLATE_TESTED = (
    "## How did you test it?\n- [ ] built\n- [x] covered by existing tests\n\n## Potential risks\nMinimal\n"
)


def _rows(repo: Path):
    config = config_mod.load(repo)
    backfill(repo, config)
    return derive(repo, config, write=False).rows


def _row(rows, fragment: str):
    [row] = [r for r in rows if fragment in r.text]
    return row.suggestion


def _code(n: int, tag: str = "x") -> dict[str, str | bytes | None]:
    return {f"src/{tag}{k}.go": f"package x // {k}\n" for k in range(n)}


def _change(store: Path, added: str, message: str, code: int = 0) -> str:
    """A first AGENTS.md, then a change that adds ADDED beside CODE other paths; its sha."""
    commit(store, {"AGENTS.md": RULES}, "Add AGENTS.md")
    return commit(store, {"AGENTS.md": RULES + added, **_code(code)}, message)


def test_align_a_bare_why_section_states_the_reason_of_each_rule_the_change_wrote(store: Path) -> None:
    """temporalio/temporal: "## Why? I have found these to be the most common patterns across the last two
    weeks of targeting flaky tests." for the rules the pull request added (and the tests it fixed); no
    statement repeats a rule's words, so every rule was an omnibus change."""
    commit(store, {"AGENTS.md": RULES}, "Add AGENTS.md")
    sha = commit(
        store,
        {"AGENTS.md": RULES + TESTIFY, **_code(3)},
        "Update review guidelines with flaky test findings (#9669)\n\n## What changed?\nAdd new review guidelines"
        " and fix instances found in the current codebase.\n\n## Why?\nI have found these to be the most common"
        f" patterns across the last two weeks of targeting flaky tests.\n\n{TEMPLATE_TESTED}",
    )
    rows = _rows(store)
    for fragment in ("testify", "package-level", "time.Sleep"):
        s = _row(rows, fragment)
        assert s.klass == "specific" and s.commit == sha and s.why.startswith("I have found these to be")
    assert _row(rows, "Run the tests").klass == "generic"


def test_align_a_why_section_of_a_large_or_a_headed_change_is_not_each_rules(store: Path) -> None:
    """The same template on a change of many rules, or of many other paths, says why of the whole feature."""
    many = "".join(f"- Keep module{k} free of globals.\n" for k in range(14))
    commit(store, {"AGENTS.md": RULES}, "Add AGENTS.md")
    commit(
        store,
        {"AGENTS.md": RULES + many, **_code(2)},
        "Document the modules (#10)\n\n## Why?\nReviewers kept missing the same bugs in every module.\n",
    )
    commit(
        store,
        {"AGENTS.md": RULES + many + TESTIFY, **_code(12, "y")},
        "Rework the scheduler (#11)\n\n## Why?\nThe scheduler deadlocked under load.\n",
    )
    rows = _rows(store)
    assert _row(rows, "module3 ").klass == "generic"
    assert _row(rows, "testify").klass == "generic"


def test_align_a_short_paragraph_that_names_the_rule_gives_its_reason(store: Path) -> None:
    """assistant-ui: "Add one evidence-backed line to AGENTS.md (delete any comment that only records its
    history) and the eval harness that justified it. On the reproduced case, that line takes the model from
    0% to ~94%." The change touched many paths (the harness), and the measurement does not repeat the rule's
    words: its paragraph does."""
    sha = _change(
        store,
        "- Delete any comment that restates the code or records its history.\n",
        "Add comment-hygiene guideline and an eval harness (#4174)\n\n"
        "Add one evidence-backed line to AGENTS.md (delete any comment that only records its history) and the"
        " eval harness that justified it. On the reproduced case, that line takes the model from 0% to ~94%.",
        14,
    )
    s = _row(_rows(store), "records its history")
    assert s.klass == "specific" and s.commit == sha and s.why.startswith("On the reproduced case")


def test_align_a_sign_the_rule_carries_in_a_compound_is_the_rule_restated() -> None:
    """sentry-react-native: the rule's "crash-attribution frame" made "(crash attribution, per-module spans)"
    in the body a failure sign."""
    rule = "This is deliberate: the crash-attribution frame is the reason the integration is default-on."
    statement = 'The docs claimed it forwards callbacks "to the instrumentation (crash attribution, spans)".'
    assert judge.reason(statement, rule).score < judge.NEEDED
    assert judge.reason(statement, "Keep the integration default-on.").score >= judge.NEEDED


NO_ALIGNMENT = {
    # getsentry/sentry-react-native: a five-sentence paragraph about the option's code named a rule's words
    # ("registered whenever `enableNative` is true") and gave it the reason of another sentence.
    "long-paragraph": (
        "- The wrapper is registered whenever `enableNative` is true, with no separate opt-in.\n",
        "Correct the tracking option docs (#6582)\n\n"
        "The option installs the native logger. Its sink has no caller outside the tester. Everything the old text"
        " promised comes from the wrapper, registered whenever `enableNative` is true. The two stacks share a name"
        " prefix and nothing else. That made the option look like the switch, so it is now internal.",
        "registered whenever",
    ),
    # getsentry/sentry-java: "**Formatting**: Enforced via Spotless" was given "The skills list restated
    # descriptions the harness already injects, so it is now a pointer.": its short paragraph named the rule's
    # words among the other things the change did; 9 of 10 such suggestions were wrong.
    "several-rules-paragraph": (
        "- **Formatting**: Enforced via Spotless.\n- **API**: `.api` files are generated.\n- Use the test skill.\n",
        "docs(agents): Remove duplicated build commands (#5971)\n\n"
        "Formatting stays enforced via Spotless. The skills list restated descriptions the harness already"
        " injects, so it is now a pointer.",
        "Spotless",
    ),
}


@pytest.mark.parametrize("rules, message, fragment", NO_ALIGNMENT.values(), ids=NO_ALIGNMENT)
def test_align_a_paragraph_that_names_the_rule_among_other_parts_is_no_alignment(
    store: Path, rules: str, message: str, fragment: str
) -> None:
    _change(store, rules, message, 14)
    assert _row(_rows(store), fragment).klass == "generic"


def test_align_a_reason_of_a_many_rule_change_goes_to_the_rule_it_is_most_about(store: Path) -> None:
    """microsoft/hve-core #1811: "Because `untrustedSources[]` is non-empty, Govern-phase autonomy is capped at
    `partial` ..." repeats words of "Prompt for autonomy at Govern entry ..." too, and was given to it; of the
    rules the change wrote, it is about the one on untrusted sources."""
    rules = (
        "- Prompt for autonomy at Govern entry and persist it to `autonomyTier` (`partial` default).\n"
        "- When `untrustedSources` is non-empty, Govern autonomy is capped at `partial`.\n"
        "- Record stakeholders by persona, not by name.\n"
        "- Scan every handoff payload before emitting it.\n"
    )
    sha = _change(
        store,
        rules,
        "feat(instructions): harden the ADR Creator against untrusted content (#1811)\n\n"
        "Because `untrustedSources` is non-empty, Govern-phase autonomy is capped at `partial`, requiring human"
        " confirmation before any durable or external emission of injected text.\n",
        14,
    )
    rows = _rows(store)
    assert _row(rows, "Prompt for autonomy").klass == "generic"
    capped = _row(rows, "is capped")
    assert capped.klass == "specific" and capped.commit == sha and capped.why.startswith("Because `untrusted")


def test_align_each_lone_marker_bullet_is_its_own_part(store: Path) -> None:
    """dotnet/msbuild #14046: GitHub wrapped each "- [link] — ..." bullet after its marker, so the two bullets
    read as one paragraph and the CLSCompliant rule was given the `IComIID` bullet's text."""
    rules = "- The generator emits `IComIID` on every target framework.\n- Do not re-add `[CLSCompliant(false)]` partials.\n"
    _change(
        store,
        rules,
        "Update CsWin32 and remove interop workarounds (#14046)\n\n**Removed workarounds:**\n\n-\n"
        "[CsWin32#1704](https://github.com/microsoft/CsWin32/issues/1704)\n— the generator now emits `IComIID` on"
        " net472.\n-\n[CsWin32#1703](https://github.com/microsoft/CsWin32/issues/1703)\n— the generator now stamps"
        " `[CLSCompliant(false)]` on COM structs, so hand-written partials collide with it.\n",
    )
    s = _row(_rows(store), "CLSCompliant")
    assert s.klass == "specific" and "1703" in s.why and "1704" not in s.why
