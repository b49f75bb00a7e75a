"""GC200's judgements that stand alone: a generated file's hash stamp, a published package file, and two
lines alike only in their example lists (the golden folders under tests/cases/audit/GC200 run the check)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from gitcontext import config as config_mod
from gitcontext.audit.alike import generated
from gitcontext.audit.checks.gc200_duplicate import published
from gitcontext.audit.context import AuditContext
from gitcontext.audit.similarity import _alike_in_asides, _opening_and_detail, _other_code, _other_numbers, trigger
from gitcontext.instructions.model import Instruction, normalize

HASH = "a79b3f50bbc54be2f21c3fd4a20f1683c4c51b0713844e2efc1d4b40a7e70c5d"


def test_a_hash_stamp_at_the_end_marks_a_generated_guide() -> None:
    body = "# Guide\n\n" + "- Return the right status code.\n" * 60
    assert generated(body + f"\n<!-- prompt_hash: {HASH} -->\n")
    assert generated(f"<!-- checksum: {HASH[:32]} -->\n" + body)
    assert not generated(body)
    assert not generated(body + "\n<!-- the hash of the build is printed by `make hash` -->\n")


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_text_without_a_stamp_comment_is_not_marked_by_the_stamp(text: str) -> None:
    if "<!--" not in text and "generated" not in text.casefold() and "do not edit" not in text.casefold():
        assert not generated("# Guide\n\n" + text)


def _repo(tmp_path: Path, files: dict[str, str]) -> AuditContext:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    return AuditContext(tmp_path, config_mod.load(tmp_path))


def test_a_package_file_its_manifest_publishes_is_published(tmp_path: Path) -> None:
    ctx = _repo(
        tmp_path,
        {
            "AGENTS.md": "# Root\n",
            "pkg/AGENTS.md": "# Pkg\n",
            "pkg/package.json": '{"name": "pkg", "files": ["dist", "./AGENTS.md"]}',
            "glob/AGENTS.md": "# Glob\n",
            "glob/package.json": '{"name": "glob", "files": ["*.md"]}',
            "private/AGENTS.md": "# Private\n",
            "private/package.json": '{"name": "p", "private": true, "files": ["AGENTS.md"]}',
            "unlisted/AGENTS.md": "# Unlisted\n",
            "unlisted/package.json": '{"name": "u", "files": ["dist"]}',
            "broken/AGENTS.md": "# Broken\n",
            "broken/package.json": '{"files": [',
        },
    )
    assert published(ctx, "pkg/AGENTS.md") and published(ctx, "glob/AGENTS.md")
    for file in ("AGENTS.md", "private/AGENTS.md", "unlisted/AGENTS.md", "broken/AGENTS.md", "none/AGENTS.md"):
        assert not published(ctx, file)


def test_lines_alike_only_in_their_example_lists() -> None:
    runtime = "**Runtime**: Browser only (uses browser APIs like fetch, WebSocket, EventSource)"
    assert _alike_in_asides("Mock fetch and WebSocket APIs", runtime)
    assert _alike_in_asides("Mock browser APIs where needed (fetch, WebSocket, EventSource)", runtime)
    # an aside that forbids or qualifies is part of the rule
    assert not _alike_in_asides("Use pnpm (never npm or yarn)", "Always use pnpm, never npm or yarn")
    assert not _alike_in_asides(
        "Override `isolatedModules: false` (existing code doesn't use `export type`)",
        "The `isolatedModules: false` override avoids requiring `export type` for type re-exports",
    )
    assert not _alike_in_asides("Mock fetch and WebSocket APIs", "Mock fetch and WebSocket APIs in tests")


def test_the_same_words_around_other_code() -> None:
    assert _other_code("Verify `@` syntax correct", "Verify `$1`, `$2` syntax correct")
    assert _other_code("Use `wrangler.jsonc` for configuration", "Use `wrangler.toml` for configuration")
    # one span holding the other names one thing; the same code is the same line
    assert not _other_code("Set `verbatimModuleSyntax: true`", "Set `verbatimModuleSyntax`")
    assert not _other_code("Run `pnpm test`", "Run `pnpm test`")
    assert not _other_code("Run `pnpm test` first", "Run `pnpm lint` last")


@given(st.lists(st.from_regex(r"[a-z$@.]{1,8}", fullmatch=True), min_size=1, max_size=3))
def test_code_against_itself_is_never_other_code(spans: list[str]) -> None:
    text = "Check " + ", ".join(f"`{x}`" for x in spans) + " before merging"
    assert not _other_code(text, text)


def _line(file: str, text: str, headings: tuple[str, ...], kind: str) -> Instruction:
    return Instruction(file, 1, 1, text, normalize(text), headings, kind)


def test_the_opening_sums_up_a_section_of_its_own_file_only() -> None:
    opening = _line("SKILL.md", "Add dependencies between packages.", ("Link packages",), "sentence")
    step = _line("SKILL.md", "Add dependencies between packages.", ("Link packages", "Workflow"), "item")
    assert _opening_and_detail(opening, step)
    assert not _opening_and_detail(step, opening)
    assert not _opening_and_detail(opening, step._replace(file="AGENTS.md"))  # another file's line is a copy
    assert not _opening_and_detail(opening._replace(kind="item"), step)  # a list under the title is rules


def test_when_to_use_entries_are_triggers_and_rows_of_numbers_are_two() -> None:
    assert trigger(_line("SKILL.md", "Configure pod security standards", ("K8s", "When to Use This Skill"), "item"))
    assert trigger(_line("SKILL.md", "Cloud services", ("MCP", "Use cases:"), "item"))
    assert not trigger(_line("SKILL.md", "Configure pod security standards", ("K8s", "Best Practices"), "item"))
    assert _other_numbers("Monthly detail for Year 1", "Monthly detail for Year 2")
    assert not _other_numbers("Monthly detail for Year 1", "Monthly detail for Year 1")
    assert not _other_numbers("Run the tests", "Run the tests")
