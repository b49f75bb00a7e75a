"""`init --hooks pre-commit`: add gitcontext's two hooks to `.pre-commit-config.yaml`, or say how.

The entry is a remote repository entry, the form pre-commit documents for a hook published with a
`.pre-commit-hooks.yaml` (the shipped manifest; `language: system` in a local entry is a legacy alias
since pre-commit 4.4), pinned to the version that wrote it: the release tag `vX.Y.Z`, or for a build
between releases the commit it was built from. `pre-commit autoupdate` moves the pin like any other.
"""

from __future__ import annotations

import re
from pathlib import Path

import gitcontext
from gitcontext.errors import UserError

REPOSITORY = "https://github.com/git-context-provenance/git-context-provenance"
CONFIG = ".pre-commit-config.yaml"
HOOK_TYPES = ("pre-commit", "prepare-commit-msg", "commit-msg")
INSTALL_COMMAND = "pre-commit install " + " ".join(f"--hook-type {t}" for t in HOOK_TYPES)
HOOK_IDS = ("gitcontext", "gitcontext-msg")  # the ids `.pre-commit-hooks.yaml` publishes
_RELEASE = re.compile(r"\d+\.\d+\.\d+")
_BUILT_FROM = re.compile(r"\+(?:[^+]*\.)?g([0-9a-f]{7,40})(?![0-9a-f])")  # setuptools-scm: 0.2.1.dev3+g1a2b3c4


def pinned_rev(version: str) -> str:
    """The `rev:` that names VERSION in the repository: its tag, or the commit a dev build came from."""
    if _RELEASE.fullmatch(version):
        return f"v{version}"
    built = _BUILT_FROM.search(version)
    if built:
        return built.group(1)
    raise UserError(
        f"this gitcontext ({version}) was not built from a release or a commit: there is no rev to pin",
        path=CONFIG,
        fix=f"install a released gitcontext, or add `repo: {REPOSITORY}` with the `rev:` you use by hand",
    )


def entry_text(indent: str = "", version: str | None = None) -> str:
    rev = pinned_rev(gitcontext.__version__ if version is None else version)
    lines = [f"-   repo: {REPOSITORY}", f"    rev: {rev}", "    hooks:", *(f"    -   id: {id}" for id in HOOK_IDS)]
    return "".join(f"{indent}{line}\n" for line in lines)


def merge_config(root: Path) -> tuple[str, list[str]]:
    """(what happened, lines to show). Writes only when the result parses to exactly the old config
    plus our repo; otherwise leaves the file alone and prints the entry to paste."""
    import yaml

    old_text = _read(root)
    if old_text is None:
        _write(root, f"default_install_hook_types: [{', '.join(HOOK_TYPES)}]\nrepos:\n" + entry_text())
        return "created", [f"wrote {CONFIG}", f"now run: {INSTALL_COMMAND}"]
    try:
        old = yaml.safe_load(old_text) or {}
    except yaml.YAMLError as exc:
        raise UserError(f"cannot parse: {exc}", path=CONFIG, fix=f"fix the YAML in {CONFIG} first") from None
    if not isinstance(old, dict):
        raise UserError("expected a mapping with `repos:`", path=CONFIG, fix=f"fix {CONFIG} first")
    ids = {h.get("id") for r in old.get("repos") or [] for h in r.get("hooks") or [] if isinstance(h, dict)}
    if set(HOOK_IDS) <= ids:
        return "present", [f"{CONFIG} already runs gitcontext", f"make sure it is installed: {INSTALL_COMMAND}"]
    new_text = _appended(old_text, old) if isinstance(old.get("repos"), list) else None
    if new_text is None:
        return "manual", [
            f"add this to `repos:` in {CONFIG}:",
            *entry_text().splitlines(),
            f"then run: {INSTALL_COMMAND}",
        ]
    _write(root, new_text)
    return "merged", [f"added gitcontext to {CONFIG}", f"now run: {INSTALL_COMMAND}"]


MAX_BYTES = 1024 * 1024


def _read(root: Path) -> str | None:
    """The config's text (None when absent); a symlink, device or FIFO in its place is refused unread."""
    from gitcontext.paths import read_regular
    from gitcontext.provenance.locks import guard_target

    guard_target(root, root / CONFIG)
    data = read_regular(root, CONFIG, MAX_BYTES)
    return None if data is None else data.decode("utf-8", "replace")


def _write(root: Path, text: str) -> None:
    from gitcontext.provenance.store import write_atomic

    write_atomic(root / CONFIG, text.encode("utf-8"), root)


def _appended(old_text: str, old: dict) -> str | None:
    """OLD_TEXT with our repo appended at the end of `repos:`, keeping comments; None if that is not safe."""
    import yaml

    expected = dict(old, repos=[*old["repos"], yaml.safe_load(entry_text())[0]])
    base = old_text + ("" if old_text.endswith("\n") else "\n")
    for indent in ("", "  ", "    "):
        candidate = base + entry_text(indent)
        try:
            if yaml.safe_load(candidate) == expected:
                return candidate
        except yaml.YAMLError:
            continue
    return None


def remove_config(root: Path) -> list[str]:
    """Take gitcontext's repository out of `.pre-commit-config.yaml` (the remote entry `init` writes, or the
    `repo: local` one earlier versions wrote), keeping every other line; the file goes when `init` made it
    and nothing else is left. Where the text cannot be cut safely, says what to remove by hand."""
    import yaml

    path = root / CONFIG
    old_text = _read(root)
    if old_text is None:
        return []
    try:
        old = yaml.safe_load(old_text) or {}
    except yaml.YAMLError:
        return [f"{CONFIG} does not parse: remove gitcontext's `repo:` entry by hand"]
    repos = old.get("repos") if isinstance(old, dict) else None
    if not isinstance(repos, list) or not any(_is_ours(r) for r in repos):
        return []
    kept = [r for r in repos if not _is_ours(r)]
    new_text = _cut_entries(old_text)
    if new_text is None or (yaml.safe_load(new_text) or {}) != _expected(old, kept):
        return [f"{CONFIG}: remove the `repo:` entry with the hooks {', '.join(HOOK_IDS)} by hand"]
    if not kept and set(old) <= {"repos", "default_install_hook_types"}:
        path.unlink()
        return [f"{CONFIG}: removed (it held only gitcontext's hooks); `pre-commit uninstall` removes its shims"]
    _write(root, new_text)
    return [f"{CONFIG}: gitcontext's hooks removed, your other hooks kept"]


def _is_ours(repo: object) -> bool:
    if not isinstance(repo, dict) or repo.get("repo") not in (REPOSITORY, "local"):
        return False
    ids = [h.get("id") for h in repo.get("hooks") or [] if isinstance(h, dict)]
    return bool(ids) and set(ids) <= set(HOOK_IDS)


def _expected(old: dict, kept: list) -> dict:
    return {**old, "repos": kept or None}


_ENTRY_START = re.compile(r"^(\s*)-\s+repo:\s*(\S+)\s*$")


def _cut_entries(text: str) -> str | None:
    """TEXT without the block-style `- repo:` entries whose hooks are gitcontext's; None if none was found."""
    import yaml

    lines = text.splitlines(keepends=True)
    out, i, cut = [], 0, False
    while i < len(lines):
        start = _ENTRY_START.match(lines[i])
        end = _entry_end(lines, i, len(start.group(1))) if start else i + 1
        if start and _is_ours((yaml.safe_load("".join(lines[i:end])) or [None])[0]):
            cut, i = True, end
            continue
        out += lines[i:end]
        i = end
    return "".join(out) if cut else None


def _entry_end(lines: list[str], start: int, indent: int) -> int:
    """The line after the entry starting at START: the next line as little indented that is not blank or a comment."""
    for j in range(start + 1, len(lines)):
        stripped = lines[j].strip()
        if stripped and not stripped.startswith("#") and len(lines[j]) - len(lines[j].lstrip()) <= indent:
            return j
    return len(lines)
