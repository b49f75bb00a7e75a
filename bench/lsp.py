"""Language-server benchmark: hover and diagnostics on a generated 1,500-rule repository, warm, in CPU time.

The repository is bench/reads.py's (ten context files, 1,500 rules grown over --commits commits, a note
per rule from `init --backfill`, committed). The figures are the work the server does per request, run
in this process through the functions its handlers call (gitcontext.lsp.server): CPU time (user+sys of
this process and of the git processes it waited for), the minimum of --runs after one untimed warm-up,
with the load average printed beside it (docs/design.md §10 budget: 150 ms warm).

- hover: finding the document's repository and config, then the hover of a rule in CLAUDE.md for a buffer version already analysed (the server keeps the
  world of the version its last diagnostics saw), and for a fresh version (world recomputed);
- diagnostics after an edit: the buffer's refusals (a rule added, without a why) and the audit findings
  placed on their lines, what `didChange` publishes after its debounce;
- audit on save: the default-on audit of that one file, what `didOpen`/`didSave` add;
- save, as served: that audit and the diagnostics published after it (the buffer's refusals and the
  findings placed), the whole of a save's work.

With --session (bench/lsp_session.py), the same requests through a real server process over stdio: wall
time of each request (min of --runs) and the server's CPU time per request.

    python bench/lsp.py [--runs 5] [--rules 1500] [--commits 150] [--session]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reads import ENV, generate  # noqa: E402


def cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def least(runs: int, work: Callable[[], object]) -> float:
    work()  # warm: caches under .git/gitcontext, imports
    spent = []
    for _ in range(runs):
        start = cpu()
        work()
        spent.append(cpu() - start)
    return min(spent) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rules", type=int, default=1500)
    parser.add_argument("--commits", type=int, default=150)
    parser.add_argument("--session", action="store_true", help="also through a real server process")
    args = parser.parse_args()
    os.environ.update(ENV)
    from gitcontext.lsp.buffer import Document, find_repo, is_context_file, world
    from gitcontext.lsp.hover import hover_markdown
    from gitcontext.lsp.problems import audit_findings, buffer_problems, placed, saved_audit

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        generate(root, args.rules, args.commits)
        repo = find_repo(root / "CLAUDE.md")
        assert repo is not None and repo.initialised
        text = (root / "CLAUDE.md").read_text()
        doc = Document(repo, "CLAUDE.md", text)
        line = next(n for n, row in enumerate(text.split("\n"), 1) if row.startswith("- "))
        w = world(doc)
        rules = sum(len(v) for v in w.instructions.values())
        assert hover_markdown(doc, line, w) is not None
        edited = doc._replace(text=text + "\n- Always regenerate the client before the tests run.\n")
        problems, _ = buffer_problems(edited)
        assert any(p.code == "no-why" for p in problems), problems
        found = audit_findings(doc)
        assert isinstance(found, list)

        assert is_context_file(repo, "CLAUDE.md")  # asked once per open or save (the server keeps the answer)

        def served() -> Document:
            """What every request starts with: the document's repository and its config."""
            found = find_repo(root / "CLAUDE.md")
            assert found is not None
            return doc._replace(repo=found)

        def after_edit() -> None:
            now = served()._replace(text=edited.text)
            problems, w2 = buffer_problems(now)
            placed(found, now, w2)

        def saved() -> None:
            """As the server's save: the audit and the buffer's world computed once, then the diagnostics."""
            now = served()
            found, w2 = saved_audit(now)
            problems, w2 = buffer_problems(now, w2)
            placed(found if isinstance(found, list) else [], now, w2)

        figures = {
            "hover (version analysed)": least(args.runs, lambda: hover_markdown(served(), line, w)),
            "hover (new version)": least(args.runs, lambda: hover_markdown(served(), line)),
            "diagnostics after an edit": least(args.runs, after_edit),
            "audit of the file on save": least(args.runs, lambda: audit_findings(doc)),
            "save, as served": least(args.runs, saved),
        }
        session = _session(root, text, line, args.runs) if args.session else {}
    load = os.getloadavg()
    print(f"{rules} rules in {len(w.instructions)} files; CPU ms (user+sys, min of {args.runs}); "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")  # fmt: skip
    for name, ms in figures.items():
        print(f"  {name:<28} {ms:8.1f} ms" + _over(ms))
    if session:
        print(f"through a server process: wall ms (min of {args.runs}), server CPU ms per request")
    for name, (wall, spent) in session.items():
        print(f"  {name:<28} {wall:8.1f} ms wall {spent:8.1f} ms CPU" + _over(max(wall, spent)))
    return 0


def _over(ms: float) -> str:
    return "  over the 150 ms budget" if ms > 150 else ""


def _session(root: Path, text: str, line: int, runs: int) -> dict[str, tuple[float, float]]:
    from lsp_session import run

    return run(root, text, line, runs)


if __name__ == "__main__":
    sys.exit(main())
