"""instructions/entries.py: which instructions describe rather than instruct (GC100 leaves them out)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitcontext.instructions.entries import describes
from gitcontext.instructions.segment import segment


def _one(text: str):
    (inst,) = segment(text)
    return inst


@pytest.mark.parametrize(
    "text",
    [
        "- `config/`: Configuration management and parsing.",
        "- `crates/` — library and binary crates that make up pacquet.",
        "- **`useLinkProps()`** — returns `LinkHTMLAttributes`",
        "- `chore`: changes to build process or auxiliary tools",
        "See also: **router-core/data-loading/SKILL.md** — loaders run after `beforeLoad`.",
        "- [start-core/execution-model](../execution-model/SKILL.md) — why module-level env reads are wrong.",
        "At a minimum, per @CONTRIBUTING.md:",
        "The layout:",
        "1. **Intent alignment**: the change and the problem the PR describes.",
        # several terms before one description (huggingface/huggingface_hub, round 8 session 4)
        "- `TokenOpt`, `RepoIdArg`, `RepoTypeOpt`, `RevisionOpt` — standard auth/repo options.",
        "- `_webhooks_server.py` / `_webhooks_payload.py` — Webhook server and payload definitions.",
        "- `VolumesOpt` + `parse_volumes()` — `-v`/`--volume` flag",
        "- **`types.py`** and **`configs/types.py`** — Core type aliases and feature type definitions.",
        "- **`MCPStdioTool`** / **`MCPStreamableHTTPTool`** - Transport-specific subclasses.",
        # a lead-in that only sets a scope, however long
        "When moving `TypesImportSpec` from `@prisma-next/emitter` to `@prisma-next/contract`:",
        # a pointer and nothing more (chroma-core/chroma, strands-agents/sdk-typescript, round 8 session 5)
        "See [CLAUDE.md](./CLAUDE.md) for codebase conventions (commit message format, etc.).",
        "For human contributor guidelines, see [CONTRIBUTING.md](CONTRIBUTING.md).",
        "See [router-core/data-loading](../data-loading/SKILL.md) and `docs/ssr.md`.",
    ],
)
def test_entries_and_lead_ins_describe(text: str) -> None:
    assert describes(_one(text))


@pytest.mark.parametrize(
    "text",
    [
        "- `generated/` — never edit by hand.",
        "- `<HeadContent>` — renders head tags (must be in `<head>`)",
        "Run these before pushing:",
        "Never bypass the hook with `--no-verify`.",
        "- Use `pnpm` for every install, not npm.",
        "Assess the issue passed in the prompt and mark it with exactly one implementation-readiness state:",
        "- **Don't copy patterns from existing test code by default** — much of it predates these rules",
        "- **When review questions a decision, reconsider genuinely**: re-derive the tradeoff",
        "- **Docstrings: 1–2 sentences of behaviour, honest about provenance** — spec-mandated",
        "3. **Scope**: Does the PR include changes unrelated to the stated goal?",
        "- `a.py`, `b.py` — never import from each other.",
        "If `dist/` is missing, build the SDK packages before running package tests:",
        "If a PR adds an external feed, request that:",
        "See `docs/testing.md` before changing the API.",  # a pointer with a condition of its own
        "See [TESTING.md](TESTING.md) for how to run the tests.",
    ],
)
def test_rules_do_not_describe(text: str) -> None:
    assert not describes(_one(text))


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)


@given(term=_WORD, words=st.lists(_WORD, min_size=1, max_size=8), modal=st.sampled_from(["must", "never", "always"]))
def test_an_entry_with_a_directive_word_is_a_rule(term: str, words: list[str], modal: str) -> None:
    text = f"- `{term}/` — {' '.join(words)} {modal} {' '.join(words)}"
    assert not describes(_one(text))


@given(names=st.lists(_WORD, min_size=2, max_size=6), sep=st.sampled_from([", ", " / ", " + ", " and "]))
def test_several_terms_are_one_entry(names: list[str], sep: str) -> None:
    terms = sep.join(f"`{name}`" for name in names)
    assert describes(_one(f"- {terms} — the {names[0]} helpers"))
    assert not describes(_one(f"- {terms} — never call the {names[0]} helpers directly"))


# fresh review of ollama/ollama, expo/skills, elie222/inbox-zero and Homebrew/brew, round 8 sessions 5-6
@pytest.mark.parametrize(
    "text",
    [
        # a pointer over two lines
        "See `docs/development.md` for prerequisites, platform notes, GPU backends, and\nthe full development workflow.",
        # a purpose, then the file to follow or read
        "To measure drift in an app - hardcoded hex values, arbitrary spacing - follow `./references/audit.md`.",
        "For exact command patterns and a safe mutation flow, read `references/cli-reference.md`.",
        # a word joined by a hyphen is no directive ("Go-only" is not "only")
        "For quick Go-only iteration against an existing native payload:",
        # a lead-in handing over to the rules below it
        "Please follow these guidelines when contributing:",
        "Follow these rules when writing tests:",
    ],
)
def test_pointers_and_lead_ins_found_on_fresh_repositories(text: str) -> None:
    assert describes(_one(text))


def test_a_bold_name_before_an_imperative_is_a_rule_when_asked() -> None:
    def opens(text: str) -> bool:
        return text.split()[0] in ("Rebuild", "Limit")

    assert describes(_one("- **Type generation**: Rebuild with `yarn build` after changes"))
    assert not describes(_one("- **Type generation**: Rebuild with `yarn build` after changes"), opens)
    assert not describes(_one("- **Concurrent Uploads**: Limit concurrent uploads"), opens)
    assert describes(_one("- `limit`: Limit return count"), opens)  # what a parameter does
    assert not describes(_one("Follow the setup guide before you start:"))  # no handover: a step of its own
