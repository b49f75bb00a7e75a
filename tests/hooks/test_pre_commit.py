"""pre-commit through real git: staged notes validated from the index, one line, ratchet warning."""

from __future__ import annotations

import json

from tests.helpers import commit, git, write
from tests.hooks.support import attempt, last_message, native_repo, stage_new_rule, staged_ids

EVENT = {
    "v": 1,
    "eid": "e-00000000000000aa",
    "id": "ctx-0123456789ab",
    "at": "2026-11-29T19:30:00Z",
    "kind": "linked",
    "source": "cli",
    "why": "CI broke twice",
}


def _line(**changes) -> str:
    return json.dumps({**EVENT, **changes}, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def test_pre_commit_valid_staged_note_one_line(repo):
    native_repo(repo)
    write(repo, ".context/notes/ctx-0123456789ab.jsonl", _line())
    git(repo, "add", ".context")
    done = attempt(repo, "-m", "note")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines() == ["gitcontext: no instruction changes; 1 staged note valid"]


def test_pre_commit_invalid_staged_note_blocks(repo):
    native_repo(repo)
    write(repo, ".context/notes/ctx-0123456789ab.jsonl", _line() + '{"broken": \n')
    git(repo, "add", ".context")
    done = attempt(repo, "-m", "note")
    assert done.returncode == 1
    assert "INVALID" in done.stderr
    assert ".context/notes/ctx-0123456789ab.jsonl:2" in done.stderr


def test_pre_commit_reads_the_index_not_the_work_tree(repo):
    native_repo(repo)
    path = write(repo, ".context/notes/ctx-0123456789ab.jsonl", _line() + _line())  # duplicate eid
    git(repo, "add", ".context")
    path.write_text(_line())  # fixed only on disk
    done = attempt(repo, "-m", "note")
    assert done.returncode == 1
    assert "duplicate event id" in done.stderr


def test_pre_commit_duplicate_eid_across_staged_notes_blocks(repo):
    native_repo(repo)
    write(repo, ".context/notes/ctx-0123456789ab.jsonl", _line())
    write(repo, ".context/notes/ctx-0123456789cd.jsonl", _line(id="ctx-0123456789cd"))
    git(repo, "add", ".context")
    done = attempt(repo, "-m", "notes")
    assert done.returncode == 1
    assert "also in .context/notes/ctx-0123456789ab.jsonl" in done.stderr


def test_pre_commit_ratchet_warning_names_growth_against_first_version(repo):
    native_repo(repo)
    stage_new_rule(repo, "- Never force-push to the main branch.\n- Keep functions under thirty lines.\n")
    done = attempt(repo, "-m", "Add rules", "-m", "\n".join(f"Context-Why: {i}: because, #1" for i in staged_ids(repo)))
    assert done.returncode == 0, done.stderr
    assert (
        "gitcontext: warning: this commit adds 2 instructions and removes 0; CLAUDE.md is now 2.0x its first version"
    ) in done.stderr


def test_pre_commit_ratchet_warning_can_be_turned_off(repo):
    native_repo(repo)
    commit(repo, {".context/config.yml": "version: 1\nhooks:\n  ratchet_warning: false\n"}, "config")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", "-m", "Context-Why: CI broke, #3")
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr


def test_pre_commit_time_budget_lets_commit_through_visibly(repo):
    native_repo(repo)
    big = "".join(f"- Rule number {n} keeps the {n % 7} build green.\n" for n in range(20000))  # ~1 s of work
    commit(repo, {".context/config.yml": "version: 1\nhooks:\n  time_budget: 0.1\n", "CLAUDE.md": big}, "config")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule")
    assert done.returncode == 0, done.stderr
    assert "budget (hooks.time_budget); the commit goes through unchecked" in done.stderr


def test_pre_commit_error_is_logged_and_passes_by_default(repo):
    native_repo(repo)
    write(repo, "CLAUDE.md", b"# Rules\n\n- Caf\xe9 rule for latin-1 files.\n")
    git(repo, "add", "CLAUDE.md")
    done = attempt(repo, "-m", "latin-1")
    assert done.returncode == 0, done.stderr
    assert "pre-commit hook failed" in done.stderr and "not valid UTF-8" in done.stderr
    log = (repo / ".git" / "gitcontext" / "hook-errors.log").read_text()
    assert "pre-commit" in log and "Unreadable" in log and "commit-msg" in log  # discover.Unreadable, a UserError
    assert last_message(repo).strip() == "latin-1"  # commit-msg failed too: message untouched


def test_pre_commit_bad_config_is_reported_logged_and_passes(repo):
    native_repo(repo)
    commit(repo, {".context/config.yml": "version: 1\nhooks:\n  polcy: warn\n"}, "typo")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule")
    assert done.returncode == 0, done.stderr
    assert "unknown key 'hooks.polcy'" in done.stderr
    assert "polcy" in (repo / ".git" / "gitcontext" / "hook-errors.log").read_text()


def test_pre_commit_error_blocks_with_on_error_block(repo):
    native_repo(repo)
    commit(repo, {".context/config.yml": "version: 1\nhooks:\n  on_error: block\n"}, "config")
    write(repo, "CLAUDE.md", b"# Rules\n\n- Caf\xe9 rule for latin-1 files.\n")
    git(repo, "add", "CLAUDE.md")
    head = git(repo, "rev-parse", "HEAD")
    done = attempt(repo, "-m", "latin-1")
    assert done.returncode == 1
    assert "hooks.on_error: block" in done.stderr
    assert git(repo, "rev-parse", "HEAD") == head


def test_pre_commit_ratchet_first_version_is_cached_in_git_dir(repo):
    native_repo(repo)
    stage_new_rule(repo)
    attempt(repo, "-m", "Add rule", "-m", "Context-Why: CI broke, #3")
    cache = repo / ".git" / "gitcontext" / "first-versions.json"
    assert json.loads(cache.read_text()) == {"CLAUDE.md": 2}
    stage_new_rule(repo, "- Keep functions under thirty lines.\n")
    done = attempt(repo, "-m", "Add another", "-m", "Context-Why: review churn, #4")
    assert "CLAUDE.md is now 2.0x its first version" in done.stderr


def test_pre_commit_ratchet_on_a_file_smaller_than_its_first_version_gives_no_ratio(repo):
    native_repo(repo)
    write(repo, "CLAUDE.md", "# Rules\n\n- Run the tests before pushing.\n")
    attempt(repo, "-am", "Retire one", "-m", "Context-Why: pruned, #5")
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", "-m", "Context-Why: CI broke, #3")
    assert "this commit adds 1 instruction and removes 0 in CLAUDE.md" in done.stderr
    assert "its first version" not in done.stderr


def test_pre_commit_warns_on_commit_pressure_of_a_code_only_commit(repo):
    native_repo(repo)
    write(repo, "big.py", "".join(f"value_{i} = {i}\n" for i in range(600)))
    git(repo, "add", "big.py")
    done = attempt(repo, "-m", "big change")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("gitcontext: warning: commit pressure: big.py churns 600 lines (RISK)")
    assert "instruction" not in done.stderr


def test_pre_commit_big_lockfile_is_excluded_from_pressure(repo):
    native_repo(repo)
    write(repo, "package-lock.json", "".join(f'"dep{i}": "1.0.{i}",\n' for i in range(600)))
    git(repo, "add", "package-lock.json")
    done = attempt(repo, "-m", "lock")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
