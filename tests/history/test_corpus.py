from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

from gitcontext.history import corpus as corpus_mod
from gitcontext.history.rebuild import read_events, rebuild
from tests.helpers import CORPUS, corpus_events, run_cli, run_json


def _gz(path: Path, events: list[dict]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for event in events:
            fh.write(json.dumps(event) + "\n")
    return path


def _event(sha: str, path: str, content: str | None, status: str = "M", **extra) -> dict:
    return {
        "commit": sha,
        "date": "2026-01-02T03:04:05+02:00",
        "subject": f"commit {sha}",
        "path": path,
        "status": status,
        "content": content,
        **extra,
    }


def test_rebuild_replays_every_event_exactly(tmp_path: Path) -> None:
    corpus_events("PrefectHQ__fastmcp")
    source = CORPUS / "PrefectHQ__fastmcp.jsonl.gz"
    rebuild(source, tmp_path / "r")
    shas = subprocess.run(
        ["git", "rev-list", "--reverse", "main"], cwd=tmp_path / "r", capture_output=True, text=True, check=True
    ).stdout.split()
    order: list[str] = []
    for event in read_events(source):
        if event["commit"] not in order:
            order.append(event["commit"])
        sha = shas[order.index(event["commit"])]
        blob = subprocess.run(
            ["git", "cat-file", "blob", f"{sha}:{event['path']}"], cwd=tmp_path / "r", capture_output=True
        )
        expected = event.get("symlink_target") or event["content"]
        assert (blob.stdout.decode() if blob.returncode == 0 else None) == expected, (event["path"], event["seq"])
    assert len(shas) == len(order)


def test_rebuild_dates_subjects_and_renames(tmp_path: Path) -> None:
    source = _gz(
        tmp_path / "o__r.jsonl.gz",
        [
            _event("a1", "CRUSH.md", "- keep the build green always\n", "A"),
            _event("b2", "AGENTS.md", "- keep the build green always\n", "R100", old_path="CRUSH.md"),
        ],
    )
    rebuild(source, tmp_path / "r")
    log = subprocess.run(
        ["git", "log", "--format=%aI %s", "--name-status"],
        cwd=tmp_path / "r",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "2026-01-02T03:04:05+02:00 commit b2" in log and "CRUSH.md" in log
    files = subprocess.run(
        ["git", "ls-tree", "--name-only", "main"], cwd=tmp_path / "r", capture_output=True, text=True
    ).stdout.split()
    assert files == ["AGENTS.md"]


def test_corpus_sources_reject_what_is_not_a_history(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli(capsys, "corpus", str(tmp_path / "empty"))
    assert code == 2 and "not a git repository, a .jsonl.gz history" in err


def test_corpus_over_histories_and_a_repository_is_cached(tmp_path: Path, repo: Path, capsys, monkeypatch) -> None:
    first = _gz(
        tmp_path / "o__one.jsonl.gz",
        [
            _event("a1", "CLAUDE.md", "- one rule for all\n- two rules for all\n", "A"),
            _event("a2", "CLAUDE.md", "- one rule for all\n- two rules for all\n- three rules for all\n"),
        ],
    )
    second = _gz(
        tmp_path / "o__two.jsonl.gz",
        [
            _event("b1", "AGENTS.md", "- alpha beta gamma\n", "A"),
            _event("b2", "AGENTS.md", None, "D"),
        ],
    )
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "empty"], cwd=repo, check=True)
    cache = tmp_path / "cache"
    data = run_json(capsys, "corpus", str(first), str(second), str(repo), "--jobs", "1", "--cache", str(cache))
    names = [r["name"] for r in data["repositories"]]
    assert names == ["o/one", "o/two", "repo"]
    one = data["repositories"][0]
    assert one["files"][0]["instructions_last"] == 3 and one["summary"]["growth_pct_mean"] == 50.0
    agg = data["aggregate"]
    assert agg["repositories"] == 3 and agg["files"] == 2
    assert agg["repositories_growing_pct"] == pytest.approx(33.3) and agg["paper"]["log_slope"] == -0.032
    monkeypatch.setattr(corpus_mod, "measure_source", lambda *a: pytest.fail("cache not used"))
    again = run_json(capsys, "corpus", str(first), str(second), str(repo), "--jobs", "1", "--cache", str(cache))
    assert again == data


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
def test_corpus_parallel_equals_serial(tmp_path: Path, capsys) -> None:
    inputs = [str(CORPUS / f"{n}.jsonl.gz") for n in ("Effect-TS__effect", "biomejs__biome")]
    serial = run_json(capsys, "corpus", *inputs, "-j", "1", "--cache", str(tmp_path / "a"))
    parallel = run_json(capsys, "corpus", *inputs, "-j", "2", "--cache", str(tmp_path / "b"))
    assert serial == parallel
    assert [r["name"] for r in serial["repositories"]] == ["Effect-TS/effect", "biomejs/biome"]


def test_corpus_saved_results_merge_like_one_run(tmp_path: Path, capsys) -> None:
    """One job per repository (a CI matrix) writes a result; one more job merges them."""
    first = _gz(
        tmp_path / "o__one.jsonl.gz",
        [
            _event("a1", "CLAUDE.md", "- one rule for all\n- two rules for all\n", "A"),
            _event("a2", "CLAUDE.md", "- one rule for all\n- two rules for all\n- three rules for all\n"),
        ],
    )
    second = _gz(
        tmp_path / "o__two.jsonl.gz",
        [
            _event("b1", "AGENTS.md", "- alpha beta gamma\n- delta epsilon zeta\n", "A"),
            _event("b2", "AGENTS.md", "- alpha beta gamma\n"),
        ],
    )
    together = run_json(capsys, "corpus", str(first), str(second), "-j", "1", "--cache", str(tmp_path / "c0"))
    for n, history in enumerate((first, second)):
        run_json(
            capsys,
            "corpus",
            str(history),
            "-j",
            "1",
            "--cache",
            str(tmp_path / f"c{n + 1}"),
            "--save",
            str(tmp_path / "saved"),
        )
    saved = sorted((tmp_path / "saved").glob("*.corpus.json"))
    assert [p.name for p in saved] == ["o__one.corpus.json", "o__two.corpus.json"]
    merged = run_json(capsys, "corpus", *map(str, saved), "--cache", str(tmp_path / "c3"))
    assert merged == together
    saved[0].write_text('{"name": "x"}')
    code, _, err = run_cli(capsys, "corpus", str(saved[0]))
    assert code == 2 and "o__one.corpus.json" in err and "--save" in err
