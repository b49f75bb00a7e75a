"""The notes' folded states cache: `ls`, `blame` and `show` never see a state folded from other bytes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.errors import UserError
from gitcontext.provenance import notecache, store
from gitcontext.provenance.fold import fold
from gitcontext.provenance.record import record
from gitcontext.provenance.store import all_notes
from tests.helpers import backfilled, commit, git, run_cli, run_json

RULES = "# Rules\n\n- Run the tests before every push.\n- Never force-push to main.\n- Keep PRs small.\n"


@pytest.fixture
def noted(repo: Path) -> Path:
    return backfilled(repo, {"CLAUDE.md": RULES})


def _fresh(repo: Path) -> dict:
    return {id: fold(events, id) for id, events in all_notes(repo).items()}


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = store.parse_note

    def counting(root, path, data):
        parsed.append(path.name)
        return real(root, path, data)

    monkeypatch.setattr(store, "parse_note", counting)
    return parsed


def _ls(capsys: pytest.CaptureFixture[str]) -> list[dict]:
    return run_json(capsys, "ls")["instructions"]


def _ls_uncached(capsys: pytest.CaptureFixture[str], repo: Path) -> list[dict]:
    (repo / ".git" / notecache.CACHE).unlink(missing_ok=True)
    return _ls(capsys)


def _id(repo: Path, text: str) -> str:
    return next(s.id for s in _fresh(repo).values() if s.text == text)


def test_folded_notes_equal_folding_every_note_and_parse_only_new_bytes(noted: Path, monkeypatch) -> None:
    expected = _fresh(noted)
    parsed = _parses(monkeypatch)
    assert notecache.folded_notes(noted) == expected and len(parsed) == 3
    parsed.clear()
    assert notecache.folded_notes(noted) == expected and parsed == []
    first = _id(noted, "Keep PRs small.")
    record(noted, config_mod.load(noted), first, why="review fatigue")
    expected = _fresh(noted)
    parsed.clear()
    assert notecache.folded_notes(noted) == expected and expected[first].why == "review fatigue"
    assert parsed == [f"{first}.jsonl"]


def test_ls_after_a_note_is_edited_added_and_removed(noted: Path, capsys) -> None:
    before = _ls(capsys)
    assert _ls(capsys) == before == _ls_uncached(capsys, noted)
    target = _id(noted, "Never force-push to main.")
    record(noted, config_mod.load(noted), target, why="it rewrote a release")  # edited
    edited = _ls(capsys)
    assert edited == _ls_uncached(capsys, noted)
    assert [r["status"] for r in edited if r["id"] == target] == ["documented"]
    (noted / "CLAUDE.md").write_text(RULES + "- Pin every dependency.\n")
    new = next(r["id"] for r in _ls(capsys) if r["text"] == "Pin every dependency.")
    record(noted, config_mod.load(noted), new, why="a minor release broke us")  # added
    assert _ls(capsys) == _ls_uncached(capsys, noted)
    assert [r["status"] for r in _ls(capsys) if r["id"] == new] == ["documented"]
    (noted / ".context" / "notes" / f"{target}.jsonl").unlink()  # removed
    removed = _ls(capsys)
    assert removed == _ls_uncached(capsys, noted)
    assert [r["status"] for r in removed if r["text"] == "Never force-push to main."] == ["orphan"]
    assert target not in notecache.folded_notes(noted)


def test_ls_after_a_branch_switch_and_a_checkout_of_another_commit(noted: Path, capsys) -> None:
    on_main = _ls(capsys)
    git(noted, "checkout", "-q", "-b", "topic")
    target = _id(noted, "Run the tests before every push.")
    record(noted, config_mod.load(noted), target, why="CI is slow to tell")
    commit(noted, {}, "why on topic")
    git(noted, "add", ".context")
    git(noted, "commit", "-q", "--no-verify", "-m", "note on topic")
    on_topic = _ls(capsys)
    assert on_topic != on_main and on_topic == _ls_uncached(capsys, noted)
    git(noted, "checkout", "-q", "main")
    assert _ls(capsys) == on_main == _ls_uncached(capsys, noted)
    git(noted, "checkout", "-q", "topic")
    assert _ls(capsys) == on_topic
    git(noted, "checkout", "-q", "--detach", "HEAD~3")  # the rules commit: no notes yet
    assert notecache.folded_notes(noted) == {} == _fresh(noted)
    assert {r["status"] for r in _ls(capsys)} == {"orphan"}
    assert _ls(capsys) == _ls_uncached(capsys, noted)


def test_folded_notes_same_size_edit_with_the_old_mtime_is_seen(noted: Path) -> None:
    """The key is the bytes, not the file's stat: an edit that keeps size and mtime is still seen."""
    notecache.folded_notes(noted)
    id = _id(noted, "Keep PRs small.")
    path = noted / ".context" / "notes" / f"{id}.jsonl"
    info = path.stat()
    path.write_bytes(path.read_bytes().replace(b"Keep PRs small.", b"Kept PRs small."))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size
    assert notecache.folded_notes(noted)[id].text == "Kept PRs small."


def test_folded_notes_an_invalid_note_is_refused_on_every_read(noted: Path, capsys) -> None:
    notecache.folded_notes(noted)
    path = next((noted / ".context" / "notes").glob("ctx-*.jsonl"))
    path.write_bytes(path.read_bytes() + b"{broken\n")
    for _ in range(2):
        code, _, err = run_cli(capsys, "ls")
        assert code == 2 and path.name in err


def test_folded_notes_cache_of_other_code_or_shape_is_not_trusted(noted: Path, monkeypatch) -> None:
    expected = notecache.folded_notes(noted)
    cache = noted / ".git" / notecache.CACHE
    data = json.loads(cache.read_text())
    parsed = _parses(monkeypatch)
    cache.write_text(json.dumps({**data, "code": [[0, 0]] * 3}))  # another gitcontext's code
    assert notecache.folded_notes(noted) == expected and len(parsed) == 3
    a, b = sorted(expected)[:2]
    cache.write_text(cache.read_text().replace(a, b))  # every entry claims id b
    parsed.clear()
    assert notecache.folded_notes(noted) == expected and len(parsed) >= 1
    oid = next(iter(json.loads(cache.read_text())["states"]))
    saved = json.loads(cache.read_text())["states"][oid]
    fields = notecache.State._fields
    for odd in (
        {"id": a},
        7,
        [*saved[:-2], "3", saved[-1]],
        saved[:-1],
        dict(zip(fields, saved)),
        [*saved[:7], ["not a dict"], *saved[8:]],
    ):
        cache.write_text(json.dumps({**data, "states": {oid: odd}}))
        assert notecache.folded_notes(noted) == expected


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    real = store.read_bytes

    def counting(root, path, *limit):
        read.append(Path(path).name)
        return real(root, path, *limit)

    monkeypatch.setattr(store, "read_bytes", counting)
    return read


def test_folded_notes_unchanged_notes_are_not_read_again(noted: Path, monkeypatch) -> None:
    """Git's own trust: a note whose lstat is exactly the recorded one (size, mtime, ctime, inode) is the
    recorded bytes; racy entries (as new as the clock read before them) converge on the next read."""
    expected = _fresh(noted)
    read = _reads(monkeypatch)
    for _ in range(3):
        read.clear()
        assert notecache.folded_notes(noted) == expected
    assert read == []
    id = _id(noted, "Keep PRs small.")
    record(noted, config_mod.load(noted), id, why="review fatigue")
    expected = _fresh(noted)
    read.clear()
    assert notecache.folded_notes(noted) == expected and read == [f"{id}.jsonl"]


def _settled(noted: Path) -> tuple[Path, dict]:
    """The cache file and its data once three calls have recorded every note's stat data."""
    for _ in range(3):
        notecache.folded_notes(noted)
    cache = noted / ".git" / notecache.CACHE
    return cache, json.loads(cache.read_text())


def test_folded_notes_racy_or_odd_stat_entries_are_read_again(noted: Path, monkeypatch) -> None:
    expected = _fresh(noted)
    cache, data = _settled(noted)
    assert len(data["files"]) == 3
    read = _reads(monkeypatch)
    oldest = min(os.stat(noted / ".context" / "notes" / name).st_mtime_ns for name in data["files"])
    for odd in (
        {**data, "clock": oldest},
        {**data, "clock": "later"},
        {**data, "files": []},
        {**data, "files": {name: [*entry[:4], 7] for name, entry in data["files"].items()}},
        {**data, "files": {name: [str(entry[0]), *entry[1:]] for name, entry in data["files"].items()}},
    ):
        cache.write_text(json.dumps(odd))
        read.clear()
        assert notecache.folded_notes(noted) == expected and len(read) == 3


def test_folded_notes_stat_entry_naming_another_notes_bytes_is_not_trusted(noted: Path, monkeypatch) -> None:
    expected = _fresh(noted)
    cache, data = _settled(noted)
    names = sorted(data["files"])
    oids = [data["files"][n][4] for n in names]
    data["files"] = {
        n: [*data["files"][n][:4], oids[(k + 1) % len(oids)], *data["files"][n][5:]] for k, n in enumerate(names)
    }
    cache.write_text(json.dumps(data))
    read = _reads(monkeypatch)
    assert notecache.folded_notes(noted) == expected and len(read) == 3


def test_folded_notes_note_turned_symlink_is_refused_despite_the_cache(noted: Path, tmp_path: Path) -> None:
    for _ in range(3):
        notecache.folded_notes(noted)
    path = next((noted / ".context" / "notes").glob("ctx-*.jsonl"))
    copy = tmp_path / "elsewhere.jsonl"
    copy.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(copy)
    with pytest.raises(UserError, match="symlink"):
        notecache.folded_notes(noted)


def test_folded_notes_hook_save_without_stat_data_reads_again(noted: Path, monkeypatch) -> None:
    """The commit hook saves states alone (it names notes by the index's blob ids): the next read
    reads every note once, as after any other cache loss, and gives the same states."""
    expected = _fresh(noted)
    notecache.folded_notes(noted)
    notecache.save(noted / ".git", {oid: s for oid, s in notecache.load(noted / ".git").items()})
    read = _reads(monkeypatch)
    assert notecache.folded_notes(noted) == expected and len(read) == 3


def test_folded_notes_reparse_the_cache_file_only_when_its_bytes_change(noted: Path, monkeypatch) -> None:
    """A long-running process (the language server) folds the notes on every request: the cache file is
    read every time and parsed again only when its bytes differ from the last parse."""
    cache, data = _settled(noted)
    parses: list[int] = []
    real = notecache._parse

    def counting(raw: bytes):
        parses.append(len(raw))
        return real(raw)

    monkeypatch.setattr(notecache, "_parse", counting)
    expected = _fresh(noted)
    for _ in range(3):
        assert notecache.folded_notes(noted) == expected
    assert len(parses) <= 1  # the first call of this test may parse (another test's bytes were last)
    parses.clear()
    cache.write_text(json.dumps(data, indent=1))  # the same entries, other bytes
    assert notecache.folded_notes(noted) == expected and len(parses) == 1
    id = _id(noted, "Keep PRs small.")
    record(noted, config_mod.load(noted), id, why="review fatigue")
    assert notecache.folded_notes(noted) == _fresh(noted)
    assert notecache.folded_notes(noted)[id].why == "review fatigue"


def test_override_free_names_only_unchanged_notes_recorded_without_the_mark(noted: Path) -> None:
    """`history.overrides` skips the notes this names: each one's stat data as recorded (trusted as
    `folded_notes` trusts it) and its bytes recorded as never saying `"override":`."""
    cache, data = _settled(noted)
    names = sorted(data["files"])
    assert notecache.override_free(noted) == set(names) and len(names) == 3
    edited = noted / ".context" / "notes" / names[0]
    edited.write_bytes(edited.read_bytes() + b'{"override": "reworded"}\n')
    assert notecache.override_free(noted) == set(names[1:])  # its stat changed: read again
    data["files"][names[1]][5] = True
    cache.write_text(json.dumps(data))
    assert notecache.override_free(noted) == {names[2]}
    data["files"][names[2]] = data["files"][names[2]][:5]  # an entry of the old shape says nothing
    cache.write_text(json.dumps(data))
    assert notecache.override_free(noted) == set()


def test_override_free_entries_record_what_the_bytes_say(noted: Path) -> None:
    _, data = _settled(noted)
    for name, entry in data["files"].items():
        assert entry[5] is (notecache.OVERRIDE_MARK in (noted / ".context" / "notes" / name).read_bytes())
