from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.history.lineage import lineage
from tests.helpers import commit, corpus_events, run_json

CONFIG = config_mod.DEFAULTS


SENTENCES = {
    "lint": "run ruff check on every changed Python module",
    "test": "execute pytest with the quick marker enabled locally",
    "format": "keep imports sorted alphabetically within each group",
    "build": "never edit generated protobuf stubs by hand",
    "review": "request two approvals for schema migrations",
    "document": "describe public API changes inside CHANGELOG entries",
}


def _rules(*names: str) -> str:
    return "".join(f"- {SENTENCES[n]}\n" for n in names)


@pytest.mark.parametrize("name", ["charmbracelet__crush", "cline__cline", "modelcontextprotocol__python-sdk"])
def test_lineage_live_count_at_head_equals_ls(corpus_repo, name: str, capsys, monkeypatch) -> None:
    repo = corpus_repo(name)
    monkeypatch.chdir(repo)
    lives = lineage(repo, CONFIG)
    live = Counter(life.current.file for life in lives if life.current is not None)
    listed = Counter(row["file"] for row in run_json(capsys, "ls")["instructions"])
    assert live == listed


@pytest.mark.parametrize("name", ["charmbracelet__crush", "cline__cline", "PrefectHQ__fastmcp"])
def test_lineage_births_minus_deaths_equals_last_minus_first(corpus_repo, name: str) -> None:
    steps = defaultdict(list)
    lineage(corpus_repo(name), CONFIG, on_version=lambda s: steps[s.chain].append(s))
    assert steps
    for chain_steps in steps.values():
        first, last = len(chain_steps[0].after), len(chain_steps[-1].after)
        later = chain_steps[1:]
        births = sum(len(s.births) + len(s.migrated_in) for s in later)
        deaths = sum(len(s.deaths) + len(s.migrated_out) for s in later)
        assert births - deaths == last - first
        assert all(
            len(s.before) + len(s.births) + len(s.migrated_in) - len(s.deaths) - len(s.migrated_out) == len(s.after)
            for s in chain_steps
        )


def test_lineage_rewrite_versus_individual_deletion(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": _rules("lint", "test", "format", "build", "review", "document")}, "start")
    commit(repo, {"CLAUDE.md": _rules("lint", "test", "format", "build", "review")}, "drop one")
    commit(repo, {"CLAUDE.md": _rules("lint", "test") + "- never push on a friday evening\n"}, "rewrite")
    steps = []
    lives = lineage(repo, CONFIG, on_version=steps.append)
    assert [s.rewrite for s in steps] == [False, False, True]
    causes = {life.born.text: life.death.cause for life in lives if life.death}
    assert causes == {
        SENTENCES["document"]: "deleted",
        SENTENCES["format"]: "rewrite",
        SENTENCES["build"]: "rewrite",
        SENTENCES["review"]: "rewrite",
    }


def test_lineage_rewrite_needs_five_live(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": _rules("lint", "test", "format", "build")}, "four")
    commit(repo, {"CLAUDE.md": _rules("lint")}, "three die")
    lives = lineage(repo, CONFIG)
    assert {life.death.cause for life in lives if life.death} == {"deleted"}


def test_lineage_migration_keeps_identity(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": _rules("lint", "test", "format", "build", "review")}, "start")
    commit(
        repo,
        {"CLAUDE.md": _rules("lint", "test"), "AGENTS.md": "# Moved\n" + _rules("format", "build", "review")},
        "migrate",
    )
    steps = []
    lives = lineage(repo, CONFIG, on_version=steps.append)
    assert len(lives) == 5 and all(life.death is None for life in lives)
    moved = [life for life in lives if life.changes]
    assert {life.current.file for life in moved} == {"AGENTS.md"} and len(moved) == 3
    assert all(c.kind == "moved" and c.old_file == "CLAUDE.md" for life in moved for c in life.changes)
    assert all([s.cause for s in life.stays] == ["migration", None] for life in moved)
    assert all(life.stays[1].entry_age == 1 and life.stays[1].entry == 0 for life in moved)
    claude = [s for s in steps if s.path == "CLAUDE.md"][-1]
    assert len(claude.migrated_out) == 3 and not claude.deaths and not claude.rewrite


def test_lineage_rename_and_reword_keep_identity(repo: Path) -> None:
    commit(repo, {"CRUSH.md": _rules("lint", "test", "format")}, "start")
    commit(repo, {"CRUSH.md": None, "AGENTS.md": _rules("lint", "test", "format")}, "rename")
    commit(
        repo,
        {"AGENTS.md": _rules("lint", "test") + "- keep imports sorted alphabetically within every group\n"},
        "reword",
    )
    lives = lineage(repo, CONFIG)
    assert len(lives) == 3 and all(life.current.file == "AGENTS.md" for life in lives)
    fmt = [life for life in lives if life.born.text == SENTENCES["format"]][0]
    assert [c.kind for c in fmt.changes] == ["moved", "reworded"]
    assert fmt.changes[-1].text == "keep imports sorted alphabetically within every group"
    assert fmt.born.file == "CRUSH.md" and fmt.born.subject == "start"


def test_lineage_file_deletion_kills_everything(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": _rules("lint", "test")}, "start")
    commit(repo, {"CLAUDE.md": None}, "gone")
    lives = lineage(repo, CONFIG)
    assert [life.death.subject for life in lives] == ["gone", "gone"]
    assert all(life.current is None and life.stays[-1].exit == 1 for life in lives)


def test_lineage_with_symlink_flips_matches_ls(tmp_path: Path, capsys, monkeypatch) -> None:
    """fastmcp turns CLAUDE.md into a symlink to AGENTS.md: counted once, identities kept."""
    corpus_events("PrefectHQ__fastmcp")
    from gitcontext.history.rebuild import rebuild
    from tests.helpers import CORPUS, git

    root = tmp_path / "fastmcp"
    rebuild(CORPUS / "PrefectHQ__fastmcp.jsonl.gz", root)
    git(root, "checkout", "-q", "-f", "main")
    assert "120000" in git(root, "ls-tree", "-r", "main")
    monkeypatch.chdir(root)
    lives = lineage(root, CONFIG)
    live = Counter(life.current.file for life in lives if life.current is not None)
    assert live == Counter(row["file"] for row in run_json(capsys, "ls")["instructions"])
    assert any(c.kind == "moved" for life in lives for c in life.changes)


def test_lineage_cache_is_incremental_and_changes_nothing(repo: Path, monkeypatch) -> None:
    import shutil

    from gitcontext.history import cache
    from gitcontext.history import tracer as tracer_mod
    from gitcontext.history.replay import replay

    commit(repo, {"CLAUDE.md": _rules("lint", "test", "format", "build", "review")}, "start")
    commit(repo, {"CLAUDE.md": _rules("lint", "test"), "AGENTS.md": _rules("format", "build")}, "split")
    first = lineage(repo, CONFIG)
    commit(repo, {"AGENTS.md": _rules("format", "document")}, "edit")
    calls = []
    real = tracer_mod.instructions_of
    monkeypatch.setattr(tracer_mod, "instructions_of", lambda v, *a: calls.append(v.path) or real(v, *a))
    again = lineage(repo, CONFIG)
    assert calls == ["AGENTS.md"]  # only the new commit was traced
    assert lineage(repo, CONFIG) == again and calls == ["AGENTS.md"]
    monkeypatch.undo()
    fresh = tracer_mod.trace(replay(repo, CONFIG), "default")
    assert again == fresh and again[: len(first)] != [] and len(again) == len(first) + 1
    shutil.rmtree(cache.location(repo))
    assert lineage(repo, CONFIG) == fresh


def test_lineage_formatter_run_is_not_a_rewording(repo: Path) -> None:
    before = (
        "# Rules\n\n* Run `ruff check` on every changed Python module before you push a branch.\n1. Keep PRs small.\n"
    )
    after = (
        "# Rules\n\n- Run **ruff check** on every changed Python module before you push\n"
        "  a branch\n1) Keep PRs small.   \n"
    )
    commit(repo, {"CLAUDE.md": before}, "rules")
    commit(repo, {"CLAUDE.md": after}, "mdformat")
    steps = []
    lives = lineage(repo, CONFIG, on_version=steps.append)
    assert [life.changes for life in lives] == [[], []] and all(life.death is None for life in lives)
    assert [len(s.reworded) + len(s.births) + len(s.deaths) for s in steps] == [2, 0]
    assert lives[0].current.text.startswith("Run **ruff check**")


def test_lineage_lazy_positions_equal_exact_ones(repo: Path) -> None:
    """A trace without a callback carries the tail's objects unshifted (ChunkSegmenter(exact=False));
    its lives, their current lines and what attribution reads equal an exactly positioned trace."""
    from gitcontext.history.chunks import ChunkSegmenter
    from gitcontext.history.replay import replay
    from gitcontext.history.tracer import Tracer

    names = list(SENTENCES)
    for n in range(1, len(names) + 1):  # each commit prepends a rule: the whole tail shifts
        commit(repo, {"CLAUDE.md": _rules(*names[len(names) - n :])}, f"prepend {n}")
    reworded = _rules(*names).replace("two approvals", "three approvals")
    commit(repo, {"CLAUDE.md": "# Rules\n\n" + reworded}, "a heading on top, one rule reworded")
    result = replay(repo, CONFIG)
    lazy = Tracer(result, "default", None)
    lazy.run()
    exact = Tracer(result, "default", None)
    exact.segmenters.default_factory = ChunkSegmenter  # exact=True: every tail shifted
    exact.run()
    assert any(s.stale for s in lazy.segmenters.values()) is False  # settled after the run
    assert lazy.lives() == exact.lives() and lazy.written == exact.written
    current = sorted(life.current.line for life in lazy.lives() if life.current)
    assert current == list(range(3, 3 + len(names))) and len(lazy.written) == len(names) + 1
