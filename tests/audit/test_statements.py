"""audit/statements.py: statements of fact and the conditions under a rule's lead-in (GC100 leaves them out)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitcontext.audit.frames import frames
from gitcontext.audit.statements import commands, condition_of_lead, lists_code, states, triggers
from gitcontext.instructions.segment import segment


def _framed(text: str):
    insts = segment(text, "AGENTS.md")
    return list(zip(insts, frames(insts, text), strict=True))


def _states(line: str) -> bool:
    ((inst, frame),) = _framed(line + "\n")
    return states(inst, frame)


@pytest.mark.parametrize(
    "line",
    [
        # fresh review of e2b-dev/E2B and huggingface/huggingface_hub, round 8 session 4
        "Default credentials are stored in .env.local in the repository root or inside ~/.e2b/config.json.",
        "- Stripe Projects provisions E2B sandbox/API access and returns an E2B team API key.",
        "- Local defaults can also come from `.env.local` or `~/.e2b/config.json`.",
        "The CLI package requires Node 20 or newer.",
        "This skill reads PR metadata, categorizes entries, and produces a formatted release notes document.",
        "If CI fails on type checks that pass locally, the likely cause is a newer checker.",
        # earlier sessions' labels
        "Absurd is a Postgres-native durable workflow system.",
        "- A **task** is the durable workflow instance.",
        "This guide is for AI coding agents working in the SvelteKit monorepo.",
        "- Files are auto-formatted by `pnpm run format`",
        "The bundler plugin can split automatically, or you can split manually with `.lazy.tsx` files.",
        # the subject left out; a condition before a noun subject (huggingface/chat-ui)
        "4. Calls LLM endpoint via OpenAI client",
        "When enabled, tools are exposed as OpenAI function calls.",
        # a plural subject, a pronoun, a label before the statement (round 8 session 5, dev repositories)
        "Runtime dependencies live in each member's `packages/*/pyproject.toml`.",
        "Key settings include model selection and search API choice.",
        "This creates a baseline for tracking your changes with `git diff`.",
        "**Problem:** Ruff requires exactly ONE newline at the end of every file.",
        "It integrates with Hugging Face Hub for model/dataset sharing.",
    ],
)
def test_statements_of_fact(line: str) -> None:
    assert _states(line)


@pytest.mark.parametrize(
    "line",
    [
        "Use pnpm for node and uv for python to install and update dependencies.",
        "- `match`/`case` over `if`/`elif` chains when dispatching on a value.",  # a rule with no verb
        "- **Tabs for indentation** (not spaces)",
        "- JSDoc comments for public APIs",
        "- If tasks remain `pending`, then investigate whether a worker for that queue is actually running.",
        "- When writing or reviewing tests, conform to `.claude/skills/test-quality/SKILL.md`.",
        "Wherever you do write or author content, disclose that you are an agent.",
        "- Usually testing the 1-2 main use cases is enough.",  # it judges
        "- A big multi-step test is fine when the property is irreducibly multi-step.",
        "This project prohibits AI-authored public writing and autonomous agent contributions.",
        "- Cross-domain imports: denied except framework domain",
        "- C-like flags use `bitflags!` crate instead of enums (C-BITFLAG)",
        '- "Gets the endpoint..." not "Will get the endpoint..."',  # the verbs are the example's
        "- Expose imperative methods for state changes (not `Update(tea.Msg)`).",
        "Size content to the content area, not the outer width: sizing to the full width makes it too wide.",
        "5. **Testing**: Does the PR include tests? Are they meaningful?",
        "(3) To run tests for a specific project: `dotnet test tests/Project.Tests.csproj`",
        "**Reusable option types** (from `_cli_utils.py` — import and use these, don't reinvent):",
        "Static imports are auto-generated; run `make style` to update.",
        "- Research and test grammar changes thoroughly",
        "- Help users feel confident about trying new things.",
        "- [ ] JSON examples are properly formatted and realistic",
        "- Provider wire-format encoding belongs in `PROVIDER_OPTION_RULES` under `src/providers/routing`.",
        # huggingface/trl: a noun phrase ending on a plural, judgments that make a rule
        "- Same variable names (`self._last_loaded_step`, `self._metrics[mode]`, …)",
        "Not propagating a change is a bug.",
        "A common mistake is fixing one trainer and forgetting the others.",
        "Trainers in this repository are **self-contained by design**.",
        "- You MAY skip this step if you have no feedback to provide",  # RFC 2119 (strands-agents/sdk-typescript)
        # a convention in the plural; verbs the lexicon lacked; a case and its action (round 8 session 5)
        "Cross-references in docstrings use mkdocstrings syntax, `[text][lancedb.table.Table]`.",
        "If a sync fails, it is almost certainly younger than 7 days — step down to an older release.",
        "- **Require deprecation**: Insist on deprecation warnings for public APIs",
        "- Or use code-based routing with route definitions",
        "- A CLI PR → check `https://huggingface.co/docs/huggingface_hub/main/en/guides/cli`",
    ],
)
def test_rules_are_not_statements(line: str) -> None:
    assert not _states(line)


def test_items_under_a_lead_in_that_lays_down_rules_are_rules() -> None:
    text = (
        "Rules:\n\n- Union types use `or`: `str` or `None`\n\n"
        "When the same logic appears twice, the copies must stay aligned:\n\n- Comments are word for word\n\n"
        "Notes:\n\n- The pool runs in Node.js\n\n**Do**:\n\n- Co-locate unit tests with source under `__tests__`\n"
    )
    assert [inst.line for inst, frame in _framed(text) if states(inst, frame)] == [11]


def test_items_listing_things_under_their_lead_in_are_not_rules() -> None:
    text = (
        "All settings configurable via:\n\n- Environment variables (`.env` file)\n- Web UI in LangGraph Studio\n\n"
        "1. **Research each model**\n   For each model, search the web for its specifications:\n\n"
        "   - Model architecture (dense, MoE)\n\n"
        "Changes need coordinated updates:\n\n- `.github/` and `.cloudbuild/` (must stay in sync)\n"
        "- Dynamic segments use `$param` not `[param]`\n- Check the rendered docs\n\n"
        "**Formatting** (enforced by Prettier):\n\n- Single quotes\n\n"
        "When moving a package:\n\n- One commit per package\n\nKey points:\n\n- One section per highlight\n\n"
        "## Do NOT edit these (release-owned)\n\n- **Cross-package pins**. These are rewritten by the release script.\n"
    )
    listed = [inst.line for inst, frame in _framed(text) if inst.kind == "item" and states(inst, frame)]
    assert listed == [3, 4, 9]  # not the rules, the contrast, the command, nor the items of a rules lead-in


@pytest.mark.parametrize(
    "line",
    [
        "- `.github/aw/safe-outputs-management.md`",
        "- Summary report: `benchmarking/compare/.results/report.txt`",
        "- Useful statuses: `pending`, `running`, `sleeping`, `completed`.",
        "- [Sentry Code Review Guidelines](https://develop.sentry.dev/engineering-practices/code-review/)",
        "- Docs: <https://docs.agno.com>",
        "- Test files: `js.rs`, `ts.rs`, `sourcemap.rs`",
        "- Output: `tests/snapshots/*.snap`",
    ],
)
def test_lines_of_code_spans_or_links(line: str) -> None:
    ((inst, _),) = _framed(line + "\n")
    assert lists_code(inst)


@pytest.mark.parametrize(
    "line",
    [
        "- Run: `make test`",
        "- Run tests: `npm test -w @google/gemini-cli-core`",
        "- Inspect dataset: `from datasets import load_dataset; ds = load_dataset(name)`",
        "- Defaults are written as: `defaults to <value>`",
        "- Types appear in backticks inside parentheses: (`str`)",
        "- Branch naming for issue fixes: `fix-<issue-number>`",
        "- Title format: `# Aspire.Hosting.{Technology} library`",
        "- Import directly from the specific module: `import { sql } from '@prisma/sql/builder'`",
        "- Prefer explicit imports: `import { connect } from '@prisma/runtime/connection'`",
    ],
)
def test_a_label_that_directs_or_states_makes_its_code_a_rule(line: str) -> None:
    ((inst, _),) = _framed(line + "\n")
    assert not lists_code(inst)


def test_items_under_a_lead_in_that_ends_on_its_condition_are_its_branches() -> None:
    text = (
        "A PR should be highlighted if:\n\n- it has the `highlight` label, **or**\n- it adds a command.\n\n"
        "Run these checks:\n\n- it has the `highlight` label\n\n**When**:\n\n- the hook fires\n"
    )
    branches = [inst.line for inst, frame in _framed(text) if condition_of_lead(inst, frame)]
    assert branches == [3, 4]  # not the items of "Run these checks:", nor of a one-word label


_NONSENSE = st.text(alphabet="qxz", min_size=2, max_size=6)  # never a verb, a modal or a judging word


@given(a=_NONSENSE, b=_NONSENSE, aux=st.sampled_from(["is", "are", "can be", "will be", "has"]))
def test_a_directive_makes_a_statement_a_rule(a: str, b: str, aux: str) -> None:
    assert _states(f"The {a} {aux} {b}.")
    assert not _states(f"Always check that the {a} {aux} {b}.")
    assert not _states(f"The {a} {aux} {b}; never edit it by hand.")
    assert not _states(f"The {a} should be {b}.")


# fresh review of elie222/inbox-zero, TencentCloudBase/CloudBase-AI-ToolKit, napi-rs/napi-rs, ollama/ollama and
# expo/skills, round 8 session 6: each line here was a GC100 finding before the class was fixed
@pytest.mark.parametrize(
    "line",
    [
        # a command in code, then the verb of a sentence about it
        "`diff screenshot` produces a diff image with changed pixels highlighted in red.",
        "`diff snapshot` output uses `+` for additions and `-` for removals.",
        # a plural subject, a preposition phrase, then a verb that states
        "- JSDoc comments (`///`) in Rust become TypeScript documentation",
        # a condition, then a named subject, an adverb and its verb
        "When a Mini Program user calls a cloud function, WeChat automatically injects the user's identity.",
        # a label that names a kind of thing, though a verb opens it, before a body with no verb
        "- Build output: `.node` files in project root",
        "- **Read operations**: `queryCloudRun` (list, detail, templates)",
        # the name of a stage, in title case
        "- Aesthetic Direction Determination",
    ],
)
def test_statements_found_on_fresh_repositories(line: str) -> None:
    assert _states(line)


@pytest.mark.parametrize(
    "line",
    [
        "`uv run pytest` to run the tests.",
        "`make lint` before pushing.",
        "- Pull requests in `src/` require a changelog entry",
        "If the build fails, then rerun it with `--verbose`.",
        "- **Test snapshots**: Update with `-u` flag when output changes intentionally",
        "- Update snapshots if needed: `yarn test -u`",
        "- Use TypeScript strict mode",
        "- No Default Exports",
    ],
)
def test_rules_like_those_statements_stay_rules(line: str) -> None:
    assert not _states(line)


def test_a_command_label_in_a_step_is_a_rule() -> None:
    for line in ("2. Build: `yarn workspace @examples/napi build`", "3. Test: `yarn test`", "- Lint: `pnpm lint`"):
        ((inst, _),) = _framed(line + "\n")
        assert not lists_code(inst), line
    ((inst, _),) = _framed("- Create directory: `mkdir -p build/out`\n")
    assert not lists_code(inst)  # a verb that names no kind of thing commands ("Create directory")
    ((inst, _),) = _framed("- Test files: `js.rs`, `ts.rs`\n")
    assert lists_code(inst)


def test_commands_opens_with_a_verb_and_its_object_not_a_name() -> None:
    assert commands("Rebuild with `yarn build` after changes")
    assert commands("Limit concurrent uploads to prevent browser overload")
    assert not commands("Build utilities")
    assert not commands("Test snapshots of the output")
    assert not commands("`rules/auth.md` - Configure providers")


def test_a_skills_trigger_is_not_a_rule_but_what_it_forbids_is() -> None:
    text = (
        "## When to use this skill\n\nUse this skill for **CloudBase platform knowledge** when you need to:\n\n"
        "- Deploy and manage cloud functions\n- Understand database permissions\n\n"
        "Use this skill whenever you call raw HTTP APIs, for example:\n\n"
        "- Any scenario where SDKs are not available or not preferred\n\n"
        "**Do NOT use this skill for:**\n\n- Auth flows (use the Web/Node/Auth skills instead)\n\n"
        "## Steps\n\n- Deploy and manage cloud functions with `tcb fn deploy`\n"
    )
    found = [inst.line for inst, frame in _framed(text) if triggers(inst, frame)]
    assert found == [3, 5, 6, 8, 10]


def test_a_condition_at_the_end_of_an_only_lead_in_makes_its_items_branches() -> None:
    text = (
        "You need `eas build` ONLY when using:\n\n- **Local Expo modules** (custom native code)\n\n"
        "Check the following when reviewing:\n\n- the tests pass\n"
    )
    branches = [inst.line for inst, frame in _framed(text) if condition_of_lead(inst, frame)]
    assert branches == [3]


# fresh review of PowerShell/PowerShell, getsentry/skills, alibaba/higress and callstackincubator/agent-skills
# (held out from the first fixes of round 8 session 6, then the development set of the second)
@pytest.mark.parametrize(
    "line",
    [
        "In the GitHub Actions UI, this renders as collapsible sections with the specified title.",
        '- Bad: "This significantly reduced our error processing time."',
        'Based on "The Ultimate Guide to React Native Optimization" by Callstack.',
        "**Cause:** Higress does not support snippet annotations (by design, for security)",
        "**Symptoms:** Path not being rewritten, backend receives original path",
    ],
)
def test_settings_examples_credits_and_reports_state(line: str) -> None:
    assert _states(line)


@pytest.mark.parametrize(
    "line",
    [
        "Based on what they've selected, ask if anything is missing.",
        "- Bad: never log secrets",
        "In tests, use `pytest -x`.",
        "**Cause:** a stale cache; you must clear it first",
    ],
)
def test_rules_that_open_like_them_stay_rules(line: str) -> None:
    assert not _states(line)


def test_items_a_pointer_or_a_tool_lists_are_not_the_agents_steps() -> None:
    text = (
        "See [references/advanced-patterns.md](references/advanced-patterns.md) for:\n\n- Streaming body processing\n"
        "- Configure the gateway\n\nThe test script will:\n\n- Test each route against the gateway\n\n"
        "In this step you will:\n\n- Test each route\n- Never skip the dry run\n"
    )
    found = [inst.line for inst, frame in _framed(text) if inst.kind == "item" and states(inst, frame)]
    assert found == [3, 4, 8]
