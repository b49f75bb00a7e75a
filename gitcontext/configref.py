"""docs/configuration.md, generated from the schema (`gitcontext.config`) and one line per key written here.

    python -m gitcontext.configref            # print the reference
    python -m gitcontext.configref --write    # write docs/configuration.md

Every dotted key of `config.DEFAULTS` needs an entry in DESCRIPTIONS (what it does, and an example value that the
schema accepts); `tests/test_configref.py` fails when one is missing or when docs/configuration.md is not this
module's output. Never imported by the hooks or any command.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gitcontext import config

DOC_PATH = "docs/configuration.md"

# dotted key -> (what it does, an example value a user might write)
DESCRIPTIONS: dict[str, tuple[str, Any]] = {
    "version": ("Schema version of the file. Write 1.", 1),
    "discovery.include": (
        "Globs (relative to the repository root, `**` for any folders, `{a,b}` alternatives) of the context files "
        "to track. Replaces the default list, so copy the defaults you still want.",
        ["**/CLAUDE.md", "**/AGENTS.md", "docs/agents/*.md"],
    ),
    "discovery.exclude": (
        "Globs never treated as context files, even when `include` matches them (fixtures, vendored copies). "
        "The default leaves out vendored folders (`vendor/`, `node_modules/` at any depth: another project's "
        "rules, which this repository's team neither explains nor prunes); a list you set replaces it, so keep "
        "them in yours. `CLAUDE.local.md` and git-ignored files are never tracked whatever this says.",
        ["tests/fixtures/**", "**/vendor/**", "**/node_modules/**"],
    ),
    "discovery.imports": (
        "Local Markdown files that a context file brings in count as context files too (followed up to five hops, "
        "inside the repository): whole-line `@path` imports and, with `links`, Markdown links to `.md`/`.mdc` "
        "files. A rule moved from CLAUDE.md into an imported guide is then a move, not a death. `false`: only "
        "`include` decides.",
        False,
    ),
    "discovery.links": (
        "With `imports`, `true` makes Markdown links to local guides (`[testing](docs/testing.md)`) bring those "
        "files in as well. Off by default: on real repositories links bring in PR templates and contributor guides "
        "whose every line would become an orphan.",
        True,
    ),
    "matcher": (
        "How an instruction is recognised across versions: `default` (formatting-proof, rename-aware) or "
        "`paper` (the paper's exact / normalized / fuzzy >= 70 cascade, for reproducing its numbers). "
        "Every command and hook uses it; `diff`, `history` and `corpus` take `--matcher` for one run.",
        "paper",
    ),
    "hooks.policy": (
        "What the commit-msg hook and `git context check` do with an added or reworded instruction that has no "
        "why: `enforce` refuses the commit (check exits 1), `warn` prints the same list and lets it through, `off` "
        "skips the check (Context-Id trailers are still written). `check` uses the value at the range's base.",
        "warn",
    ),
    "hooks.time_budget": (
        "Seconds a hook may run; past it the hook says so and lets the commit through unchecked.",
        2.5,
    ),
    "hooks.on_error": (
        "What a hook does when it fails internally (the traceback goes to `.git/gitcontext/hook-errors.log`): `pass` lets the "
        "commit through, `block` refuses it.",
        "block",
    ),
    "hooks.ratchet_warning": (
        "The pre-commit hook warns when a commit adds more instructions to a file than it removes, with the file's "
        "size against its first version. `false` silences it.",
        False,
    ),
    "merge.context_files": (
        "`git context init` routes the context files themselves (not only `.context/**`) through the merge driver "
        "in `.gitattributes`. `init --no-merge-context-files` does the same for one run.",
        False,
    ),
    "radius.hops": (
        "How many import hops from a changed file count as its reach (`radius`, the pre-commit pressure line); "
        "`radius --hops` overrides it.",
        3,
    ),
    "radius.lambda": (
        "Weight of a change's own churned lines against its reach in the blast score "
        "B = churn x (weighted dependents + lambda).",
        0.5,
    ),
    "radius.gate": (
        "`git context radius` exits 1 when the change is under commit pressure (a file at RISK or DEADLY), "
        "so CI can gate on it. Off: it reports and exits 0.",
        True,
    ),
    "radius.window_days": (
        "Without `--base`, `radius` measures from the merge base with the default branch (origin/HEAD, main or "
        "master); only when there is none does it take the commits of the last this-many days (plus the work "
        "tree).",
        14,
    ),
    "radius.exclude": (
        "Globs left out of churn (lock files, changelogs, vendored trees); files git marks `linguist-generated` "
        "or `linguist-vendored` are left out too. Replaces the default list.",
        ["**/*.lock", "dist/**", ".context/**"],
    ),
    "radius.roots": (
        "Extra Python source roots (folders that would be on `sys.path`) for resolving absolute imports, on top of "
        "the ones found: the repository root, `src/` folders, distribution folders and what `pyproject.toml` "
        "names.",
        ["services/api/lib"],
    ),
    "radius.wide_reach": (
        "The text output of `radius` flags a change whose reach is at least this many files, whatever its tier "
        "(a small change to a module many files import).",
        50,
    ),
    "audit.disable": (
        "Checks (ids like `GC302` or names like `ratchet`) the audit never runs; an unknown one is an error. "
        "`audit --check` runs a chosen set instead.",
        ["GC302", "GC400"],
    ),
    "audit.experimental": (
        "Experimental checks (ids or names) this repository runs by default: checks whose measured precision "
        "is under 0.85, which otherwise run only with `audit --experimental` (docs/checks.md lists each with its "
        "figure). An unknown one is an error.",
        ["GC103", "duplicate"],
    ),
    "audit.stale_days": (
        "A rationale not verified (or recorded) for more than this many days is stale: `ls` shows `stale` and "
        "the audit reports GC101.",
        30,
    ),
    "audit.stale_commits": (
        "GC101 also reports a rationale when this many commits have touched its scope since it was last verified.",
        20,
    ),
    "audit.budget_tokens": (
        "Estimated tokens (four bytes a token) an executor view (what one agent loads, imports expanded) may hold "
        "before the audit's budget check (GC301) reports it as a note. Off by default (0): a budget is the "
        "team's own rule, not a fact of the repository; each agent's own read limit is judged without it "
        "(`audit.limits`).",
        4000,
    ),
    "audit.limits": (
        "How many bytes of context each agent reads, where yours differs from the built-in limit (Codex's "
        "`project_doc_max_bytes`, 32 KiB by default; Claude Code's 40,000-character warning; Windsurf's 12,000 "
        "characters): the budget check (GC301) judges each agent's views against it; 0 means no limit. Keys are "
        "the agents of the audit's views: amp, claude, cline, codex, continue, copilot, crush, cursor, gemini, "
        "junie, qwen, roo, rules, skill, warp, windsurf.",
        {"codex": 65536, "gemini": 200000},
    ),
    "audit.floor": (
        "Deletion candidates never take a file below this many instructions (the audit never proposes emptying "
        "a file).",
        5,
    ),
    "audit.fail_on": (
        "The lowest severity that makes `git context audit` exit 1 when `--fail-on` is not given: `note`, "
        "`warning`, `error`, or `never` (always exit 0).",
        "warning",
    ),
    "rulings.aliases": (
        "Topic spellings that mean the same topic, for `ask propose`, `ruling lookup` and `ruling require` "
        "(topic -> one other spelling or a list). Keys are your own topics, not schema keys.",
        {"ci-runners": ["build-machines", "ci-hosts"]},
    ),
    "rulings.ask_reminder_days": (
        "An ask open longer than this many days: the pre-commit hook reminds of it (a warning, never a refusal) "
        "and the audit reports it (GC500).",
        3,
    ),
    "rulings.digest_budget": ("Token budget of `git context ruling digest` when `--budget` is not given.", 400),
}


def leaves(tree: dict[str, Any] | None = None, where: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """(path, default) of every key of the schema, in the order DEFAULTS lists them."""
    for key, value in (config.DEFAULTS if tree is None else tree).items():
        path = (*where, key)
        if isinstance(value, dict) and path not in config.FREE_MAPPINGS:
            yield from leaves(value, path)
        else:
            yield path, value


def missing() -> list[str]:
    """Dotted keys of the schema with no description, and descriptions of keys the schema no longer has."""
    keys = [".".join(p) for p, _ in leaves()]
    return [f"{k}: no description" for k in keys if k not in DESCRIPTIONS] + [
        f"{k}: not a key of the schema" for k in DESCRIPTIONS if k not in keys
    ]


def render() -> str:
    problems = missing()
    if problems:
        raise SystemExit("gitcontext.configref: " + "; ".join(problems))
    out = [
        "# Configuration reference",
        "",
        "<!-- Generated by `python -m gitcontext.configref --write` from gitcontext/config.py and the",
        "     descriptions in gitcontext/configref.py; tests/test_configref.py checks it. Do not edit by hand. -->",
        "",
        "Settings live in `.context/config.yml`, committed with the notes. Every key is optional: a missing key",
        "takes its default, and a file that is absent means all defaults. The file is validated on every read:",
        "an unknown key, a value of the wrong type, a choice outside its set or a number outside its range is an",
        "error that names the key and the file, and the command exits 2 (a hook prints it and lets the commit",
        "through). `git context check` and the Action judge a pull request by the config at its base (or the",
        "file the Action's `config` input names), so a change cannot switch its own check off.",
        "",
    ]
    groups: dict[str, list[str]] = {"": []}
    for path, default in leaves():
        groups.setdefault(path[0] if len(path) > 1 else "", []).extend(_entry(path, default))
    for section, lines in groups.items():
        out += ["## Top level" if not section else f"## `{section}`", "", *lines]
    return "\n".join(out).rstrip("\n") + "\n"


def _entry(path: tuple[str, ...], default: Any) -> list[str]:
    dotted = ".".join(path)
    text, example = DESCRIPTIONS[dotted]
    lines = [
        f"### `{dotted}`",
        "",
        f"{_kind(path, default)}. Default:{_inline(default)}",
        "",
        text,
        "",
        "```yaml",
        *_yaml(path, example),
        "```",
        "",
    ]
    return lines


def _kind(path: tuple[str, ...], default: Any) -> str:
    choices = config.CHOICES.get(path)
    if choices:
        return "One of " + ", ".join(f"`{c}`" for c in sorted(choices))
    bounds = getattr(config, "RANGES", {}).get(path)
    if config.FREE_MAPPINGS.get(path) == "limits":
        kind = "Mapping of an agent to a number of bytes (0: no limit)"
    elif path in config.FREE_MAPPINGS:
        kind = "Mapping of a topic to a topic or a list of topics"
    elif isinstance(default, bool):
        kind = "`true` or `false`"
    elif isinstance(default, float):
        kind = "Number"
    elif isinstance(default, int):
        kind = "Integer"
    elif isinstance(default, list):
        kind = "List of strings"
    else:
        kind = "String"
    if bounds and bounds[0] == bounds[1]:
        return f"{kind}, exactly {_num(bounds[0])}"
    return kind + (f", {_num(bounds[0])} to {_num(bounds[1])}" if bounds else "")


def _num(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def _inline(value: Any) -> str:
    if isinstance(value, list) and len(value) > 4:
        return "\n\n" + "\n".join(f"- `{v}`" for v in value)
    return f" `{_flow(value)}`."


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if value and value[0] not in "*&!{}[]`'\"%@#|>" and ": " not in value else repr(value)
    return str(value)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _yaml(path: tuple[str, ...], value: Any) -> list[str]:
    lines = [f"{'  ' * depth}{key}:" for depth, key in enumerate(path)]
    indent = "  " * len(path)
    if isinstance(value, list):
        lines += [f"{indent}- {_quote(v)}" for v in value]
    elif isinstance(value, dict):
        lines += [f"{indent}{k}: {_flow(v)}" for k, v in value.items()]
    else:
        lines[-1] += f" {_scalar(value)}"
    return lines


def _quote(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) and value[:1] in "*&!{[" else _scalar(value)


def main(argv: list[str]) -> int:
    text = render()
    if argv == ["--write"]:
        root = Path(__file__).resolve().parents[1]
        (root / DOC_PATH).write_text(text, encoding="utf-8")
        return 0
    if argv:
        sys.stderr.write("usage: python -m gitcontext.configref [--write]\n")
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
