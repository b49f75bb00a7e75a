"""Write the sample repository with real commits: a fixed identity, dates counted back from today
(GITCONTEXT_NOW pins today), so every build on one day has the same bytes."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from gitcontext import git
from gitcontext.demo.sample import HISTORY, commit_date
from gitcontext.errors import UserError

IDENTITY = (
    "-c",
    "user.name=Demo Maintainer",
    "-c",
    "user.email=demo@example.com",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "core.hooksPath=/dev/null",
)


def build(target: Path) -> Path:
    """Create the sample repository in TARGET (which must be empty or absent)."""
    if target.exists() and any(target.iterdir()):
        raise UserError(
            "directory is not empty", path=str(target), fix="give `git context demo` a new or empty directory"
        )
    target.mkdir(parents=True, exist_ok=True)
    git.run(["init", "-q", "-b", "main", str(target)])
    (git.git_dir(target) / "info").mkdir(exist_ok=True)
    with open(git.git_dir(target) / "info" / "exclude", "a", encoding="utf-8") as fh:
        fh.write("# pictures the demo draws (not code: left out of the blast radius)\n*.svg\n")
    day = today()
    for step in HISTORY:
        for path, content in step.files.items():
            full = target / path
            if content is None:
                full.unlink(missing_ok=True)
                continue
            full.parent.mkdir(parents=True, exist_ok=True)
            full.write_text(content, encoding="utf-8")
        git.run(["add", "-A"], cwd=target)
        commit(target, step.subject + ("\n\n" + step.body if step.body else ""), commit_date(step.days_ago, day))
    return target


def today() -> _dt.date:
    from gitcontext.provenance.events import now

    return _dt.date.fromisoformat(now()[:10])


def commit(target: Path, message: str, date: str, *, hooks: bool = False) -> None:
    """Commit what is staged; with HOOKS the repository's installed hooks run (as for a user)."""
    identity = IDENTITY if not hooks else IDENTITY[:6]
    git.run(
        [*identity, "commit", "-q", "-m", message],
        cwd=target,
        env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date},
    )
