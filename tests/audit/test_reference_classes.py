"""GC103 reference extraction: the false-positive classes of session 4 (placeholder symbols, replaced
and optional paths, word pairs in examples, bun files), read without a repository."""

from __future__ import annotations

import pytest

from gitcontext.audit.commands import commands
from gitcontext.audit.manifests import publishes
from gitcontext.audit.references import references


def test_symbols_with_a_placeholder_word_are_not_judged() -> None:
    text = "- `WithX()` and `DB.SurfacedX()`, `getXById()`, `useFoo()`\n- `parseXML()` and `SurfacedRows()`\n"
    names = [(r.line, r.text) for r in references("AGENTS.md", text) if r.kind == "symbol"]
    assert names == [(2, "parseXML"), (2, "SurfacedRows")]


def test_references_a_path_the_clause_says_was_replaced_is_history() -> None:
    text = (
        "- also added the three `.contributing/*.md` guides this skill supersedes\n"
        "- `docs/v1/` is superseded by `docs/v2/`\n"
        "- `docs/new.md` replaces the old guide\n"
    )
    paths = [(r.line, r.text) for r in references("AGENTS.md", text) if r.kind == "path"]
    assert paths == [(3, "docs/new.md")]  # the new guide is the reference; `docs/v2/` follows a negation


def test_references_a_bare_word_pair_in_an_example_stays_bare() -> None:
    text = "e.g. a row whose tests/logs overflow, or `docs/intro.md` and docs/guide.md\n"
    forms = {r.text: r.form for r in references("AGENTS.md", text) if r.kind == "path"}
    assert forms == {"tests/logs": "bare", "docs/intro.md": "example", "docs/guide.md": "example"}


def test_commands_bun_runs_a_file_after_its_flags() -> None:
    found = [(r.kind, r.text, r.form) for r in commands("AGENTS.md", "bun --hot ./index.ts", 1, None)]
    assert found == [("path", "index.ts", "arg")]  # a file, not a script named `/index.ts`


def test_references_optional_files_and_another_repositorys_named_again() -> None:
    text = (
        "- If `.github/aw/instructions.md` exists, load it.\n- Read `docs/other.md`, if present.\n"
        "- Read `docs/real.md` first.\n\nLoad these files from `github/gh-aw` (they are not available locally).\n\n"
        "- `.github/aw/report.md`\n\nThen:\n\n- Reports: `.github/aw/report.md`\n- Mine: `.github/aw/mine.md`\n"
    )
    assert [(r.line, r.text) for r in references("SKILL.md", text) if r.kind == "path"] == [
        (3, "docs/real.md"),
        (12, ".github/aw/mine.md"),
    ]


def test_references_a_cd_ends_with_its_commented_recipe() -> None:
    text = "```bash\n# the kit\ncd packages/kit\npnpm test\n\n# the rest\npnpm lint\n```\n"
    assert [(r.text, r.cwd) for r in references("AGENTS.md", text) if r.kind == "script"] == [
        ("test", "packages/kit"),
        ("lint", None),
    ]


@pytest.mark.parametrize(
    ("manifest", "path", "published"),
    [
        ('{"files": ["dist", "skills"]}', "skills/setup/SKILL.md", True),
        ('{"files": ["./skills/"]}', "skills/setup/SKILL.md", True),
        ('{"files": ["skills/**"]}', "skills/setup/SKILL.md", True),
        ('{"files": ["AGENTS.md", "dist"]}', "AGENTS.md", True),
        ('{"files": ["*.md"]}', "AGENTS.md", True),
        ('{"files": ["dist"]}', "skills/setup/SKILL.md", False),
        ('{"private": true, "files": ["skills"]}', "skills/setup/SKILL.md", False),
        ('{"files": "skills"}', "skills/setup/SKILL.md", False),
        ("not json", "AGENTS.md", False),
        (None, "AGENTS.md", False),
    ],
)
def test_publishes_reads_files_folders_and_globs(manifest, path, published) -> None:
    assert publishes(manifest, path) is published
