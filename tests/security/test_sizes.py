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
