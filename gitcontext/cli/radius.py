"""radius: churn, reach, score and tier of every changed file; commit pressure; the radar picture."""
from __future__ import annotations

from pathlib import Path

import click

from gitcontext.cli.common import emit_json, json_option, repo
from gitcontext.errors import UserError


@click.command("radius")
@click.option("--base", metavar="REV", default=None,
              help="Measure from REV (default: merge-base with origin/HEAD, main or master; "
                   "else the last radius.window_days days).")
@click.option("--hops", type=int, default=None, metavar="K", help="Import hops of reach (default radius.hops).")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the radar picture to FILE (SVG, light and dark themes).")
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
    from gitcontext.radius.blast import compute, to_json
    from gitcontext.report.radar import radar_svg

    root, config = repo()
    result = compute(root, config, base, hops)
    data = to_json(result)
    if svg_path:
        _write(Path(svg_path), radar_svg(data["files"], f"Blast radius · {result.window}"))
    if as_json:
        emit_json(data)
    else:
        click.echo(format_radius(data), nl=False)
    return 1 if result.pressure and config["radius"]["gate"] else 0


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write the picture: {exc.strerror}", path=str(path),
                        fix="choose a writable path for --svg") from exc


def format_radius(data: dict) -> str:
    lines = [f"blast radius: {data['window']} ({data['hops']} hops)"]
    if not data["files"]:
        lines.append("no changed files")
    for f in data["files"]:
        lines.append(f"  {f['tier']:<7}{f['churn']:>7} lines  reach {f['reach']:>3}  score {f['score']:>10g}  "
                     f"{f['path']}")
        near = [i["path"] for i in f["importers"] if i["hops"] == 1]
        if near and f["tier"] != "LOW":
            lines.append(f"           imported by {', '.join(near[:5])}" + (" ..." if len(near) > 5 else ""))
    if data["pressure"]:
        lines.append("commit pressure: a file churns at RISK or above — consider splitting the change")
    if data["instructions"]:
        lines.append("instructions in the radius (re-verify):")
        lines += [f"  {i['id']}  {i['file']}:{i['line']}  {i['text'][:70]}" for i in data["instructions"]]
    if data["skipped"]:
        lines.append("skipped: " + ", ".join(f"{n} {why}" for why, n in data["skipped"].items()))
    return "\n".join(lines) + "\n"
