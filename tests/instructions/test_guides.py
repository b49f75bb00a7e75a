"""Skills and the guides a context file imports or links are context files: a rule moved there is a move."""

from __future__ import annotations

from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.history.lineage import lineage
from gitcontext.instructions.discover import discover
from gitcontext.instructions.guides import referenced
from tests.helpers import commit, git, run_json, write

RULE = "Run the migrations check before every deploy."


def test_referenced_reads_imports_and_local_markdown_links_outside_code() -> None:
    text = (
        "@docs/style.md\nSee the [testing guide](docs/testing.md#fast) and [site](https://x.io/a.md).\n"
        "```\n@docs/not-this.md\n[no](docs/no.md)\n```\n"
    )
    assert referenced(text) == ["docs/style.md", "docs/testing.md"]


def test_discover_finds_skills_imports_and_linked_guides_when_asked(repo: Path) -> None:
    write(repo, "CLAUDE.md", "@docs/style.md\n- Follow the [deploy guide](ops/deploy.md).\n")
    write(repo, "docs/style.md", "- Name things plainly.\n- See [more](nested.md).\n")
    write(repo, "docs/nested.md", "- Nested rule text here.\n")
    write(repo, "ops/deploy.md", f"- {RULE}\n")
    write(repo, ".claude/skills/release/SKILL.md", "---\nname: release\n---\n- Tag releases from main only.\n")
    write(repo, ".agents/skills/db/SKILL.md", "- Never drop a column in one step.\n")
    write(repo, "docs/unrelated.md", "- Not referenced by anything.\n")
    links = {**config_mod.DEFAULTS, "discovery": {**config_mod.DEFAULTS["discovery"], "links": True}}
    assert discover(repo, links) == [
        ".agents/skills/db/SKILL.md",
        ".claude/skills/release/SKILL.md",
        "CLAUDE.md",
        "docs/nested.md",
        "docs/style.md",
        "ops/deploy.md",
    ]
    git(repo, "add", "-A")
    commit(repo, {}, "all")
    assert discover(repo, links, "HEAD") == discover(repo, links)
    off = {**config_mod.DEFAULTS, "discovery": {**config_mod.DEFAULTS["discovery"], "imports": False}}
    assert "ops/deploy.md" not in discover(repo, off) and "docs/style.md" not in discover(repo, off)
    # the default: imports (which the agent loads), not links (which it may or may not read)
    assert {"docs/style.md", "ops/deploy.md", "docs/nested.md"} & set(discover(repo, config_mod.DEFAULTS)) == {
        "docs/style.md"
    }


def test_lineage_rule_moved_into_a_skill_is_a_move_not_a_death(repo: Path, capsys) -> None:
    commit(repo, {"CLAUDE.md": f"- Keep PRs small.\n- {RULE}\n"}, "rules")
    commit(
        repo,
        {"CLAUDE.md": "- Keep PRs small.\n", ".claude/skills/deploy/SKILL.md": f"- {RULE}\n"},
        "Move the deploy rule into a skill",
    )
    life = next(x for x in lineage(repo, config_mod.DEFAULTS) if x.born.text == RULE)
    assert life.death is None and [c.kind for c in life.changes] == ["moved"]
    assert life.current.file == ".claude/skills/deploy/SKILL.md"
    assert RULE in {r["text"] for r in run_json(capsys, "ls")["instructions"]}


def test_lineage_rule_moved_into_an_imported_guide_is_a_move(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": f"- Keep PRs small.\n- {RULE}\n"}, "rules")
    commit(
        repo,
        {"CLAUDE.md": "- Keep PRs small.\n@docs/deploy.md\n", "docs/deploy.md": f"- {RULE}\n"},
        "Move the deploy rule into an imported guide",
    )
    life = next(x for x in lineage(repo, config_mod.DEFAULTS) if x.born.text == RULE)
    assert life.death is None and life.current.file == "docs/deploy.md"
