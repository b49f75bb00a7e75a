"""Real git in temporary repositories, the CLI in-process, and corpus histories rebuilt as repos."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
LABELS = Path(__file__).resolve().parents[1].parent / "shared" / "labels"


def hermetic(mp: pytest.MonkeyPatch, home: Path) -> None:
    """No user or system git config leaks in; identities are fixed; no hook switch is inherited."""
    mp.setenv("HOME", str(home))
    mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
    mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    for key in ("AUTHOR", "COMMITTER"):
        mp.setenv(f"GIT_{key}_NAME", "Test User")
        mp.setenv(f"GIT_{key}_EMAIL", "test@example.com")
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GITCONTEXT_HOOKS", "GITCONTEXT_MERGE", "SKIP"):
        mp.delenv(key, raising=False)


def git(repo: Path, *args: str, input: str | None = None, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, input=input, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def write(repo: Path, path: str, content: str | bytes) -> Path:
    full = repo / path
    full.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        full.write_bytes(content)
    else:
        full.write_bytes(content.encode("utf-8"))
    return full


def commit(repo: Path, files: dict[str, str | bytes | None], message: str = "change", date: str | None = None) -> str:
    """Write (or, for None, delete) FILES and commit them; returns the new sha."""
    for path, content in files.items():
        if content is None:
            git(repo, "rm", "-q", "--cached", "--ignore-unmatch", path)
            (repo / path).unlink(missing_ok=True)
        else:
            write(repo, path, content)
            git(repo, "add", "--", path)
    env = dict(os.environ)
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "--no-verify", "-m", message],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
    )
    return git(repo, "rev-parse", "HEAD").strip()


def backfilled(repo: Path, files: dict[str, str]) -> Path:
    """REPO with FILES committed, a note per instruction (`init --backfill`), and the notes committed."""
    from gitcontext import config as config_mod
    from gitcontext.history.backfill import backfill
    from gitcontext.provenance.store import init_store

    init_store(repo)
    commit(repo, files, "rules")
    backfill(repo, config_mod.load(repo))
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "notes")
    return repo


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run `git context ARGS` in-process; returns (exit code, stdout, stderr)."""
    from gitcontext.cli.main import main

    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.jsonl.gz")) if CORPUS.is_dir() else []


def corpus_events(name: str) -> list[dict[str, Any]]:
    path = CORPUS / f"{name}.jsonl.gz"
    if not path.exists():
        pytest.skip(f"shared corpus not available ({path})")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def build_corpus_repo(
    repo: Path, name: str, limit: int | None = None, only_path: str | None = None
) -> list[dict[str, Any]]:
    """Replay a corpus history into REPO (one commit per corpus commit); returns the events used."""
    events = [e for e in corpus_events(name) if only_path is None or e["path"] == only_path]
    if limit is not None:
        events = events[:limit]
    by_commit: dict[str, list[dict[str, Any]]] = {}
    order: list[str] = []
    for event in events:
        if event["commit"] not in by_commit:
            order.append(event["commit"])
        by_commit.setdefault(event["commit"], []).append(event)
    for sha in order:
        batch = by_commit[sha]
        files: dict[str, str | bytes | None] = {}
        for event in batch:
            if event.get("old_path") and event["status"].startswith("R"):
                files[event["old_path"]] = None
            if event.get("symlink_target"):
                continue  # symlinks are exercised by dedicated tests
            files[event["path"]] = event["content"]
        commit(repo, files, batch[0]["subject"] or "corpus commit", batch[0]["date"])
    return events
