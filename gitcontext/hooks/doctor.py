"""`git context doctor`: every way the set-up can be silently broken, each with its fixing command."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from gitcontext import config as config_mod
from gitcontext import git
from gitcontext.errors import GitError, UserError
from gitcontext.hooks import framework
from gitcontext.hooks.install import HOOK_NAMES, state_of

HOOKS_MODE_KEY = "gitcontext.hooks"  # git config: native | pre-commit | none, written by init
NATIVE_FIX = "git context init --hooks native"


class Problem(NamedTuple):
    check: str  # hooks | merge | clone | notes | trials
    message: str
    fix: str
    severity: str = "error"  # error (exit 1) | warning


def diagnose(root: Path) -> list[Problem]:
    """Hooks, clone, notes and context files. Merge-driver checks live in gitcontext.merge; the CLI adds them."""
    notes = note_problems(root)
    return [
        *hook_problems(root),
        *clone_problems(root),
        *notes,
        *([] if notes else repair_problems(root)),
        *suggestion_problems(root),
        *leftover_problems(root),
        *trial_problems(root),
        *context_file_problems(root),
    ]


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
        return [
            Problem("hooks", f"{path}: the pre-commit framework is not installed for {hook}", framework.INSTALL_COMMAND)
        ]
    if FRAMEWORK_IDS[hook] not in ids:
        return [
            Problem(
                "hooks",
                f"{path} runs the pre-commit framework, but {framework.CONFIG} has no `{FRAMEWORK_IDS[hook]}` hook",
                "git context init --hooks pre-commit",
            )
        ]
    return []


def _framework_ids(root: Path) -> set[str]:
    from gitcontext.config import parse_yaml
    from gitcontext.paths import read_regular

    try:
        raw = read_regular(root, framework.CONFIG, 1 << 20)
        data = parse_yaml(raw, framework.CONFIG, 1 << 20) if raw is not None else {}
    except UserError:
        return set()
    repos = data.get("repos") if isinstance(data, dict) else None
    hooks = [h for r in repos or [] if isinstance(r, dict) for h in r.get("hooks") or [] if isinstance(h, dict)]
    return {h["id"] for h in hooks if isinstance(h.get("id"), str)}  # an id of another type names no hook


def clone_problems(root: Path) -> list[Problem]:
    if not git.is_shallow(root):
        return []
    return [
        Problem(
            "clone",
            "shallow clone: backfill, blame and history see only part of the history",
            "git fetch --unshallow",
            "warning",
        )
    ]


def note_problems(root: Path) -> list[Problem]:
    """Every note read as every command reads it: folders, file types, sizes, events, paths in them."""
    from gitcontext.provenance.store import NOTES_DIR, SUFFIX, notes_folder, read_bytes, validate_note_text

    try:
        folder = notes_folder(root)
    except UserError as exc:
        return [Problem("notes", str(exc).split("\n")[0], exc.fix or f"git rm {NOTES_DIR}")]
    problems: list[Problem] = []
    owner: dict[str, str] = {}
    entries = sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []
    for path in entries:
        rel = path.relative_to(root).as_posix()
        try:
            data = read_bytes(root, path) or b""
            events = validate_note_text(rel, data.decode("utf-8"))
        except UnicodeDecodeError:
            problems.append(Problem("notes", f"{rel}: not valid UTF-8", _restore_fix(rel)))
            continue
        except UserError as exc:
            problems.append(
                Problem(
                    "notes",
                    exc.message
                    if exc.path is None
                    else f"{exc.path}:{exc.line}: {exc.message}"
                    if exc.line
                    else f"{exc.path}: {exc.message}",
                    exc.fix or _restore_fix(rel),
                )
            )
            continue
        for event in events:
            first = owner.setdefault(event["eid"], rel)
            if first != rel:
                problems.append(
                    Problem(
                        "notes",
                        f"{rel}: event {event['eid']} also in {first}",
                        f"remove the copy from one of them (git log -p -- {rel})",
                    )
                )
    return problems


def repair_problems(root: Path) -> list[Problem]:
    """The misattributions earlier versions wrote into the notes that `git context repair` corrects (a
    why on a live rule for a look-alike the hook added, a birth naming a commit that lacks the rule)."""
    from gitcontext.provenance.repair import find  # sync and the resolver: ~75 ms, only for doctor itself

    try:
        fixes = find(root, config_mod.load(root))
    except (UserError, GitError):
        return []  # a broken config or no history: other checks say so
    if not fixes:
        return []
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(Counter(f.kind for f in fixes).items()))
    return [
        Problem(
            "notes",
            f"{len(fixes)} event{'s' if len(fixes) != 1 else ''} an earlier version wrote wrong ({kinds}); "
            "`git context repair --dry-run` lists them",
            "git context repair (appends the corrections; no note is rewritten)",
            "warning",
        )
    ]


def suggestion_problems(root: Path) -> list[Problem]:
    """The suggestions log read as `review` and the audit read it: every line a valid event of its kinds."""
    from gitcontext.provenance.suggestions import LOG, read

    try:
        read(root)
    except UserError as exc:
        where = f"{exc.path}:{exc.line}: " if exc.path and exc.line else f"{exc.path}: " if exc.path else ""
        return [Problem("notes", f"{where}{exc.message}", exc.fix or _restore_fix(LOG))]
    return []


def _restore_fix(rel: str) -> str:
    # `git show` writes the blob's bytes as committed: no core.autocrlf conversion brings CRLF back
    return f"git show HEAD:{rel} > {rel}"


def trial_problems(root: Path) -> list[Problem]:
    """Worktrees a killed `trial` left (its process is gone): registered with git, never removed."""
    from gitcontext.evidence.worktree import orphans

    try:
        found = orphans(root)
    except (OSError, UserError):
        return []
    if not found:
        return []
    shown = os.path.relpath(found[0], root)
    return [
        Problem(
            "trials",
            f"{len(found)} worktree folder(s) of killed `git context trial` runs remain, e.g. {shown}",
            f"`rm -rf {' '.join(os.path.relpath(p, root) for p in found[:5])}{' …' if len(found) > 5 else ''}"
            " && git worktree prune` (the next `git context trial` also removes them)",
        )
    ]


def leftover_problems(root: Path) -> list[Problem]:
    """Temporary files of killed writers, and interrupted retire/restore changes not yet finished."""
    from gitcontext.provenance import journal, locks
    from gitcontext.provenance.store import NOTES_DIR

    problems = []
    tmp = locks.git_dir_of(root) / locks.STATE_DIR / "tmp"
    stale = locks.leftovers(tmp) + sorted((root / NOTES_DIR).glob(".*.tmp")) if not _linked(root) else []
    if stale:
        size = sum(p.stat().st_size for p in stale if p.exists())
        problems.append(
            Problem(
                "notes",
                f"{len(stale)} temporary file(s) left by killed writers ({size} bytes), "
                f"e.g. {os.path.relpath(stale[0], root)}",
                "delete them (any gitcontext write also removes those in .git/gitcontext/tmp)",
                "warning",
            )
        )
    for entry in journal.in_progress(root):
        problems.append(
            Problem(
                "notes",
                f"an interrupted retire/restore is pending ({entry})",
                "run any git context command (e.g. `git context ls`): it finishes or rolls it back",
            )
        )
    return problems


def _linked(root: Path) -> bool:
    return os.path.islink(root / ".context") or os.path.islink(root / ".context/notes")


def context_file_problems(root: Path) -> list[Problem]:
    """Context files discovery skips (a symlink out of the repository, a loop) and a config that does not load."""
    from gitcontext import config as config_mod
    from gitcontext.instructions.discover import link_problems

    try:
        config = config_mod.load(root)
    except UserError as exc:
        return [Problem("config", str(exc).split("\n")[0], exc.fix or f"fix {config_mod.CONFIG_PATH}")]
    return [
        Problem(
            "context",
            f"{path} {why}; it is skipped",
            f"replace the link with the file itself, or exclude {path} with discovery.exclude",
            "warning",
        )
        for path, why in link_problems(root, config)
    ]
