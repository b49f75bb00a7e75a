"""radius: churn, reach, score and tier of every changed file; commit pressure; the radar picture."""

from __future__ import annotations

from pathlib import Path

import click

from gitcontext.cli.common import emit_json, json_option, session, write_file


@click.command("radius")
@click.option(
    "--base",
    metavar="REV",
    default=None,
    help="Measure from REV (default: merge-base with origin/HEAD, main or master; "
    "else the last radius.window_days days).",
)
@click.option("--hops", type=int, default=None, metavar="K", help="Import hops of reach (default radius.hops).")
@click.option(
    "--svg",
    "svg_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the radar picture to FILE (SVG, light and dark themes).",
)
@json_option
def radius_cmd(base: str | None, hops: int | None, svg_path: str | None, as_json: bool) -> int:
    """Blast radius of the change from BASE to the work tree.

    \b
    Every changed file with its churn (lines added + removed), its reach (files importing it
    within K hops), its score B = churn·(Σ 2^-(hops-1) over those files + λ) and its tier:
    MEDIUM >= 50, HIGH >= 200, RISK >= 500, DEADLY >= 1000 churned lines. Any file at RISK
    raises commit pressure (advice; radius.gate: true makes it exit 1). Instructions whose
    scope or backticked mentions point into the radius are listed for re-verification.
    """
    from gitcontext import git

    opened = session()
    config = opened.config
    status = git.start_status(opened.root)  # git walks the work tree while the radius modules load
    try:
        from gitcontext.progress import working
        from gitcontext.radius.blast import compute, to_json

        with working("radius: parsing and resolving imports (cached for the next run)"):
            result = compute(opened, base, hops, status=status)
    finally:
        status.close()
    data = to_json(result)
    if svg_path:
        from gitcontext.report.radar import radar_svg

        write_file(
            Path(svg_path),
            radar_svg(data["files"], f"Blast radius · {result.window}", result.hops, config["radius"]["wide_reach"]),
            "--svg",
        )
    if as_json:
        emit_json(data)
    else:
        click.echo(format_radius(data, config["radius"]["wide_reach"]), nl=False)
    return 1 if result.pressure and config["radius"]["gate"] else 0


def format_radius(data: dict, wide: int = 20, limit: int = 40) -> str:
    """The ranked table (by score), a flag on every change whose reach is WIDE or more whatever its
    tier, pressure, instructions to re-verify, and what was left out (files and imports)."""
    files = data["files"]
    lines = [
        f"blast radius: {data['window']} ({data['hops']} hops)"
        + (f" — {len(files)} changed files, ranked by score" if files else "")
    ]
    if not files:
        lines.append("no changed files")
    else:
        lines.append(f"  {'score':>10}  {'tier':<7}{'churn':>7}  {'reach':>5}  file")
    for f in files[:limit]:
        lines.append(f"  {f['score']:>10g}  {f['tier']:<7}{f['churn']:>7}  {f['reach']:>5}  {f['path']}")
        near = [i["path"] for i in f["importers"] if i["hops"] == 1]
        if f["reach"] >= wide:
            lead = "small change" if f["tier"] in ("LOW", "MEDIUM") else f"{f['tier']} change"
            lines.append(
                f"{'':>14}^ {lead}, {f['reach']} importers within {data['hops']} hops "
                f"({len(near)} direct, e.g. {near[0] if near else '-'})"
            )
        elif near and f["tier"] != "LOW":
            lines.append(
                f"{'':>14}imported by {', '.join(near[:2])}" + (f" +{len(near) - 2} more" if len(near) > 2 else "")
            )
    if len(files) > limit:
        lines.append(f"  … {len(files) - limit} more with lower scores (--json lists all)")
    if data["pressure"]:
        lines.append("commit pressure: a file churns at RISK or above — consider splitting the change")
    if data["instructions"]:
        lines.append("instructions in the radius (re-verify):")
        lines += [f"  {i['id']}  {i['file']}:{i['line']}  {i['text'][:70]}" for i in data["instructions"]]
    if data["skipped"]:
        lines.append("skipped: " + ", ".join(f"{n} {why}" for why, n in data["skipped"].items()))
    for path, error in data.get("manifest_errors", {}).items():
        lines.append(f"warning: {path}: {error} — its settings are ignored; fix it to resolve imports through it")
    imports = data.get("imports")
    if imports:
        unresolved = ", ".join(f"{n} {why}" for why, n in imports["unresolved"].items())
        lines.append(
            f"imports: {imports['resolved']} resolved, {imports['external']} outside the tree"
            + (f"; unresolved: {unresolved}" if unresolved else "")
        )
    return "\n".join(lines) + "\n"
