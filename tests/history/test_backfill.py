"""backfill on histories rebuilt from the shared corpus: one birth per live instruction, twice = no change."""

from __future__ import annotations

import pytest

from gitcontext import config as config_mod
from gitcontext.history.backfill import backfill
from gitcontext.identity.formatting import same_text
from gitcontext.provenance.fold import fold
from gitcontext.provenance.store import all_notes
from tests.helpers import build_corpus_repo, commit, run_json

# small histories with rewordings, a migration (CRUSH.md -> AGENTS.md) and a rewrite (crewAI 142 -> 26)
NAMES = ["biomejs__biome", "charmbracelet__crush", "crewAIInc__crewAI"]


def _snapshot(repo):
    folder = repo / ".context/notes"
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.jsonl"))} if folder.exists() else {}


@pytest.mark.parametrize("name", NAMES)
def test_backfill_gives_every_live_instruction_exactly_one_birth(repo, capsys, name):
    events = build_corpus_repo(repo, name)
    config = config_mod.load(repo)
    counts = backfill(repo, config)
    rows = run_json(capsys, "ls")["instructions"]
    assert rows and counts["notes"] == counts["instructions"] == len(rows)
    notes = all_notes(repo)
    shas = {e["commit"] for e in events}
    for row in rows:
        births = [e for e in notes[row["id"]] if e["kind"] == "added"]
        assert len(births) == 1, row
        assert births[0]["source"] == f"backfill:{births[0]['commit']}"
        assert births[0]["commit"] in {commit_sha for commit_sha in _repo_shas(repo)}
        state = fold(notes[row["id"]])
        # a formatter's edit (a re-wrap) is no rewording: the note keeps the words, maybe not the wrap
        assert state.file == row["file"] and same_text(state.text, row["text"])
        assert row["status"] == "orphan"
    assert len(notes) == len(rows)
    assert shas  # the corpus history was replayed


def _repo_shas(repo):
    from tests.helpers import git

    return git(repo, "rev-list", "HEAD").split()


def test_backfill_twice_changes_nothing(repo):
    build_corpus_repo(repo, "biomejs__biome")
    config = config_mod.load(repo)
    backfill(repo, config)
    first = _snapshot(repo)
    assert backfill(repo, config)["events"] == 0
    assert _snapshot(repo) == first


def test_backfill_records_rewordings_and_moves_and_skips_existing_notes(repo, capsys):
    commit(repo, {"CLAUDE.md": "- Use uv for every install.\n- Keep PRs small.\n"}, "add", "2026-01-01T00:00:00Z")
    commit(
        repo, {"CLAUDE.md": "- Use uv for every single install.\n- Keep PRs small.\n"}, "reword", "2026-02-01T00:00:00Z"
    )
    commit(
        repo,
        {"CLAUDE.md": "- Keep PRs small.\n", "AGENTS.md": "- Use uv for every single install.\n"},
        "move",
        "2026-03-01T00:00:00Z",
    )
    from tests.helpers import run_cli

    run_cli(capsys, "record", "Keep PRs", "--why", "reviews took days")
    counts = backfill(repo, config_mod.load(repo))
    assert (counts["notes"], counts["skipped"]) == (1, 1)
    uv = run_json(capsys, "show", "uv for every")
    assert [e["kind"] for e in uv["events"]] == ["added", "reworded", "moved"]
    assert uv["born"]["date"] == "2026-01-01T00:00:00Z" and uv["born"]["subject"] == "add"
    assert [e["kind"] for e in run_json(capsys, "show", "Keep PRs")["events"]] == ["added", "linked"]


def test_init_backfill_through_the_cli_then_record(repo, capsys):
    from tests.helpers import run_cli

    commit(repo, {"CLAUDE.md": "- Use uv for every install.\n"}, "add", "2026-01-01T00:00:00Z")
    code, out, err = run_cli(capsys, "init", "--backfill", "--hooks", "none")
    assert code == 0, err
    assert "1 notes" in out and (repo / ".context/README.md").exists()
    assert run_cli(capsys, "record", "uv for", "--why", "lockfile")[0] == 0
    shown = run_json(capsys, "show", "uv for")
    assert [e["kind"] for e in shown["events"]] == ["added", "linked"]
    assert shown["events"][0]["source"].startswith("backfill:") and shown["status"] == "documented"


def _shallow_clone(repo, tmp_path, monkeypatch):
    import subprocess

    for n in range(4):
        commit(
            repo,
            {"CLAUDE.md": "".join(f"- Rule number {k} stays here.\n" for k in range(n + 1))},
            f"rule {n}",
            f"2026-0{n + 1}-01T00:00:00Z",
        )
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{repo}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    return clone


def test_backfill_in_a_shallow_clone_refuses_before_writing_anything(repo, tmp_path, capsys, monkeypatch):
    from tests.helpers import run_cli

    clone = _shallow_clone(repo, tmp_path, monkeypatch)
    code, out, err = run_cli(capsys, "init", "--hooks", "none", "--backfill")
    assert code == 2 and "shallow clone" in err and "git fetch --unshallow" in err and "--allow-shallow" in err
    assert not (clone / ".context").exists() and not (clone / ".gitattributes").exists()


def test_backfill_allow_shallow_marks_births_at_the_boundary_as_bounded(repo, tmp_path, capsys, monkeypatch):
    from tests.helpers import git, run_cli

    clone = _shallow_clone(repo, tmp_path, monkeypatch)
    code, out, err = run_cli(capsys, "init", "--hooks", "none", "--backfill", "--allow-shallow")
    assert code == 0, err
    births = {e["text"]: e for events in all_notes(clone).values() for e in events if e["kind"] == "added"}
    boundary = git(clone, "rev-parse", "HEAD~1").strip()
    assert {t: e.get("bounded") for t, e in births.items()} == {
        "Rule number 0 stays here.": "shallow",
        "Rule number 1 stays here.": "shallow",
        "Rule number 2 stays here.": "shallow",
        "Rule number 3 stays here.": None,
    }
    assert births["Rule number 0 stays here."]["commit"] == boundary
    code, out, _ = run_cli(capsys, "show", "Rule number 0 stays")
    assert code == 0 and "bounded" in out
    code, out, _ = run_cli(capsys, "blame", "Rule number 0 stays")
    assert code == 0 and "born" in out and "bounded" in out
    assert run_json(capsys, "blame", "Rule number 3 stays")["born"].get("bounded") is None


def test_backfill_counts_the_commits_it_traces(repo):
    """Progress with counts: every traced commit is heard, in order, ending at the history's length."""
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before you push.\n"}, "first")
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before you push.\n- Never force-push main.\n"}, "second")
    commit(repo, {"src/x.py": "x = 1\n"}, "code only")
    heard: list[tuple[int, int]] = []
    backfill(repo, config_mod.load(repo), lambda done, total: heard.append((done, total)))
    assert heard and heard[-1][0] == heard[-1][1]
    assert [done for done, _ in heard] == sorted({done for done, _ in heard})
    assert len({total for _, total in heard}) == 1
