"""Through the pre-commit framework: the shipped manifest, run as `repo: local` from this checkout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import gitcontext
from gitcontext.errors import UserError
from gitcontext.hooks.framework import CONFIG, HOOK_TYPES, REPOSITORY, merge_config, pinned_rev
from tests.helpers import commit, git, write
from tests.hooks.support import RULES, attempt, last_message, stage_new_rule, staged_ids

MANIFEST = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


def _local_config() -> str:
    """The manifest's hooks as local hooks: same ids, stages and options, run by this interpreter."""
    hooks = []
    for hook in yaml.safe_load(MANIFEST.read_text()):
        entry = hook["entry"].replace("git-context ", f"{sys.executable} -m gitcontext ", 1)
        hooks.append({**hook, "entry": entry, "language": "system"})
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]}, sort_keys=False)


@pytest.fixture
def framework_repo(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    commit(repo, {"CLAUDE.md": RULES, CONFIG: _local_config()}, "rules and pre-commit config")
    args = [arg for t in HOOK_TYPES for arg in ("--hook-type", t)]
    subprocess.run([sys.executable, "-m", "pre_commit", "install", *args], cwd=repo, check=True, capture_output=True)
    return repo


def test_framework_manifest_declares_the_two_hooks():
    hooks = {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text())}
    assert hooks["gitcontext"]["stages"] == ["pre-commit"]
    assert sorted(hooks["gitcontext-msg"]["stages"]) == ["commit-msg", "prepare-commit-msg"]
    assert hooks["gitcontext"]["pass_filenames"] is False


def test_framework_refuses_without_why_and_accepts_with_trailer(framework_repo):
    repo = framework_repo
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    refused = attempt(repo, "-m", "Add rule")
    assert refused.returncode == 1
    assert "commit refused: 1 instruction change without a why" in refused.stdout + refused.stderr
    done = attempt(repo, "-m", "Add rule", "-m", "Context-Why: CI broke twice after force pushes, #12")
    assert done.returncode == 0, done.stdout + done.stderr
    assert last_message(repo).count(f"Context-Id: {ident} added") == 1


def test_framework_prepare_stage_prefills_and_editor_fills_in(framework_repo, tmp_path):
    repo = framework_repo
    stage_new_rule(repo)
    seen = tmp_path / "seen.txt"
    editor = write(
        tmp_path,
        "editor.py",
        "import shutil, sys\n"
        f"shutil.copy(sys.argv[1], {str(seen)!r})\n"
        "t = open(sys.argv[1]).read()\n"
        "open(sys.argv[1], 'w').write('Add rule' + t.replace('# Context-Why:', 'Context-Why: CI broke'))\n",
    )
    done = attempt(repo, editor=f"{sys.executable} {editor}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# gitcontext: instruction changes in this commit" in seen.read_text()
    assert "Context-Why: CI broke\nContext-Id: ctx-" in last_message(repo)


def test_framework_skip_gitcontext_msg(framework_repo):
    repo = framework_repo
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", env={"SKIP": "gitcontext-msg"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Context-Id" not in last_message(repo)


def test_framework_merge_config_creates_then_reports_present(repo):
    assert merge_config(repo)[0] == "created"
    data = yaml.safe_load((repo / CONFIG).read_text())
    assert [h["id"] for h in data["repos"][0]["hooks"]] == ["gitcontext", "gitcontext-msg"]
    assert data["default_install_hook_types"] == list(HOOK_TYPES)
    assert merge_config(repo)[0] == "present"


def test_framework_merge_config_appends_and_keeps_comments(repo):
    original = (
        "# team hooks\nrepos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n"
        "    hooks:\n      - id: black  # formatter\n"
    )
    write(repo, CONFIG, original)
    assert merge_config(repo)[0] == "merged"
    text = (repo / CONFIG).read_text()
    assert text.startswith(original)
    ids = [h["id"] for r in yaml.safe_load(text)["repos"] for h in r["hooks"]]
    assert ids == ["black", "gitcontext", "gitcontext-msg"]


def test_framework_merge_config_prints_when_it_cannot_append_safely(repo):
    original = "repos: [{repo: local, hooks: [{id: x, name: x, entry: x, language: system}]}]\nci: {}\n"
    write(repo, CONFIG, original)
    status, lines = merge_config(repo)
    assert status == "manual"
    assert (repo / CONFIG).read_text() == original
    assert any("id: gitcontext-msg" in line for line in lines)


def test_framework_unrelated_commit_passes_quietly(framework_repo):
    repo = framework_repo
    write(repo, "src.py", "print(1)\n")
    git(repo, "add", "src.py")
    done = attempt(repo, "-m", "code")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Context-Id" not in last_message(repo)


def test_framework_entry_is_the_remote_repository_pinned_to_this_version(repo):
    assert merge_config(repo)[0] == "created"
    [entry] = yaml.safe_load((repo / CONFIG).read_text())["repos"]
    assert entry["repo"] == REPOSITORY
    assert entry["rev"] == pinned_rev(gitcontext.__version__)
    manifest = [h["id"] for h in yaml.safe_load(MANIFEST.read_text())]
    assert [h["id"] for h in entry["hooks"]] == manifest


@pytest.mark.parametrize(
    "version, rev",
    [("0.8.0", "v0.8.0"), ("0.8.1.dev3+g1a2b3c4", "1a2b3c4"), ("0.8.1.dev3+g1a2b3c4.d20261202", "1a2b3c4")],
)
def test_framework_pinned_rev_is_the_tag_or_the_commit(version, rev):
    assert pinned_rev(version) == rev


def test_framework_pinned_rev_refuses_a_build_with_no_origin():
    with pytest.raises(UserError, match="no rev to pin"):
        pinned_rev("0.0.0+unknown")
