"""The fast path: nothing relevant staged means no heavy import and no work."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gitcontext.hooks.fast import load_config, main
from tests.helpers import commit, git, write
from tests.hooks.support import RULES

HEAVY = ("yaml", "click", "rapidfuzz", "tree_sitter", "git", "numpy", "gitcontext.instructions.segment")
PROBE = (
    "import json, sys\n"
    "from gitcontext.hooks.fast import main\n"
    "code = main(['pre-commit'])\n"
    f"print(json.dumps([code, [m for m in {HEAVY!r} if m in sys.modules]]))\n"
)


def _probe(repo, with_err: bool = False):
    """(exit code, heavy modules the hook's own process loaded[, its stderr]); the hook's work runs in
    a forked child, so what the work imports shows in what it prints, not in the modules."""
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=repo, capture_output=True, text=True, check=True)
    code, loaded = json.loads(out.stdout.splitlines()[-1])
    return (code, loaded, out.stderr) if with_err else (code, loaded)


def test_fast_path_imports_nothing_heavy(repo):
    commit(repo, {"CLAUDE.md": RULES, ".context/config.yml": "# defaults\nversion: 1\n"}, "rules")
    write(repo, "src.py", "print(1)\n")
    git(repo, "add", "src.py")
    assert _probe(repo) == (0, [])


# What the fast path must not add to a bare Python start: the runner and what only it needs.
LEAN = ("pickle", "gitcontext.hooks.runner")
LEAN_PROBE = (
    "import json, sys\n"
    "bare = set(sys.modules)\n"
    "from gitcontext.hooks.fast import main\n"
    "code = main(sys.argv[1:])\n"
    f"print(json.dumps([code, [m for m in {LEAN!r} if m in sys.modules and m not in bare]]))\n"
)


def _lean(repo, *argv: str):
    out = subprocess.run(
        [sys.executable, "-c", LEAN_PROBE, *argv], cwd=repo, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1]), out.stderr


@pytest.mark.parametrize("hook", ["pre-commit", "prepare-commit-msg", "commit-msg"])
def test_fast_path_does_not_load_the_runner(repo, hook):
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    write(repo, "src.py", "print(1)\n")
    git(repo, "add", "src.py")
    msg = write(repo, "msg.txt", "Change src\n")
    args = [] if hook == "pre-commit" else [str(msg)]
    assert _lean(repo, hook, *args) == ([0, []], "")


def test_a_big_code_change_alone_is_warned_without_the_runner(repo):
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    write(repo, "big.py", "".join(f"x{i} = {i}\n" for i in range(600)))
    git(repo, "add", "big.py")
    (code, loaded), err = _lean(repo, "pre-commit")
    assert code == 0 and "gitcontext.hooks.runner" not in loaded and "pickle" not in loaded
    assert err == (
        "gitcontext: warning: commit pressure: big.py churns 600 lines (RISK); consider splitting "
        "the commit — `git context radius` shows the blast radius\n"
    )


def test_fast_path_not_taken_when_a_context_file_is_staged(repo):
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    write(repo, "CLAUDE.md", RULES + "- Never force-push to the main branch.\n")
    git(repo, "add", "CLAUDE.md")
    code, _, err = _probe(repo, with_err=True)
    assert code == 0 and "gitcontext: 1 added" in err


def test_fast_path_custom_globs_are_honoured(repo):
    commit(repo, {".context/config.yml": "version: 1\ndiscovery:\n  include: ['docs/RULES.md']\n"}, "config")
    assert load_config(repo)["discovery"]["include"] == ["docs/RULES.md"]
    write(repo, "docs/RULES.md", "# Rules\n\n- Always run the linter first.\n")
    git(repo, "add", "docs/RULES.md")
    code, _, err = _probe(repo, with_err=True)
    assert "gitcontext: 1 added" in err


def test_fast_entry_rejects_unknown_hook(repo, capsys):
    assert main(["post-merge"]) == 2
    assert "usage" in capsys.readouterr().err


def test_fast_path_from_a_subdirectory(repo, monkeypatch):
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    write(repo, "sub/CLAUDE.md", "# Sub\n\n- Keep the sub rules short and clear.\n")
    git(repo, "add", "sub/CLAUDE.md")
    monkeypatch.chdir(repo / "sub")
    msg = write(repo, "sub/msg.txt", "Add sub rules\n")
    assert main(["commit-msg", str(msg)]) == 1  # found the staged file from below the top


def test_relevant_staged_literal_ends_drop_only_what_the_globs_refuse(repo):
    """Among 1,200 staged code files, exactly the paths the include/exclude globs take (and .context/) remain."""
    import copy

    from gitcontext.config import DEFAULTS, NEVER_TRACKED
    from gitcontext.hooks.fast import relevant_staged
    from gitcontext.instructions.globs import compile_globs

    staged = [f"src/m{i}.py" for i in range(1200)] + [
        "CLAUDE.md",
        "pkg/AGENTS.md",
        ".claude/rules/style",
        ".cursor/rules/a/b.mdc",
        "docs/guide.md",
        "xCLAUDE.md",
        "pkg/CLAUDE.local.md",
        ".context/notes/ctx-3f9a2c4b1d2e.jsonl",
        ".github/copilot-instructions.md",
        ".clinerules/x.txt",
        "a/.windsurfrules",
        "notes.mdc",
    ]
    include = compile_globs(tuple(DEFAULTS["discovery"]["include"]))
    exclude = compile_globs(tuple(copy.deepcopy(DEFAULTS)["discovery"]["exclude"]) + tuple(NEVER_TRACKED))
    expected = [p for p in staged if p.startswith(".context/") or (include.match(p) and not exclude.match(p))]
    assert relevant_staged(repo, staged) == expected
    assert expected == [
        "CLAUDE.md",
        "pkg/AGENTS.md",
        ".claude/rules/style",
        ".cursor/rules/a/b.mdc",
        ".context/notes/ctx-3f9a2c4b1d2e.jsonl",
        ".github/copilot-instructions.md",
        ".clinerules/x.txt",
        "a/.windsurfrules",
    ]
