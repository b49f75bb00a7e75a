"""The narrated walk: each step says what it shows, then runs the real command in the sample repo."""
from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from gitcontext import git
from gitcontext.demo import build
from gitcontext.demo.sample import PENDING_CODE, PENDING_RULE
from gitcontext.environment import Environment


class Step(NamedTuple):
    title: str
    why: str
    run: Callable[[Path, Environment], int]
    expect: int = 0          # the exit status this step is meant to show


def cli(*argv: str) -> Callable[[Path, Environment], int]:
    def run(repo: Path, env: Environment) -> int:
        from gitcontext.cli.main import main

        env.out(env.style("$ git context " + shlex.join(argv), "1"))
        return main(list(argv))
    return run


def shell(*argv: str) -> Callable[[Path, Environment], int]:
    def run(repo: Path, env: Environment) -> int:
        env.out(env.style("$ git " + shlex.join(argv), "1"))
        code, out, err = git.run_status(list(argv), cwd=repo)
        env.stdout.write((out + err).decode("utf-8", "replace"))
        return code
    return run


def add_rule(repo: Path, env: Environment) -> int:
    path = repo / "CLAUDE.md"
    path.write_text(path.read_text(encoding="utf-8") + PENDING_RULE, encoding="utf-8")
    env.out(env.style(f"$ echo {shlex.quote(PENDING_RULE.strip())} >> CLAUDE.md && git add CLAUDE.md", "1"))
    git.run(["add", "CLAUDE.md"], cwd=repo)
    return 0


def commit(message: str) -> Callable[[Path, Environment], int]:
    def run(repo: Path, env: Environment) -> int:
        env.out(env.style(f"$ git commit -m {shlex.quote(message)}", "1"))
        code, out, err = git.run_status([*build.IDENTITY[:6], "commit", "-q", "-m", message], cwd=repo)
        env.stdout.write((out + err).decode("utf-8", "replace"))
        return code
    return run


def grow_money_module(repo: Path, env: Environment) -> int:
    lines = ['"""Money amounts in integer cents."""', ""]
    for n in range(200):
        lines += [f"def rate_{n}(cents: int) -> int:", f"    return cents * {n + 1} // 100", ""]
    (repo / PENDING_CODE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    env.out(env.style(f"$ $EDITOR {PENDING_CODE}   # a 600-line change to a module others import", "1"))
    return 0


STEPS = [
    Step("The sample repository", "A small ledger service whose CLAUDE.md grew one failure at a time.",
         shell("log", "--oneline", "--stat", "--", "CLAUDE.md", "AGENTS.md")),
    Step("How the rules changed, rule by rule", "A rewording keeps its identity (similarity in brackets).",
         cli("diff", "HEAD~3", "HEAD~2")),
    Step("", "A rule that left CLAUDE.md for AGENTS.md is a move, not a death.", cli("diff", "HEAD~1", "HEAD")),
    Step("What the agent actually loads", "AGENTS.md imports CLAUDE.md with `@CLAUDE.md`.",
         cli("budget")),
    Step("Set up: notes, hooks, merge driver, and provenance recovered from history",
         "--backfill replays each context file's history once and records every live rule's birth.",
         cli("init", "--backfill", "--hooks", "native")),
    Step("Fold the why that commits already carried", "Commit 2 had a Context-Why trailer.",
         cli("sync")),
    Step("Every instruction, with its id and status",
         "Payload (headings, code, tables) is left out; each list item or sentence is one instruction.",
         cli("ls")),
    Step("The life of one rule", "Born with a reason; `blame` reads notes and trailers.",
         cli("blame", "floats for money")),
    Step("Record the why of an orphan rule", "Outcome-grounded: what failed, verbatim.",
         cli("record", "alembic upgrade head", "--why", "CI broke twice when the schema moved under a branch",
             "--failure", "sqlalchemy.exc.ProgrammingError: column invoices.currency does not exist")),
    Step("Commit the provenance", "Notes are plain files in git: reviewed, merged and blamed like code.",
         shell("add", ".context", ".gitattributes")),
    Step("", "", commit("Record provenance for the context files")),
    Step("Check the set-up", "Hooks current, merge driver configured, every note valid.", cli("doctor")),
    Step("Add a rule without saying why", "The commit-msg hook asks for the why (policy: enforce).",
         add_rule),
    Step("", "", commit("Add rounding rule"), expect=1),
    Step("Say why in a trailer", "The hook accepts and links the commit to the rule's id.",
         commit("Add rounding rule\n\nContext-Why: EUR->USD totals drifted by a cent per 1,000 invoices (#31)")),
    Step("", "", shell("log", "-1", "--format=%B")),
    Step("Which rationales a change puts at risk", "A big edit to a module others import raises the tier.",
         grow_money_module),
    Step("", "", cli("radius", "--base", "HEAD")),
    Step("The ratchet in this repository", "How the context files grew, and which rules died how.",
         cli("history")),
    Step("Prune safely", "Retiring keeps a byte-exact restore quote in the note; restore puts it back.",
         cli("retire", "report.py free of database", "--reason", "reporting moved to the BI service (#44)")),
    Step("", "", cli("restore", "report.py free of database")),
    Step("Point it at your own repository", "cd your-repo && git context init --backfill",
         cli("ls", "--json")),
]


def walk(repo: Path, env: Environment) -> int:
    """Run every step inside REPO; returns 0 when every step did what it is meant to show."""
    previous = os.getcwd()
    os.chdir(repo)
    failures = 0
    try:
        for step in STEPS:
            if step.title or step.why:
                env.out()
            if step.title:
                env.out(env.style(f"== {step.title}", "1;36"))
            if step.why:
                env.out(step.why)
            code = step.run(repo, env)
            if code != step.expect:
                failures += 1
                env.err(f"demo: step {step.title or 'above'!r} exited {code}, expected {step.expect}")
    finally:
        os.chdir(previous)
    return 0 if failures == 0 else 1
