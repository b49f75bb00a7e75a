"""`git context doctor`: every way the set-up can be silently broken, each with its fixing command."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.hooks import framework
from gitcontext.hooks.install import HOOK_NAMES, state_of

HOOKS_MODE_KEY = "gitcontext.hooks"          # git config: native | pre-commit | none, written by init
NATIVE_FIX = "git context init --hooks native"


class Problem(NamedTuple):
    check: str           # hooks | merge | clone | notes
    message: str
    fix: str
    severity: str = "error"    # error (exit 1) | warning


def diagnose(root: Path) -> list[Problem]:
    """Hooks, clone and notes. Merge-driver checks live in gitcontext.merge; the CLI adds them."""
    return [*hook_problems(root), *clone_problems(root), *note_problems(root)]


def hook_problems(root: Path) -> list[Problem]:
    mode = git.config_get(HOOKS_MODE_KEY, root) or "native"
    if mode == "none":
        return []
    folder = git.hooks_dir(root)
    ids = _framework_ids(root)
    problems = []
    for hook in HOOK_NAMES:
        s = state_of(folder, hook)
        if s.state == "pre-commit" or mode == "pre-commit":
            problems += _framework_problem(hook, s.path, s.state, ids)
        elif s.state != "current":
            problems.append(Problem("hooks", f"{s.path} {NATIVE_TROUBLE[s.state]}", NATIVE_FIX))
    return problems


NATIVE_TROUBLE = {
    "missing": "is not installed",
    "outdated": "is an older gitcontext shim, or names another Python",
    "foreign": "is not gitcontext's, so gitcontext does not run (init keeps yours as .legacy and runs it first)",
}
FRAMEWORK_IDS = {"pre-commit": "gitcontext", "prepare-commit-msg": "gitcontext-msg", "commit-msg": "gitcontext-msg"}


def _framework_problem(hook: str, path: Path, state: str, ids: set[str]) -> list[Problem]:
    if state != "pre-commit":
        return [Problem("hooks", f"{path}: the pre-commit framework is not installed for {hook}",
                        framework.INSTALL_COMMAND)]
    if FRAMEWORK_IDS[hook] not in ids:
        return [Problem("hooks", f"{path} runs the pre-commit framework, but {framework.CONFIG} has no "
                        f"`{FRAMEWORK_IDS[hook]}` hook", "git context init --hooks pre-commit")]
    return []


def _framework_ids(root: Path) -> set[str]:
    path = root / framework.CONFIG
    if not path.exists():
        return set()
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError:
        return set()
    repos = data.get("repos") if isinstance(data, dict) else None
    return {h.get("id") for r in repos or [] if isinstance(r, dict)
            for h in r.get("hooks") or [] if isinstance(h, dict)}


def clone_problems(root: Path) -> list[Problem]:
    if not git.is_shallow(root):
        return []
    return [Problem("clone", "shallow clone: backfill, blame and history see only part of the history",
                    "git fetch --unshallow", "warning")]


def note_problems(root: Path) -> list[Problem]:
    from gitcontext.provenance.store import NOTES_DIR, SUFFIX, validate_note_text

    problems, owner = [], {}
    for path in sorted((root / NOTES_DIR).glob(f"*{SUFFIX}")):
        rel = path.relative_to(root).as_posix()
        try:
            events = validate_note_text(rel, path.read_bytes().decode("utf-8"))
        except UnicodeDecodeError:
            problems.append(Problem("notes", f"{rel}: not valid UTF-8", f"git checkout HEAD -- {rel}"))
            continue
        except UserError as exc:
            problems.append(Problem("notes", exc.message if exc.path is None else
                                    f"{exc.path}:{exc.line}: {exc.message}", exc.fix or f"git checkout HEAD -- {rel}"))
            continue
        for event in events:
            first = owner.setdefault(event["eid"], rel)
            if first != rel:
                problems.append(Problem("notes", f"{rel}: event {event['eid']} also in {first}",
                                        f"remove the copy from one of them (git log -p -- {rel})"))
    return problems
