"""`ls`, `render` and `budget` against real repositories."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import run_cli, run_json, write

RULES = "# Rules\n\n- Use pnpm for every install.\n- Never log secrets or tokens.\n"


def test_ls_lists_instructions_with_ids(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", RULES)
    write(repo, "web/AGENTS.md", "Web code uses React. Keep components small.\n")
    rows = run_json(capsys, "ls")["instructions"]
    assert [(r["file"], r["line"], r["text"]) for r in rows] == [
        ("CLAUDE.md", 3, "Use pnpm for every install."),
        ("CLAUDE.md", 4, "Never log secrets or tokens."),
        ("web/AGENTS.md", 1, "Web code uses React."),
        ("web/AGENTS.md", 1, "Keep components small."),
    ]
    assert all(r["id"].startswith("ctx-") and r["status"] in ("documented", "orphan", "stale") for r in rows)
    assert len({r["id"] for r in rows}) == 4
    code, out, _ = run_cli(capsys, "ls", "web")
    assert code == 0 and out.splitlines()[0] == "web/AGENTS.md" and "CLAUDE.md" not in out


def test_ls_empty_repository_without_context_files(repo: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "ls")
    assert code == 0 and out.startswith("no instructions found")
    assert run_json(capsys, "ls") == {"instructions": []}


def test_render_expands_imports_relative_to_the_importer(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", "# Main\n\n@docs/style.md\n- Main rule here please.\n")
    write(repo, "docs/style.md", "## Style\n@rules/naming.md\n")
    write(repo, "docs/rules/naming.md", "- Name things plainly.\n")
    code, out, _ = run_cli(capsys, "render", "CLAUDE.md")
    assert code == 0
    assert out == "# Main\n\n## Style\n- Name things plainly.\n- Main rule here please.\n"


def test_render_json_says_which_files_made_the_view_and_what_is_missing(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", "# Main\n\n@docs/style.md\n@missing.md\n- Main rule here please.\n")
    write(repo, "docs/style.md", "- Name things plainly.\n")
    data = run_json(capsys, "render", "CLAUDE.md")
    code, text, _ = run_cli(capsys, "render", "CLAUDE.md")
    assert code == 0 and data["text"] == text
    assert data["path"] == "CLAUDE.md" and data["files"] == ["CLAUDE.md", "docs/style.md"]
    assert data["missing_imports"] == ["missing.md"]
    assert data["bytes"] == len(text.encode()) and data["tokens"] == (data["bytes"] + 3) // 4


def test_render_cycles_missing_and_fenced_imports_stay_verbatim(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", "@AGENTS.md\n@missing.md\n```\n@docs/x.md\n```\n")
    write(repo, "AGENTS.md", "- Agents rule text here.\n@CLAUDE.md\n")
    write(repo, "docs/x.md", "- Should never be inlined.\n")
    code, out, _ = run_cli(capsys, "render", "CLAUDE.md")
    assert code == 0
    assert out == "- Agents rule text here.\n@CLAUDE.md\n@missing.md\n```\n@docs/x.md\n```\n"


def test_render_bad_targets_exit_2(repo: Path, capsys, tmp_path: Path) -> None:
    code, _, err = run_cli(capsys, "render", "NOPE.md")
    assert code == 2 and "NOPE.md: no such file" in err
    (tmp_path / "outside.md").write_text("- x y\n")
    code, _, err = run_cli(capsys, "render", str(tmp_path / "outside.md"))
    assert code == 2 and "outside the repository" in err


def test_budget_counts_the_executor_view(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", "@AGENTS.md\n@gone.md\n- One more rule here.\n")
    write(repo, "AGENTS.md", RULES)
    views = {v["path"]: v for v in run_json(capsys, "budget")["views"]}
    claude = views["CLAUDE.md"]
    expected_text = RULES + "@gone.md\n- One more rule here.\n"
    assert claude["bytes"] == len(expected_text.encode()) and claude["tokens"] == (claude["bytes"] + 3) // 4
    assert claude["instructions"] == 3 and claude["files"] == ["CLAUDE.md", "AGENTS.md"]
    assert claude["missing_imports"] == ["gone.md"]
    assert views["AGENTS.md"]["instructions"] == 2
    code, out, _ = run_cli(capsys, "budget", "CLAUDE.md")
    assert code == 0 and "(+1 imported)" in out and "missing imports: gone.md" in out


def test_budget_agent_views_are_the_audits_views(repo: Path, capsys) -> None:
    """budget counts the views without matching rules to notes; each view must still be the audit's."""
    from gitcontext import config
    from gitcontext.audit.context import AuditContext
    from gitcontext.audit.views import views_of

    write(repo, "CLAUDE.md", "@docs/style.md\n- Claude rule number one.\n")
    write(repo, "docs/style.md", "- Imported style rule.\n- Another imported rule.\n")
    write(repo, "AGENTS.md", RULES)
    write(repo, "web/AGENTS.md", "- Web rule number one.\n- Web rule number two.\n")
    write(repo, ".cursor/rules/react.mdc", "---\nglobs: web/**\n---\n- Use hooks, not classes.\n")
    write(repo, ".claude/skills/release/SKILL.md", "---\nname: release\n---\n- Tag the release first.\n")
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    got = {v["name"]: (v["files"], v["bytes"], v["instructions"]) for v in run_json(capsys, "budget")["agent_views"]}
    opened = AuditContext(repo, config.load(repo))
    audit = {v.name: (list(v.files), v.bytes, len(v.instructions)) for v in views_of(opened)}
    assert got == audit and len(got) >= 4
    assert got["claude:."][2] == 3 and got["codex:web"][2] == 4


def test_ls_and_diff_paths_are_relative_to_the_current_directory(repo: Path, capsys, monkeypatch) -> None:
    write(repo, "CLAUDE.md", RULES)
    write(repo, "web/AGENTS.md", "- Web rule number one.\n")
    monkeypatch.chdir(repo / "web")
    assert [r["file"] for r in run_json(capsys, "ls", ".")["instructions"]] == ["web/AGENTS.md"]
    assert len(run_json(capsys, "ls", "..")["instructions"]) == 3
    assert len(run_json(capsys, "ls")["instructions"]) == 3
    code, _, err = run_cli(capsys, "ls", "../..")
    assert code == 2 and "outside the repository" in err


def test_diff_text_lists_changes_in_line_order(repo: Path, capsys) -> None:
    from tests.helpers import commit

    commit(repo, {"CLAUDE.md": "# R\n\n- Use uv for installs.\n- Run pytest before pushing.\n- Keep PRs small.\n"})
    write(
        repo,
        "CLAUDE.md",
        "# R\n\n- Never push to main directly.\n- Use uv for every install.\n"
        "- Keep PRs small.\n- Write docs in English.\n",
    )
    code, out, _ = run_cli(capsys, "diff", "--worktree")
    marks = [line.split()[0:2] for line in out.splitlines() if line.startswith("  ") and line.split()[0] in "+-~"]
    assert code == 0 and marks == [["+", "3"], ["-", "4"], ["~", "4"], ["+", "6"]]  # as git diff: - before +
