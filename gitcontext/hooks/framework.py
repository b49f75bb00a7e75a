"""`init --hooks pre-commit`: add gitcontext's two hooks to `.pre-commit-config.yaml`, or say how.

The hooks are written as a `repo: local` entry that runs the installed `git-context` (`language:
system`): it needs no repository URL or tag that nobody has checked, and runs exactly the version the
team installed (pipx, a dev dependency). The same hooks, for a remote `repo:` entry, are declared in
the shipped `.pre-commit-hooks.yaml`; a test keeps the two in step.
"""

from __future__ import annotations

from pathlib import Path

from gitcontext.errors import UserError

CONFIG = ".pre-commit-config.yaml"
HOOK_TYPES = ("pre-commit", "prepare-commit-msg", "commit-msg")
INSTALL_COMMAND = "pre-commit install " + " ".join(f"--hook-type {t}" for t in HOOK_TYPES)
# id -> (name, entry, stages, pass_filenames): the manifest's hooks, run from the PATH.
HOOKS = {
    "gitcontext": (
        "gitcontext (validate notes, summarize instruction changes)",
        "git-context hook pre-commit",
        ("pre-commit",),
        False,
    ),
    "gitcontext-msg": (
        "gitcontext (a why for every added or reworded instruction)",
        "git-context hook msg",
        ("prepare-commit-msg", "commit-msg"),
        True,
    ),
}
HOOK_IDS = tuple(HOOKS)


def entry_text(indent: str = "") -> str:
    lines = ["-   repo: local", "    hooks:"]
    for id, (name, entry, stages, pass_filenames) in HOOKS.items():
        lines += [
            f"    -   id: {id}",
            f"        name: {name}",
            f"        entry: {entry}",
            "        language: system",
            "        always_run: true",
            "        require_serial: true",
            "        verbose: true",
            f"        stages: [{', '.join(stages)}]",
        ]
        if not pass_filenames:
            lines.append("        pass_filenames: false")
    return "".join(f"{indent}{line}\n" for line in lines)


def merge_config(root: Path) -> tuple[str, list[str]]:
    """(what happened, lines to show). Writes only when the result parses to exactly the old config
    plus our repo; otherwise leaves the file alone and prints the entry to paste."""
    import yaml

    path = root / CONFIG
    if not path.exists():
        path.write_text(
            f"default_install_hook_types: [{', '.join(HOOK_TYPES)}]\nrepos:\n" + entry_text(), encoding="utf-8"
        )
        return "created", [f"wrote {CONFIG}", f"now run: {INSTALL_COMMAND}"]
    old_text = path.read_text(encoding="utf-8")
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
    path.write_text(new_text, encoding="utf-8")
    return "merged", [f"added gitcontext to {CONFIG}", f"now run: {INSTALL_COMMAND}"]


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
