"""The notes store: append-only, idempotent by eid, atomic, validated, and `init_store`."""

from __future__ import annotations

import os

import pytest

from gitcontext.errors import UserError
from gitcontext.provenance.events import dumps, new_event
from gitcontext.provenance.store import (
    NOTES_DIR,
    all_notes,
    append_events,
    init_store,
    note_path,
    read_note,
    validate_note_text,
)
from tests.helpers import commit, run_cli

ID = "ctx-0123456789ab"


def _event(n: int, kind: str = "recurred", **fields):
    fields = fields or {"failure": f"boom {n}"}
    return new_event(kind, ID, "cli", at=f"2026-11-29T19:30:{n:02d}Z", eid=f"e-{n:016x}", **fields)


def test_append_events_appends_and_skips_known_eids(repo):
    assert append_events(repo, [_event(1), _event(2)]) == 2
    before = note_path(repo, ID).read_bytes()
    assert append_events(repo, [_event(2), _event(3)]) == 1
    after = note_path(repo, ID).read_bytes()
    assert after.startswith(before)
    assert [e["eid"] for e in read_note(repo, ID)] == [f"e-{n:016x}" for n in (1, 2, 3)]
    assert not [p for p in os.listdir(repo / NOTES_DIR) if p.endswith(".tmp")]
    assert oct((repo / NOTES_DIR / f"{ID}.jsonl").stat().st_mode & 0o777) != "0o600"


def test_append_events_validates_everything_before_writing(repo):
    append_events(repo, [_event(1)])
    before = note_path(repo, ID).read_bytes()
    bad = dict(_event(2), kind="exploded")
    with pytest.raises(UserError, match="unknown kind"):
        append_events(repo, [_event(3), bad])
    assert note_path(repo, ID).read_bytes() == before


def test_validate_note_text_rejects_non_canonical_duplicate_and_foreign_lines():
    path = f"{NOTES_DIR}/{ID}.jsonl"
    good = dumps(_event(1))
    assert len(validate_note_text(path, good)) == 1
    with pytest.raises(UserError, match=r":2: duplicate event id"):
        validate_note_text(path, good + good)
    with pytest.raises(UserError, match=r":1: note line is not in the canonical form"):
        validate_note_text(path, good.replace(",", ", ", 1))
    with pytest.raises(UserError, match="does not end with a newline"):
        validate_note_text(path, good.rstrip("\n"))
    with pytest.raises(UserError, match="in the note of ctx-aaaaaaaaaaaa"):
        validate_note_text(f"{NOTES_DIR}/ctx-aaaaaaaaaaaa.jsonl", good)


def test_corrupt_note_line_exits_2_naming_file_and_line(repo, capsys):
    commit(repo, {"CLAUDE.md": "- Use uv for every install.\n"})
    append_events(repo, [_event(1), _event(2)])
    path = note_path(repo, ID)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + '{"truncated": \n')
    before = path.read_bytes()
    code, _, err = run_cli(capsys, "ls")
    assert code == 2
    assert f"{NOTES_DIR}/{ID}.jsonl:2: corrupt note line" in err
    assert path.read_bytes() == before  # never repaired by rewriting


def test_note_path_rejects_things_that_are_not_ids(repo):
    with pytest.raises(UserError):
        note_path(repo, "../../etc/passwd")


def test_init_store_is_idempotent_and_never_overwrites(repo):
    created = init_store(repo)
    assert set(created) >= {".context/", ".context/notes/", ".context/config.yml", ".context/README.md"}
    (repo / ".context/config.yml").write_text("version: 1\nmatcher: paper\n")
    assert init_store(repo) == []
    assert (repo / ".context/config.yml").read_text() == "version: 1\nmatcher: paper\n"


def test_init_store_config_lists_defaults_and_loads_as_defaults(repo):
    from gitcontext import config

    init_store(repo)
    text = (repo / ".context/config.yml").read_text()
    assert "# audit:" in text and "#   stale_days: 90" in text
    assert config.load(repo) == config.DEFAULTS
    assert all_notes(repo) == {}


def test_notes_keep_unicode_line_separators_inside_strings(repo):
    odd = "why\u2028with\u0085separators\u2029and\x1cmore"
    append_events(repo, [_event(1, "linked", why=odd), _event(2)])
    assert read_note(repo, ID)[0]["why"] == odd
    assert note_path(repo, ID).read_bytes().count(b"\n") == 2


def test_a_note_that_is_not_utf8_is_an_error_naming_the_file(repo):
    append_events(repo, [_event(1)])
    note_path(repo, ID).write_bytes(note_path(repo, ID).read_bytes() + b"\xff\n")
    with pytest.raises(UserError, match=r"ctx-0123456789ab.jsonl:2: note is not valid UTF-8"):
        append_events(repo, [_event(2)])
