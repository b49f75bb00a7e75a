"""Views: what each agent loads, built from real work trees."""

from __future__ import annotations

import os
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.audit.context import AuditContext
from gitcontext.audit.views import rule_mode, views_of
from tests.helpers import commit, run_json, write


def _views(repo: Path) -> dict:
    return {v.name: v for v in views_of(AuditContext(repo, config_mod.load(repo)))}


def test_views_codex_chain_root_to_leaf_against_32k(repo: Path) -> None:
    commit(
        repo,
        {
            "AGENTS.md": "- Root rule one.\n",
            "pkg/AGENTS.md": "- Pkg rule.\n",
            "pkg/api/AGENTS.md": "- Api rule.\n",
            "other/AGENTS.md": "- Other rule.\n",
        },
    )
    views = _views(repo)
    assert views["codex:pkg/api"].files == ("AGENTS.md", "pkg/AGENTS.md", "pkg/api/AGENTS.md")
    assert views["codex:other"].files == ("AGENTS.md", "other/AGENTS.md")
    assert views["codex:pkg/api"].limit.bytes == 32 * 1024
    assert [loc.instruction.text for loc in views["codex:pkg"].instructions] == ["Root rule one.", "Pkg rule."]


def test_views_symlinked_claude_is_its_target_once(repo: Path) -> None:
    write(repo, "AGENTS.md", "- Use pnpm for installs.\n@docs/style.md\n")
    write(repo, "docs/style.md", "- Keep lines short.\n")
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    commit(repo, {})
    views = _views(repo)
    assert views["claude:."].files == ("AGENTS.md", "docs/style.md")  # Claude follows the import
    assert views["codex:."].files == ("AGENTS.md",)  # Codex does not
    size = (repo / "AGENTS.md").stat().st_size + (repo / "docs/style.md").stat().st_size
    assert views["claude:."].bytes == size


def test_views_cursor_and_copilot_always_plus_scoped(repo: Path) -> None:
    commit(
        repo,
        {
            ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n- Base rule.\n",
            ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\n- TS rule.\n",
            ".cursor/rules/manual.mdc": "- Manual rule.\n",
            ".github/copilot-instructions.md": "- Copilot rule.\n",
            ".github/instructions/py.instructions.md": '---\napplyTo: "**/*.py"\n---\n- Py rule.\n',
        },
    )
    views = _views(repo)
    assert views["cursor:always"].files == (".cursor/rules/base.mdc",)
    assert views["cursor:.cursor/rules/ts.mdc"].files == (".cursor/rules/base.mdc", ".cursor/rules/ts.mdc")
    assert views["cursor:.cursor/rules/ts.mdc"].scope == ("src/**/*.ts",)
    assert views["copilot:.github/instructions/py.instructions.md"].files == (
        ".github/copilot-instructions.md",
        ".github/instructions/py.instructions.md",
    )


def test_views_roo_modes_and_continue_rules(repo: Path) -> None:
    commit(
        repo,
        {
            ".roo/rules/base.md": "- Base rule.\n",
            ".roo/rules-architect/plan.md": "- Plan first.\n",
            ".roo/rules-code/tests.md": "- Run the tests.\n",
            ".continue/rules/always.md": "- Always rule.\n",
            ".continue/rules/py.md": '---\nglobs: "**/*.py"\n---\n- Py rule.\n',
            ".continue/rules/ask.md": "---\nalwaysApply: false\ndescription: Releases\n---\n- Tag it.\n",
        },
    )
    views = _views(repo)
    assert views["roo:always"].files == (".roo/rules/base.md",)
    assert views["roo:.roo/rules-code/tests.md"].files == (".roo/rules/base.md", ".roo/rules-code/tests.md")
    assert ".roo/rules-architect/plan.md" not in views["roo:.roo/rules-code/tests.md"].files  # one mode at a time
    assert views["continue:always"].files == (".continue/rules/always.md",)
    assert views["continue:.continue/rules/py.md"].scope == ("**/*.py",)
    assert "continue:.continue/rules/ask.md" in views


def test_views_limits_come_from_audit_limits(repo: Path) -> None:
    write(repo, ".context/config.yml", "audit:\n  limits: {codex: 65536, claude: 0, gemini: 100}\n")
    commit(repo, {"AGENTS.md": "- Root rule one.\n", "CLAUDE.md": "- Claude rule.\n", "GEMINI.md": "- Gemini rule.\n"})
    views = _views(repo)
    assert views["codex:."].limit.bytes == 65536 and "audit.limits.codex" in views["codex:."].limit.source
    assert views["claude:."].limit is None
    assert views["gemini:."].limit.bytes == 100


def test_views_unknown_agent_in_audit_limits_names_the_known_ones(repo: Path) -> None:
    import pytest

    from gitcontext.errors import UserError

    write(repo, ".context/config.yml", "audit:\n  limits: {codx: 65536}\n")
    commit(repo, {"AGENTS.md": "- Root rule one.\n"})
    with pytest.raises(UserError) as err:
        _views(repo)
    assert "codx" in err.value.message and "codex" in err.value.fix and err.value.path == ".context/config.yml"


def test_views_every_agent_is_named_in_the_audit_limits_reference() -> None:
    from gitcontext.audit.views import AGENTS
    from gitcontext.configref import DESCRIPTIONS

    text = DESCRIPTIONS["audit.limits"][0]
    assert all(f" {a.name}," in text or f" {a.name}." in text for a in AGENTS) and " skill," in text


def test_rule_mode_reads_each_agents_front_matter() -> None:
    assert rule_mode("cursor", ".cursor/rules/a.mdc", "---\ndescription: when testing\n---\n") == ("requested", [])
    assert rule_mode("copilot", ".github/instructions/a.instructions.md", "---\napplyTo: '**'\n---\n") == ("always", [])
    assert rule_mode("windsurf", ".windsurf/rules/a.md", "---\ntrigger: glob\nglobs: '*.go'\n---\n") == (
        "scoped",
        ["*.go"],
    )
    assert rule_mode("cline", ".clinerules/notes.bin", "") == ("never", [])


def test_views_claude_chain_and_gemini_tree(repo: Path) -> None:
    commit(
        repo,
        {
            "CLAUDE.md": "- Root.\n",
            "web/CLAUDE.md": "- Web.\n",
            ".claude/rules/style.md": "- Style.\n",
            "GEMINI.md": "- G root.\n",
            "web/GEMINI.md": "- G web.\n",
        },
    )
    views = _views(repo)
    assert views["claude:web"].files == ("CLAUDE.md", "web/CLAUDE.md", ".claude/rules/style.md")
    assert views["gemini:."].files == ("GEMINI.md", "web/GEMINI.md")  # Gemini reads below its folder too


def test_budget_json_has_agent_views(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": "- Root rule.\n", "web/AGENTS.md": "- Web rule.\n"})
    data = run_json(capsys, "budget")
    rows = {v["name"]: v for v in data["agent_views"]}
    assert rows["codex:web"]["files"] == ["AGENTS.md", "web/AGENTS.md"]
    assert rows["codex:web"]["bytes"] == 25 and rows["codex:web"]["limit"] == 32768 and not rows["codex:web"]["over"]
    assert [v["path"] for v in data["views"]] == ["AGENTS.md", "web/AGENTS.md"]


def test_views_subagents_commands_microagents_and_nested_cursor_rules(repo: Path, capsys) -> None:
    """Files agents load on request are discovered and loaded (issue 29): Claude Code subagents and slash
    commands ride on the root Claude view, OpenHands microagents stand alone, and a `.cursor/rules/`
    folder below the root applies to its folder."""
    commit(
        repo,
        {
            "CLAUDE.md": "- Use pnpm.\n",
            ".claude/agents/reviewer.md": "- Review only the diff.\n",
            ".claude/commands/release/cut.md": "- Tag from main only.\n",
            ".openhands/microagents/repo.md": "- Run make test.\n",
            "web/.cursor/rules/react.mdc": "---\nalwaysApply: true\n---\n- Use hooks, not classes.\n",
            "web/.cursor/rules/css.mdc": "---\nglobs: src/**/*.css\n---\n- No inline styles.\n",
        },
    )
    views = _views(repo)
    assert views["claude-agent:.claude/agents/reviewer.md"].files == ("CLAUDE.md", ".claude/agents/reviewer.md")
    assert views["claude-command:.claude/commands/release/cut.md"].files[0] == "CLAUDE.md"
    assert views["openhands:.openhands/microagents/repo.md"].files == (".openhands/microagents/repo.md",)
    assert views["cursor:web/.cursor/rules/react.mdc"].scope == ("web/**",)
    assert views["cursor:web/.cursor/rules/css.mdc"].scope == ("web/src/**/*.css",)
    assert "cursor:always" not in views
    listed = {row["file"] for row in run_json(capsys, "ls")["instructions"]}
    assert {".claude/agents/reviewer.md", ".openhands/microagents/repo.md", "web/.cursor/rules/react.mdc"} <= listed


def test_views_copilot_reads_the_agents_md_chain_besides_its_own_files(repo: Path) -> None:
    """GitHub Copilot's agent reads AGENTS.md ("the nearest AGENTS.md file in the directory tree will take
    precedence") besides .github/copilot-instructions.md: both sides of a pair are in one Copilot view."""
    commit(
        repo,
        {
            ".github/copilot-instructions.md": "- Do not rely on `pnpm check`.\n",
            ".github/instructions/py.instructions.md": '---\napplyTo: "**/*.py"\n---\n- Py rule.\n',
            "AGENTS.md": "- Run `pnpm check` before committing.\n",
            "web/AGENTS.md": "- Web rule.\n",
            "CLAUDE.md": "- Claude rule.\n",
        },
    )
    views = _views(repo)
    assert views["copilot:always"].files == (".github/copilot-instructions.md", "AGENTS.md")
    assert views["copilot:web"].files == (".github/copilot-instructions.md", "AGENTS.md", "web/AGENTS.md")
    assert views["copilot:web"].scope == ("web/**",)
    assert views["copilot:.github/instructions/py.instructions.md"].files == (
        ".github/copilot-instructions.md",
        "AGENTS.md",
        ".github/instructions/py.instructions.md",
    )
    assert all("CLAUDE.md" not in v.files for v in views.values() if v.agent == "copilot")  # AGENTS.md is there


def test_views_copilot_falls_back_to_the_root_claude_md_without_agents_md(repo: Path) -> None:
    commit(repo, {".github/copilot-instructions.md": "- Copilot rule.\n", "CLAUDE.md": "- Claude rule.\n"})
    assert _views(repo)["copilot:always"].files == (".github/copilot-instructions.md", "CLAUDE.md")


def test_views_cursor_reads_root_and_nested_agents_md(repo: Path) -> None:
    """Cursor applies the root AGENTS.md always and a nested one to its folder, combined with its parents."""
    commit(
        repo,
        {
            ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\n- TS rule.\n",
            "AGENTS.md": "- Root rule.\n",
            "pkg/api/AGENTS.md": "- Api rule.\n",
        },
    )
    views = _views(repo)
    assert views["cursor:always"].files == ("AGENTS.md",)
    assert views["cursor:pkg/api"].files == ("AGENTS.md", "pkg/api/AGENTS.md")
    assert views["cursor:.cursor/rules/ts.mdc"].files == ("AGENTS.md", ".cursor/rules/ts.mdc")


def test_views_agents_md_alone_gives_no_copilot_or_cursor_copy(repo: Path) -> None:
    commit(repo, {"AGENTS.md": "- Root rule.\n", "web/AGENTS.md": "- Web rule.\n"})
    assert {v.agent for v in _views(repo).values()} == {"codex"}


def test_views_skill_rides_on_the_root_view_of_each_agent_that_reads_its_folder(repo: Path) -> None:
    """`.agents/skills/` is read by Codex and Gemini CLI (among others): a Gemini skill session holds
    GEMINI.md, a Codex one AGENTS.md; a `.claude/skills/` symlink to it makes it Claude Code's too."""
    write(repo, ".agents/skills/ship/SKILL.md", "---\nname: ship\n---\n- Tag from main.\n")
    write(repo, "AGENTS.md", "- Codex rule.\n")
    write(repo, "GEMINI.md", "- Gemini rule.\n")
    write(repo, "CLAUDE.md", "- Claude rule.\n")
    write(repo, "plugin/skills/lint/SKILL.md", "---\nname: lint\n---\n- Lint it.\n")
    (repo / ".claude/skills").mkdir(parents=True)
    os.symlink("../../.agents/skills/ship", repo / ".claude/skills/ship")
    commit(repo, {})
    skills = {v.name: v.files for v in _views(repo).values() if v.agent == "skill"}
    ship = ".agents/skills/ship/SKILL.md"
    assert sorted(skills[n] for n in skills if n.startswith("skill:.agents/skills/ship")) == sorted(
        [("CLAUDE.md", ship), ("AGENTS.md", ship), ("GEMINI.md", ship)]
    )
    assert skills["skill:plugin/skills/lint"] == ("CLAUDE.md", "plugin/skills/lint/SKILL.md")  # a plugin's skill
