"""The git door: a revision from a user or from repository content is never read by git as an option."""

from __future__ import annotations

import os

import pytest

from gitcontext import git
from gitcontext.errors import UserError
from tests.helpers import commit, run_cli


@pytest.mark.parametrize("rev", ["--output=/tmp/x", "-p", "", "HEAD\n--all", "a\x00b", "-" * 3])
def test_check_rev_refuses_option_like_or_control_text(rev):
    with pytest.raises(UserError):
        git.check_rev(rev)


@pytest.mark.parametrize("rev", ["HEAD", "HEAD~2", "main..feature", "v1.0^{commit}", ":/fix the bug", "@{u}"])
def test_check_rev_accepts_revision_syntax(rev):
    assert git.check_rev(rev) == rev


@pytest.mark.parametrize("option", ["--rev=--output={out}", "--rev=--output={out} --", "--rev=-o{out}"])
def test_sync_rev_cannot_make_git_write_a_file(repo, capsys, tmp_path, option):
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Use uv for installs.\n"}, "rules\n\nContext-Why: pip broke")
    out = tmp_path / "written-by-git"
    code, _, err = run_cli(capsys, "sync", option.format(out=out))
    assert code == 2 and "is not a revision" in err
    assert not out.exists()


def test_every_revision_query_checks_its_revision(repo):
    commit(repo, {"a": "x"}, "one")
    for call in (
        lambda: git.rev_parse("--output=/tmp/y", repo),
        lambda: git.blob_at("-p", "a", repo),
        lambda: git.tree_entries("--all", repo),
        lambda: list(git.log_trailers("--output=/tmp/y", repo)),
        lambda: git.merge_base("-a", "HEAD", repo),
        lambda: git.diff_numstat("--output=/tmp/y", cwd=repo),
        lambda: git.tree_entry("--x", "a", repo),
    ):
        with pytest.raises(UserError):
            call()


def test_git_failure_on_a_missing_object_names_the_fix(repo):
    from tests.helpers import commit

    commit(repo, {"CLAUDE.md": "- Run the tests before pushing.\n", "data.bin": "payload\n"})
    blob = git.text(["rev-parse", "HEAD:data.bin"], cwd=repo).strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    (repo / "data.bin").unlink()
    with pytest.raises(git.GitError) as err:
        git.run(["diff", "--numstat", "HEAD"], cwd=repo)
    assert "diff --numstat" in err.value.message and "git fsck" in (err.value.fix or "")
    with pytest.raises(git.GitError) as err:
        list(git.stream(["log", "-p", "--", "data.bin"], cwd=repo))
    assert "git fsck" in (err.value.fix or "")


def test_git_failure_without_a_known_cause_has_no_made_up_fix(repo):
    with pytest.raises(git.GitError) as err:
        git.run(["frobnicate"], cwd=repo)
    assert err.value.fix is None


def test_attr_set_is_check_attr_without_unspecified_and_unset(repo):
    paths = ["a.bin", "b.txt", "c.x", "d.py", "sub/e.bin", "naïve ü.txt"]
    assert git.attr_set(("filter", "working-tree-encoding"), paths, repo) == set()  # no attributes at all
    commit(
        repo,
        {
            ".gitattributes": "*.bin filter=lfs\n*.txt working-tree-encoding=UTF-16\n*.x -filter\n"
            "sub/* -working-tree-encoding\n"
        },
        "attributes",
    )
    table = git.check_attr(("filter", "working-tree-encoding"), paths, repo)
    expected = {p for p, values in table.items() if any(v not in ("unspecified", "unset") for v in values.values())}
    assert git.attr_set(("filter", "working-tree-encoding"), paths, repo) == expected
    assert expected == {"a.bin", "b.txt", "sub/e.bin", "naïve ü.txt"}
    assert git.attr_set(("filter",), [], repo) == set()


def test_status_paths_sorts_changes_from_untracked_and_sees_what_is_staged(repo):
    from tests.helpers import git as run_git
    from tests.helpers import write

    commit(repo, {"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"}, "base")
    assert git.status_paths(repo) == git.Status([], [], False)
    write(repo, "a.txt", "A\n")
    (repo / "b.txt").unlink()
    write(repo, "new/deep/d.txt", "d\n")
    status = git.status_paths(repo)
    assert (sorted(status.changed), status.untracked, status.staged) == (["a.txt", "b.txt"], ["new/deep/d.txt"], False)
    write(repo, "e.txt", "e\n")
    run_git(repo, "add", "-N", "e.txt")  # intent to add: the index is not HEAD's tree
    assert git.status_paths(repo).staged
    run_git(repo, "rm", "-q", "--cached", "e.txt")
    run_git(repo, "add", "c.txt", "a.txt")
    assert git.status_paths(repo).staged and "a.txt" in git.status_paths(repo).changed


def test_session_opens_before_and_after_the_first_commit(repo):
    from tests.helpers import git as run_git

    before = git.Repo.open(repo, {})
    assert (before.common_dir, before.head, before.tree) == ((repo / ".git").resolve(), None, None)
    sha = commit(repo, {"HEAD": "a file named like the revision\n"}, "first")
    tree = run_git(repo, "rev-parse", "HEAD^{tree}").strip()
    after = git.Repo.open(repo, {})
    assert (after.common_dir, after.head, after.tree) == ((repo / ".git").resolve(), sha, tree)


def test_shared_session_answers_listing_and_head_only_inside_the_block(repo):
    from tests.helpers import write

    sha = commit(repo, {"a.txt": "a\n"}, "base")
    with git.Repo.open(repo, {}).shared() as session:
        assert git.ls_files(repo, others=True) == ["a.txt"] and git.head_commit(repo) == sha
        write(repo, "b.txt", "b\n")
        commit(repo, {"c.txt": "c\n"}, "next")
        assert git.ls_files(repo, others=True) == ["a.txt"]  # the session's one listing
        assert git.head_of(repo) == git.Head(sha, session.common_dir, False)  # and its HEAD
    assert git.ls_files(repo, others=True) == ["a.txt", "b.txt", "c.txt"]
    assert git.head_commit(repo) != sha


def test_shared_session_lists_each_tree_once_and_a_folder_from_the_whole_tree(repo, tmp_path, monkeypatch):
    base = commit(repo, {"a.txt": "a\n", "notes/n.jsonl": "{}\n", "notes.txt": "x\n"}, "base")
    asked = {rev: git.tree_entries(rev, repo) for rev in (base, "")}
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    with git.Repo.open(repo, {}).shared() as session:
        for rev in (base, ""):
            whole = git.tree_entries(rev, repo)
            assert whole == asked[rev]
            whole.clear()  # a copy: the next caller still gets the tree
            assert git.tree_entries(rev, repo) == asked[rev]
            assert git.tree_entries(rev, repo, under="notes") == {"notes/n.jsonl": asked[rev]["notes/n.jsonl"]}
        assert session.tracked == frozenset(asked[""])
    listings = [line for line in trace.read_text().splitlines() if "git ls-tree" in line or "git ls-files" in line]
    assert len(listings) == 2, listings  # the commit's tree and the index, once each
    assert git.tree_entries(base, repo, under="notes") == {"notes/n.jsonl": asked[base]["notes/n.jsonl"]}


def test_a_session_given_its_listing_answers_with_it(repo):
    commit(repo, {"a.txt": "a\n"}, "base")
    session = git.Repo.open(repo, {}).knowing_listed(["z.txt", "a.txt", "z.txt"])
    assert session.listed == ("a.txt", "z.txt") and session.tracked == frozenset({"a.txt"})


def test_started_status_answers_as_status_paths_and_fails_as_run(repo):
    commit(repo, {"a.py": "x = 1\n"}, "base")
    (repo / "a.py").write_text("x = 2\n")
    (repo / "new.py").write_text("y = 1\n")
    started = git.start_status(repo)
    try:
        assert git.status_paths(repo, started) == git.status_paths(repo)
    finally:
        started.close()
    failing = git.Started(["rev-parse", "--verify", "no-such-ref^{commit}"], repo)
    with pytest.raises(git.GitError, match="no-such-ref"):
        failing.result()
    failing.close()


def test_a_started_process_nobody_reads_is_stopped_and_reaped(repo):
    import os
    import time

    started = git.Started(["-c", "alias.slow=!sleep 30", "slow"], repo)  # its shell's sleep keeps the pipes
    pid = started._proc.pid
    begun = time.monotonic()
    started.close()
    assert time.monotonic() - begun < 10  # not a wait for the sleep
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left
    started.close()  # twice is harmless


def test_run_writes_and_reads_megabytes_at_once(repo):
    commit(repo, {f"f{i}.txt": f"{i}\n" * 50 for i in range(300)}, "many")
    staged = git.run(["ls-files", "-s"], cwd=repo).split(b"\n")
    batch = b"".join(line.split(b" ")[1] + b"\n" for line in staged if line) * 40  # ~500 KB in, more out
    out = git.run(["cat-file", "--batch"], cwd=repo, input=batch)
    assert len(out) > len(batch) and out.count(b" blob ") == batch.count(b"\n") == 12_000
    code, out, err = git.run_status(["rev-parse", "--verify", "nope^{commit}"], cwd=repo)
    assert (code, out, err) == (128, b"", b"fatal: Needed a single revision\n")
    empty = git.run(["hash-object", "--stdin"], cwd=repo, input=b"")
    assert git.run(["hash-object", "--stdin"], cwd=repo) == empty  # stdin: /dev/null


def test_stream_yields_gits_lines_stops_early_quietly_and_fails_as_run(repo):
    from gitcontext.git.process import stream

    commit(repo, {f"f{i}.txt": "x\n" * 2000 for i in range(40)}, "big")
    lines = list(stream(["log", "-p", "--format=%H"], cwd=repo))
    assert b"".join(lines) == git.run(["log", "-p", "--format=%H"], cwd=repo)
    for n, _ in enumerate(stream(["log", "-p", "--format=%H"], cwd=repo)):  # ~2 MB: git is still writing
        if n == 3:
            break  # SIGPIPE for git, no error
    with pytest.raises(git.GitError, match="no-such-rev"):
        list(stream(["log", "no-such-rev", "--"], cwd=repo))


def test_started_lines_stream_a_running_git_and_fail_as_run(repo):
    commit(repo, {f"f{i}.txt": "x\n" * 2000 for i in range(40)}, "big")
    started = git.Started(["log", "-p", "--format=%H"], repo)
    assert b"".join(started.lines()) == git.run(["log", "-p", "--format=%H"], cwd=repo)
    started.close()  # read already: nothing to stop
    early = git.Started(["log", "-p", "--format=%H"], repo)
    for n, _ in enumerate(early.lines()):
        if n == 3:
            break
    early.close()
    unread = git.Started(["log", "-p", "--format=%H"], repo)  # never read: stopped and reaped
    unread.close()
    with pytest.raises(git.GitError, match="no-such-rev"):
        list(git.Started(["log", "no-such-rev", "--"], repo).lines())


def test_started_with_stdin_waits_for_its_input(repo):
    commit(repo, {"a.txt": "hello\n"}, "one")
    blob = git.run(["rev-parse", "HEAD:a.txt"], cwd=repo).decode().strip()
    started = git.Started(["cat-file", "--batch"], repo, stdin=True)
    assert started.result(f"{blob}\n".encode()) == f"{blob} blob 6\nhello\n\n".encode()
    never = git.Started(["cat-file", "--batch"], repo, stdin=True)
    pid = never._proc.pid
    never.close()
    assert never._proc is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_index_entries_keep_odd_names_modes_and_long_ids(tmp_path, object_format: str) -> None:
    """The index's listing is sliced from one decode: a tab or a space in a name, a name that is not UTF-8,
    an executable, a symlink and SHA-256 ids come out as `git ls-files -s` gives them."""
    import subprocess

    repo = tmp_path / "r"
    subprocess.run(["git", "init", "-q", f"--object-format={object_format}", str(repo)], check=True)
    names = ["a\tb.md", "with space.md", "é.md", os.fsdecode(b"latin-\xe9.md")]
    for name in names:
        (repo / name).write_bytes(os.fsencode(name) + b"\n")
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    (repo / "link").symlink_to("run.sh")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    out = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=repo, capture_output=True, check=True).stdout
    expected = {}
    for record in filter(None, out.split(b"\0")):
        meta, _, path = record.partition(b"\t")
        mode, oid, _stage = meta.decode().split()
        expected[path.decode("utf-8", "surrogateescape")] = (mode, oid)
    got = git.tree_entries("", repo)
    assert got == expected and set(got) == {*names, "run.sh", "link"}
    assert got["run.sh"][0] == "100755" and got["link"][0] == "120000"
    assert len(got["link"][1]) == (64 if object_format == "sha256" else 40)
