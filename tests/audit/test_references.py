"""What GC103 reads in a context file (gitcontext/audit/references.py, commands.py): paths wherever they are
written, commands as their runner reads them, symbols; any text, in one linear pass."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.audit.commands import commands
from gitcontext.audit.references import bare_paths, references, scoped_folders


def _refs(text: str, kind: str | None = None) -> list[tuple[int, str, str]]:
    return [(r.line, r.kind, r.text) for r in references("AGENTS.md", text) if kind in (None, r.kind)]


def test_references_bare_paths_in_lists_tables_tags_and_mermaid() -> None:
    text = (
        "- src/app.py — the entry\n| docs/guide.md | start |\nSee <path>docs/notes.md</path>.\n"
        "```mermaid\nA[src/old.ts] --> B\n```\n"
    )
    assert _refs(text, "path") == [
        (1, "path", "src/app.py"),
        (2, "path", "docs/guide.md"),
        (3, "path", "docs/notes.md"),
        (5, "path", "src/old.ts"),
    ]


def test_bare_paths_not_words_domains_packages_or_versions() -> None:
    line = "client/server, I/O, and/or, Node.js, docs.acme.dev/start, @acme/ui, 401/403, e.g. v1.2, CI/CD"
    assert [r.text for r in bare_paths("AGENTS.md", line, 1)] == ["client/server", "and/or"]


def test_references_where_the_text_says_to_work() -> None:
    text = "Run these from within a package directory:\n\n```bash\npnpm test\n```\n\n## Web\n\n`pnpm dev` from `apps/web`.\n"
    scripts = [(r.line, r.text, r.where) for r in references("AGENTS.md", text) if r.kind == "script"]
    assert scripts == [(4, "test", ("*",)), (9, "dev", ("apps/web",))]  # the heading ends the first section


def test_scoped_folders_from_front_matter() -> None:
    lines = ["---", "globs: apps/web/**/*.ts, packages/ui/src/*.tsx", "paths:", '  - "docs/**"', "---", "x"]
    assert scoped_folders(lines) == ("apps/web", "packages/ui/src", "docs")


def _commands(line: str) -> list[tuple[str, str, str | None, tuple[str, ...]]]:
    return [(r.kind, r.text, r.cwd, r.where) for r in commands("AGENTS.md", line, 1, None)]


def test_commands_package_runners() -> None:
    assert _commands("pnpm --filter web run dev") == [("script", "dev", None, ("pkg:web",))]
    assert _commands("pnpm run test --filter ./apps/api") == [("script", "test", None, ("dir:apps/api",))]
    assert (
        _commands("pnpm run") == [] and _commands("pnpm install") == [] and _commands("pnpm -r build")[0][3] == ("*",)
    )
    assert _commands("yarn workspace @acme/web lint") == [("script", "lint", None, ("pkg:@acme/web",))]
    assert _commands("pnpm tsx src/seed.ts") == [("script", "tsx", None, ()), ("path", "src/seed.ts", None, ())]
    assert _commands("npx vitest run src/app.test.ts") == [("path", "src/app.test.ts", None, ())]
    assert _commands("cd web && npm test") == [("script", "test", "web", ())]


def test_commands_runners_and_file_arguments() -> None:
    assert _commands("uv run --group test pytest -x tests/test_a.py::test_b") == [
        ("test", "tests/test_a.py::test_b", None, ())
    ]
    assert _commands("python scripts/seed.py --out data/out.json") == [("path", "scripts/seed.py", None, ())]
    assert _commands("./scripts/release.sh v1") == [("path", "scripts/release.sh", None, ())]
    assert _commands("make -C docs html") == [("make", "html", "docs", ())]
    assert _commands("just --list") == [] and _commands("just lint") == [("just", "lint", None, ())]
    assert _commands("cargo test -p acme-core --features x") == [("cargo", "acme-core", None, ())]
    assert _commands("cargo xtask codegen") == [] and _commands("uv run ruff check") == []


def test_commands_cd_follows_the_line() -> None:
    cwd: list[str | None] = [None]
    found = [
        r.cwd
        for n, line in enumerate(["cd apps", "cd web", "pnpm dev", "cd ..", "pnpm lint", "cd /tmp", "pnpm x"])
        for r in commands("A.md", line, n, cwd)
    ]
    assert found == ["apps/web", "apps"]  # after `cd /tmp` nothing is judged


def test_references_symbols() -> None:
    text = (
        "- Use the `RetryPolicy` class and `load(path, max_retries=3)`.\n- `run()` and `GitHub`.\n"
        "- Replacing the old `is_legacy()`.\n\n```python\nshown_here()\n```\n`shown_here()` is the example's.\n"
    )
    assert [(r.text, r.tool) for r in references("AGENTS.md", text) if r.kind == "symbol"] == [
        ("RetryPolicy", "class"),
        ("max_retries", "parameter"),
    ]  # `load` and `run` are too generic to say anything


def test_references_imports_not_decorators_or_home() -> None:
    assert _refs("@docs/testing.md\nUse @app.cell and @pytest.fixture.\n@~/.claude/mine.md\n", "import") == [
        (1, "import", "docs/testing.md")
    ]


def test_references_hostile_lines_end() -> None:
    """Long dotted and slashed tokens, and unclosed marks, in one pass each (a backtracking pattern took
    minutes on such lines)."""
    hostile = "a." * 20000 + "(\n" + "a/" * 20000 + "(\n" + "`" * 9999 + "\n" + "<x>" * 5000 + "\n"
    assert isinstance(_refs(hostile), list)


_PIECES = list("ab/._-`@:()[]<>|#*\n $~=,") + ["cd ", "pnpm run ", "make ", "```", "src/", ".md", "---\n"]
_MARKDOWN = st.lists(st.sampled_from(_PIECES), max_size=120).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_MARKDOWN)
def test_references_any_text_lines_inside_the_file(text: str) -> None:
    lines = text.count("\n") + 1
    assert all(1 <= line <= lines for line, _, _ in _refs(text))


@settings(max_examples=300, deadline=None)
@given(line=st.text(max_size=120))
def test_commands_any_line(line: str) -> None:
    assert all(r.kind in ("script", "make", "just", "cargo", "test", "path") for r in commands("A.md", line, 1, None))


def test_references_a_line_of_thousands_of_paths_is_read_in_linear_time() -> None:
    """A line's clause breaks and negations are found once, not again for each path in it: the fuzz's
    45 KB line of 3,000 `python/object` tokens took over 1 s of CPU, four times as many sixteen times that."""
    import time

    line = "- Never load " + "!!python/object" * 12_000 + "\n"  # 180 KB: 17.6 s of CPU on main
    started = time.process_time()
    found = _refs(line)
    took = time.process_time() - started
    assert took < 1.5, took
    assert found == []  # one clause: "Never" makes every path in it an anti-example, as before
