"""The audit's default-on findings about one context file (as saved: the audit reads the work tree).

Only checks `gitcontext.audit.registry` runs by default (their precision met the rule, or they report
a fact of the record); an experimental check the config asks for stays in `git context audit`.
"""

from __future__ import annotations

from gitcontext.audit.finding import Finding
from gitcontext.lsp.buffer import Repo
from gitcontext.provenance.target import World


def file_findings(repo: Repo, path: str, world: World | None = None) -> list[Finding]:
    """WORLD: the work tree's world as saved, when the caller has just computed it (else the audit does)."""
    from gitcontext.audit.registry import experimental_finding
    from gitcontext.audit.run import audit

    report = audit(repo.root, repo.config, paths=[path], world=world)
    return [f for f in report.findings if f.file == path and not experimental_finding(f.check, f.evidence)]


def message(f: Finding) -> str:
    return f"{f.message}" + (f" — fix: `{f.fix}`" if f.fix else "")
