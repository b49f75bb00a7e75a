"""suggest on real git histories of each shape: squash, merge commit, omnibus, rewording, pasted failure,
moves, bots, rebased; and what it never does (write a generic one, suggest for a documented rule)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.history.backfill import backfill
from gitcontext.provenance import suggestions
from gitcontext.suggest.derive import derive
from tests.helpers import commit, git

RULES = "# Rules\n\n- Run the tests before pushing.\n"
CODEGEN = "- Run `make codegen` before the tests.\n"


def _run(repo: Path, **kw):
    config = config_mod.load(repo)
    backfill(repo, config)
    return derive(repo, config, **kw)


def _row(result, fragment: str):
    [row] = [r for r in result.rows if fragment in r.text]
    return row


def _pending(repo: Path) -> dict:
    states = suggestions.states(suggestions.read(repo))
    return {id: suggestions.pending(state) for id, state in states.items()}


def test_derive_squash_subject_and_body_bullets(store: Path) -> None:
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    sha = commit(
        store,
        {"CLAUDE.md": RULES + CODEGEN},
        "Run codegen before tests (#4412)\n\n"
        "* The agent kept committing stale generated clients and CI failed on the schema check\n"
        "* Fixes #4398\n",
    )
    result = _run(store)
    row = _row(result, "codegen")
    s = row.suggestion
    assert s.klass == "specific" and s.commit == sha and s.origin == "commit" and s.change == "born"
    assert s.why.startswith("The agent kept committing stale generated clients")
    assert s.refs == ("#4412", "#4398") and "(#4412, #4398)" in s.why
    assert s.quoted == ("* The agent kept committing stale generated clients and CI failed on the schema check",)
    assert _row(result, "Run the tests").suggestion.klass == "generic"  # "Add CLAUDE.md" says no why
    [event] = result.events
    assert event["source"] == f"backfill:{sha}" and event["id"] == row.id and event["class"] == "specific"
    assert _pending(store)[row.id]["eid"] == event["eid"]


def test_derive_merge_commit_gives_the_pull_requests_title(store: Path) -> None:
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    git(store, "checkout", "-q", "-b", "ana/codegen")
    side = commit(store, {"CLAUDE.md": RULES + CODEGEN}, "Add a rule")
    git(store, "checkout", "-q", "main")
    commit(store, {"app.py": "x = 1\n"}, "Unrelated work on main")
    git(store, "merge", "-q", "--no-ff", "ana/codegen", "-m",
        "Merge pull request #7 from ana/codegen\n\nRun codegen first: stale clients broke CI twice")  # fmt: skip
    merge = git(store, "rev-parse", "HEAD").strip()
    s = _row(_run(store), "codegen").suggestion
    assert s.klass == "specific" and s.origin == "merge" and s.commit == merge != side
    assert s.why == "Run codegen first: stale clients broke CI twice (#7)" and s.refs == ("#7",)


def test_derive_a_birth_inside_an_omnibus_commit_is_generic(store: Path) -> None:
    code = {f"src/mod{n}.py": f"x = {n}\n" for n in range(25)}
    rules = "".join(f"- Rule number {n} keeps module {n} tidy.\n" for n in range(8))
    commit(store, {"CLAUDE.md": rules + CODEGEN, **code}, "Big refactor: fix flaky tests, speed up CI by 40%")
    result = _run(store)
    assert {r.suggestion.klass for r in result.rows} == {"generic"}
    assert _row(result, "codegen").suggestion.generic == "omnibus change"
    assert result.events == [] and not (store / suggestions.LOG).exists()


def test_derive_a_rewording_commit_that_explains_the_change(store: Path) -> None:
    commit(store, {"CLAUDE.md": RULES + CODEGEN}, "Add rules")
    sha = commit(
        store,
        {"CLAUDE.md": RULES + "- Run `make codegen` before the tests and before every commit.\n"},
        "Tighten the codegen rule\n\nThe agent ran codegen after committing, so the pushed clients were stale again.",
    )
    s = _row(_run(store), "codegen").suggestion
    assert s.klass == "specific" and s.change == "reworded" and s.commit == sha
    assert s.why == "The agent ran codegen after committing, so the pushed clients were stale again."


def test_derive_a_pasted_ci_failure_becomes_the_failure_redacted(store: Path) -> None:
    token = "ghp_" + "B" * 36
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    commit(
        store,
        {"CLAUDE.md": RULES + CODEGEN},
        "Tell the agent to run codegen\n\nCI failed on the last three pushes:\n\n"
        "```\n"
        "Traceback (most recent call last):\n"
        '  File "tests/test_client.py", line 12, in test_schema\n'
        f"RuntimeError: schema mismatch, token {token}\n"
        "FAILED tests/test_client.py::test_schema - RuntimeError\n"
        "```\n",
    )
    result = _run(store)
    s = _row(result, "codegen").suggestion
    assert s.klass == "specific" and s.why == "CI failed on the last three pushes:"
    assert s.failure.splitlines()[1] == "FAILED tests/test_client.py::test_schema - RuntimeError"
    [event] = result.events
    assert token not in str(event) and "[REDACTED:" in event["failure"]
    assert event["failure"].startswith("RuntimeError: schema mismatch, token [REDACTED:")


def test_derive_a_rule_moved_to_a_sibling_file_keeps_its_suggestion(store: Path) -> None:
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    commit(store, {"CLAUDE.md": RULES + CODEGEN}, "Run codegen first\n\nStale clients broke the deploy twice.")
    first = _run(store)
    id = _row(first, "codegen").id
    commit(store, {"CLAUDE.md": RULES, "AGENTS.md": "# Agents\n\n" + CODEGEN}, "Move the codegen rule to AGENTS.md")
    again = _run(store)
    row = _row(again, "codegen")
    assert row.id == id and row.file == "AGENTS.md"
    assert again.events == [] and again.counts["known"] == 1  # the same suggestion, already in the log
    assert _pending(store)[id]["why"] == "Stale clients broke the deploy twice."


def test_derive_bots_and_agents_as_authors(store: Path) -> None:
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    env = {**os.environ, "GIT_AUTHOR_NAME": "github-actions[bot]", "GIT_AUTHOR_EMAIL": "bot@users.noreply.github.com"}
    (store / "CLAUDE.md").write_text(RULES + CODEGEN)
    git(store, "add", "CLAUDE.md")
    message = (
        "docs: document the codegen step (#88)\n\n"
        "The agent kept pushing stale generated clients; the schema check failed on three PRs.\n\n"
        "🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\n"
        "Co-authored-by: Claude <noreply@anthropic.com>\n"
    )
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", message], cwd=store, env=env, check=True)
    s = _row(_run(store), "codegen").suggestion
    assert s.klass == "specific" and "stale generated clients" in s.why and s.refs == ("#88",)


def test_derive_rebased_history_each_commit_its_own_reason(store: Path) -> None:
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    text = RULES
    for n, (rule, why) in enumerate(
        [
            ("Pin the node version in CI.", "Builds broke when node 22 shipped."),
            ("Never edit generated files by hand.", "Hand edits were overwritten by the next codegen run."),
        ]  # fmt: skip
    ):
        text += f"- {rule}\n"
        commit(store, {"CLAUDE.md": text}, f"Add rule {n}\n\n{why}")
    result = _run(store)
    assert _row(result, "node version").suggestion.why == "Builds broke when node 22 shipped."
    assert _row(result, "generated files").suggestion.why.startswith("Hand edits were overwritten")


def test_derive_documented_rules_are_not_suggested_and_runs_are_idempotent(store: Path) -> None:
    from gitcontext.provenance.record import record
    from gitcontext.provenance.sync import sync

    commit(store, {"CLAUDE.md": RULES + CODEGEN}, "Add rules\n\nStale clients broke CI, so run codegen first.")
    commit(
        store,
        {"CLAUDE.md": RULES + CODEGEN + "- Keep PRs small.\n"},
        "Keep PRs small\n\nBig PRs hid a regression for a week.\n\nContext-Why: big PRs hid a regression",
    )
    config = config_mod.load(store)
    sync(store, config)  # the trailer's why (a commit made without the hooks: no Context-Id)
    backfill(store, config)
    record(store, config, "Run the tests before", why="pushes broke main")
    first = derive(store, config)
    assert [r.text for r in first.rows] == ["Run `make codegen` before the tests."]  # the other two have a why
    assert first.counts["documented"] == 2 and len(first.events) == 1
    again = derive(store, config)
    assert again.events == [] and again.counts["known"] == 1
    assert len(suggestions.read(store)) == 1


def test_derive_dry_run_paths_and_since(store: Path) -> None:
    old = commit(store, {"CLAUDE.md": RULES + CODEGEN}, "Add rules\n\nStale clients broke CI twice.")
    commit(store, {"docs/AGENTS.md": "- Pin node in CI.\n"}, "Pin node\n\nThe build broke when node 22 shipped.")
    config = config_mod.load(store)
    backfill(store, config)
    assert {r.file for r in derive(store, config, paths=["docs"], write=False).rows} == {"docs/AGENTS.md"}
    assert {r.file for r in derive(store, config, since=old, write=False).rows} == {"docs/AGENTS.md"}
    assert not (store / suggestions.LOG).exists()
    with pytest.raises(Exception, match="--since"):
        derive(store, config, since="no-such-rev", write=False)


def test_derive_a_commit_that_fixes_the_context_file_is_no_source(store: Path) -> None:
    """nushell/nushell#18721: a rewording whose subject fixes links in AGENTS.md explains the text's
    change (the links 404ed), not why the rule exists; the older rewording's reason stands."""
    commit(store, {"AGENTS.md": RULES + "- See [style.md](style.md).\n"}, "Add rules")
    explained = commit(
        store,
        {"AGENTS.md": RULES + "- See [style.md](style.md) before writing Rust.\n"},
        "Point agents at the style guide\n\nThe agent kept writing unidiomatic Rust because it never read the guide.",
    )
    commit(
        store,
        {"AGENTS.md": RULES + "- See [style.md](devdocs/style.md) before writing Rust.\n"},
        "docs: fix devdocs links in AGENTS.md (#18721)\n\nThe links pointed at the root, but style.md lives in"
        " devdocs/, so the links 404 on GitHub.",
    )
    s = _row(_run(store), "style.md").suggestion
    assert s.klass == "specific" and s.change == "reworded" and s.commit == explained
    assert "never read the guide" in s.why and "404" not in s.why


def test_derive_a_context_file_fix_alone_gives_no_suggestion(store: Path) -> None:
    commit(store, {"AGENTS.md": RULES + "- See [faq](faq.md) first.\n"}, "Add rules")
    commit(
        store,
        {"AGENTS.md": RULES + "- See [faq](devdocs/faq.md) first.\n"},
        "Fix broken links in AGENTS.md\n\nfaq.md lives in devdocs/, so the link was broken and 404ed.",
    )
    assert _row(_run(store), "faq").suggestion.klass == "generic"


def test_derive_a_sentence_that_leans_on_the_one_before_is_read_with_it(store: Path) -> None:
    """getsentry/sentry-cli#2717: "This typically occurs with generics, ..." alone is no reason."""
    commit(
        store,
        {"AGENTS.md": RULES + "- Omit type annotations the compiler can infer.\n"},
        "Add rule to avoid explicit type annotations\n\nI have noticed that the agent often adds type annotations"
        " even when they are not needed. This typically occurs with generics, which sadly cannot be linted,"
        " so I added a rule to prevent this behavior.",
    )
    s = _row(_run(store), "annotations").suggestion
    assert s.klass == "specific"
    assert s.why.startswith("I have noticed that the agent often adds type annotations")
    assert "This typically occurs with generics" in s.why


def test_derive_a_fix_subject_that_touches_code_is_still_a_source(store: Path) -> None:
    """Only a change of context files alone is a fix of the file: "Fix flaky docs build" that edits CI
    and adds its lesson to AGENTS.md keeps its reason."""
    commit(
        store,
        {"AGENTS.md": RULES + "- Pin `sphinx` in the docs build.\n", "ci.yml": "docs: sphinx==7.2\n"},
        "Fix flaky docs build\n\nThe docs build broke twice because an unpinned sphinx release changed the theme.",
    )
    s = _row(_run(store), "sphinx").suggestion
    assert s.klass == "specific" and "unpinned sphinx" in s.why


def test_derive_a_birth_that_describes_the_section_is_generic_with_its_commit(store: Path) -> None:
    """cloudflare/workerd: "Add guidance on how to ... handle errors across the FFI boundary" describes the
    section the commit writes; its "errors" is the subject of the guidance, not a reason for the rule."""
    sha = commit(
        store,
        {"AGENTS.md": RULES + "- Mark an extern function `async` to wrap a `kj::Promise`.\n"},
        "Document async FFI patterns\n\nAdd guidance on how to declare async functions in bridge blocks (explicit"
        " lifetime required), and how to handle errors across the FFI boundary (std::io::Error or KjError).",
    )
    s = _row(_run(store), "async").suggestion
    assert s.klass == "generic" and s.generic == "no reason stated"
    assert s.commit == sha and s.subject == "Document async FFI patterns" and s.why == ""


def test_derive_a_description_with_its_reason_in_an_aside_is_specific(store: Path) -> None:
    """gitbutler: "Update the legend (sha refs go stale, ...)" keeps the reason its parenthesis gives."""
    commit(store, {"AGENTS.md": RULES}, "Add rules")
    sha = commit(
        store,
        {"AGENTS.md": RULES + "- Take fresh refs only when a ref is sha-based.\n"},
        "Update the skill for stable refs\n\nUpdate the ID legend and stability guidance (sha refs go stale,"
        " and can silently resolve to the wrong commit).",
    )
    s = _row(_run(store), "fresh refs").suggestion
    assert s.klass == "specific" and s.commit == sha and "go stale" in s.why


def test_derive_a_pointer_rule_is_generic_whatever_its_commit_says(store: Path) -> None:
    """workerd, nushell: "See `node-exceptions/lib.rs`." took the why of the change to lib.rs itself."""
    commit(
        store,
        {"AGENTS.md": RULES + "- See `node-exceptions/lib.rs`.\n", "node-exceptions/lib.rs": "fn f() {}\n"},
        "Add node exceptions\n\nThe node-exceptions FFI threw on non-UTF-8 paths, because lib.rs validated them.",
    )
    s = _row(_run(store), "node-exceptions").suggestion
    assert s.klass == "generic" and s.generic == "a pointer"


PRIORITY_RULES = (
    "- Give every issue a Priority on its board card.\n"
    "- Board 11 has no Priority field; the rubric applies to v2 only.\n"
    "- Put new issues in Incoming.\n"
    "- Record the triage score as a comment.\n"
)


def test_derive_an_omnibus_paragraph_is_the_why_of_its_own_part_only(store: Path) -> None:
    """modelcontextprotocol/inspector: a squash whose first paragraph explains the unused Priority field gave
    that why to "board 11 has no Priority field" too, a rule another paragraph wrote without a reason."""
    sha = commit(
        store,
        {"AGENTS.md": RULES + PRIORITY_RULES},
        "docs: adopt the Priority field and document the triage rubric (#1892)\n\n"
        "* docs: adopt the Priority field (#1891)\n\n"
        "The board Priority field existed but was unused (0 of 264 cards), so nobody set a priority.\n\n"
        "Adds a V1 board section, and notes that board 11 has no Priority field: the rubric applies to v2 only.",
    )
    result = _run(store)
    every = _row(result, "every issue").suggestion
    assert (
        every.klass == "specific" and every.commit == sha and every.why.startswith("The board Priority field existed")
    )
    assert _row(result, "Board 11").suggestion.klass == "generic"


def test_derive_a_why_that_restates_the_rule_is_none(store: Path) -> None:
    """inspector: "The CLI has no template form ..., so nothing here runs for it" beside the rule that says
    just that; the rule explains itself, history adds nothing."""
    rule = "- The CLI is not a consumer: it has no template form, and its read passes the expanded uri through.\n"
    body = "The CLI has no template form and its read passes the expanded uri through, so nothing runs."
    commit(store, {"AGENTS.md": RULES + rule}, f"docs: the CLI has no template form\n\n{body}")
    assert _row(_run(store), "CLI").suggestion.klass == "generic"


def test_derive_a_full_procedure_pointer_is_generic(store: Path) -> None:
    rule = "- Full procedure in the [release guide](docs/release.md).\n"
    commit(store, {"AGENTS.md": RULES + rule}, "docs: point at the guide\n\nThe old steps broke the release twice.")
    assert _row(_run(store), "Full procedure").suggestion.generic == "a pointer"


SKILL = "".join(f"- Launch fresh verifier agent {n} on the proof before grading it.\n" for n in range(10))


def test_derive_a_rule_born_with_its_whole_file_is_generic_until_reworded(store: Path) -> None:
    """anthropics/claude-plugins-official: a commit adding a whole skill says why the skill exists ("self-verified
    85.7% becomes <5% under human grading"); it gave that to every step of the skill."""
    commit(
        store,
        {"skills/verify/SKILL.md": "# Verify\n\n" + SKILL},
        "Add the verify skill\n\nSelf-verified proofs scored 85.7% but fell to 5% under human grading, because"
        " one agent graded its own proof; fresh verifier agents catch the failures.",
    )
    result = _run(store)
    assert {r.suggestion.klass for r in result.rows if "verifier" in r.text} == {"generic"}
    assert _row(result, "agent 3 ").suggestion.generic == "omnibus change"
    reworded = SKILL.replace("agent 3 on the proof", "agent 3 on the proof and its lemmas")
    sha = commit(
        store,
        {"skills/verify/SKILL.md": "# Verify\n\n" + reworded},
        "Verify lemmas too\n\nA wrong lemma passed twice because agent 3 only read the final proof.",
    )
    s = _row(_run(store), "lemmas").suggestion
    assert s.klass == "specific" and s.change == "reworded" and s.commit == sha


def test_derive_a_small_new_file_keeps_its_reason(store: Path) -> None:
    sha = commit(
        store,
        {"apps/lite/AGENTS.md": "# Lite\n\n- Always run the specified commands exactly as written.\n"},
        "Add lite AGENTS.md\n\nWithout this, the agent would sometimes run the wrong command.",
    )
    s = _row(_run(store), "exactly as written").suggestion
    assert s.klass == "specific" and s.commit == sha


def test_derive_the_opening_paragraph_of_a_headed_body_is_the_why_of_each_part(store: Path) -> None:
    """microsoft/typespec: the body opens with the failures ("Copilot was producing incorrect changelog kinds
    ...") and then lists the changes under headings; the change bullet nearest a rule says no why."""
    rules = (
        "- Do not use `feat` or `docs` as a change kind.\n- Write one changelog entry per package.\n"
        "- Name hotfix branches `publish/<package>`.\n- Use the v2 tester in tests.\n"
    )
    sha = commit(
        store,
        {"AGENTS.md": RULES + rules},
        "Fix the changelog instructions (#10161)\n\n"
        "The agent was producing incorrect changelog kinds (`feat` instead of `feature`) and used wrong branch"
        " names for hotfix flows.\n\n### Change kinds\n\n- Call out that `feat` and `docs` are not valid change kinds\n"
        "- Require one changelog entry per package\n\n### Branches\n\n- Document `publish/<package>` hotfix branches\n",
    )
    s = _row(_run(store), "change kind").suggestion
    assert s.klass == "specific" and s.commit == sha and s.why.startswith("The agent was producing incorrect")


NO_REASON = {
    # facebook/pyrefly 25ee7fb47c: the rule took its why from the `**This Stack**` bullet every diff of the
    # series repeats; this diff's own text gives none.
    "stack-preamble": (
        "",
        "- You must also run Pyrefly itself against your port file.\n",
        "Make the porting skill say how to check a port\n\nSummary:\n**This Stack**\n\nThe skill assumes\n"
        "- all models we would annotate are ported into Pyrefly (this is obviously untrue of any adopter,"
        " so we need to separate that out)\n\n**This Diff**\n\nThe skill now names the check to run on a port.\n",
        "port file",
    ),
    # facebook/pyrefly 2046e72516: "Summary: AGENTS.md contained two instances of an incorrect command ..." says
    # why the context file's text changed, not why formatting runs before every commit.
    "summary-about-the-file": (
        "- Always run `./test.py --no-test` before committing.\n",
        "- Always run `./test.py --no-test --no-jsonschema` before committing.\n",
        "Add --no-jsonschema in a second place in AGENTS.md\n\nSummary: AGENTS.md contained two instances of an"
        " incorrect command to run linting and formatting only (missing `--no-jsonschema`).\n\n"
        "Differential Revision: D1\n",
        "test.py",
    ),
    # dotnet/msbuild #13853: "error-" / "handling-parity guidance" wrapped at the hyphen read "error" as a failure.
    "compound-wrapped-at-its-hyphen": (
        "",
        "- Pair the interop skill with the COM skill.\n",
        "Reorganize the COM skills\n\nSkills\n- SKILL.md adds a pair-pointer and error-\n  handling-parity guidance\n",
        "interop skill",
    ),
    # microsoft/hve-core #1335: a table wrapped by GitHub leaves rows without their leading pipe.
    "table-row-without-its-pipe": (
        "",
        "- Mark experimental agents as pre-release.\n",
        "Document the agent catalog\n\n| Agent | Status | Builds |\n| --- | --- | --- |\n| `a.agent.md` | ⚠️\n"
        "experimental, broken on stable channels | Pre-release only |\n",
        "experimental agents",
    ),
    # microsoft/hve-core #2611: "contract regression tests" names tests, not a regression.
    "regression-tests": (
        "",
        "- Keep contract tests beside the validator.\n",
        "Add the Design Intent Record validator\n\nThe skill gains a validator with contract regression tests.\n",
        "contract tests",
    ),
    # dotnet/msbuild #13326: a change list's entry opens with its label, then the verb of the change.
    "labelled-change-entry": (
        "",
        "- List the upstream PRs of each codeflow PR.\n",
        "Extend the health check\n\n- **Correlation**: Adds a matcher that maps each failed build to upstream"
        " PRs by their title keywords.\n",
        "upstream PRs",
    ),
    # facebook/openzl #403: "Fix the problem by passing ..." says how the change fixed it, not what went wrong.
    "fix-the-problem-by": (
        "",
        "- Pass the `GraphID` to `generateInputs()` when the inputs depend on the graph.\n",
        "Let generateInputs specialize by graph (#403)\n\nFix the problem by passing in the `GraphID` to the"
        " `generateInputs()` method, so the method can specialize the inputs to the particular graph it tests.\n",
        "GraphID",
    ),
}


@pytest.mark.parametrize("before, rule, message, fragment", NO_REASON.values(), ids=NO_REASON)
def test_derive_a_text_that_states_no_reason_for_the_rule_is_generic(
    store: Path, before: str, rule: str, message: str, fragment: str
) -> None:
    commit(store, {"AGENTS.md": RULES + before}, "Add rules")
    commit(store, {"AGENTS.md": RULES + rule}, message)
    assert _row(_run(store), fragment).suggestion.klass == "generic"


def test_derive_the_one_rule_of_a_wide_fix_takes_the_failure_its_subject_names(store: Path) -> None:
    """mui/base-ui#5543: "[test] Stabilize flaky browser tests" touched 17 test files and wrote one rule, the
    lesson of that fix; its subject is the rule's why. A subject describing the change stays generic."""
    tests = {f"test/t{n}.test.tsx": f"test({n})\n" for n in range(12)}
    commit(store, {"AGENTS.md": RULES}, "Add rules")
    commit(
        store,
        {"AGENTS.md": RULES + "- Use `firePointer` instead of `fireEvent.pointer*` in timing tests.\n", **tests},
        "[test] Stabilize flaky browser tests (#5543)",
    )
    s = _row(_run(store), "firePointer").suggestion
    assert s.klass == "specific" and s.why == "Stabilize flaky browser tests (#5543)"
    more = {f"src/n{n}.ts": f"n({n})\n" for n in range(12)}
    commit(
        store,
        {
            "AGENTS.md": RULES + "- Use `firePointer` instead of `fireEvent.pointer*` in timing tests.\n"
            "- Browser smokes should preserve Markdown.\n",
            **more,
        },
        "chore: clarify notifier error and remind about markdown",
    )
    assert _row(_run(store), "Markdown").suggestion.klass == "generic"


def test_derive_a_failure_subject_of_a_wide_change_of_several_rules_is_no_why(store: Path) -> None:
    tests = {f"test/t{n}.test.tsx": f"test({n})\n" for n in range(12)}
    commit(store, {"AGENTS.md": RULES}, "Add rules")
    commit(
        store,
        {"AGENTS.md": RULES + "- Use `firePointer` in timing tests.\n- Keep snapshots small.\n", **tests},
        "[test] Stabilize flaky browser tests (#5543)",
    )
    assert _row(_run(store), "firePointer").suggestion.klass == "generic"
