"""The git door: a revision from a user or from repository content is never read by git as an option."""

from __future__ import annotations

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
        lambda: git.commit_meta("--output=/tmp/y", repo),
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


def test_common_dir_and_head_before_and_after_the_first_commit(repo):
    from tests.helpers import git as run_git

    assert git.common_dir_and_head(repo) == ((repo / ".git").resolve(), None, None)
    sha = commit(repo, {"HEAD": "a file named like the revision\n"}, "first")
    tree = run_git(repo, "rev-parse", "HEAD^{tree}").strip()
    assert git.common_dir_and_head(repo) == ((repo / ".git").resolve(), sha, tree)


def test_listed_once_answers_from_memory_only_inside_the_block(repo):
    from tests.helpers import write

    commit(repo, {"a.txt": "a\n"}, "base")
    with git.listed_once():
        assert git.ls_files(repo, others=True) == ["a.txt"]
        write(repo, "b.txt", "b\n")
        assert git.ls_files(repo, others=True) == ["a.txt"]  # asked once
        git.remember_listing(repo, ["z.txt", "a.txt"], others=True)
        assert git.ls_files(repo, others=True) == ["a.txt", "z.txt"]
    assert git.ls_files(repo, others=True) == ["a.txt", "b.txt"]
    git.remember_listing(repo, ["x"], others=True)  # outside the block: nothing kept
    assert git.ls_files(repo, others=True) == ["a.txt", "b.txt"]


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
    pid = started._child[0]
    begun = time.monotonic()
    started.close()
    assert time.monotonic() - begun < 10  # not a wait for the sleep
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left
    started.close()  # twice is harmless


def test_spawned_git_writes_and_reads_megabytes_at_once_as_subprocess_does(repo):
    import os
    import subprocess

    from gitcontext.git.spawn import communicate

    commit(repo, {f"f{i}.txt": f"{i}\n" * 50 for i in range(300)}, "many")
    oids = git.run(["rev-list", "--objects", "--all"], cwd=repo).split(b"\n")
    batch = b"".join(line.split(b" ")[0] + b"\n" for line in oids if line) * 40  # ~1 MB in, more out
    env = {**os.environ, "LC_ALL": "C"}
    ours = communicate(["git", "cat-file", "--batch"], str(repo), env, batch)
    theirs = subprocess.run(["git", "cat-file", "--batch"], cwd=repo, input=batch, capture_output=True, env=env)
    assert ours == (0, theirs.stdout, theirs.stderr) and len(ours[1]) > len(batch)
    code, out, err = communicate(["git", "rev-parse", "--verify", "nope^{commit}"], str(repo), env)
    assert (code, out, err) == (128, b"", b"fatal: Needed a single revision\n")
    empty = git.run(["hash-object", "--stdin"], cwd=repo, input=b"")
    assert communicate(["git", "hash-object", "--stdin"], str(repo), env) == (0, empty, b"")  # stdin: /dev/null
    with pytest.raises(FileNotFoundError):
        communicate(["no-such-program-gitcontext"], None, env)


def test_a_command_that_only_asks_git_imports_no_subprocess(repo):
    import subprocess
    import sys

    commit(repo, {"a.txt": "a\n"}, "base")
    probe = (
        "import sys; bare = set(sys.modules); from gitcontext import git; git.run(['rev-parse', 'HEAD']); "
        "git.run_status(['status']); git.ls_files(); print('subprocess' in set(sys.modules) - bare)"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


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


def test_started_stdout_pipe_is_widened_where_linux_allows(repo):
    import fcntl
    import os

    from gitcontext.git.spawn import WIDE_PIPE, start

    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("no F_GETPIPE_SZ: pipes keep the system's size")
    limit = int(open("/proc/sys/fs/pipe-max-size").read())
    pid, _, out_r, err_r = start(["git", "--version"], str(repo), dict(os.environ), wide=True)
    try:
        assert fcntl.fcntl(out_r, fcntl.F_GETPIPE_SZ) >= min(WIDE_PIPE, limit)
    finally:
        from gitcontext.git.spawn import collect

        assert collect(pid, out_r, err_r)[0] == 0


def test_a_command_started_ahead_is_read_by_the_run_that_asks_it(repo):
    import os

    from gitcontext.git import process

    commit(repo, {"CLAUDE.md": "# Rules\n\n- Use uv.\n", "docs/a.md": "a\n"}, "one")
    head = git.run(["rev-parse", "HEAD"], cwd=repo).decode().strip()
    wanted = git.tree_entries(head, repo)
    git.start_tree_entries(head, repo)
    git.start_read_blobs(repo)
    started = dict(process._AHEAD)
    assert len(started) == 2
    assert git.tree_entries(head, repo) == wanted  # the ls-tree started ahead, read
    blob = wanted["CLAUDE.md"][1]
    assert git.read_blobs([blob], repo) == {blob: b"# Rules\n\n- Use uv.\n"}  # the cat-file, given its ids
    assert not process._AHEAD
    for ahead in started.values():
        assert ahead._child is None and ahead._in is None  # reaped, every pipe closed
    git.start_tree_entries(head, repo)  # asked by nobody: stopped and reaped
    git.start_read_blobs(repo)
    children = [a._child[0] for a in process._AHEAD.values()]
    git.close_ahead()
    assert not process._AHEAD
    for pid in children:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_a_failing_command_started_ahead_fails_its_run_as_run_does(repo):
    commit(repo, {"a.txt": "a\n"}, "one")
    git.start_tree_entries("0" * 40, repo)
    with pytest.raises(git.GitError):
        git.tree_entries("0" * 40, repo)
    git.close_ahead()


def test_started_with_stdin_waits_for_its_input(repo):
    commit(repo, {"a.txt": "hello\n"}, "one")
    blob = git.run(["rev-parse", "HEAD:a.txt"], cwd=repo).decode().strip()
    started = git.Started(["cat-file", "--batch"], repo, stdin=True)
    assert started.result(f"{blob}\n".encode()) == f"{blob} blob 6\nhello\n\n".encode()
    never = git.Started(["cat-file", "--batch"], repo, stdin=True)
    never.close()
    assert never._in is None and never._child is None


def test_trailer_logs_started_ahead_are_the_ones_read(repo):
    from gitcontext.git import process

    commit(repo, {"a.txt": "a\n"}, "one\n\nContext-Why: ctx-aaaaaa: it broke")
    commit(repo, {"a.txt": "b\n"}, "two")
    head = git.run(["rev-parse", "HEAD"], cwd=repo).decode().strip()
    bodies, trailers = list(git.log_bodies(head, repo)), list(git.log_trailers(head, repo))
    git.start_trailer_logs(head, repo)
    assert len(process._AHEAD) == 2
    assert list(git.log_trailers(head, repo, git.start_log_trailers(head, repo))) == trailers
    assert list(git.log_bodies(head, repo)) == bodies and not process._AHEAD
    assert [t[0] for t in trailers] == [b[0] for b in bodies] and len(trailers) == 1
