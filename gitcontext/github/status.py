"""`git context check` inside GitHub Actions: the same result as annotations, job summary and outputs."""

from __future__ import annotations

from gitcontext.github import escape, runner


def publish_check(result, lines: list[str]) -> None:
    """Annotate each instruction without a why at its line; summary and `findings` output always."""
    level = "error" if result.policy == "enforce" else "warning"
    runner.annotate(
        [
            runner.Annotation(
                level,
                f"{c.kind} instruction {c.id} has no why: add `Context-Why: {c.id}: ...` "
                "in a commit of this pull request, or `git context record`",
                c.file,
                c.line,
                "gitcontext: no why",
            )
            for c in result.missing
        ]
    )
    summary = "### gitcontext check\n\n" + escape.block("\n".join(lines)) + "\n"
    runner.write_summary(summary)
    path = runner.write_markdown("check.md", summary)
    runner.write_outputs({"findings": str(len(result.missing)), "comment-url": "", "markdown-file": str(path)})
