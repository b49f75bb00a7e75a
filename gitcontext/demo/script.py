"""What the demo walks through, in order: the whole product on the sample repository."""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from gitcontext import git
from gitcontext.demo import build
from gitcontext.demo.sample import PENDING_CODE, PENDING_RULE
from gitcontext.demo.walk import Action, Step, cli, shell
from gitcontext.environment import Environment

EVAL = f"{shlex.quote(sys.executable)} scripts/eval_agent.py"
AUDIT_CHECKS = ("GC101", "GC103", "GC104", "GC106", "GC200", "GC201", "GC203", "GC300", "GC301", "GC303")


def say(env: Environment, command: str) -> None:
    env.out(env.style(f"$ {command}", "1"))


def edit(path: str, text: str, *, append: bool = True) -> Action:
    def run(repo: Path, env: Environment) -> int:
        full = repo / path
        old = full.read_text(encoding="utf-8") if append and full.exists() else ""
        full.write_text(old + text, encoding="utf-8")
        say(env, f"echo {shlex.quote(text.strip())} >> {path}" if append else f"$EDITOR {path}")
        return 0

    return run


def commit(message: str) -> Action:
    """`git commit` as the user runs it: the installed hooks run."""

    def run(repo: Path, env: Environment) -> int:
        say(env, f"git commit -m {shlex.quote(message)}")
        code, out, err = git.run_status([*build.IDENTITY[:6], "commit", "-q", "-m", message], cwd=repo)
        env.stdout.write((out + err).decode("utf-8", "replace"))
        return code

    return run


def steps(*actions: Action) -> Action:
    def run(repo: Path, env: Environment) -> int:
        for action in actions:
            code = action(repo, env)
            if code:
                return code
        return 0

    return run


def grow_money_module(repo: Path, env: Environment) -> int:
    lines = ['"""Money amounts in integer cents."""', ""]
    for n in range(200):
        lines += [f"def rate_{n}(cents: int) -> int:", f"    return cents * {n + 1} // 100", ""]
    (repo / PENDING_CODE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    say(env, f"$EDITOR {PENDING_CODE}   # a 600-line change to a module four others import")
    return 0


def pr_comment(repo: Path, env: Environment) -> int:
    """`git context github pr-comment` with a pull-request event and no token: the markdown the Action
    would post, written to the job summary (here a file), nothing sent anywhere."""
    from gitcontext.cli.main import main

    folder = git.git_dir(repo) / "gitcontext" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    base = git.rev_parse("main", repo)
    head = git.rev_parse("HEAD", repo)
    event = {
        "pull_request": {"number": 7, "base": {"sha": base, "ref": "main"}, "head": {"sha": head, "ref": "rounding"}},
        "repository": {"full_name": "demo/ledger"},
    }
    (folder / "event.json").write_text(json.dumps(event), encoding="utf-8")
    summary = folder / "comment.md"
    summary.write_text("", encoding="utf-8")
    saved = dict(os.environ)
    os.environ.update(
        {
            "GITHUB_EVENT_PATH": str(folder / "event.json"),
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_REPOSITORY": "demo/ledger",
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_OUTPUT": str(folder / "output.txt"),
            "GITHUB_SHA": head,
        }
    )
    say(env, "git context github pr-comment --no-comment   # in the Action; here: no token, nothing posted")
    try:
        code = main(["github", "pr-comment", "--no-comment"])
    finally:
        os.environ.clear()
        os.environ.update(saved)
    env.out(summary.read_text(encoding="utf-8"))
    return code


def branches(repo: Path, env: Environment) -> int:
    """Two branches that both record provenance, merged: the notes merge as the union of their events."""
    run, context = _git_in(repo, env), _context_in(env)
    plan = [
        *_payments_branch(run, context, repo, env),
        lambda: run("checkout", "-q", "main"),
        *_export_branch(run, context, repo, env),
        lambda: run("checkout", "-q", "main"),
        lambda: run("merge", "-q", "--no-edit", "payments"),
        lambda: run("merge", "-q", "--no-edit", "export"),
        lambda: run("log", "--oneline", "--graph", "-6"),
    ]
    for action in plan:
        code = action()
        if code:
            return code
    return 0


Command = Callable[..., int]


def _git_in(repo: Path, env: Environment) -> Command:
    def run(*argv: str) -> int:
        say(env, "git " + shlex.join(argv))
        code, out, err = git.run_status([*build.IDENTITY[:6], *argv], cwd=repo)
        env.stdout.write((out + err).decode("utf-8", "replace"))
        return code

    return run


def _context_in(env: Environment) -> Command:
    from gitcontext.cli.main import main

    def context(*argv: str) -> int:
        say(env, "git context " + shlex.join(argv))
        return main(list(argv))

    return context


def _payments_branch(run: Command, context: Command, repo: Path, env: Environment) -> list[Callable[[], int]]:
    """A refund rule, and a recurrence of an older rule's failure, committed with its why in a trailer."""
    return [
        lambda: run("checkout", "-q", "-b", "payments"),
        lambda: edit("CLAUDE.md", "- Refunds go through `ledger/invoices.py`; never edit a paid invoice.\n")(repo, env),
        lambda: context(
            "recur",
            "integer cents (see",
            *("--failure", "AssertionError: 1999 != 1998.9999999999998 (refund of 19.99)"),
            *("--evidence", "CI run 2214"),
        ),
        lambda: run(
            "commit",
            "-q",
            "-am",
            "Refund rule\n\nContext-Why: a hand-edited paid invoice broke the month-end reconciliation (#58)",
        ),
    ]


def _export_branch(run: Command, context: Command, repo: Path, env: Environment) -> list[Callable[[], int]]:
    """An export rule, a verification and a recorded why, on a second branch."""
    return [
        lambda: run("checkout", "-q", "-b", "export"),
        lambda: edit("CLAUDE.md", "- The export worker writes amounts as integer cents, never as decimals.\n")(
            repo, env
        ),
        lambda: context("verify", "integer cents (see", "--how", "re-read invoice #12 and the refund test"),
        lambda: context(
            "record",
            "alembic upgrade head",
            *("--why", "CI broke twice when the schema moved under a branch"),
            *("--failure", "sqlalchemy.exc.ProgrammingError: column invoices.currency does not exist"),
            *("--ref", "#61"),
        ),
        lambda: run(
            "commit", "-q", "-am", "Export rule\n\nContext-Why: the BI import read 19.99 as 1999 dollars (#63)"
        ),
    ]


STEPS = [
    Step(
        "The sample repository",
        "A ledger service (Python, a TypeScript client, a Go worker) whose agent rules grew over twenty commits.",
        shell("log", "--oneline", "-8"),
        max_lines=12,
    ),
    Step(
        "How the rules grew",
        "The paper's measurements of this repository: growth, a wholesale rewrite, a migration to AGENTS.md.",
        cli("history", "--svg", "history.svg"),
        shows="rewrites",
    ),
    Step(
        "Set up",
        "Notes folder, hooks, merge driver; --backfill replays history once and records every live rule's birth.",
        cli("init", "--backfill", "--hooks", "native"),
        shows="backfill:",
    ),
    Step("", "Fold the why that earlier commits carried in Context-Why trailers.", cli("sync")),
    Step(
        "Every instruction, with its id and status",
        "documented, orphan (no why yet) or stale (the why is old or the rule changed since).",
        cli("ls"),
        shows="orphan",
    ),
    Step(
        "Record a why",
        "Outcome-grounded: what failed, verbatim. The agent never reads this; maintainers do.",
        cli(
            "record",
            "Invoice totals are computed once",
            "--why",
            "the client re-added line items and showed a total 1 cent off the PDF (#40)",
            "--failure",
            "expected 10.00, got 10.01",
        ),
    ),
    Step(
        "",
        "Notes are plain files in git: reviewed, merged and blamed like code.",
        steps(shell("add", ".context", ".gitattributes"), commit("Record provenance for the context files")),
    ),
    Step(
        "A rule without a why is refused",
        "The commit-msg hook asks for the why (hooks.policy: enforce).",
        steps(edit("CLAUDE.md", PENDING_RULE), shell("add", "CLAUDE.md"), commit("Add rounding rule")),
        expect=1,
        shows="Context-Why",
    ),
    Step(
        "",
        "Say why in a trailer: the hook accepts and links the commit to the rule's id.",
        steps(
            commit("Add rounding rule\n\nContext-Why: EUR->USD totals drifted by a cent per 1,000 invoices (#31)"),
            shell("log", "-1", "--format=%B"),
        ),
        shows="Context-Id: ctx-",
    ),
    Step(
        "Two branches, both recording provenance, merged",
        "The merge driver unions note events and keeps both branches' rules.",
        branches,
        shows="Merge branch",
    ),
    Step(
        "The life of one rule",
        "Born with a reason in a trailer, kept through the rewrite, recurred on one "
        "branch and verified on the other: blame reads notes and trailers.",
        cli("blame", "integer cents (see"),
        shows="verified: holds",
    ),
    Step(
        "Which rationales a change puts at risk",
        "A big edit to a module others import: churn, reach, tier, commit pressure.",
        steps(grow_money_module, cli("radius", "--svg", "radar.svg")),
        shows="RISK",
    ),
    Step("", "", shell("checkout", "-q", "--", PENDING_CODE)),
    Step(
        "The audit",
        "Stale rationales, dead references, duplicates and contradictions across what each agent "
        "loads, and deletion candidates with their evidence (the GC100 orphans `ls` showed are left out here).",
        cli("audit", "--fail-on", "never", *(a for c in AUDIT_CHECKS for a in ("--check", c))),
        shows="GC106",
        max_lines=70,
    ),
    Step(
        "Try a deletion before making it",
        "trial removes the rule in a temporary worktree and runs an eval with and without it.",
        cli("trial", "alembic upgrade head", "--run", EVAL, "--runs", "2"),
        shows="needed",
    ),
    Step(
        "",
        "The client's copy of the money rule: its removal changes nothing the eval sees.",
        cli("trial", "floats for money in the client", "--run", EVAL, "--runs", "2"),
    ),
    Step(
        "Prune safely",
        "retire keeps a byte-exact restore quote in the note; restore puts the rule back.",
        steps(
            cli(
                "retire",
                "floats for money in the client",
                "--reason",
                "GC200 duplicate: the root CLAUDE.md rule covers the client",
            ),
            cli("restore", "floats for money in the client"),
            shell("status", "--short", "web/CLAUDE.md"),
        ),
        shows="restored",
    ),
    Step(
        "Owner rulings",
        "Decisions with their source; a settled question is not asked again.",
        steps(
            cli(
                "ruling",
                "add",
                "--topic",
                "currency-conversion",
                "--summary",
                "Currency conversion belongs to the payments service; the ledger stores cents only",
                "--source",
                "architecture review #66",
            ),
            cli(
                "ask",
                "propose",
                "--topic",
                "currency-conversions",
                "--question",
                "Should the ledger convert currencies again?",
            ),
        ),
        expect=1,
        shows="refused",
    ),
    Step(
        "A pull request",
        "A branch that rewords a rule and adds one without saying why (hooks skipped, as a web "
        "edit or an agent might).",
        steps(
            shell("checkout", "-q", "-b", "rounding"),
            edit("CLAUDE.md", "- Store exchange rates as strings; parse them with `Decimal`.\n"),
            shell("add", "CLAUDE.md"),
            shell("commit", "-q", "--no-verify", "-m", "Exchange-rate rule"),
        ),
    ),
    Step(
        "",
        "The server-side twin of the commit-msg hook, for a required status check.",
        cli("check", "--base", "main"),
        expect=1,
        shows="Context-Why",
    ),
    Step(
        "What the pull-request comment says",
        "The Action posts this as one sticky comment, updated in place.",
        pr_comment,
        max_lines=50,
    ),
]


def summary(repo: Path, status: int) -> list[str]:
    """The closing lines: what was shown, where everything is, what to do next."""
    head = "every step did what it shows" if status == 0 else "some steps did not do what they show (see above)"
    return [
        f"demo: {head}.",
        f"  the sample repository: {repo}",
        f"  pictures: {repo / 'history.svg'} (growth, rewrites, deaths), {repo / 'radar.svg'} (blast radius)",
        f"  explore:  cd {shlex.quote(str(repo))} && git context ls && git context audit",
        "  your own repository: cd your-repo && git context init --backfill   (docs/guide.md)",
    ]
