"""`.context/config.yml`: defaults, schema validation (unknown keys are errors naming the key)."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from gitcontext.errors import UserError

CONFIG_PATH = ".context/config.yml"

DEFAULT_GLOBS = [
    "**/CLAUDE.md", "**/AGENTS.md", "**/AGENT.md", "**/GEMINI.md", "**/QWEN.md", "**/CRUSH.md",
    "**/WARP.md", ".github/copilot-instructions.md", ".github/instructions/**/*.instructions.md",
    "**/.cursorrules", ".cursor/rules/**/*.md", ".cursor/rules/**/*.mdc", "**/.windsurfrules",
    ".windsurf/rules/**", "**/.clinerules", ".clinerules/**", ".claude/rules/**", ".agents/rules/**",
    ".junie/guidelines.md",
    "**/SKILL.md",
]
NEVER_TRACKED = ["**/CLAUDE.local.md"]

# The schema is the defaults: every key that exists has a default whose type is the contract.
DEFAULTS: dict[str, Any] = {
    "version": 1,
    "discovery": {"include": DEFAULT_GLOBS, "exclude": [], "imports": True, "links": False},
    "matcher": "default",
    "hooks": {
        "policy": "enforce",          # enforce | warn | off
        "time_budget": 5.0,           # seconds before the hook lets the commit through
        "on_error": "pass",           # pass | block
        "ratchet_warning": True,
    },
    "merge": {"context_files": True},
    "radius": {"hops": 2, "lambda": 1.0, "gate": False, "window_days": 30,
               "exclude": ["**/*.lock", "**/package-lock.json", "**/pnpm-lock.yaml", "**/go.sum", "**/CHANGELOG*", "vendor/**",
                           "third_party/**", "node_modules/**", ".context/**"],
               "roots": [], "wide_reach": 20},
    "audit": {"disable": [], "stale_days": 90, "stale_commits": 50, "budget_tokens": 8000},
    "rulings": {"aliases": {}, "ask_reminder_days": 7, "digest_budget": 800},
}
# Mappings whose keys are the user's own (topic -> its other spellings), not schema keys.
FREE_MAPPINGS = {("rulings", "aliases")}
# audit-core: deletion candidates never take a file below `floor` instructions; `fail_on` is --fail-on's default.
DEFAULTS["audit"].update({"floor": 3, "fail_on": "error"})
CHOICES = {("hooks", "policy"): {"enforce", "warn", "off"}, ("hooks", "on_error"): {"pass", "block"},
           ("matcher",): {"default", "paper"}}
# (section, key) -> (lowest, highest) allowed, inclusive.
RANGES = {("audit", "stale_days"): (1, 36500), ("audit", "stale_commits"): (1, 1_000_000),
          ("audit", "budget_tokens"): (1, 10_000_000), ("audit", "floor"): (1, 10_000)}
CHOICES[("audit", "fail_on")] = {"note", "warning", "error", "never"}


def load(root: str | Path) -> dict[str, Any]:
    """The repository's config merged over the defaults; raises UserError on any bad key or type."""
    path = Path(root) / CONFIG_PATH
    if not path.exists():
        return copy.deepcopy(DEFAULTS)
    import yaml  # only when a config exists; keeps the hook fast path light

    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise UserError(f"cannot read config: {exc}", path=CONFIG_PATH,
                        fix=f"fix the YAML in {CONFIG_PATH} or delete it to use the defaults") from exc
    if not isinstance(raw, dict):
        raise UserError("config must be a mapping", path=CONFIG_PATH,
                        fix=f"see docs/design.md for the keys of {CONFIG_PATH}")
    return _merge(copy.deepcopy(DEFAULTS), raw, ())


def _merge(base: dict[str, Any], raw: dict[str, Any], where: tuple[str, ...]) -> dict[str, Any]:
    for key, value in raw.items():
        dotted = ".".join((*where, str(key)))
        if key not in base:
            known = ", ".join(sorted(base))
            raise UserError(f"unknown key {dotted!r} (known here: {known})", path=CONFIG_PATH,
                            fix=f"remove or rename {dotted!r} in {CONFIG_PATH}")
        default = base[key]
        if (*where, key) in FREE_MAPPINGS:
            base[key] = _free_mapping(value, dotted)
            continue
        if isinstance(default, dict):
            if not isinstance(value, dict):
                raise UserError(f"{dotted!r} must be a mapping", path=CONFIG_PATH,
                                fix=f"edit {dotted!r} in {CONFIG_PATH}")
            base[key] = _merge(default, value, (*where, key))
            continue
        if not _same_type(default, value):
            raise UserError(f"{dotted!r} must be a {type(default).__name__}, got {value!r}",
                            path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}")
        allowed = CHOICES.get((*where, key))
        if allowed and value not in allowed:
            raise UserError(f"{dotted!r} must be one of {', '.join(sorted(allowed))}, got {value!r}",
                            path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}")
        bounds = RANGES.get((*where, key))
        if bounds and not bounds[0] <= value <= bounds[1]:
            raise UserError(f"{dotted!r} must be between {bounds[0]} and {bounds[1]}, got {value!r}",
                            path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}")
        base[key] = value
    return base


def _free_mapping(value: Any, dotted: str) -> dict[str, list[str]]:
    """A mapping of kebab-case keys to a string or a list of strings (each value becomes a list)."""
    if not isinstance(value, dict):
        raise UserError(f"{dotted!r} must be a mapping", path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}")
    out = {}
    for k, v in value.items():
        names = [v] if isinstance(v, str) else v
        if not isinstance(k, str) or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise UserError(f"{dotted}.{str(k)[:40]} must map a topic to a topic or a list of topics",
                            path=CONFIG_PATH, fix=f"write `{str(k)[:40]}: [other-spelling, …]` under {dotted!r}")
        out[k] = names
    return out


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, list):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, type(default))


def parse(text: str, source: str = CONFIG_PATH) -> dict[str, Any]:
    """A config's TEXT (e.g. the blob at a revision) merged over the defaults, validated like `load`."""
    import yaml

    try:
        raw = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise UserError(f"cannot read config: {exc}", path=source,
                        fix=f"fix the YAML in {CONFIG_PATH}") from exc
    if not isinstance(raw, dict):
        raise UserError("config must be a mapping", path=source, fix=f"see docs/design.md for the keys of {CONFIG_PATH}")
    return _merge(copy.deepcopy(DEFAULTS), raw, ())
