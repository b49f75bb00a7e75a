"""One analysis per commit: pre-commit saves it, the message hooks reuse it only while its key holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.hooks import shared
from gitcontext.hooks.fast import main
from gitcontext.hooks.runner import HookCall
from tests.helpers import git, write
from tests.hooks.support import attempt, last_message, native_repo, stage_new_rule, staged_ids

SECOND_RULE = "- Always pin the versions of CI actions.\n"


def _call(repo: Path, hook: str = "commit-msg") -> HookCall:
    return HookCall(hook, repo, repo / ".git", config_mod.load(repo), ())


def _cache(repo: Path) -> Path:
    return repo / ".git" / shared.CACHE


def _commit_msg(repo: Path, text: str) -> int:
    message = write(repo, ".git/MSG", text)
    return main(["commit-msg", str(message)])


def test_shared_cache_saved_by_pre_commit_and_reused(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    monkeypatch.chdir(repo)
    assert main(["pre-commit"]) == 0
    saved = json.loads(_cache(repo).read_text())
    [ident] = staged_ids(repo)
    assert [row[:2] for row in saved["changes"]] == [["added", ident]]

    def no_second_analysis(*_args):
        raise AssertionError("the analysis ran again")

    monkeypatch.setattr(shared, "staged_changes", no_second_analysis)
    assert [c.id for c in shared.shared_changes(_call(repo))] == [ident]


def test_shared_cache_index_changed_between_hooks_is_judged_on_the_new_index(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    monkeypatch.chdir(repo)
    assert main(["pre-commit"]) == 0
    [first] = staged_ids(repo)
    stage_new_rule(repo, SECOND_RULE)  # staged after pre-commit ran
    ids = staged_ids(repo)
    assert len(ids) == 2 and first in ids
    capsys.readouterr()
    assert _commit_msg(repo, f"Add rules\n\nContext-Why: {first}: force pushes broke CI\n") == 1
    err = capsys.readouterr().err
    second = next(i for i in ids if i != first)
    assert "1 instruction change without a why" in err and second in err


@pytest.mark.parametrize(
    "content",
    [
        "not json at all {",
        json.dumps(
            {"format": shared.FORMAT, "key": "KEY", "changes": [["added", "not-an-id", "CLAUDE.md", 1, "x", "", 100]]}
        ),
        json.dumps(
            {
                "format": shared.FORMAT,
                "key": "KEY",
                "changes": [["invented", "ctx-3f9a2c4b1d2e", "CLAUDE.md", 1, "x", "", 100]],
            }
        ),
        json.dumps({"format": shared.FORMAT, "key": "KEY", "changes": {"added": 1}}),
        json.dumps({"format": 999, "key": "KEY", "changes": []}),
        json.dumps(["KEY"]),
    ],
)
def test_shared_cache_corrupted_is_recomputed(repo: Path, monkeypatch: pytest.MonkeyPatch, content: str) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    monkeypatch.chdir(repo)
    key = shared.analysis_key(_call(repo))
    assert key is not None
    _cache(repo).parent.mkdir(parents=True, exist_ok=True)
    _cache(repo).write_text(content.replace("KEY", key))
    assert shared.load(repo / ".git", key) is None
    [ident] = staged_ids(repo)
    assert [c.id for c in shared.shared_changes(_call(repo))] == [ident]
    assert _commit_msg(repo, "Add rule\n") == 1  # still refused: no why


def test_shared_cache_stale_for_another_state_is_ignored(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    monkeypatch.chdir(repo)
    old_key = shared.analysis_key(_call(repo))
    shared.save(repo / ".git", old_key, [])  # an analysis that says "no changes"
    assert shared.shared_changes(_call(repo)) == []  # valid for that exact state
    stage_new_rule(repo, SECOND_RULE)
    assert shared.analysis_key(_call(repo)) != old_key
    assert len(shared.shared_changes(_call(repo))) == 2


def test_shared_key_changes_with_head_config_and_is_none_with_dirty_notes(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    call = _call(repo)
    key = shared.analysis_key(call)
    assert key == shared.analysis_key(call)
    assert shared.analysis_key(call._replace(config={**call.config, "matcher": "exact"})) != key
    write(repo, ".context/notes/ctx-3f9a2c4b1d2e.jsonl", "")  # an untracked note: ids may depend on it
    assert shared.analysis_key(call) is None
    (repo / ".context/notes/ctx-3f9a2c4b1d2e.jsonl").unlink()
    git(repo, "commit", "-q", "--no-verify", "-m", "staged rule")
    assert shared.analysis_key(call) not in (None, key)  # same tree, another HEAD


def test_shared_hooks_refuse_a_missing_why_and_accept_a_trailer(repo: Path) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    refused = attempt(repo, "-m", "Add rule")
    assert refused.returncode == 1 and "without a why" in refused.stderr
    assert _cache(repo).is_file()
    editor = "sed -i -e '1s/^$/Add rule/' -e 's/^# Context-Why:$/Context-Why: force pushes broke CI twice/'"
    done = attempt(repo, env={"GIT_EDITOR": editor}, editor=editor)  # all three hooks, the editor between
    assert done.returncode == 0, done.stderr
    assert f"Context-Id: {ident} added" in last_message(repo)
    assert "Context-Why: force pushes broke CI twice" in last_message(repo)


def test_pre_commit_asks_head_once_and_reads_each_side_once(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis of HEAD vs the index resolves HEAD once (the notes' resolver, on both sides, asks the
    same), reads each side's context files in one `cat-file` (the guides and the segmenting share it), and
    lists the index once (the notes' blob ids are taken from that listing)."""
    native_repo(repo)
    stage_new_rule(repo)
    monkeypatch.chdir(repo)
    assert main(["pre-commit"]) == 0  # the ratchet's first versions found once for good
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    assert main(["pre-commit"]) == 0
    asked = [line.split("built-in: ", 1)[1] for line in trace.read_text().splitlines() if "built-in: git " in line]
    assert len([a for a in asked if a.startswith("git rev-parse") and "HEAD" in a]) == 1, asked
    assert len([a for a in asked if a.startswith("git cat-file --batch") and "check" not in a]) <= 2, asked
    assert len([a for a in asked if a.startswith("git ls-files -s")]) == 1, asked  # the notes' ids from it too
