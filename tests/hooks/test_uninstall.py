"""`git context uninstall` and `init --hooks none` remove exactly what `init` installed, and keep `.context/`."""

from __future__ import annotations

import json

import yaml

from gitcontext.hooks.framework import CONFIG, REPOSITORY
from tests.helpers import commit, git, run_cli, write
from tests.hooks.support import RULES, attempt, stage_new_rule

HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg")


def _init(repo, capsys, *args):
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    code, _, err = run_cli(capsys, "init", *args)
    assert code == 0, err


def _doctor(capsys) -> tuple[int, list[dict]]:
    code, out, _ = run_cli(capsys, "doctor", "--json")
    return code, json.loads(out)["problems"]


def test_uninstall_after_native_init_removes_hooks_driver_and_attributes_and_keeps_notes(repo, capsys):
    _init(repo, capsys)
    code, out, err = run_cli(capsys, "uninstall")
    assert code == 0, err
    assert not any((repo / ".git" / "hooks" / h).exists() for h in HOOKS)
    assert git(repo, "config", "--get-regexp", "^(merge\\.gitcontext|gitcontext)\\.", check=False).strip() == ""
    assert not (repo / ".gitattributes").exists()  # init made it, and it held only the block
    assert (repo / ".context" / "config.yml").exists() and "kept .context/" in out
    stage_new_rule(repo)
    assert attempt(repo, "-m", "a rule, no why").returncode == 0  # nothing refuses any more
    code, problems = _doctor(capsys)
    assert code == 1 and {p["check"] for p in problems} == {"hooks", "merge"}  # not set up, and says so
    assert all(p["fix"].startswith("git context init") for p in problems)
    assert run_cli(capsys, "uninstall")[1].startswith("nothing to remove")


def test_uninstall_puts_back_the_hook_init_kept_and_the_users_attributes(repo, capsys):
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho team hook\n")
    hook.chmod(0o755)
    write(repo, ".gitattributes", "*.png binary\n")
    _init(repo, capsys)
    assert (repo / ".git" / "hooks" / "pre-commit.legacy").exists()
    assert run_cli(capsys, "uninstall")[0] == 0
    assert hook.read_text() == "#!/bin/sh\necho team hook\n" and not hook.with_name("pre-commit.legacy").exists()
    assert (repo / ".gitattributes").read_text() == "*.png binary\n"


def test_uninstall_leaves_a_hook_gitcontext_did_not_write(repo, capsys):
    _init(repo, capsys)
    other = repo / ".git" / "hooks" / "commit-msg"
    other.write_text("#!/bin/sh\nexit 0\n")
    code, out, _ = run_cli(capsys, "uninstall")
    assert code == 0 and other.exists() and "left as it is" in out


def test_uninstall_after_pre_commit_init_removes_only_gitcontexts_entry(repo, capsys):
    original = (
        "# team hooks\nrepos:\n-   repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n    -   id: black\n"
    )
    write(repo, CONFIG, original)
    _init(repo, capsys, "--hooks", "pre-commit")
    assert REPOSITORY in (repo / CONFIG).read_text()
    assert run_cli(capsys, "uninstall")[0] == 0
    assert (repo / CONFIG).read_text() == original


def test_uninstall_removes_a_pre_commit_config_init_created(repo, capsys):
    _init(repo, capsys, "--hooks", "pre-commit")
    assert run_cli(capsys, "uninstall")[0] == 0
    assert not (repo / CONFIG).exists()


def test_uninstall_removes_the_local_entry_earlier_versions_wrote(repo, capsys):
    legacy = {
        "repos": [
            {"repo": "https://github.com/psf/black", "rev": "24.1.0", "hooks": [{"id": "black"}]},
            {
                "repo": "local",
                "hooks": [
                    {"id": "gitcontext", "entry": "git-context hook pre-commit", "language": "system"},
                    {"id": "gitcontext-msg", "entry": "git-context hook msg", "language": "system"},
                ],
            },
        ]
    }
    write(repo, CONFIG, yaml.safe_dump(legacy, sort_keys=False))
    _init(repo, capsys, "--hooks", "none")
    assert run_cli(capsys, "uninstall")[0] == 0
    assert yaml.safe_load((repo / CONFIG).read_text()) == {"repos": legacy["repos"][:1]}


def test_init_hooks_none_after_init_removes_the_hooks_and_doctor_agrees(repo, capsys):
    _init(repo, capsys)
    code, out, err = run_cli(capsys, "init", "--hooks", "none")
    assert code == 0, err
    assert not any((repo / ".git" / "hooks" / h).exists() for h in HOOKS) and "removed" in out
    assert git(repo, "config", "merge.gitcontext.driver").strip()  # the merge driver stays: only hooks go
    assert _doctor(capsys)[0] == 0
    stage_new_rule(repo)
    assert attempt(repo, "-m", "a rule, no why").returncode == 0


def test_uninstall_says_what_to_remove_by_hand_where_the_text_cannot_be_cut(repo, capsys):
    flow = f"repos: [{{repo: {REPOSITORY}, rev: v0.8.0, hooks: [{{id: gitcontext}}, {{id: gitcontext-msg}}]}}]\n"
    write(repo, CONFIG, flow)
    _init(repo, capsys, "--hooks", "none")
    code, out, _ = run_cli(capsys, "uninstall")
    assert code == 0 and "by hand" in out and (repo / CONFIG).read_text() == flow
