"""`git context lsp` in a real session: hover, diagnostics after an edit, record, definition, no store."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from lsprotocol import types

from tests.helpers import backfilled, commit, git, run_cli, run_json, write
from tests.lsp.conftest import DIAGNOSTICS, PATIENCE, changed, expect, opened, saved, session, uri

pytestmark = pytest.mark.asyncio

RULES = """# Rules

@docs/testing.md

- Use uv for every Python install; pip broke the lockfile.
- Run `make check` before pushing; see `scripts/check.sh`.
- Never read ../secret.txt when testing.
"""
NEW_RULE = "- Always run codegen before the tests.\n"


def _repo(repo: Path, capsys) -> Path:
    write(repo, "docs/testing.md", "# Testing\n\n- Tests run with pytest -q.\n")
    write(repo, "scripts/check.sh", "#!/bin/sh\n")
    commit(repo, {"docs/testing.md": "# Testing\n\n- Tests run with pytest -q.\n", "scripts/check.sh": "#!/bin/sh\n"})
    backfilled(repo, {"CLAUDE.md": RULES})
    code, _, err = run_cli(capsys, "record", "uv for every", "--why", "pip broke the lockfile twice in CI")
    assert code == 0, err
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "Record the uv why")
    return repo


def _line(text: str, fragment: str) -> int:
    """0-based line of FRAGMENT in TEXT."""
    return next(n for n, line in enumerate(text.split("\n")) if fragment in line)


async def test_hover_shows_why_birth_and_author(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    async with session(repo) as client:
        await opened(client, repo / "CLAUDE.md")
        at = types.Position(_line(RULES, "uv for every"), 4)
        got = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri(repo / "CLAUDE.md")), at)
        )
        assert got is not None
        text = got.contents.value
        assert "pip broke the lockfile twice in CI" in text
        assert "documented" in text and "ctx-" in text
        assert "“rules” by Test User" in text  # the birth commit's subject and author
        heading = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri(repo / "CLAUDE.md")), types.Position(0, 2))
        )
        assert heading is None  # a heading is payload


async def test_edit_adds_rule_without_why_then_record_clears_it(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    path = repo / "CLAUDE.md"
    async with session(repo) as client:
        first = await opened(client, path)
        assert not [d for d in first if d.code == "no-why"]
        edited = RULES + NEW_RULE
        after = await changed(client, path, edited, 2)
        refused = [d for d in after if d.code == "no-why"]
        assert len(refused) == 1, after
        assert refused[0].range.start.line == _line(edited, "codegen")
        assert refused[0].severity == types.DiagnosticSeverity.Error  # hooks.policy: enforce
        path.write_text(edited)
        await saved(client, path)
        acts = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri(path)),
                types.Range(types.Position(_line(edited, "codegen"), 0), types.Position(_line(edited, "codegen"), 3)),
                types.CodeActionContext(diagnostics=refused),
            )
        )
        assert acts is not None
        titles = [a.title for a in acts]
        assert titles == ["gitcontext: record why…", "gitcontext: show blame", "gitcontext: trial this rule…"]
        record = acts[0].command
        assert record is not None and record.arguments is not None
        id = record.arguments[1]
        snippet = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(record.command, record.arguments)
        )
        assert snippet["written"] is False and f"git context record {id}" in snippet["snippet"]
        assert not (repo / ".context" / "notes" / f"{id}.jsonl").exists()
        waiting = expect(client, DIAGNOSTICS)
        done = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(record.command, [*record.arguments, "the generated client was stale, 3 CI runs"])
        )
        assert done["written"] is True
        await asyncio.wait_for(waiting, PATIENCE)
        assert not [d for d in client.diagnostics[uri(path)] if d.code == "no-why"]
    events = [json.loads(x) for x in (repo / ".context" / "notes" / f"{id}.jsonl").read_text().splitlines()]
    assert [e["kind"] for e in events] == ["added", "linked"]
    assert events[1]["why"] == "the generated client was stale, 3 CI runs" and events[1]["source"] == "cli"
    assert events[0]["text"] == "Always run codegen before the tests."


async def test_record_redacts_a_secret_in_the_why(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    path = repo / "CLAUDE.md"
    async with session(repo) as client:
        await opened(client, path)
        acts = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri(path)),
                types.Range(
                    types.Position(_line(RULES, "make check"), 0), types.Position(_line(RULES, "make check"), 0)
                ),
                types.CodeActionContext(diagnostics=[]),
            )
        )
        assert acts and acts[0].command and acts[0].command.arguments
        args = acts[0].command.arguments
        secret = "ghp_" + "a1B2" * 9
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(acts[0].command.command, [*args, f"CI leaked {secret} once"])
        )
    text = (repo / ".context" / "notes" / f"{args[1]}.jsonl").read_text()
    assert secret not in text and "REDACTED" in text


async def test_blame_and_trial_commands(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    path = repo / "CLAUDE.md"
    async with session(repo) as client:
        await opened(client, path)
        at = types.Position(_line(RULES, "uv for every"), 0)
        acts = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri(path)), types.Range(at, at), types.CodeActionContext([])
            )
        )
        assert acts is not None
        blame = next(a.command for a in acts if a.command and a.command.command == "gitcontext.showBlame")
        trial = next(a.command for a in acts if a.command and a.command.command == "gitcontext.trialRule")
        shown = await client.workspace_execute_command_async(types.ExecuteCommandParams(blame.command, blame.arguments))
        id = blame.arguments[1]
        assert id in shown["text"] and "uv" in shown["text"]
        said = await client.workspace_execute_command_async(types.ExecuteCommandParams(trial.command, trial.arguments))
        assert said["command"].startswith(f"git context trial {id} --run ")


async def test_definition_follows_imports_and_paths_inside_the_tree_only(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    (repo.parent / "secret.txt").write_text("outside\n")
    path = repo / "CLAUDE.md"
    doc = types.TextDocumentIdentifier(uri(path))
    async with session(repo) as client:
        await opened(client, path)
        imported = await client.text_document_definition_async(
            types.DefinitionParams(doc, types.Position(_line(RULES, "@docs"), 3))
        )
        assert isinstance(imported, types.Location) and imported.uri == uri(repo / "docs" / "testing.md")
        script = await client.text_document_definition_async(
            types.DefinitionParams(
                doc,
                types.Position(
                    _line(RULES, "scripts/check.sh"),
                    RULES.split("\n")[_line(RULES, "scripts/check")].index("scripts") + 2,
                ),
            )
        )
        assert isinstance(script, types.Location) and script.uri == uri(repo / "scripts" / "check.sh")
        outside = await client.text_document_definition_async(
            types.DefinitionParams(
                doc, types.Position(_line(RULES, "secret"), RULES.split("\n")[_line(RULES, "secret")].index("secret"))
            )
        )
        assert outside is None


async def test_repository_without_context_says_how_to_start(repo: Path) -> None:
    commit(repo, {"AGENTS.md": "- Run the linter before every commit.\n"})
    before = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts)
    async with session(repo) as client:
        found = await opened(client, repo / "AGENTS.md")
        assert [d.code for d in found] == ["no-store"]
        assert "git context init" in found[0].message
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri(repo / "AGENTS.md")), types.Position(0, 3))
        )
        assert hover is None
    after = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if ".git" not in p.parts)
    assert after == before  # nothing written


async def test_outside_a_repository_nothing_and_no_crash(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    path = folder / "CLAUDE.md"
    path.write_text("- Use uv for every install.\n")
    async with session(folder) as client:
        assert await opened(client, path) == []
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri(path)), types.Position(0, 3))
        )
        assert hover is None
    assert sorted(p.name for p in folder.iterdir()) == ["CLAUDE.md"]


async def test_a_bad_note_is_a_diagnostic_naming_it(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    note = next((repo / ".context" / "notes").glob("*.jsonl"))
    note.write_text(note.read_text() + "{not json\n")
    async with session(repo) as client:
        found = await opened(client, repo / "CLAUDE.md")
    bad = [d for d in found if d.code == "bad-input"]
    assert bad and note.name in bad[0].message and "fix:" in bad[0].message


async def test_audit_default_on_findings_only_for_the_file(repo: Path, capsys) -> None:
    """A verification that failed is GC107, default-on (a fact of the record): shown on its line."""
    _repo(repo, capsys)
    code, _, err = run_cli(capsys, "verify", "uv for every", "--run", "exit 3")
    assert code == 1, err
    async with session(repo) as client:
        found = await opened(client, repo / "CLAUDE.md")
    codes = {d.code for d in found}
    assert "GC107" in codes, found
    assert "GC100" not in codes  # experimental: left to `git context audit --experimental`
    gc107 = next(d for d in found if d.code == "GC107")
    assert gc107.range.start.line == _line(RULES, "uv for every")


async def test_definition_through_a_symlink_out_of_the_tree_is_nothing(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    (repo.parent / "secret.txt").write_text("outside\n")
    (repo / "docs" / "escape.md").symlink_to(repo.parent / "secret.txt")
    path = repo / "CLAUDE.md"
    text = RULES + "- Read `docs/escape.md` before releasing.\n"
    path.write_text(text)
    async with session(repo) as client:
        await opened(client, path)
        row = text.split("\n")[_line(text, "escape")]
        got = await client.text_document_definition_async(
            types.DefinitionParams(
                types.TextDocumentIdentifier(uri(path)), types.Position(_line(text, "escape"), row.index("escape"))
            )
        )
    assert got is None


async def test_record_of_an_unsaved_rule_writes_nothing_and_says_save(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    path = repo / "CLAUDE.md"
    notes = sorted(p.name for p in (repo / ".context" / "notes").iterdir())
    async with session(repo) as client:
        await opened(client, path)
        edited = RULES + NEW_RULE
        await changed(client, path, edited, 2)
        at = types.Position(_line(edited, "codegen"), 0)
        acts = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri(path)), types.Range(at, at), types.CodeActionContext([])
            )
        )
        assert acts and acts[0].command and acts[0].command.arguments
        said = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(acts[0].command.command, [*acts[0].command.arguments, "stale generated client"])
        )
    assert said["written"] is False and "save the file" in said["error"]
    assert sorted(p.name for p in (repo / ".context" / "notes").iterdir()) == notes


async def test_a_config_that_does_not_parse_is_a_diagnostic(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    (repo / ".context" / "config.yml").write_text("hooks:\n  polcy: enforce\n")
    async with session(repo) as client:
        found = await opened(client, repo / "CLAUDE.md")
    assert [d.code for d in found] == ["bad-input"]
    assert "config.yml" in found[0].message and "polcy" in found[0].message


async def test_hover_shows_the_pending_suggested_why(repo: Path, capsys) -> None:
    from gitcontext.provenance import suggestions
    from gitcontext.provenance.events import new_event

    _repo(repo, capsys)
    shown = run_json(capsys, "show", "make check")
    assert shown["why"] is None
    sha = git(repo, "rev-parse", "HEAD~1").strip()
    event = new_event(
        "suggested", shown["id"], f"backfill:{sha}", why="CI failed twice on lint", commit=sha, **{"class": "specific"}
    )
    assert suggestions.append(repo, [event]) == 1
    async with session(repo) as client:
        await opened(client, repo / "CLAUDE.md")
        got = await client.text_document_hover_async(
            types.HoverParams(
                types.TextDocumentIdentifier(uri(repo / "CLAUDE.md")), types.Position(_line(RULES, "make check"), 4)
            )
        )
    assert got is not None
    assert "suggested why" in got.contents.value and "CI failed twice on lint" in got.contents.value
    assert "orphan" in got.contents.value


async def test_under_policy_warn_a_rule_without_why_is_a_warning(repo: Path, capsys) -> None:
    _repo(repo, capsys)
    (repo / ".context" / "config.yml").write_text("hooks:\n  policy: warn\n")
    path = repo / "CLAUDE.md"
    async with session(repo) as client:
        await opened(client, path)
        after = await changed(client, path, RULES + NEW_RULE, 2)
    refused = [d for d in after if d.code == "no-why"]
    assert [d.severity for d in refused] == [types.DiagnosticSeverity.Warning]
    assert "the commit hook warns" in refused[0].message


async def test_hover_answers_while_the_audit_of_a_save_runs(repo: Path) -> None:
    """The audit runs off the event loop: a hover sent right after a save is answered before the
    save's audit publishes (on the loop, the save's audit would answer first: messages are handled in order)."""
    rules = "# Rules\n\n" + "".join(f"- Rule {n}: always run step {n} before step {n + 1} in CI.\n" for n in range(600))
    backfilled(repo, {"CLAUDE.md": rules})
    path = repo / "CLAUDE.md"
    at = types.HoverParams(types.TextDocumentIdentifier(uri(path)), types.Position(_line(rules, "Rule 7:"), 4))
    async with session(repo) as client:
        await opened(client, path)
        assert await client.text_document_hover_async(at) is not None  # warm: the version's world is kept
        audited = expect(client, DIAGNOSTICS)
        client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri(path))))
        got = await asyncio.wait_for(client.text_document_hover_async(at), PATIENCE)
        assert got is not None and "ctx-" in got.contents.value
        assert not audited.done(), "the hover waited for the audit"
        await asyncio.wait_for(audited, PATIENCE)


async def test_saves_during_an_audit_publish_once_for_the_newest(repo: Path) -> None:
    """Saves that arrive while an audit runs are coalesced: one more run, and only its result is published."""
    rules = "# Rules\n\n" + "".join(f"- Rule {n}: always run step {n} before step {n + 1} in CI.\n" for n in range(300))
    backfilled(repo, {"CLAUDE.md": rules})
    path = repo / "CLAUDE.md"
    async with session(repo) as client:
        await opened(client, path)
        first = expect(client, DIAGNOSTICS)
        for _ in range(4):
            client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri(path))))
        await asyncio.wait_for(first, PATIENCE)
        second = expect(client, DIAGNOSTICS)
        with pytest.raises(asyncio.TimeoutError):  # the stale runs published nothing
            await asyncio.wait_for(asyncio.shield(second), 3)
