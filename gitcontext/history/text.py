"""Plain-text report of `git context history` and `git context corpus`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def _num(value: Any, fmt: str = "{}") -> str:
    return "-" if value is None else fmt.format(value)


def _count(value: float | None) -> str:
    """A count or a percentile of counts: `40`, `40.4` (never `40.0`)."""
    return "-" if value is None else f"{value:.1f}".removesuffix(".0")


def format_history(data: dict[str, Any]) -> str:
    files = data["files"]
    if not files:
        return "no context file in this history\n"
    width = max(len(f["path"]) for f in files)
    out = [f"{'file':<{width}}  versions  first  last  births  deaths  rewrites  migrated  net/commit"]
    for f in files:
        gone = "" if f["exists"] else (f"  (symlink to {f['symlink_to']})" if f.get("symlink_to") else "  (deleted)")
        out.append(
            f"{f['path']:<{width}}  {f['versions']:>8}  {f['instructions_first']:>5}  "
            f"{f['instructions_last']:>4}  {f['births']:>6}  {f['deaths']:>6}  {f['rewrites']:>8}  "
            f"{f['migrations']:>8}  {_num(f['net_per_commit_outside_rewrites'], '{:+.2f}'):>10}{gone}"
        )
    out += ["", *summary_lines(data["summary"], data["hazard"])]
    if data.get("warnings"):
        out.append(f"{len(data['warnings'])} warning(s): {data['warnings'][0]}")
    return "\n".join(out) + "\n"


def summary_lines(s: dict[str, Any], hazard: dict[str, Any]) -> list[str]:
    causes = s["deaths_by_cause"]
    ci = hazard.get("log_slope_ci")
    interval = f" (95% CI {ci[0]:+.3f} .. {ci[1]:+.3f})" if ci else ""
    return [
        f"instructions at the last version: median {_count(s['instructions_last_median'])}, "
        f"p90 {_count(s['instructions_last_p90'])} over {s['files_existing']} existing file(s)",
        f"growth over a file's life: {_num(s['growth_pct_mean'], '{:+.1f}%')} on average "
        f"({s['growing_files']} growing, {s['shrinking_files']} shrinking); "
        f"{_num(s['net_per_commit_outside_rewrites'], '{:+.2f}')} net instructions per commit outside rewrites",
        f"deaths: {causes['deleted']} individual deletions, {causes['rewrite']} in rewrites, "
        f"{causes['migration']} migrations ({_num(s['rewrite_or_migration_share'], '{}%')} rewrites or migrations)",
        f"rewrites: {s['rewrites']}; regrowth within 10 commits: {_num(s['regrowth_pct_mean'], '{}%')} of the "
        f"pre-rewrite count",
        (
            f"deletion hazard log-slope: {hazard['log_slope']:+.4f} per commit of age{interval}; "
            if hazard["log_slope"] is not None
            else f"deletion hazard log-slope: too few individual deletions to estimate one (needs "
            f"{hazard.get('min_events', 10)}); "
            if hazard["events"] < hazard.get("min_events", 10)
            else "deletion hazard log-slope: - (the smoothed hazard has under two usable ages); "
        )
        + f"{hazard['events']} individual deletions among {hazard['subjects']} instruction stays",
    ]


def format_corpus(data: dict[str, Any]) -> str:
    repos, agg = data["repositories"], data["aggregate"]
    width = max([len(r["name"]) for r in repos] + [10])
    out = [f"{'repository':<{width}}  commits  files  median last  growth%  net/commit  rewrite+migr%  slope"]
    for r in repos:
        s = r["summary"]
        out.append(
            f"{r['name']:<{width}}  {r['commits']:>7}  {s['files']:>5}  "
            f"{_num(s['instructions_last_median']):>11}  {_num(s['growth_pct_mean']):>7}  "
            f"{_num(s['net_per_commit_outside_rewrites'], '{:+.2f}'):>10}  "
            f"{_num(s['rewrite_or_migration_share']):>13}  {_num(r['log_slope'], '{:+.3f}'):>6}"
        )
    paper, hazard = agg["paper"], agg["hazard"]
    ci = hazard.get("log_slope_ci")
    rows = [
        ("instructions at last version, median", agg["instructions_last_median"], paper["instructions_last_median"]),
        ("instructions at last version, p90", agg["instructions_last_p90"], paper["instructions_last_p90"]),
        ("growth over a file's life, mean %", agg["growth_pct_mean"], paper["growth_pct_mean"]),
        ("growth over a file's life, median %", agg["growth_pct_median"], None),
        (
            "net instructions per commit outside rewrites",
            agg["net_per_commit_outside_rewrites"],
            paper["net_per_commit_outside_rewrites"],
        ),
        ("deletion hazard log-slope per commit", hazard["log_slope"], paper["log_slope"]),
        (
            "deaths that are rewrites or migrations, %",
            agg["rewrite_or_migration_share"],
            paper["rewrite_or_migration_share"],
        ),
        ("regrowth 10 commits after a rewrite, %", agg["regrowth_pct_mean"], paper["regrowth_pct_mean"]),
        ("  same, rewrites followed by >= 10 commits only", agg["regrowth_pct_mean_full_horizon"], None),
        ("rewrites", agg["rewrites"], None),
    ]
    out += [
        "",
        f"{'over ' + str(agg['repositories']) + ' repositories, ' + str(agg['files']) + ' files':<46}"
        f"  {'measured':>9}  {'paper':>7}",
    ]
    out += [f"{name:<46}  {_num(value):>9}  {_num(ref):>7}" for name, value, ref in rows]
    out.append(
        f"repositories growing / shrinking: {agg['repositories_growing_pct']}% / "
        f"{agg['repositories_shrinking_pct']}%; median net per commit (per repository): "
        f"{_num(agg['net_per_commit_outside_rewrites_repo_median'])}"
    )
    if ci:
        out.append(f"log-slope 95% interval (repository bootstrap): {ci[0]:+.4f} .. {ci[1]:+.4f}")
    return "\n".join(out) + "\n"
