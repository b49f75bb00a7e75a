"""The language server: pygls wiring over the analysis of `gitcontext.lsp` (only this module imports pygls).

Documents are served when they are context files of a git work tree; anything else gets nothing.
Diagnostics: the buffer's refusals on change (debounced); on open and save, the audit's default-on
findings with them. The audit runs on a worker thread, never on the event loop, so hover, code
actions and edits are answered while it runs; one audit of a document runs at a time, and a save
that arrives during it asks for one more run (the result of the stale run is dropped, never published).
Hover, code actions, the three commands, and go-to-definition.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from gitcontext.errors import GitContextError
from gitcontext.lsp import actions
from gitcontext.lsp.buffer import Document, at_line, find_repo, is_context_file, repo_path
from gitcontext.lsp.problems import Problem, bad_input, buffer_problems, placed, saved_audit

DEBOUNCE_SECONDS = 0.3
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
}


class ContextServer(LanguageServer):
    def __init__(self) -> None:
        import gitcontext

        super().__init__("gitcontext", gitcontext.__version__)
        self.findings: dict[str, Any] = {}  # uri -> the last audit findings (or the Problem that stopped it)
        self.worlds: dict[str, tuple[int | None, Any]] = {}  # uri -> (version, World) of the last analysis
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.served: dict[str, bool] = {}  # uri -> a context file? (asked again on open, save and close)
        self.auditor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gitcontext-audit")
        self.auditing: dict[str, asyncio.Task] = {}  # uri -> its audit in flight
        self.stale: set[str] = set()  # uris saved again while their audit ran

    def document(self, uri: str) -> Document | Problem | None:
        """URI's document when it is a context file of a git work tree (a bad config: its Problem)."""
        fs = to_fs_path(uri)
        if fs is None:
            return None
        file = Path(fs)
        try:
            repo = find_repo(file)
        except GitContextError as exc:
            return bad_input(exc)
        path = repo_path(repo.root, file) if repo else None
        if repo is None or path is None:
            return None
        if uri not in self.served:
            self.served[uri] = is_context_file(repo, path)
        if not self.served[uri]:
            return None
        return Document(repo, path, self.workspace.get_text_document(uri).source)

    def refresh(self, uri: str, known: tuple[int | None, Any] | None = None) -> None:
        """Publish URI's diagnostics: the buffer's refusals, and the last audit's findings placed on them.
        KNOWN: (version, world) the audit just computed, taken when the buffer is still that version."""
        doc = self.document(uri)
        if doc is None:
            return self.publish(uri, [])
        if isinstance(doc, Problem):
            return self.publish(uri, [doc])
        version = self.workspace.get_text_document(uri).version
        problems, w = buffer_problems(doc, known[1] if known is not None and known[0] == version else None)
        self.worlds[uri] = (version, w)
        found = self.findings.get(uri, [])
        problems += [found] if isinstance(found, Problem) else placed(found, doc, w)
        self.publish(uri, problems)

    def audit_soon(self, uri: str) -> None:
        """Audit URI's saved file on the worker thread, then publish; during a run, ask for one more."""
        if uri in self.auditing:
            self.stale.add(uri)
            return
        self.auditing[uri] = asyncio.ensure_future(self._audit(uri))

    async def _audit(self, uri: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                self.stale.discard(uri)
                doc = self._document_or_problem(uri)
                known = None
                if isinstance(doc, Document):
                    version = self.workspace.get_text_document(uri).version
                    found, w = await loop.run_in_executor(self.auditor, saved_audit, doc)
                    if uri in self.stale:
                        continue  # saved again meanwhile: this run's findings are of an older file
                    self.findings[uri] = found
                    known = (version, w)
                self._safely(uri, known)
                return
        finally:
            self.auditing.pop(uri, None)

    def _document_or_problem(self, uri: str) -> Document | Problem | None:
        try:
            return self.document(uri)
        except GitContextError as exc:
            return bad_input(exc)

    def forget(self, uri: str) -> None:
        """Drop what is kept about URI (closed): its caches, and its audit in flight."""
        for cache in (self.findings, self.worlds, self.served):
            cache.pop(uri, None)
        self.stale.discard(uri)
        running = self.auditing.pop(uri, None)
        if running is not None:
            running.cancel()

    def publish(self, uri: str, problems: list[Problem]) -> None:
        diagnostics = [_diagnostic(p) for p in problems]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    def world_of(self, uri: str, doc: Document):
        """The world of URI's current version (the last analysis's when it is of this version)."""
        version = self.workspace.get_text_document(uri).version
        known = self.worlds.get(uri)
        if known is not None and known[0] == version and known[1] is not None:
            return known[1]
        from gitcontext.lsp.buffer import world

        w = world(doc)
        self.worlds[uri] = (version, w)
        return w

    def later(self, uri: str) -> None:
        """Refresh URI's refusals once the edits pause (DEBOUNCE_SECONDS)."""
        if uri in self.pending:
            self.pending.pop(uri).cancel()
        loop = asyncio.get_event_loop()
        self.pending[uri] = loop.call_later(DEBOUNCE_SECONDS, self._safely, uri)

    def _safely(self, uri: str, known: tuple[int | None, Any] | None = None) -> None:
        self.pending.pop(uri, None)
        try:
            self.refresh(uri, known)
        except GitContextError as exc:
            self.publish(uri, [bad_input(exc)])


def _diagnostic(p: Problem) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(types.Position(p.line - 1, 0), types.Position(p.end_line, 0)),
        message=p.message,
        severity=SEVERITY[p.severity],
        code=p.code,
        source="gitcontext",
        data={"id": p.id} if p.id else None,
    )


server = ContextServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_open_or_save(
    ls: ContextServer, params: types.DidOpenTextDocumentParams | types.DidSaveTextDocumentParams
) -> None:
    ls.served.pop(params.text_document.uri, None)
    ls.audit_soon(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ContextServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ContextServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.forget(uri)
    ls.publish(uri, [])


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: ContextServer, params: types.HoverParams) -> types.Hover | None:
    from gitcontext.lsp.hover import hover_markdown

    doc = ls.document(params.text_document.uri)
    if not isinstance(doc, Document) or not doc.repo.initialised:
        return None
    try:
        text = hover_markdown(doc, params.position.line + 1, ls.world_of(params.text_document.uri, doc))
    except GitContextError as exc:
        text = f"gitcontext: {exc}"
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.Empty]),
)
def code_action(ls: ContextServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    doc = ls.document(uri)
    if not isinstance(doc, Document) or not doc.repo.initialised:
        return None
    try:
        w = ls.world_of(uri, doc)
    except GitContextError:
        return None
    inst = at_line(w, doc.path, params.range.start.line + 1)
    if inst is None:
        return None
    r = w.resolved[(inst.file, inst.index)]
    documented = bool(r.state and r.state.why)
    return [
        types.CodeAction(
            title=a.title,
            kind=types.CodeActionKind.QuickFix if a.command == actions.RECORD else types.CodeActionKind.Empty,
            command=types.Command(title=a.title, command=a.command, arguments=a.arguments),
        )
        for a in actions.actions(uri, r.id, documented)
    ]


@server.command(actions.RECORD)
def record_why(ls: ContextServer, *args: Any) -> dict[str, Any]:
    """[uri, id, why, failure?]: write the why; without a why, the `git context record` snippet."""
    uri, id, why, failure = (list(args) + [None, None, None, None])[:4]
    if not why or not str(why).strip():
        snippet = actions.record_snippet(str(id))
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, f"run: {snippet}"))
        return {"written": False, "snippet": snippet}
    doc = ls.document(str(uri))
    if not isinstance(doc, Document):
        return _refused(ls, "not a context file of a git work tree", uri)
    if not doc.repo.initialised:
        return _refused(ls, "no .context/ here: run `git context init` first", uri)
    try:
        said = actions.record_why(doc.repo, str(id), str(why), str(failure) if failure else None)
    except GitContextError as exc:
        return _refused(ls, str(exc), uri)
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, said))
    ls.worlds.pop(str(uri), None)
    ls.audit_soon(str(uri))
    return {"written": True, "message": said}


@server.command(actions.BLAME)
def show_blame(ls: ContextServer, *args: Any) -> dict[str, Any]:
    """[uri, id]: `git context blame ID` as text (the editor shows it)."""
    uri, id = (list(args) + [None, None])[:2]
    doc = ls.document(str(uri))
    if not isinstance(doc, Document) or not doc.repo.initialised:
        return _refused(ls, "not a context file of a repository with .context/", uri)
    try:
        text = actions.blame_text(doc.repo, str(id))
    except GitContextError as exc:
        return _refused(ls, str(exc), uri)
    ls.window_log_message(types.LogMessageParams(types.MessageType.Info, text))
    return {"text": text}


@server.command(actions.TRIAL)
def trial_rule(ls: ContextServer, *args: Any) -> dict[str, Any]:
    """[uri, id]: the `git context trial` command to fill in and run (nothing is run here)."""
    id = (list(args) + [None, None])[1]
    command = actions.trial_command(str(id))
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, f"run: {command}"))
    return {"command": command}


def _refused(ls: ContextServer, message: str, uri: Any) -> dict[str, Any]:
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"gitcontext: {message}"))
    return {"written": False, "error": message}


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: ContextServer, params: types.DefinitionParams) -> types.Location | None:
    from pygls.uris import from_fs_path

    from gitcontext.lsp.links import definition as find

    doc = ls.document(params.text_document.uri)
    if not isinstance(doc, Document):
        return None
    target = find(doc, params.position.line + 1, params.position.character)
    if target is None or not target.is_file():
        return None
    uri = from_fs_path(str(target))
    zero = types.Position(0, 0)
    return types.Location(uri=uri, range=types.Range(zero, zero)) if uri else None


def serve() -> int:
    server.start_io()
    return 0
