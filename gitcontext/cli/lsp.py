"""`git context lsp`: the language server for context files, over stdio."""

from __future__ import annotations

import click


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk LSP over stdin/stdout (the default and only transport).")
def lsp_cmd(stdio: bool) -> int:
    """Language server for context files: hover shows an instruction's why and life, diagnostics show
    the changes a commit would be refused for and the audit's default-on findings, code actions record
    a why, show blame or prepare a trial; go-to-definition follows @imports and referenced paths.

    \b
    Editors start it themselves (docs/editors.md): VS Code through editors/vscode, Neovim, Helix, Zed.
    It reads the work tree and writes only notes, through `record`, when asked to.
    """
    from gitcontext.cli.common import require_extra

    require_extra("pygls", "editor", "lsp")
    from gitcontext.lsp.server import serve

    return serve()
