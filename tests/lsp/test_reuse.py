"""The language server's analysis computes the world of a saved buffer once for the audit and the
diagnostics, and only when the buffer is the file on disk; never a world of other notes or files."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext.audit import context
from gitcontext.lsp.buffer import Document, analysed, find_repo
from gitcontext.lsp.findings import file_findings
from gitcontext.lsp.problems import buffer_problems, saved_audit
from gitcontext.provenance.record import record
from tests.helpers import backfilled

RULES = "# Rules\n\n- Run the tests before every push.\n- Never force-push to main.\n"
ADDED = "- Always regenerate the client before the tests.\n"


@pytest.fixture
def doc(repo: Path) -> Document:
    backfilled(repo, {"CLAUDE.md": RULES})
    (repo / "CLAUDE.md").write_text(RULES + ADDED)  # saved, not committed: GC302 and a refusal see it
    found = find_repo(repo / "CLAUDE.md")
    assert found is not None
    return Document(found, "CLAUDE.md", (repo / "CLAUDE.md").read_text())


@pytest.fixture
def audit_worlds(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The work trees whose world an audit computed itself."""
    computed: list[Path] = []
    real = context.world

    def counting(root, config):
        computed.append(Path(root))
        return real(root, config)

    monkeypatch.setattr(context, "world", counting)
    return computed


def test_a_saved_buffer_is_analysed_once_for_the_audit_and_its_diagnostics(doc: Document, audit_worlds) -> None:
    found, w = saved_audit(doc)
    assert audit_worlds == []  # the audit took the buffer's world
    assert found == file_findings(doc.repo, doc.path) and len(audit_worlds) == 1  # as an audit of its own finds
    assert [f.check for f in found if f.check == "GC302"] == ["GC302"]
    assert w is not None
    problems, used = buffer_problems(doc, w)
    assert used is w and [p.code for p in problems] == ["no-why"]
    assert problems == buffer_problems(doc)[0]


def test_an_unsaved_buffer_is_not_the_audits_world(doc: Document, audit_worlds) -> None:
    edited = doc._replace(text=doc.text + "- Pin every dependency.\n")
    w, saved = analysed(edited)
    assert not saved and len(w.instructions["CLAUDE.md"]) == 4
    found, _ = saved_audit(edited)
    assert len(audit_worlds) == 1  # the audit read the file as saved
    assert found == file_findings(doc.repo, doc.path)


def test_a_why_recorded_outside_the_editor_is_seen_by_the_next_save(doc: Document) -> None:
    first, w = saved_audit(doc)
    assert w is not None and buffer_problems(doc, w)[0]
    new_id = next(p.id for p in buffer_problems(doc, w)[0] if p.code == "no-why")
    assert new_id is not None
    record(doc.repo.root, doc.repo.config, new_id, why="the client drifted from the schema twice")
    again, w2 = saved_audit(doc)
    assert w2 is not None and w2.states[new_id].why == "the client drifted from the schema twice"
    assert buffer_problems(doc, w2)[0] == []
    assert not [f for f in again if f.check == "GC302"]  # nothing added without a rationale now
    assert [f for f in first if f.check == "GC302"]
