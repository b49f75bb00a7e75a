"""audit/statements.py: statements of fact and the conditions under a rule's lead-in (GC100 leaves them out)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitcontext.audit.frames import frames
from gitcontext.audit.statements import condition_of_lead, states
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
    ],
)
def test_rules_are_not_statements(line: str) -> None:
    assert not _states(line)


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
