from __future__ import annotations

import copy
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.history import cache
from gitcontext.history.replay import context_histories, expand_braces, file_versions, replay
from tests.helpers import commit, git

CONFIG = config_mod.DEFAULTS


def _blob(repo: Path, sha: str, path: str) -> str | None:
    proc = subprocess.run(["git", "cat-file", "blob", f"{sha}:{path}"], cwd=repo, capture_output=True)
    return proc.stdout.decode("utf-8", "surrogateescape") if proc.returncode == 0 else None


def _assert_exact(repo: Path, histories: dict) -> int:
    checked = 0
    for versions in histories.values():
        for v in versions:
            assert v.text == _blob(repo, v.commit, v.path), (v.path, v.commit)
            checked += 1
    return checked


@pytest.mark.parametrize(
    "name", ["charmbracelet__crush", "cline__cline", "PrefectHQ__fastmcp", "modelcontextprotocol__python-sdk"]
)
def test_replay_corpus_text_equals_git_show_at_every_commit(corpus_repo, name: str) -> None:
    repo = corpus_repo(name)
    histories = context_histories(repo, CONFIG)
    assert histories
    assert _assert_exact(repo, histories) >= 20


def test_replay_edge_cases_are_byte_exact(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": "- one rule here\n- two rules here"}, "no final newline")
    commit(repo, {"CLAUDE.md": "- one rule here\r\n--- not a header\r\n+++ nor this\r\n"}, "crlf")
    commit(repo, {"CLAUDE.md": b"- caf\xe9 latin1 text\n\x1egc\x1f marker-like line\n"}, "latin1")
    commit(repo, {"CLAUDE.md": b"- has a \x00 nul byte\n- and more\n"}, "nul")
    commit(repo, {"CLAUDE.md": None}, "delete")
    commit(repo, {"CLAUDE.md": "- back again\n"}, "re-add")
    commit(repo, {"CLAUDE.md": None, 'docs/my "odd" dir/AGENTS.md': "- back again\n"}, "rename")
    commit(repo, {'docs/my "odd" dir/AGENTS.md': "- back again\n- é unicode\n"}, "edit")
    histories = context_histories(repo, CONFIG)
    assert list(histories) == ['docs/my "odd" dir/AGENTS.md']
    versions = histories['docs/my "odd" dir/AGENTS.md']
    assert [v.subject for v in versions] == [
        "no final newline",
        "crlf",
        "latin1",
        "nul",
        "delete",
        "re-add",
        "rename",
        "edit",
    ]
    assert versions[4].text is None
    assert (
        versions[2].text.encode("utf-8", "surrogateescape") == b"- caf\xe9 latin1 text\n\x1egc\x1f marker-like line\n"
    )
    assert _assert_exact(repo, histories) == 8
    warnings = replay(repo, CONFIG).warnings
    assert any("not valid UTF-8" in w for w in warnings) and any("NUL" in w for w in warnings)


def test_replay_symlink_flip_and_back(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": "- a rule that matters\n"}, "file")
    (repo / "CLAUDE.md").unlink()
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    commit(repo, {"AGENTS.md": "- a rule that matters\n"}, "to symlink")
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "-m", "symlink staged")
    versions = context_histories(repo, CONFIG)["CLAUDE.md"]
    assert [v.mode for v in versions][-1] == "120000"
    assert versions[-1].text == "AGENTS.md"
    assert _assert_exact(repo, {"x": versions}) == len(versions)


def test_replay_first_parent_merge_shows_merged_change(repo: Path) -> None:
    commit(repo, {"AGENTS.md": "- first rule here\n"}, "base")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, {"AGENTS.md": "- first rule here\n- side rule here\n"}, "side work")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"README.md": "x\n"}, "unrelated")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    versions = context_histories(repo, CONFIG)["AGENTS.md"]
    assert [v.subject for v in versions] == ["base", "merge side"]
    assert versions[-1].text == "- first rule here\n- side rule here\n"


def test_file_versions_follows_rename_oldest_first(repo: Path) -> None:
    commit(repo, {"CRUSH.md": "- alpha rule text\n"}, "a")
    commit(repo, {"CRUSH.md": "- alpha rule text\n- beta rule text\n"}, "b")
    commit(repo, {"CRUSH.md": None, "AGENTS.md": "- alpha rule text\n- beta rule text\n"}, "rename")
    versions = list(file_versions(repo, "AGENTS.md"))
    assert [(v.subject, v.path) for v in versions] == [("a", "CRUSH.md"), ("b", "CRUSH.md"), ("rename", "AGENTS.md")]
    assert versions[-1].text == "- alpha rule text\n- beta rule text\n"


def test_replay_second_run_reads_only_new_commits(repo: Path) -> None:
    for n in range(4):
        commit(repo, {"CLAUDE.md": "".join(f"- rule number {i}\n" for i in range(n + 1))}, f"c{n}")
    first = replay(repo, CONFIG)
    assert first.read == 4
    assert replay(repo, CONFIG).read == 0
    commit(repo, {"CLAUDE.md": "- rule number 0\n- changed\n"}, "c4")
    commit(repo, {"AGENTS.md": "- a new file rule\n"}, "c5")
    second = replay(repo, CONFIG)
    assert second.read == 2
    shutil.rmtree(cache.location(repo))
    cold = replay(repo, CONFIG)
    assert cold.read == 6
    assert cold.chains == second.chains and cold.commits == second.commits


def test_replay_rewritten_history_is_read_again(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": "- rule one here\n"}, "c0")
    commit(repo, {"CLAUDE.md": "- rule one here\n- rule two here\n"}, "c1")
    replay(repo, CONFIG)
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    commit(repo, {"CLAUDE.md": "- rule three here\n"}, "c1'")
    again = replay(repo, CONFIG)
    assert again.read == 2
    assert [v.text for _, v in again.chains[0]] == ["- rule one here\n", "- rule three here\n"]


def test_replay_empty_repository_has_no_history(repo: Path) -> None:
    assert context_histories(repo, CONFIG) == {}


def test_replay_discovery_uses_include_braces_and_exclude(repo: Path) -> None:
    config = copy.deepcopy(CONFIG)
    config["discovery"] = {"include": [".cursor/rules/**/*.{md,mdc}", "**/CLAUDE.md"], "exclude": ["vendor/**"]}
    commit(
        repo,
        {
            ".cursor/rules/a/b.mdc": "- rule b here\n",
            ".cursor/rules/c.md": "- rule c here\n",
            ".cursor/rules/d.txt": "- not a rule\n",
            "vendor/x/CLAUDE.md": "- vendored rule\n",
            "CLAUDE.md": "- root rule here\n",
            "AGENTS.md": "- not included here\n",
        },
        "all",
    )
    assert sorted(context_histories(repo, config)) == [".cursor/rules/a/b.mdc", ".cursor/rules/c.md", "CLAUDE.md"]


def test_replay_a_rename_across_an_exclude_is_a_birth_or_a_death_with_the_exact_text(repo: Path) -> None:
    """One log reads the include globs, excluded paths too; a rename git pairs across the exclude is what a
    log of the kept paths alone shows: out of them a deletion, into them an addition of the whole text."""
    config = copy.deepcopy(CONFIG)
    config["discovery"] = {"include": ["**/CLAUDE.md"], "exclude": ["vendor/**"]}
    body = "".join(f"- vendored rule number {i} is kept as it was\n" for i in range(10))
    commit(repo, {"vendor/x/CLAUDE.md": body, "CLAUDE.md": "- root rule here\n"}, "vendored")
    (repo / "pkg").mkdir()
    git(repo, "mv", "vendor/x/CLAUDE.md", "pkg/CLAUDE.md")
    moved_in = commit(repo, {"pkg/CLAUDE.md": body + "- one more\n"}, "adopt the vendored rules")
    (repo / "vendor" / "y").mkdir(parents=True)
    git(repo, "mv", "CLAUDE.md", "vendor/y/CLAUDE.md")
    moved_out = commit(repo, {}, "vendor the root rules")
    histories = context_histories(repo, config)
    assert sorted(histories) == ["CLAUDE.md", "pkg/CLAUDE.md"]
    assert [(v.commit, v.text) for v in histories["pkg/CLAUDE.md"]] == [(moved_in, body + "- one more\n")]
    assert [(v.commit, v.text) for v in histories["CLAUDE.md"]][-1] == (moved_out, None)
    assert _assert_exact(repo, {k: [v for v in vs if v.text is not None] for k, vs in histories.items()}) == 2
    assert not any(v.path.startswith("vendor/") for vs in histories.values() for v in vs)


def test_expand_braces_nested_alternatives() -> None:
    assert expand_braces("a/{b,c}/*.{md,mdc}") == ["a/b/*.md", "a/b/*.mdc", "a/c/*.md", "a/c/*.mdc"]
    assert expand_braces("CLAUDE.md") == ["CLAUDE.md"]


def test_replay_rename_with_edits_and_odd_names(repo: Path) -> None:
    body = "".join(f"- rule number {i} stays the same\n" for i in range(12))
    commit(repo, {"sub dir/CLAUDE.md": body}, "start")
    edited = body.replace("rule number 3", "rule number three") + "- one more rule here\n"
    commit(repo, {"sub dir/CLAUDE.md": None, "other\tdir/CLAUDE.md": edited}, "rename with edits")
    commit(repo, {"other\tdir/CLAUDE.md": edited + "- and a last one\n"}, "edit")
    histories = context_histories(repo, CONFIG)
    assert list(histories) == ["other\tdir/CLAUDE.md"]
    versions = histories["other\tdir/CLAUDE.md"]
    assert [v.path for v in versions] == ["sub dir/CLAUDE.md", "other\tdir/CLAUDE.md", "other\tdir/CLAUDE.md"]
    assert _assert_exact(repo, histories) == 3
    assert [v.text for v in file_versions(repo, "other\tdir/CLAUDE.md")] == [v.text for v in versions]


def test_replay_follows_a_context_file_renamed_from_a_path_discovery_does_not_list(repo: Path, capsys) -> None:
    """Lineage does not stop at a rename from outside the include globs (issue 29: a microagent renamed
    to AGENTS.md had its rules dated months late): the source's history is read, births stay where they
    were, and a later run from the cache sees the same."""
    from tests.helpers import run_cli, run_json

    first = commit(
        repo, {"docs/agent-notes.md": "# Notes\n\n- Run make test before you push.\n"}, "notes", "2025-01-01T00:00:00Z"
    )
    commit(
        repo,
        {"docs/agent-notes.md": "# Notes\n\n- Run make test before you push.\n- Never commit .env files.\n"},
        "more",
    )
    git(repo, "mv", "docs/agent-notes.md", "AGENTS.md")
    moved = commit(repo, {}, "the notes become AGENTS.md")
    histories = context_histories(repo, CONFIG)
    versions = histories["AGENTS.md"]
    assert [v.commit for v in versions][0] == first and versions[-1].commit == moved
    assert [v.path for v in versions] == ["docs/agent-notes.md", "docs/agent-notes.md", "AGENTS.md"]
    assert context_histories(repo, CONFIG)["AGENTS.md"] == versions  # cached
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    rows = run_json(capsys, "ls")["instructions"]
    births = {r["text"]: run_json(capsys, "show", r["id"])["born"]["commit"] for r in rows}
    assert births["Run make test before you push."] == first
