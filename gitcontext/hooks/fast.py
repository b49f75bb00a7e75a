"""The hooks' entry point, kept lean: no click, yaml-only-if-configured, nothing heavy.

The shim runs `main([HOOK, *git's arguments])`. When no context file and nothing under `.context/`
is staged, it returns after one `git diff --cached --numstat` (plus a `git rev-parse` when not run
from the top) — unless, for pre-commit, a staged file churns enough lines to reach a commit-pressure
tier, which the blast radius then judges exactly.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from gitcontext import git
from gitcontext.hooks.guard import skip_reason

HOOK_NAMES = ("pre-commit", "prepare-commit-msg", "commit-msg", "msg")
STORE_PREFIX = ".context/"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in HOOK_NAMES:
        sys.stderr.write(f"gitcontext: usage: python -m gitcontext.hooks.fast {{{'|'.join(HOOK_NAMES)}}} ARGS...\n")
        return 2
    hook, args = argv[0], argv[1:]
    if skip_reason(hook):
        return 0
    try:
        root = _toplevel()
        rows = git.diff_numstat(cached=True, cwd=root)
        staged = relevant_staged(root, [path for _, _, path in rows])
        if not staged and not (hook == "pre-commit" and may_pressure(rows)):
            return 0
        git_dir = git.git_dir(root)
    except Exception as exc:  # noqa: BLE001 - the runner's error policy applies below
        from gitcontext.hooks.runner import report_error

        return report_error(hook, _git_dir_or_none(), None, exc)
    from gitcontext.hooks.runner import run_hook

    return run_hook(hook, root, git_dir, args, staged)


def _toplevel() -> Path:
    """git runs hooks at the top of the work tree; ask git only when called from elsewhere."""
    here = Path.cwd()
    return here if (here / ".git").exists() else git.toplevel(here)


def _git_dir_or_none() -> Path | None:
    try:
        return git.git_dir()
    except Exception:  # noqa: BLE001 - not in a repository: nowhere to log
        return None


def load_config(root: Path) -> dict:
    """The config; one that only says `version: 1` (as `init` writes it) is the defaults, read
    without importing yaml (12 ms)."""
    import copy

    from gitcontext import config as config_mod

    if _is_default(root / config_mod.CONFIG_PATH):
        return copy.deepcopy(config_mod.DEFAULTS)
    return config_mod.load(root)


def _is_default(path: Path) -> bool:
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > 4096:
            return not os.path.lexists(path)   # absent: defaults; anything odd: config.load judges it
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    except (OSError, UnicodeDecodeError):
        return False                   # config.load reports it properly
    meaningful = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return meaningful in ([], ["version: 1"])


def may_pressure(rows: list) -> bool:
    """Whether any staged file churns at least the lowest commit-pressure tier (before exclusions)."""
    from gitcontext.radius.score import PRESSURE_TIERS, TIERS

    floor = min(lines for name, lines in TIERS if name in PRESSURE_TIERS)
    return any((added or 0) + (removed or 0) >= floor for added, removed, _ in rows)


def relevant_staged(root: Path, staged: list[str]) -> list[str]:
    """Staged paths this tool cares about: context files (by the configured globs) and `.context/`."""
    from gitcontext.config import NEVER_TRACKED
    from gitcontext.instructions.globs import compile_globs

    if not staged:
        return []
    # discover.is_context_path's test, without importing segmentation (3 ms of regexes)
    discovery = load_config(root)["discovery"]
    include = compile_globs(tuple(discovery["include"]))
    exclude = compile_globs(tuple(discovery["exclude"]) + tuple(NEVER_TRACKED))
    return [p for p in staged
            if p.startswith(STORE_PREFIX) or (include.match(p) and not exclude.match(p))]


if __name__ == "__main__":
    sys.exit(main())
