"""The hook's note states: equal to folding every note, reading only the notes whose blob is new."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.hooks import notestates
from gitcontext.provenance import notecache
from gitcontext.provenance.fold import fold
from gitcontext.provenance.store import all_notes
from tests.helpers import backfilled, git
from tests.hooks.support import RULES


def _noted(repo: Path) -> Path:
    return backfilled(repo, {"CLAUDE.md": RULES + "- Never force-push to the main branch.\n"})


def _folded(repo: Path) -> dict:
    return {id: fold(events, id) for id, events in all_notes(repo).items()}


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []
    real = notestates.read_notes

    def counting(root, ids):
        calls.append(list(ids))
        return real(root, ids)

    monkeypatch.setattr(notestates, "read_notes", counting)
    return calls


def test_note_states_read_each_note_once_then_only_changed_ones(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _noted(repo)
    reads = _reads(monkeypatch)
    expected = _folded(repo)
    assert len(expected) == 3
    assert notestates.note_states(repo, repo / ".git", clean=True) == expected
    assert notestates.note_states(repo, repo / ".git", clean=True) == expected
    assert [len(r) for r in reads] == [3, 0]
    first = sorted(expected)[0]
    from gitcontext.provenance.record import record

    record(repo, config_mod.load(repo), first, why="it broke CI twice")
    git(repo, "add", ".context")
    assert notestates.note_states(repo, repo / ".git", clean=True) == _folded(repo)
    assert reads[-1] == [first]


@pytest.mark.parametrize(
    "content",
    [
        "{broken",
        '{"format": 1, "states": {"OID": {"id": "ctx-3f9a2c4b1d2e"}}}',
        "[]",
        '{"format": 1, "states": {"OID": 7}}',
    ],
)
def test_note_states_corrupted_cache_is_read_afresh(repo: Path, content: str) -> None:
    _noted(repo)
    expected = _folded(repo)
    oid = next(iter(git(repo, "ls-files", "-s", ".context/notes").split()[1:2]))
    cache = repo / ".git" / notestates.CACHE
    cache.parent.mkdir(parents=True, exist_ok=True)
    current = f'"format": {notecache.FORMAT}, "code": {json.dumps(notecache._code())}'  # only the entry is odd
    cache.write_text(content.replace("OID", oid).replace('"format": 1', current))
    assert notestates.note_states(repo, repo / ".git", clean=True) == expected


def test_note_states_entry_for_another_id_is_not_trusted(repo: Path) -> None:
    _noted(repo)
    expected = _folded(repo)
    notestates.note_states(repo, repo / ".git", clean=True)
    cache = repo / ".git" / notestates.CACHE
    a, b = sorted(expected)[:2]
    cache.write_text(cache.read_text().replace(a, b))  # every saved state now claims id b
    assert notestates.note_states(repo, repo / ".git", clean=True) == expected


def test_note_states_dirty_folder_reads_every_note(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _noted(repo)
    notestates.note_states(repo, repo / ".git", clean=True)
    reads = _reads(monkeypatch)
    (repo / ".context/notes/ctx-3f9a2c4b1d2e.jsonl").write_text("")  # untracked: only all_notes sees it
    assert notestates.note_states(repo, repo / ".git", clean=False) == _folded(repo)
    assert "ctx-3f9a2c4b1d2e" in _folded(repo) and reads == []


def test_note_states_keep_the_notes_stat_entries_for_the_next_read(repo: Path) -> None:
    """A commit that stages a new note's bytes saves its state without dropping the stat entries `ls`
    recorded: the first read after the commit reads only the note that changed."""
    _noted(repo)
    for _ in range(3):
        notecache.folded_notes(repo)
    cache = repo / ".git" / notecache.CACHE
    recorded = json.loads(cache.read_text())["files"]
    assert len(recorded) == 3
    first = sorted(_folded(repo))[0]
    from gitcontext.provenance.record import record

    record(repo, config_mod.load(repo), first, why="it broke CI twice")
    git(repo, "add", ".context")
    assert notestates.note_states(repo, repo / ".git", clean=True) == _folded(repo)
    kept = json.loads(cache.read_text())["files"]
    assert {n: e for n, e in kept.items() if n != f"{first}.jsonl"} == {
        n: e for n, e in recorded.items() if n != f"{first}.jsonl"
    }
    assert len(kept) >= 2 and notecache.folded_notes(repo) == _folded(repo)
