"""Plain-text report of `git context history` and `git context corpus`."""
from __future__ import annotations

from typing import Any


def _num(value: Any, fmt: str = "{}") -> str:
    return "-" if value is None else fmt.format(value)


def format_history(data: dict[str, Any]) -> str:
    files = data["files"]
    if not files:
        return "no context file in this history\n"
    width = max(len(f["path"]) for f in files)
    out = [f"{'file':<{width}}  versions  first  last  births  deaths  rewrites  migrated  net/commit"]
    for f in files:
        gone = "" if f["exists"] else "  (deleted)"
        out.append(f"{f['path']:<{width}}  {f['versions']:>8}  {f['instructions_first']:>5}  "
                   f"{f['instructions_last']:>4}  {f['births']:>6}  {f['deaths']:>6}  {f['rewrites']:>8}  "
                   f"{f['migrations']:>8}  {_num(f['net_per_commit_outside_rewrites'], '{:+.2f}'):>10}{gone}")
    out += ["", *summary_lines(data["summary"], data["hazard"])]
    if data.get("warnings"):
        out.append(f"{len(data['warnings'])} warning(s): {data['warnings'][0]}")
    return "\n".join(out) + "\n"


def summary_lines(s: dict[str, Any], hazard: dict[str, Any]) -> list[str]:
    causes = s["deaths_by_cause"]
    ci = hazard.get("log_slope_ci")
    interval = f" (95% CI {ci[0]:+.3f} .. {ci[1]:+.3f})" if ci else ""
    return [
        f"instructions at the last version: median {_num(s['instructions_last_median'])}, "
        f"p90 {_num(s['instructions_last_p90'])} over {s['files_existing']} existing file(s)",
        f"growth over a file's life: {_num(s['growth_pct_mean'], '{:+.1f}%')} on average "
        f"({s['growing_files']} growing, {s['shrinking_files']} shrinking); "
        f"{_num(s['net_per_commit_outside_rewrites'], '{:+.2f}')} net instructions per commit outside rewrites",
        f"deaths: {causes['deleted']} individual deletions, {causes['rewrite']} in rewrites, "
        f"{causes['migration']} migrations ({_num(s['rewrite_or_migration_share'], '{}%')} rewrites or migrations)",
        f"rewrites: {s['rewrites']}; regrowth within 10 commits: {_num(s['regrowth_pct_mean'], '{}%')} of the "
        f"pre-rewrite count",
        f"deletion hazard log-slope: {_num(hazard['log_slope'], '{:+.4f}')} per commit of age{interval}; "
        f"{hazard['events']} individual deletions among {hazard['subjects']} instruction stays",
    ]
