"""The driver's contract: writes only %A, falls back to `git merge-file` on any trouble."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gitcontext.merge import driver
from gitcontext.merge.markers import Labels, Merged, labels_from, marker_size
from tests.helpers import run_cli

NOTE = ".context/notes/ctx-0123456789ab.jsonl"
E1 = '{"at":"2026-01-01T00:00:00Z","eid":"e-1","id":"ctx-0123456789ab","kind":"added","source":"cli","v":1}\n'
E2 = '{"at":"2026-01-02T00:00:00Z","eid":"e-2","id":"ctx-0123456789ab","kind":"recurred","source":"cli","v":1}\n'
E3 = '{"at":"2026-01-03T00:00:00Z","eid":"e-3","id":"ctx-0123456789ab","kind":"recurred","source":"cli","v":1}\n'


def _files(tmp_path: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[Path, Path, Path]:
    paths = (tmp_path / "O", tmp_path / "A", tmp_path / "B")
    for path, data in zip(paths, (base, ours, theirs)):
        path.write_bytes(data)
    return paths


def _boom(*args: object) -> Merged:
    raise RuntimeError("internal error")


def _slow(*args: object) -> Merged:
    time.sleep(5)
    return Merged(b"late\n", 0)


@pytest.mark.parametrize("merger", [_boom, _slow])
def test_driver_internal_error_or_timeout_falls_back_to_merge_file(tmp_path: Path, merger) -> None:
    o, a, b = _files(tmp_path, b"- one rule here\n", b"- one rule here\n- ours\n", b"- one rule here\n- theirs\n")
    code = driver.run(o, a, b, 7, "CLAUDE.md", Labels(), mergers=[(lambda p: True, merger)], time_limit=0.2)
    assert code == 1
    assert a.read_bytes() == b"- one rule here\n<<<<<<< ours\n- ours\n=======\n- theirs\n>>>>>>> theirs\n"


def test_driver_switched_off_does_plain_line_merge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITCONTEXT_MERGE", "0")
    o, a, b = _files(tmp_path, E1.encode(), (E1 + E3).encode(), (E1 + E2).encode())
    assert driver.run(o, a, b, 7, NOTE, Labels()) == 1
    assert a.read_bytes() == f"{E1}<<<<<<< ours\n{E3}=======\n{E2}>>>>>>> theirs\n".encode()


def test_driver_writes_only_ours(tmp_path: Path) -> None:
    o, a, b = _files(tmp_path, E1.encode(), (E1 + E3).encode(), (E1 + E2).encode())
    before = sorted(p.name for p in tmp_path.iterdir())
    assert driver.run(o, a, b, 7, NOTE, Labels()) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (o.read_bytes(), b.read_bytes()) == (E1.encode(), (E1 + E2).encode())
    assert a.read_bytes() == (E1 + E2 + E3).encode()


def test_driver_binary_input_keeps_both_sides_between_markers(tmp_path: Path) -> None:
    o, a, b = _files(tmp_path, b"\0base", b"\0ours", b"\0theirs")
    assert driver.run(o, a, b, 9, "CLAUDE.md", Labels("b", "main", "topic")) == 1
    assert a.read_bytes() == b"<<<<<<<<< main\n\0ours\n=========\n\0theirs\n>>>>>>>>> topic\n"


def test_driver_mixed_line_endings_fall_back_to_git(tmp_path: Path) -> None:
    base = b"- alpha rule\r\n- beta rule\n"
    o, a, b = _files(tmp_path, base, base + b"- gamma rule\r\n", base)
    assert driver.run(o, a, b, 7, "AGENTS.md", Labels()) == 0
    assert a.read_bytes() == base + b"- gamma rule\r\n"


def test_driver_marker_size_and_labels_are_used(tmp_path: Path) -> None:
    o, a, b = _files(tmp_path, b"- use uv always\n", b"- use pip always\n", b"- use poetry always\n")
    assert driver.run(o, a, b, 9, "CLAUDE.md", Labels("base", "HEAD", "feature")) == 1
    assert a.read_bytes() == (b"<<<<<<<<< HEAD\n- use pip always\n=========\n- use poetry always\n>>>>>>>>> feature\n")


def test_driver_notes_with_newer_schema_keep_every_line(tmp_path: Path) -> None:
    newer = E3.replace('"v":1', '"v":2')
    o, a, b = _files(tmp_path, E1.encode(), (E1 + newer).encode(), (E1 + E2).encode())
    assert driver.run(o, a, b, 7, NOTE, Labels()) == 1
    assert newer.encode() in a.read_bytes() and E2.encode() in a.read_bytes()


def test_labels_from_old_git_placeholders_fall_back_to_defaults() -> None:
    assert labels_from(["%S", "%X", "%Y"]) == Labels("base", "ours", "theirs")
    assert labels_from(["merged common ancestors", "HEAD", "topic"]) == Labels(
        "merged common ancestors", "HEAD", "topic"
    )
    assert marker_size("%L") == 7 and marker_size("11") == 11


def test_merge_driver_cmd_missing_file_is_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(
        capsys, "merge-driver", str(tmp_path / "nope"), str(tmp_path / "A"), str(tmp_path / "B"), "7", "CLAUDE.md"
    )
    assert code == 2
    assert "%O file does not exist" in err


def test_choose_routes_by_path() -> None:
    names = {
        p: getattr(driver.choose(p), "__name__", None)
        for p in (
            NOTE,
            ".context/rulings.jsonl",
            ".context/asks.jsonl",
            ".context/config.yml",
            "docs/CLAUDE.md",
            ".context/notes/.gitkeep",
            "",
        )
    }
    assert names == {
        NOTE: "merge_notes",
        ".context/rulings.jsonl": "merge_ledger",
        ".context/asks.jsonl": "merge_ledger",
        ".context/config.yml": None,
        "docs/CLAUDE.md": "merge_context",
        ".context/notes/.gitkeep": None,
        "": None,
    }
