"""Register the driver in git config and route `.context/**` (and context files) to it.

`.gitattributes` gets one managed block (attributes.py). The driver line names the installing
interpreter by absolute path, so merges started from GUI clients (no virtualenv on PATH) still find
gitcontext.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.instructions.discover import discover
from gitcontext.instructions.globs import compile_globs
from gitcontext.merge.attributes import ATTRIBUTES, remove_attributes, write_attributes

NAME = "gitcontext: provenance notes by event, context files by instruction"
PLACEHOLDERS = ("%O", "%A", "%B", "%L", "%P")
NOTES_PATTERN = ".context/**"


def driver_command() -> str:
    return f"{shlex.quote(sys.executable)} -m gitcontext merge-driver {' '.join(PLACEHOLDERS)} --labels %S %X %Y"


def patterns(root: str | Path, config: dict[str, Any], context_files: bool = True) -> list[str]:
    """Attribute patterns: `.context/**`, the discovery globs, and any discovered file they miss."""
    found = [NOTES_PATTERN]
    if not (context_files and config["merge"]["context_files"]):
        return found
    for glob in config["discovery"]["include"]:
        found += [p for p in _expand_braces(glob) if p and not any(c.isspace() for c in p)]
    covered = compile_globs(tuple(found[1:]))
    found += ["/" + p for p in discover(root, config) if not covered.match(p) and " " not in p]
    return list(dict.fromkeys(found))


def _expand_braces(glob: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", glob)
    if not match:
        return [glob]
    head, tail = glob[: match.start()], glob[match.end() :]
    return [x for alt in match.group(1).split(",") for x in _expand_braces(head + alt + tail)]


def configure(root: str | Path, config: dict[str, Any], context_files: bool = True) -> list[str]:
    """Set merge.gitcontext.{name,driver} and write the attribute block; returns the patterns."""
    wanted = patterns(root, config, context_files)
    write_attributes(Path(root) / ATTRIBUTES, wanted)
    git.config_set("merge.gitcontext.name", NAME, root)
    git.config_set("merge.gitcontext.driver", driver_command(), root)
    return wanted


def unconfigure(root: str | Path) -> list[str]:
    """Undo `configure`: the driver's config and the attribute block (the user's attribute lines stay)."""
    done = []
    if any([git.config_unset("merge.gitcontext.driver", root), git.config_unset("merge.gitcontext.name", root)]):
        done.append("merge driver: merge.gitcontext removed from this clone's config")
    removed = remove_attributes(Path(root) / ATTRIBUTES)
    return done + ([removed] if removed else [])


# ---- doctor ------------------------------------------------------------------------------------


def problems(root: str | Path) -> list[tuple[str, str]]:
    """(message, fixing command) for every way merges would silently lose provenance here."""
    from gitcontext import config as config_mod

    try:
        config = config_mod.load(root)
    except UserError:
        config = config_mod.DEFAULTS
    note = ".context/notes/ctx-000000000000.jsonl"
    routed = git.check_attr(["merge"], [note, *discover(root, config)], root)
    ours = [p for p, attrs in routed.items() if attrs["merge"] == "gitcontext"]
    fix = "git context init"
    driver = git.config_get("merge.gitcontext.driver", root)
    found: list[tuple[str, str]] = []
    if ours and driver is None:
        names = [".context/ notes" if p == note else p for p in ours]
        what = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        found.append(
            (
                f"{ATTRIBUTES} routes {what} to merge=gitcontext, but "
                "merge.gitcontext.driver is not configured in this clone: git silently falls back to "
                "a text merge that can drop or duplicate provenance events",
                fix,
            )
        )
    elif driver is not None and (issue := driver_issue(driver)):
        found.append((f"merge.gitcontext.driver {issue}: {driver}", fix))
    if (Path(root) / ".context").is_dir() and routed.get(note, {}).get("merge") != "gitcontext":
        found.append(
            (
                f"{ATTRIBUTES} does not route .context/ notes to merge=gitcontext: concurrent "
                "notes merge as text (conflicts, lost or duplicated events)",
                fix,
            )
        )
    return found


def driver_issue(line: str) -> str | None:
    """Why a configured driver line is not (or no longer) a working gitcontext driver."""
    try:
        words = shlex.split(line)
    except ValueError:
        return "cannot be parsed"
    if "merge-driver" not in words:
        return "is not gitcontext's driver"
    missing = [p for p in PLACEHOLDERS if p not in words]
    if missing:
        return f"is outdated (it does not pass {' '.join(missing)})"
    program = words[0]
    if not (os.path.isfile(program) if os.path.isabs(program) else shutil.which(program)):
        return f"runs {program}, which does not exist any more"
    return None
