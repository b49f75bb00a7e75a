"""The runner fails open on every internal error with one visible line, and its time budget is hard."""

from __future__ import annotations

from tests.helpers import commit, write
from tests.hooks.support import attempt, native_repo, stage_new_rule

LATIN1 = b"# Rules\n\n- Caf\xe9 rule for latin-1 files.\n"


def test_hook_error_with_unwritable_state_folder_lets_the_commit_through(repo):
    native_repo(repo)
    (repo / ".git" / "gitcontext").write_text("a file where the state folder should be")
    write(repo, "CLAUDE.md", LATIN1)
    from tests.helpers import git

    git(repo, "add", "CLAUDE.md")
    done = attempt(repo, "-m", "latin-1 rules")
    assert done.returncode == 0, done.stderr
    assert "hook failed" in done.stderr and "could not write" in done.stderr
    assert "Traceback" not in done.stderr


def test_hook_with_hostile_config_fails_open_quickly(repo):
    native_repo(repo)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(9)
    )
    commit(repo, {".context/config.yml": bomb}, "config")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule")
    assert done.returncode == 0, done.stderr
    assert "aliases" in done.stderr and "goes through unchecked" in done.stderr
    assert len(done.stderr) < 2000


def test_hook_time_budget_stops_work_that_holds_the_interpreter_lock(repo):
    native_repo(repo)
    commit(repo, {".context/config.yml": "version: 1\nhooks:\n  time_budget: 0.1\n"}, "config")
    from gitcontext.hooks import runner

    # a regex that would hold the GIL for minutes: the old code-span pattern on 3,000 backticks
    def stuck(call):
        import re

        re.sub(r"(`+)(?:(?!\1)[\s\S])+?\1", "", "`" * 3000)
        raise AssertionError("not stopped")

    import time

    call = runner.HookCall("pre-commit", repo, repo / ".git", {"hooks": {"time_budget": 0.1}}, ())
    started = time.monotonic()
    status, _ = runner._in_child(stuck, call, 0.1)
    assert status == "timeout" and time.monotonic() - started < 10
