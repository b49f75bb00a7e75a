"""Hostile sizes (issue 29, "Attack"): bounded work per commit and per file, with a documented limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext.provenance.store import read_note
from gitcontext.provenance.sync import MAX_TRAILERS
from tests.helpers import backfilled, commit, run_cli, run_json


def test_sync_reads_at_most_max_trailers_from_one_commit(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    backfilled(repo, {"AGENTS.md": "# Rules\n\n- Keep modules small.\n"})
    ident = run_json(capsys, "show", "Keep modules")["id"]
    extra = 40
    whys = "".join(f"Context-Why: {ident} reason number {n} for it\n" for n in range(MAX_TRAILERS + extra))
    commit(repo, {"AGENTS.md": "# Rules\n\n- Keep modules small.\n- Another rule here.\n"}, "many\n\n" + whys)
    code, out, err = run_cli(capsys, "sync")
    assert code == 0, err
    assert f"{extra} trailer(s) skipped" in err and f"past the {MAX_TRAILERS}" in err
    linked = [e for e in read_note(repo, ident) if e["kind"] == "linked"]
    assert len(linked) == MAX_TRAILERS


def test_merge_driver_falls_back_at_once_on_a_context_file_with_a_huge_line(tmp_path: Path) -> None:
    from gitcontext.merge import driver
    from gitcontext.merge.markers import Labels, Merged

    called: list[bool] = []

    def never(*args: object) -> Merged:
        called.append(True)
        return Merged(b"structured\n", 0)

    line = "x" * (driver.MAX_CONTEXT_LINE + 1)
    paths = [tmp_path / n for n in "OAB"]
    for path, tail in zip(paths, ("", "- ours\n", "- theirs\n")):
        path.write_text(f"- {line}\n{tail}")
    mergers = [(lambda p: True, never)]
    code = driver.run(*paths, 7, "AGENTS.md", Labels(), mergers=mergers)
    assert code == 1 and not called
    assert b"<<<<<<<" in paths[1].read_bytes()
    for path, tail in zip(paths, ("", "- ours\n", "- theirs\n")):
        path.write_text(f"- short line\n{tail}")
    assert driver.run(*paths, 7, "AGENTS.md", Labels(), mergers=mergers) == 0 and called


def test_radius_query_stops_at_a_bounded_depth_on_absurd_nesting() -> None:
    pytest.importorskip("tree_sitter_javascript")
    from gitcontext.radius import treesitter
    from gitcontext.radius.languages import language_of

    lang = language_of("a.js")
    assert lang is not None
    n = 40_000  # past tree-sitter's 32,768 levels, where its query cursor turned super-linear
    data = ("".join(f"function f{i}(){{" for i in range(n)) + "}" * n + "\n").encode()
    parsed = treesitter.parse(lang, data)
    assert "f0" in parsed.definitions and len(parsed.definitions) < treesitter.MAX_START_DEPTH
    shallow = treesitter.parse(lang, b"import {x} from './x.js';\nfunction a(){ function b(){} }\n")
    assert set(shallow.definitions) == {"a", "b"} and shallow.imports
