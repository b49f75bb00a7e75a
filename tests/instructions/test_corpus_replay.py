"""Replay real histories from the shared corpus and check the diff's bookkeeping on every commit pair.

Every instruction of version N+1 is unchanged, reworded, moved or added; every instruction of
version N is unchanged, reworded, moved out or removed; nothing is counted twice. Skips cleanly
when /work/shared is absent (CI).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.instructions.discover import load
from tests.helpers import build_corpus_repo, git, run_json

# (corpus name, event cap): small-to-medium histories with a rewrite (biome, crewAI), a migration
# between sibling files (crush CRUSH.md -> AGENTS.md, cline CLAUDE.md -> .clinerules/) and many folders.
HISTORIES = [("biomejs__biome", 14), ("crewAIInc__crewAI", 23), ("charmbracelet__crush", 29), ("cline__cline", 40)]


def _keys(instructions) -> Counter:
    return Counter((i.file, i.line, i.text) for i in instructions)


@pytest.mark.parametrize("name, cap", HISTORIES, ids=[h[0] for h in HISTORIES])
def test_corpus_replay_diff_accounts_for_every_instruction(repo: Path, capsys, name: str, cap: int) -> None:
    build_corpus_repo(repo, name, limit=cap)
    commits = git(repo, "rev-list", "--reverse", "HEAD").split()
    config = config_mod.load(repo)
    previous = {}
    totals = Counter()
    for before, after in zip([None, *commits], commits):
        current = load(repo, config, after)
        old = [i for insts in previous.values() for i in insts]
        new = [i for insts in current.values() for i in insts]
        data = run_json(capsys, "diff", before, after) if before else None
        previous = current
        if data is None:
            continue
        moved_new = Counter((m["file"], m["line"], m["text"]) for m in data["moved"])
        seen_new = (
            Counter((a["file"], a["line"], a["text"]) for a in data["added"])
            + Counter((r["file"], r["line"], r["text"]) for r in data["reworded"])
            + moved_new
        )
        assert not seen_new - _keys(new), "diff reports an instruction that is not in the new version"
        assert len(new) == data["unchanged"] + len(data["reworded"]) + len(data["moved"]) + len(data["added"])
        assert len(old) == data["unchanged"] + len(data["reworded"]) + len(data["moved"]) + len(data["removed"])
        assert not Counter((r["file"], r["line"], r["text"]) for r in data["removed"]) - _keys(old)
        assert all(m["old_file"] != m["file"] for m in data["moved"])
        assert set(data["rewrites"]) <= {p for p in {i.file for i in old}}
        totals.update({k: len(data[k]) for k in ("added", "removed", "reworded", "moved", "rewrites")})
    assert totals["added"] > 0 and totals["reworded"] + totals["removed"] > 0
    if name in ("biomejs__biome", "crewAIInc__crewAI"):  # the corpus README's wholesale rewrites
        assert totals["rewrites"] > 0


def test_corpus_replay_sees_the_crush_migration(repo: Path, capsys) -> None:
    build_corpus_repo(repo, "charmbracelet__crush", limit=29)
    commits = git(repo, "rev-list", "--reverse", "HEAD").split()
    moves = [m for a, b in zip(commits, commits[1:]) for m in run_json(capsys, "diff", a, b)["moved"]]
    assert any(m["old_file"] == "CRUSH.md" and m["file"] == "AGENTS.md" for m in moves)
