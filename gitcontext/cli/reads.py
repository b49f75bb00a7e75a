"""`ls`, `blame TARGET` and `history` as plain functions: what their click commands run."""

from __future__ import annotations

from pathlib import Path

from gitcontext import git
from gitcontext.cli.common import echo, emit_json, read_only, repo, write_file
from gitcontext.errors import UserError
from gitcontext.paths import repo_path


def ls(paths: tuple[str, ...], as_json: bool) -> int:
    with read_only():
        return _ls(paths, as_json)


def _ls(paths: tuple[str, ...], as_json: bool) -> int:
    from gitcontext.report.listing import format_listing, listing

    root, config = repo()
    wanted = [repo_path(root, p) for p in paths]
    for path in wanted:
        if not (root / path).exists():
            raise UserError("no such file or folder", path=path, fix="`git context ls` lists the context files")
    rows = listing(root, config, wanted)
    if as_json:
        emit_json({"instructions": rows})
    else:
        echo(format_listing(rows), nl=False)
    return 0


def blame(target: str, as_json: bool) -> int:
    with read_only():
        return _blame(target, as_json)


def _blame(target: str, as_json: bool) -> int:
    from gitcontext.instructions.discover import load
    from gitcontext.provenance.notecache import folded_notes
    from gitcontext.provenance.resolve import resolve_all
    from gitcontext.provenance.target import World, _as_repo_path, find
    from gitcontext.report import blame as report

    root, config = repo()
    instructions = load(root, config)
    notes: dict[str, str] = {}
    states = folded_notes(root, oids=notes)  # `target.world`, keeping each note's blob id
    w = World(instructions, states, resolve_all(root, config, instructions, states, trailers=True))
    path = _as_repo_path(root, target)
    if path in w.instructions:
        rows = report.blame_file(root, config, path, w, notes)
        if as_json:
            emit_json({"file": path, "instructions": rows})
        else:
            echo(report.format_blame_file(rows, (root / path).read_text(encoding="utf-8")), nl=False)
        return 0
    data = report.blame_target(root, config, find(root, config, target, w))
    emit_json(data) if as_json else echo(report.format_blame(data), nl=False)
    return 0


def history(
    files: tuple[str, ...],
    as_json: bool,
    rev: str = "HEAD",
    svg_path: str | None = None,
    html_path: str | None = None,
    matcher: str | None = None,
) -> int:
    """`history [FILES...]`: the paper's measurements (gitcontext.cli.history's command)."""
    root, config = repo()
    head, shallow = _resolve(root, rev)
    return _history(root, config, head, shallow, files, as_json, rev, svg_path, html_path, matcher)


def _history(
    root: Path,
    config: dict,
    head: tuple[str, Path] | None,
    shallow: bool,
    files: tuple[str, ...],
    as_json: bool,
    rev: str,
    svg_path: str | None,
    html_path: str | None,
    matcher: str | None,
) -> int:
    from gitcontext.history.analyze import measure
    from gitcontext.progress import Progress

    paths = [repo_path(root, f) for f in files]
    if shallow:
        echo(
            "gitcontext: warning: shallow clone: the history starts at the shallow boundary, so ages, "
            "births and growth are truncated\n  fix: git fetch --unshallow",
            err=True,
        )
    with Progress("history: tracing the context files through the commits") as progress:
        m = measure(root, config, paths, matcher or config["matcher"], rev, progress, head=head)
    if paths and not m.files:
        raise UserError(
            f"no context-file history for {', '.join(files)}",
            fix="`git context ls` lists the context files (see discovery.include)",
        )
    data = {**m.to_json(), "shallow": shallow}
    _pictures(m, data, root.name, svg_path, html_path)
    if as_json:
        emit_json(data)
    else:
        from gitcontext.history.text import format_history

        echo(format_history(data), nl=False)
    return 0


def _pictures(m, data: dict, name: str, svg_path: str | None, html_path: str | None) -> None:
    if not (svg_path or html_path):
        return
    from gitcontext.history.page import history_page
    from gitcontext.history.plots import history_svg

    title = f"{name} · context-file history"
    svg = history_svg(m, title)
    if svg_path:
        write_file(Path(svg_path), svg, "--svg")
    if html_path:
        write_file(Path(html_path), history_page(data, svg, title), "--html")


def _resolve(root: Path, rev: str) -> tuple[tuple[str, Path] | None, bool]:
    """((REV's commit sha, the common git dir) or None in a repository without commits, shallow?); an
    unknown REV is a usage error (exit 2), as in `radius --base`."""
    try:
        head = git.head_of(root, rev)
    except git.UnknownRevision as exc:
        raise UserError(exc.message, fix="check the name with `git log --oneline` (or `git branch -a`)") from None
    if head is None:
        return None, git.is_shallow(root)
    return (head.commit, head.common_dir), head.shallow
