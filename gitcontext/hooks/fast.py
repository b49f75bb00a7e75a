"""The hooks' entry point, kept lean: no click, yaml-only-if-configured, nothing heavy.

The shim runs `main([HOOK, *git's arguments])`. When no context file and nothing under `.context/`
is staged, it returns after one `git rev-parse` and one `git diff --cached`.
"""
from __future__ import annotations

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
        root, git_dir = _repository()
        if not relevant_staged(root):
            return 0
    except Exception as exc:  # noqa: BLE001 - the runner's error policy applies below
        from gitcontext.hooks.runner import report_error

        return report_error(hook, None, None, exc)
    from gitcontext.hooks.runner import run_hook

    return run_hook(hook, root, git_dir, args)


def _repository() -> tuple[Path, Path]:
    out = git.text(["rev-parse", "--show-toplevel", "--absolute-git-dir"]).splitlines()
    return Path(out[0]), Path(out[1])


def relevant_staged(root: Path) -> list[str]:
    """Staged paths this tool cares about: context files (by the configured globs) and `.context/`."""
    from gitcontext import config as config_mod
    from gitcontext.instructions.globs import compile_globs

    staged = git.staged_paths(root)
    if not staged:
        return []
    # discover.is_context_path's test, without importing segmentation (3 ms of regexes)
    discovery = config_mod.load(root)["discovery"]
    include = compile_globs(tuple(discovery["include"]))
    exclude = compile_globs(tuple(discovery["exclude"]) + tuple(config_mod.NEVER_TRACKED))
    return [p for p in staged
            if p.startswith(STORE_PREFIX) or (include.match(p) and not exclude.match(p))]


if __name__ == "__main__":
    sys.exit(main())
