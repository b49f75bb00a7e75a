"""`git context init` and `git context doctor` in real repositories."""

from __future__ import annotations

import subprocess

from gitcontext.hooks.install import render_shim
from tests.helpers import commit, git, run_cli, write
from tests.hooks.support import RULES

EVENT = (
    '{"at":"2026-11-29T19:30:00Z","eid":"e-00000000000000aa","id":"%s","kind":"linked",'
    '"source":"cli","v":1,"why":"CI broke"}\n'
)


def _initialized(repo, capsys, *args):
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    code, out, err = run_cli(capsys, "init", *args)
    assert code == 0, err
    return out


def _problems(capsys, check=None):
    report = run_cli(capsys, "doctor", "--json")
    data = __import__("json").loads(report[1])
    return report[0], [p for p in data["problems"] if check is None or p["check"] == check]


def test_init_creates_store_hooks_and_merge_driver(repo, capsys):
    out = _initialized(repo, capsys)
    assert (repo / ".context" / "config.yml").exists() and (repo / ".context" / "notes").is_dir()
    assert all((repo / ".git" / "hooks" / h).exists() for h in ("pre-commit", "prepare-commit-msg", "commit-msg"))
    assert git(repo, "config", "merge.gitcontext.driver").strip().endswith("%S %X %Y")
    assert "CLAUDE.md merge=gitcontext" in (repo / ".gitattributes").read_text()
    assert "installed" in out
    assert run_cli(capsys, "doctor")[0] == 0


def test_init_rerun_is_idempotent(repo, capsys):
    _initialized(repo, capsys)
    before = {p: p.read_bytes() for p in (repo / ".git" / "hooks").iterdir()}
    attributes = (repo / ".gitattributes").read_text()
    code, out, _ = run_cli(capsys, "init")
    assert code == 0
    assert out.count("up to date") == 3 and "created" not in out
    assert {p: p.read_bytes() for p in (repo / ".git" / "hooks").iterdir()} == before
    assert (repo / ".gitattributes").read_text() == attributes


def test_init_no_merge_context_files_routes_only_notes(repo, capsys):
    _initialized(repo, capsys, "--no-merge-context-files")
    attributes = (repo / ".gitattributes").read_text()
    assert ".context/** merge=gitcontext" in attributes and "CLAUDE.md" not in attributes


def test_init_backfill_writes_a_note_per_instruction(repo, capsys):
    out = _initialized(repo, capsys, "--backfill")
    assert "backfill: 2 instructions, 2 notes" in out
    assert len(list((repo / ".context" / "notes").glob("ctx-*.jsonl"))) == 2


def test_init_hooks_none_then_doctor_does_not_ask_for_hooks(repo, capsys):
    _initialized(repo, capsys, "--hooks", "none")
    assert not (repo / ".git" / "hooks" / "commit-msg").exists()
    assert _problems(capsys, "hooks") == (0, [])


def test_init_hooks_pre_commit_writes_framework_config(repo, capsys):
    out = _initialized(repo, capsys, "--hooks", "pre-commit")
    config = (repo / ".pre-commit-config.yaml").read_text()
    assert "id: gitcontext\n" in config and "id: gitcontext-msg" in config
    assert "pre-commit install --hook-type pre-commit --hook-type prepare-commit-msg --hook-type commit-msg" in out
    code, problems = _problems(capsys, "hooks")
    assert code == 1 and len(problems) == 3
    assert all(p["fix"].startswith("pre-commit install") for p in problems)


def test_init_bad_config_writes_nothing(repo, capsys):
    write(repo, ".context/config.yml", "version: 1\nhoks: {}\n")
    code, _, err = run_cli(capsys, "init")
    assert code == 2 and "unknown key 'hoks'" in err
    assert not (repo / ".git" / "hooks" / "commit-msg").exists()
    assert not (repo / ".gitattributes").exists()


def test_doctor_detects_missing_outdated_and_foreign_hooks(repo, capsys):
    _initialized(repo, capsys)
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").unlink()
    (hooks / "commit-msg").write_text(render_shim("commit-msg", "/old/python"))
    (hooks / "prepare-commit-msg").write_text("#!/bin/sh\nexit 0\n")
    code, problems = _problems(capsys, "hooks")
    assert code == 1
    messages = sorted(p["message"] for p in problems)
    assert "is an older gitcontext shim" in messages[0] and "commit-msg" in messages[0]
    assert "pre-commit is not installed" in messages[1]
    assert "prepare-commit-msg is not gitcontext's" in messages[2]
    assert {p["fix"].split("  ")[0] for p in problems} == {"git context init --hooks native"}


def test_doctor_detects_unconfigured_merge_driver(repo, capsys):
    _initialized(repo, capsys)
    git(repo, "config", "--unset", "merge.gitcontext.driver")
    code, problems = _problems(capsys, "merge")
    assert code == 1
    assert "merge.gitcontext.driver is not configured" in problems[0]["message"]
    assert problems[0]["fix"] == "git context init"


def test_doctor_detects_invalid_and_duplicated_notes(repo, capsys):
    _initialized(repo, capsys)
    notes = repo / ".context" / "notes"
    (notes / "ctx-0123456789ab.jsonl").write_text(EVENT % "ctx-0123456789ab")
    (notes / "ctx-0123456789cd.jsonl").write_text(EVENT % "ctx-0123456789cd")
    (notes / "ctx-0123456789ef.jsonl").write_text("not json\n")
    code, problems = _problems(capsys, "notes")
    assert code == 1
    text = " | ".join(p["message"] for p in problems)
    assert ".context/notes/ctx-0123456789ef.jsonl:1" in text
    assert "e-00000000000000aa also in .context/notes/ctx-0123456789ab.jsonl" in text


def test_doctor_warns_on_shallow_clone_without_failing(repo, capsys, tmp_path, monkeypatch):
    commit(repo, {"CLAUDE.md": RULES}, "one")
    commit(repo, {"README.md": "x\n"}, "two")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    assert run_cli(capsys, "init")[0] == 0
    code, problems = _problems(capsys, "clone")
    assert code == 0
    assert problems[0]["severity"] == "warning" and problems[0]["fix"] == "git fetch --unshallow"


def test_doctor_text_output_names_each_fix(repo, capsys):
    _initialized(repo, capsys)
    (repo / ".git" / "hooks" / "pre-commit").unlink()
    code, out, _ = run_cli(capsys, "doctor")
    assert code == 1
    assert "error: [hooks]" in out and "fix: git context init --hooks native" in out and "1 problem" in out


def test_doctor_check_merge_finds_a_merge_that_lost_an_event(repo, capsys):
    note = ".context/notes/ctx-0123456789ab.jsonl"
    first = EVENT % "ctx-0123456789ab"
    base = commit(repo, {note: first}, "note")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, {note: first + first.replace('aa"', 'bb"')}, "side event")
    git(repo, "checkout", "-q", "main")
    commit(repo, {note: first + first.replace('aa"', 'cc"')}, "main event")
    git(repo, "merge", "-q", "--no-verify", "-s", "ours", "-m", "hosted merge", "side")
    code, out, _ = run_cli(capsys, "doctor", "--check-merge", base, "HEAD")
    assert code == 1
    assert "lost 1 event(s) its parents had: e-00000000000000bb" in out


def test_init_chains_an_existing_hook_and_says_so(repo, capsys):
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 0\n")
    hook.chmod(0o755)
    out = _initialized(repo, capsys)
    assert "pre-commit: installed (your previous hook runs first as pre-commit.legacy)" in out
    assert (repo / ".git" / "hooks" / "pre-commit.legacy").read_text() == "#!/bin/sh\nexit 0\n"
    assert _problems(capsys, "hooks") == (0, [])


def test_init_refusal_leaves_everything_as_it_was(repo, capsys):
    hooks = repo / ".git" / "hooks"
    (hooks / "commit-msg").write_text("#!/bin/sh\nexit 0\n")
    (hooks / "commit-msg.legacy").write_text("#!/bin/sh\nexit 0\n")
    code, _, err = run_cli(capsys, "init")
    assert code == 2 and "commit-msg.legacy exists too" in err
    assert not (repo / ".context").exists() and not (repo / ".gitattributes").exists()
    assert git(repo, "config", "--get", "merge.gitcontext.driver", check=False) == ""


def test_doctor_accepts_core_hooks_path_at_the_generic_shims(repo, capsys):
    from pathlib import Path

    _initialized(repo, capsys)
    shims = Path(__file__).resolve().parents[2] / "hooks"
    git(repo, "config", "core.hooksPath", str(shims))
    assert _problems(capsys, "hooks") == (0, [])
