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
    # HEAD for the analysis once; the state stamp (before and after) asks only for HEAD's commit
    stamp = "git rev-parse --verify -q 'HEAD^{commit}'"
    assert len([a for a in asked if a.startswith("git rev-parse") and "HEAD" in a and a != stamp]) == 1, asked
    assert len([a for a in asked if a.startswith("git cat-file --batch") and "check" not in a]) <= 2, asked
    assert len([a for a in asked if a.startswith("git ls-files -s")]) == 1, asked  # the notes' ids from it too


def _trace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    trace = tmp_path / "trace"
    trace.unlink(missing_ok=True)
    monkeypatch.setenv("GIT_TRACE", str(trace))
    return trace


def _asked(trace: Path, command: str) -> int:
    return sum(1 for line in trace.read_text().splitlines() if f"built-in: git {command}" in line)


def _aged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file under .context/notes older than the stamp's slack (a short one: a file's ctime cannot be
    set back)."""
    import time

    monkeypatch.setattr(shared, "STAMP_SLACK", 0.05)
    time.sleep(0.1)


def test_stamp_lets_the_message_hooks_skip_the_key(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After pre-commit, a message hook on the same state reuses the analysis without `write-tree` and
    `status` (each reads the whole index); pre-commit itself runs the notes' `status` once, no `write-tree`."""
    native_repo(repo)
    write(repo, ".context/notes/ctx-3f9a2c4b1d2e.jsonl", "")
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "a note")
    stage_new_rule(repo)
    _aged(monkeypatch)
    monkeypatch.chdir(repo)
    trace = _trace(tmp_path, monkeypatch)
    assert main(["pre-commit"]) == 0
    assert (_asked(trace, "write-tree"), _asked(trace, "status")) == (0, 1)
    assert json.loads(_cache(repo).read_text())["stamp"] is not None
    trace = _trace(tmp_path, monkeypatch)
    [ident] = staged_ids(repo)
    trace.unlink()
    assert [c.id for c in shared.shared_changes(_call(repo))] == [ident]
    assert (_asked(trace, "write-tree"), _asked(trace, "status")) == (0, 0)


def test_stamp_moves_with_a_note_edited_or_added_and_is_none_while_racy(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    native_repo(repo)
    note = write(repo, ".context/notes/ctx-3f9a2c4b1d2e.jsonl", "")
    git(repo, "add", ".context")
    stage_new_rule(repo)
    assert shared.state_stamp(_call(repo)) is None  # the note changed within the slack: not trusted
    _aged(monkeypatch)
    stamp = shared.state_stamp(_call(repo))
    assert stamp is not None and stamp == shared.state_stamp(_call(repo))
    note.write_text("x")  # edited in the work tree, index unchanged
    _aged(monkeypatch)
    edited = shared.state_stamp(_call(repo))
    assert edited not in (None, stamp)
    write(repo, ".context/notes/ctx-4a0b1c2d3e4f.jsonl", "")  # an untracked note
    _aged(monkeypatch)
    assert shared.state_stamp(_call(repo)) not in (None, stamp, edited)


def test_stamp_follows_the_index_git_uses_and_needs_its_checksum(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    stamp = shared.state_stamp(_call(repo))
    assert stamp is not None
    other = tmp_path / "other-index"
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    git(repo, "read-tree", "HEAD")  # another index: HEAD's, without the staged rule
    assert shared.state_stamp(_call(repo)) not in (None, stamp)
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert shared.state_stamp(_call(repo)) == stamp
    other.write_bytes(b"DIRC" + bytes(96))  # an index without its checksum (`index.skipHash`: zeros)
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    assert shared.state_stamp(_call(repo)) is None


def test_stamp_of_another_head_is_another(repo: Path) -> None:
    native_repo(repo)
    stage_new_rule(repo)
    assert not (repo / shared.NOTES).exists()
    stamp = shared.state_stamp(_call(repo))
    head = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-ref", "HEAD", git(repo, "commit-tree", "-p", head, "-m", "x", "HEAD^{tree}").strip())
    assert stamp is not None and shared.state_stamp(_call(repo)) not in (None, stamp)  # the same index, another HEAD
    git(repo, "update-ref", "HEAD", head)
    assert shared.state_stamp(_call(repo)) == stamp


def _head_listing_cases(repo: Path) -> None:
    """Every kind of staged change: modified, deleted (in git's order among `a.b` and `a/`), added,
    intent-to-add, mode changed, symlink to file, file to submodule, a submodule HEAD has."""
    from tests.helpers import commit

    commit(repo, {"a/x.md": "x\n", "a.b": "b\n", "a0": "0\n", "run.sh": "#!/bin/sh\n", "gone/c.md": "c\n"}, "files")
    (repo / "link").symlink_to("a.b")
    sub = git(repo, "hash-object", "-w", "--stdin", input="a commit id stand-in\n").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sub},vendored")
    git(repo, "add", "link")
    git(repo, "commit", "-q", "--no-verify", "-m", "link and submodule")
    write(repo, "a/x.md", "x2\n")
    git(repo, "rm", "-q", "gone/c.md", "a.b")
    write(repo, "new.md", "n\n")
    write(repo, "later.md", "l\n")
    git(repo, "add", "a/x.md", "new.md")
    git(repo, "add", "-N", "later.md")
    git(repo, "update-index", "--chmod=+x", "a0")
    (repo / "link").unlink()
    write(repo, "link", "now a file\n")
    git(repo, "add", "link")
    git(repo, "rm", "-q", "--cached", "run.sh")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sub},run.sh")


def test_head_listing_from_the_index_is_git_ls_tree_s(repo: Path) -> None:
    """HEAD's listing built from the index's and the staged changes is `git ls-tree -r HEAD`'s, in its order."""
    from gitcontext.git.objects import head_entries_from_index, list_tree

    native_repo(repo)
    _head_listing_cases(repo)
    derived = head_entries_from_index(list_tree("", repo), repo)
    at_head = list_tree("HEAD", repo)
    assert derived is not None and "later.md" not in derived and "gone/c.md" in derived
    assert list(derived.items()) == list(at_head.items())


def test_head_listing_from_the_index_is_none_while_unmerged(repo: Path) -> None:
    from gitcontext.git.objects import head_entries_from_index, list_tree

    native_repo(repo)
    blob = git(repo, "hash-object", "-w", "CLAUDE.md").strip()
    stages = "".join(f"100644 {blob} {n}\tCLAUDE.md\n" for n in (1, 2, 3))
    git(repo, "update-index", "--index-info", input=f"0 {'0' * 40}\tCLAUDE.md\n{stages}")
    assert head_entries_from_index(list_tree("", repo), repo) is None
