"""`.context/config.yml`: defaults, schema validation (unknown keys are errors naming the key)."""

from __future__ import annotations

import functools
import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: pathlib costs the hook's fast path 4 ms
    from pathlib import Path
    from typing import Any

from gitcontext.errors import UserError
from gitcontext.paths import shown

CONFIG_PATH = ".context/config.yml"

DEFAULT_GLOBS = [
    "**/CLAUDE.md",
    "**/AGENTS.md",
    "**/AGENT.md",
    "**/GEMINI.md",
    "**/QWEN.md",
    "**/CRUSH.md",
    "**/WARP.md",
    ".github/copilot-instructions.md",
    ".github/instructions/**/*.instructions.md",
    "**/.cursorrules",
    "**/.cursor/rules/**/*.md",
    "**/.cursor/rules/**/*.mdc",
    "**/.windsurfrules",
    ".windsurf/rules/**",
    "**/.clinerules",
    ".clinerules/**",
    ".claude/rules/**",
    ".claude/agents/**/*.md",
    ".claude/commands/**/*.md",
    ".openhands/microagents/**/*.md",
    ".agents/rules/**",
    ".junie/guidelines.md",
    ".roorules",
    ".roorules-*",
    ".roo/rules/**",
    ".roo/rules-*/**",
    ".continue/rules/**",
    "**/SKILL.md",
]
NEVER_TRACKED = ["**/CLAUDE.local.md"]
VENDORED = ["**/vendor/**", "**/node_modules/**"]

# The schema is the defaults: every key that exists has a default whose type is the contract.
DEFAULTS: dict[str, Any] = {
    "version": 1,
    # vendored copies carry another project's rules: no why of this repository's, nothing its team can prune
    "discovery": {"include": DEFAULT_GLOBS, "exclude": VENDORED, "imports": True, "links": False},
    "matcher": "default",
    "hooks": {
        "policy": "enforce",  # enforce | warn | off
        "time_budget": 5.0,  # seconds before the hook lets the commit through
        "on_error": "pass",  # pass | block
        "ratchet_warning": True,
    },
    "merge": {"context_files": True},
    "radius": {
        "hops": 2,
        "lambda": 1.0,
        "gate": False,
        "window_days": 30,
        "exclude": [
            "**/*.lock",
            "**/package-lock.json",
            "**/pnpm-lock.yaml",
            "**/go.sum",
            "**/CHANGELOG*",
            "vendor/**",
            "third_party/**",
            "node_modules/**",
            ".context/**",
        ],
        "roots": [],
        "wide_reach": 20,
    },
    "audit": {"disable": [], "stale_days": 90, "stale_commits": 50, "budget_tokens": 0},
    "rulings": {"aliases": {}, "ask_reminder_days": 7, "digest_budget": 800},
}
# dotted key -> (lowest, highest) accepted; numbers are also finite. A value outside is an error naming the key.
RANGES: dict[tuple[str, ...], tuple[float, float]] = {
    ("version",): (1, 1),
    ("hooks", "time_budget"): (0.1, 600.0),
    ("radius", "hops"): (0, 10),
    ("radius", "lambda"): (0.0, 100.0),
    ("radius", "window_days"): (1, 36500),
    ("audit", "stale_days"): (1, 36500),
    ("audit", "stale_commits"): (1, 1_000_000),
    ("audit", "budget_tokens"): (0, 10_000_000),
    ("audit", "floor"): (1, 10_000),
    ("rulings", "ask_reminder_days"): (0, 36500),
    ("rulings", "digest_budget"): (0, 10_000_000),
}
MAX_CONFIG_BYTES = 64 * 1024
MAX_GLOB = 512
MAX_NESTING = 64
MAX_BRACE_DEPTH = 8
# Mappings whose keys are the user's own, not schema keys: topic -> its other spellings; agent -> the bytes
# of context it reads (0: no limit), which the audit checks against its own list of agents.
FREE_MAPPINGS: dict[tuple[str, ...], str] = {("rulings", "aliases"): "topics", ("audit", "limits"): "limits"}
MAX_LIMIT = 100_000_000
# audit-core: deletion candidates never take a file below `floor` instructions; `fail_on` is --fail-on's default.
DEFAULTS["audit"].update({"floor": 3, "fail_on": "error", "limits": {}})
# signal: experimental checks (precision under the rule of audit.registry) this repository runs anyway.
DEFAULTS["audit"]["experimental"] = []
CHOICES = {
    ("hooks", "policy"): {"enforce", "warn", "off"},
    ("hooks", "on_error"): {"pass", "block"},
    ("matcher",): {"default", "paper"},
}
CHOICES[("audit", "fail_on")] = {"note", "warning", "error", "never"}


_COMMENT = r"#[^\x00-\x08\n\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]*"  # what YAML prints, no line break
_NOTHING = rf"(?:(?: *(?:{_COMMENT})?|version: 1)\r?\n)*(?: *(?:{_COMMENT})?|version: 1)"  # compiled on first use


def defaults() -> dict[str, Any]:
    """A fresh copy of DEFAULTS, for the caller to change (the copy module costs the hook 0.8 ms)."""
    return _fresh(DEFAULTS)


def _fresh(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    return [_fresh(item) for item in value] if isinstance(value, list) else value


def load(root: str | Path) -> dict[str, Any]:
    """The repository's config merged over the defaults; raises UserError on any bad key or type."""
    from gitcontext.paths import read_regular

    try:
        data = read_regular(root, CONFIG_PATH, MAX_CONFIG_BYTES)
    except UserError as exc:
        raise UserError(
            f"cannot read config: it {exc.message}",
            path=CONFIG_PATH,
            fix=f"make {CONFIG_PATH} a regular file of YAML, or delete it to use the defaults",
        ) from None
    return defaults() if data is None or _says_nothing(data) else parse(data)


def _says_nothing(data: bytes) -> bool:
    """Only comments, blank lines and `version: 1` at the margin, as `init` writes it: the defaults,
    known without importing yaml (10-30 ms of patterns for every command). Anything else, a tab, a
    YAML line break inside a comment or a character YAML refuses included, goes to the parser."""
    try:
        return _nothing().fullmatch(data.decode("utf-8")) is not None
    except UnicodeDecodeError:
        return False


@functools.lru_cache(maxsize=1)
def _nothing() -> re.Pattern[str]:
    return re.compile(_NOTHING)


def parse(data: bytes | str, source: str = CONFIG_PATH) -> dict[str, Any]:
    """The config in DATA (config.yml's bytes, the blob at a revision, the Action's `config` input) merged
    over the defaults and validated like `load`, or a UserError naming SOURCE."""
    raw = parse_yaml(data.encode("utf-8") if isinstance(data, str) else data, source) or {}
    if not isinstance(raw, dict):
        raise UserError(
            "config must be a mapping", path=source, fix=f"see docs/configuration.md for the keys of {CONFIG_PATH}"
        )
    return _merge(defaults(), raw, ())


def parse_yaml(data: bytes, where: str, limit: int = MAX_CONFIG_BYTES) -> Any:
    """YAML from repository content, safely: bounded size, no aliases (no alias bomb), no deep nesting."""
    if len(data) > limit:
        raise UserError(f"file is {len(data)} bytes, over the {limit}-byte limit", path=where, fix=f"shorten {where}")
    what = "config" if where == CONFIG_PATH else "YAML"
    if _flow_depth(data) > MAX_NESTING:
        raise UserError(
            f"cannot read {what}: nested more than {MAX_NESTING} deep", path=where, fix=f"fix the YAML in {where}"
        )
    import yaml  # only when a config exists; keeps the hook fast path light

    try:
        return yaml.load(data.decode("utf-8"), Loader=_loader())  # noqa: S506 - SafeLoader without aliases
    except UnicodeDecodeError as exc:
        raise UserError(
            f"not valid UTF-8 (byte {exc.start})",
            path=where,
            line=data[: exc.start].count(b"\n") + 1,
            fix=f"re-save {where} as UTF-8",
        ) from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise UserError(
            f"cannot read {what}: {str(exc.problem or exc)[:200]}",
            path=where,
            line=line,
            fix=f"fix the YAML in {where}" + (" or delete it to use the defaults" if where == CONFIG_PATH else ""),
        ) from None
    except (yaml.YAMLError, ValueError, RecursionError, OverflowError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise UserError(f"cannot read {what}: {reason}", path=where, fix=f"fix the YAML in {where}") from None


def _flow_depth(data: bytes) -> int:
    """How deep `[`/`{` nest (a cheap bound; brackets inside strings count too, harmlessly)."""
    depth = deepest = 0
    for byte in data.translate(None, _NOT_BRACKETS):
        depth = max(0, depth + (1 if byte in b"[{" else -1))
        deepest = max(deepest, depth)
    return deepest


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


@functools.lru_cache(maxsize=1)
def _loader() -> type:
    import yaml

    class NoAliasLoader(yaml.SafeLoader):
        """SafeLoader that refuses anchors' aliases: a config never needs them, an alias bomb does."""

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", event.start_mark)
            return super().compose_node(parent, index)

    return NoAliasLoader


def _merge(base: dict[str, Any], raw: dict[str, Any], where: tuple[str, ...]) -> dict[str, Any]:
    for key, value in raw.items():
        dotted = shown(".".join((*where, str(key))), 80)[1:-1]
        if not isinstance(key, str) or key not in base:
            known = ", ".join(sorted(base))
            raise UserError(
                f"unknown key {dotted!r} (known here: {known})",
                path=CONFIG_PATH,
                fix=f"remove or rename {dotted!r} in {CONFIG_PATH}",
            )
        default = base[key]
        free = FREE_MAPPINGS.get((*where, key))
        if free is not None:
            base[key] = (_limits if free == "limits" else _free_mapping)(value, dotted)
            continue
        if isinstance(default, dict):
            if not isinstance(value, dict):
                raise UserError(
                    f"{dotted!r} must be a mapping", path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}"
                )
            base[key] = _merge(default, value, (*where, key))
            continue
        if not _same_type(default, value):
            raise UserError(
                f"{dotted!r} must be a {type(default).__name__}, got {shown(value, 80)}",
                path=CONFIG_PATH,
                fix=f"edit {dotted!r} in {CONFIG_PATH}",
            )
        allowed = CHOICES.get((*where, key))
        if allowed and value not in allowed:
            raise UserError(
                f"{dotted!r} must be one of {', '.join(sorted(allowed))}, got {shown(value, 80)}",
                path=CONFIG_PATH,
                fix=f"edit {dotted!r} in {CONFIG_PATH}",
            )
        problem = _out_of_range((*where, key), value) or (_glob_problem(value) if isinstance(value, list) else None)
        if problem:
            raise UserError(f"{dotted!r} {problem}", path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}")
        base[key] = value
    return base


def _out_of_range(key: tuple[str, ...], value: Any) -> str | None:
    bounds = RANGES.get(key)
    if bounds is None or not isinstance(value, (int, float)):
        return None
    low, high = bounds
    if isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
        return f"must be between {low:g} and {high:g}, got {shown(value, 80)}"
    return None


def _glob_problem(patterns: list[str]) -> str | None:
    for pattern in patterns:
        depth = deepest = 0
        for c in pattern:
            depth += {"{": 1, "}": -1}.get(c, 0)
            deepest = max(deepest, depth)
        wildcards = pattern.count("*") + pattern.count("?")
        if len(pattern) > MAX_GLOB or deepest > MAX_BRACE_DEPTH or pattern.count("{") > 64 or wildcards > 32:
            return (
                f"has a glob over the limits ({MAX_GLOB} characters, braces {MAX_BRACE_DEPTH} deep, "
                f"32 wildcards): "
                f"{shown(pattern, 80)}"
            )
        if "\0" in pattern:
            return f"has a glob with a NUL character: {shown(pattern, 80)}"
    return None


def _free_mapping(value: Any, dotted: str) -> dict[str, list[str]]:
    """A mapping of kebab-case keys to a string or a list of strings (each value becomes a list)."""
    if not isinstance(value, dict):
        raise UserError(f"{dotted!r} must be a mapping", path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}")
    out = {}
    for k, v in value.items():
        names = [v] if isinstance(v, str) else v
        if not isinstance(k, str) or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise UserError(
                f"{dotted}.{str(k)[:40]} must map a topic to a topic or a list of topics",
                path=CONFIG_PATH,
                fix=f"write `{str(k)[:40]}: [other-spelling, …]` under {dotted!r}",
            )
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


def _limits(value: Any, dotted: str) -> dict[str, int]:
    """Agent name -> bytes it reads, a whole number from 0 (no limit) to MAX_LIMIT."""
    if not isinstance(value, dict):
        raise UserError(f"{dotted!r} must be a mapping", path=CONFIG_PATH, fix=f"edit {dotted!r} in {CONFIG_PATH}")
    for k, v in value.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_LIMIT:
            raise UserError(
                f"{dotted}.{str(k)[:40]} must be a whole number of bytes from 0 (no limit) to "
                f"{MAX_LIMIT:,}, got {shown(v, 80)}",
                path=CONFIG_PATH,
                fix=f"write `{str(k)[:40]}: 65536` under {dotted!r}",
            )
    return dict(value)
