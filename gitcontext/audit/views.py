"""Views: what each agent actually loads, file by file, in load order.

A view is one agent's context at one place: `codex:packages/api` is the AGENTS.md chain from the root down
to packages/api, `claude:.` the root CLAUDE.md with its `@imports` (inline ones too) and the unscoped
`.claude/rules/`, `cursor:.cursor/rules/react.mdc` the always-apply rules plus that glob-scoped rule.
A symlinked file is its target: CLAUDE.md -> AGENTS.md puts AGENTS.md in both the Claude and the Codex
views, once each, never twice in one view. How each agent loads is a row of AGENTS; adding one is a row.

What each row says, from the agent's own documentation:
- Claude Code: CLAUDE.md (or .claude/CLAUDE.md) from the root down, `@imports`, `.claude/rules/`, skills in
  `.claude/skills/` (https://code.claude.com/docs/en/memory, https://code.claude.com/docs/en/skills).
- Codex: the AGENTS.md chain from the root down, at most 32 KiB; skills in `.agents/skills/`
  (https://developers.openai.com/codex/guides/agents-md, https://developers.openai.com/codex/skills).
- GitHub Copilot: `.github/copilot-instructions.md`, `.github/instructions/**/*.instructions.md` by `applyTo`,
  and its agent reads AGENTS.md files ("the nearest AGENTS.md file in the directory tree will take
  precedence"), or else a single CLAUDE.md or GEMINI.md at the root; skills in `.github/skills/`,
  `.claude/skills/` or `.agents/skills/` (https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions,
  https://docs.github.com/en/copilot/concepts/agents/about-agent-skills).
- Cursor: `.cursor/rules/` (a nested `.cursor/rules/` applies to its folder) and AGENTS.md, the root one
  always, a nested one for its folder and combined with its parents; skills in `.cursor/skills/` or
  `.agents/skills/` (https://cursor.com/docs/rules, https://cursor.com/docs/context/skills).
- Gemini CLI: GEMINI.md from the workspace, its parents and the folders below; skills in `.gemini/skills/`
  or `.agents/skills/`, activated into a session that holds GEMINI.md (https://geminicli.com/docs/cli/gemini-md,
  https://geminicli.com/docs/cli/skills).
An agent's views exist only where the repository has one of its own files: AGENTS.md alone is Codex's view,
not a Copilot or Cursor copy of it.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.instructions.discover import MAX_BYTES, Unreadable, is_excluded_path
from gitcontext.instructions.frontmatter import front_matter, scope_globs
from gitcontext.instructions.globs import compile_globs
from gitcontext.instructions.render import render
from gitcontext.paths import problem, read_regular

if TYPE_CHECKING:  # the commit hook reads views (file_views) without the audit's context and its imports
    from gitcontext.audit.context import AuditContext, Located
    from gitcontext.instructions.model import Instruction


class Limit(NamedTuple):
    bytes: int  # the figure: bytes, or characters where `unit` says so
    source: str  # where the number comes from, shown in the finding
    per_file: bool = False  # the limit is on each file the view loads (Claude Code's warning), not their sum
    unit: str = "bytes"  # "bytes" (Codex counts bytes) or "characters" (Claude Code, Windsurf)


class View(NamedTuple):
    name: str  # "claude:packages/api", "cursor:.cursor/rules/react.mdc"
    agent: str  # "claude", "codex", "cursor", "copilot", "gemini", "cline", "windsurf", "skill", ...
    files: tuple[str, ...]  # what the agent reads, in load order, each once (symlinks as their target)
    instructions: tuple[Located, ...]
    bytes: int
    tokens: int
    limit: Limit | None  # the agent's own limit on what it reads, when it has one
    scope: tuple[str, ...] = ()  # globs a scoped rule applies to; () for an always-on view


class Agent(NamedTuple):
    name: str
    files: tuple[str, ...]  # file names it reads in a folder ("CLAUDE.md"), or root-relative globs
    chain: str  # "ancestors" (root down to a folder), "tree" (ancestors + descendants), "rules"
    imports: bool  # follows `@path` imports
    limit: Limit | None
    shared: tuple[str, ...] = ()  # another agent's per-folder files a rules agent reads too, root down
    fallback: tuple[str, ...] = ()  # root files it reads when the root has none of SHARED
    skills: tuple[str, ...] = ()  # the folders it loads skills from (`<folder>/<name>/SKILL.md`)


CODEX_LIMIT = Limit(32 * 1024, "Codex reads at most 32 KiB of AGENTS.md (project_doc_max_bytes)")
CLAUDE_LIMIT = Limit(
    40_000, "Claude Code warns when one memory file is over 40,000 characters", per_file=True, unit="characters"
)
WINDSURF_LIMIT = Limit(12_000, "Windsurf reads at most 12,000 characters of rules", unit="characters")

AGENTS = (
    Agent("claude", ("CLAUDE.md", ".claude/CLAUDE.md"), "ancestors", True, CLAUDE_LIMIT, skills=(".claude/skills",)),
    Agent("codex", ("AGENTS.md",), "ancestors", False, CODEX_LIMIT, skills=(".agents/skills", ".codex/skills")),
    Agent("gemini", ("GEMINI.md",), "tree", True, None, skills=(".gemini/skills", ".agents/skills")),
    Agent("qwen", ("QWEN.md",), "tree", True, None),
    Agent("amp", ("AGENT.md",), "ancestors", True, None),
    Agent("crush", ("CRUSH.md",), "ancestors", False, None),
    Agent("warp", ("WARP.md",), "ancestors", False, None),
    Agent(
        "cursor",
        (".cursorrules", "**/.cursor/rules/**/*.mdc", "**/.cursor/rules/**/*.md"),
        "rules",
        False,
        None,
        shared=("AGENTS.md",),
        skills=(".cursor/skills", ".agents/skills"),
    ),
    Agent(
        "copilot",
        (".github/copilot-instructions.md", ".github/instructions/**/*.instructions.md"),
        "rules",
        False,
        None,
        shared=("AGENTS.md",),
        fallback=("CLAUDE.md", "GEMINI.md"),
        skills=(".github/skills", ".claude/skills", ".agents/skills"),
    ),
    Agent("cline", (".clinerules", ".clinerules/**"), "rules", False, None),
    Agent("windsurf", (".windsurfrules", ".windsurf/rules/**"), "rules", False, WINDSURF_LIMIT),
    Agent("junie", (".junie/guidelines.md",), "rules", False, None),
    Agent("roo", (".roorules", ".roorules-*", ".roo/rules/**", ".roo/rules-*/**"), "rules", False, None),
    Agent("continue", (".continue/rules/**",), "rules", False, None),
    Agent("rules", (".agents/rules/**",), "rules", False, None),
)
# The file names of a folder's own guide (AGENTS.md, CLAUDE.md, …): the agents that read one per folder.
GUIDES = frozenset(posixpath.basename(n) for a in AGENTS if a.chain != "rules" for n in a.files)
# A skill is a SKILL.md in a `skills/<name>/` folder: Claude Code, Codex, Roo Code, Cursor, Copilot and the
# Agent Skills convention all read them from their own dot-folder (`.roo/skills/`, `.github/skills/`, …).
SKILLS = ("**/skills/*/SKILL.md",)


class OnRequest(NamedTuple):
    """Files an agent loads only when it picks them (a skill, a subagent, a slash command, a triggered
    microagent), into a session that already holds the root view of BASE (None: nothing else)."""

    kind: str
    globs: tuple[str, ...]
    base: str | None


ON_REQUEST = (
    OnRequest("claude-agent", (".claude/agents/**/*.md",), "claude:."),
    OnRequest("claude-command", (".claude/commands/**/*.md",), "claude:."),
    OnRequest("openhands", (".openhands/microagents/**/*.md",), None),
)
# The agents of views loaded on request: such a session holds the root view too, which is not its own.
ON_REQUEST_AGENTS = frozenset({"skill"} | {kind.kind for kind in ON_REQUEST})
_ALWAYS_GLOBS = {"**", "**/*", "*"}


def views_of(ctx: AuditContext) -> list[View]:
    """What each agent loads, computed once per audit."""
    from gitcontext.audit.facts import memo

    return memo(ctx, "views", lambda: build_views(ctx))


def build_views(ctx: AuditContext) -> list[View]:
    """Every view of the work tree's context files, sorted by name. A file discovery.exclude leaves out (a
    vendored copy, by default) is in none: its rules and paths are another project's."""
    return _build(_Tree(ctx.root, ctx.config, _listed(ctx.root, ctx.config), ctx.located))


def counted_views(root: Path, config: dict, instructions: Mapping[str, list[Instruction]]) -> list[View]:
    """The views of `build_views` holding INSTRUCTIONS (the work tree's, `discover.load`) unmatched to
    notes: no id, state or status. What `budget` counts needs no note folded and no instruction matched
    to one; on the 1,500-rule bench (bench/reads.py) that matching was ~70 of budget's 168 ms CPU."""
    from gitcontext.audit.context import Located

    located = [Located("", inst, None, "", "") for insts in instructions.values() for inst in insts]
    return _build(_Tree(root, config, _listed(root, config), located))


def _listed(root: Path, config: dict) -> list[str]:
    """The work tree's files that views may load: discovery.exclude leaves vendored copies out."""
    return [p for p in git.ls_files(root, others=True) if not is_excluded_path(p, config)]


def file_views(root: Path, config: dict, paths: Iterable[str]) -> list[View]:
    """The views among PATHS (the context files, say) with their files only, no instructions: what the
    commit hook needs to know which files one agent loads together, without listing the tree."""
    return _build(_Tree(root, config, list(paths), None))


def _build(tree: _Tree) -> list[View]:
    views: list[View] = []
    for agent in AGENTS:
        views += (_chain_views if agent.chain != "rules" else _rule_views)(tree, agent)
    claude_root = [v for v in views if v.name == "claude:."]
    views += _skill_views(tree, views)
    for kind in ON_REQUEST:
        views += _on_request_views(tree, kind, claude_root if kind.base == "claude:." else [])
    return sorted(views, key=lambda v: v.name)


class _Tree:
    """The files of the work tree (tracked and untracked, not ignored), symlinks resolved, texts read once."""

    def __init__(self, root: Path, config: dict, paths: list[str], located: list[Located] | None) -> None:
        self.root = Path(root)
        self.paths = paths
        self.listed = frozenset(paths)
        self.limits = limits(config)
        self.bare = located is None  # files only: no view holds instructions
        self.by_file: dict[str, list[Located]] = {}
        for loc in located or ():
            self.by_file.setdefault(loc.instruction.file, []).append(loc)
        self._imported: dict[str, list[Located]] = {}

    def target(self, path: str) -> str | None:
        """The repository path whose content PATH has (itself, or a symlink's target inside the root)."""
        full = self.root / path
        if not os.path.islink(full):
            return path if full.is_file() else None
        real, top = os.path.realpath(full), os.path.realpath(self.root)
        if not real.startswith(top + os.sep) or not os.path.isfile(real):
            return None
        return Path(os.path.relpath(real, top)).as_posix()

    def matching(self, patterns: Iterable[str]) -> list[str]:
        rx = compile_globs(tuple(patterns))
        return [p for p in self.paths if rx.match(p)]

    def expand(self, path: str, imports: bool) -> list[str]:
        """PATH (as its target) and, for an agent that follows imports, every file it imports."""
        target = self.target(path)
        if target is None:
            return []
        if not imports:
            return [target]
        try:
            rendered = render(self.root, target)
        except Unreadable:  # not text (a locked git-crypt file): loaded as it is, importing nothing
            return [target]
        return [target] + [f for f in rendered.files[1:] if f != target]

    def instructions(self, link: str, target: str) -> list[Located]:
        """The located instructions of a file, under whichever name discovery gave it."""
        if self.bare:
            return []
        for name in (target, link):
            if name in self.by_file:
                return self.by_file[name]
        if target not in self._imported:
            self._imported[target] = _segment_loose(self.root, target)
        return self._imported[target]

    def text(self, path: str) -> str:
        try:
            data = read_regular(self.root, path, MAX_BYTES) if not problem(path) else None
        except (OSError, UserError):
            return ""  # a link out of the tree, a device, a FIFO: never read
        return (data or b"").decode("utf-8", errors="replace")


def _segment_loose(root: Path, path: str) -> list[Located]:
    """Instructions of a loaded file that is not itself a context file (an imported doc, a skill)."""
    from gitcontext.audit.context import Located
    from gitcontext.instructions.discover import decode
    from gitcontext.instructions.segment import segment

    try:
        data = read_regular(root, path, MAX_BYTES) if not problem(path) else None
        text = decode(path, data or b"")
    except (OSError, UserError):
        return []  # a link out of the tree, a device, a FIFO: never read
    return [Located("", inst, None, "imported", "") for inst in segment(text, path)]


def _view(
    tree: _Tree, name: str, agent: Agent | str, sources: list[tuple[str, str]], scope: tuple[str, ...] = ()
) -> View:
    """A view from (link, target) pairs in load order; a target already loaded is not loaded again."""
    seen: dict[str, str] = {}
    for link, target in sources:
        seen.setdefault(target, link)
    files = tuple(seen)
    insts = tuple(loc for target, link in seen.items() for loc in tree.instructions(link, target))
    size = sum(_size(tree.root / f) for f in files)
    label = agent if isinstance(agent, str) else agent.name
    return View(name, label, files, insts, size, (size + 3) // 4, tree.limits.get(label), scope)


def limits(config: dict) -> dict[str, Limit | None]:
    """Each agent's limit: the built-in one, or `audit.limits` where the repository says otherwise."""
    out: dict[str, Limit | None] = {a.name: a.limit for a in AGENTS}
    out["skill"] = None
    for name, value in config["audit"]["limits"].items():
        if name not in out:
            raise UserError(
                f"unknown agent {name!r} in audit.limits",
                path=".context/config.yml",
                fix=f"use one of: {', '.join(sorted(out))}",
            )
        builtin = next((a.limit for a in AGENTS if a.name == name), None)
        per_file, unit = (builtin.per_file, builtin.unit) if builtin is not None else (False, "bytes")
        source = f"audit.limits.{name} in .context/config.yml"
        out[name] = Limit(value, source, per_file, unit) if value else None
    return out


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _loaded(tree: _Tree, paths: Iterable[str], imports: bool) -> list[tuple[str, str]]:
    return [(p if n == 0 else f, f) for p in paths for n, f in enumerate(tree.expand(p, imports))]


def _chain_views(tree: _Tree, agent: Agent) -> list[View]:
    """One view per folder holding the agent's file: the chain from the root down to that folder
    (for "tree", what lies below it too); Claude's unscoped `.claude/rules/` ride along in each."""
    found: dict[str, list[str]] = {}
    names = {posixpath.basename(n) for n in agent.files}
    for path in tree.paths:
        if posixpath.basename(path) in names and not in_skill(path):
            folder = posixpath.dirname(path)
            folder = posixpath.dirname(folder) if posixpath.basename(folder) == ".claude" else folder
            found.setdefault(folder or ".", []).append(path)
    always, scoped = _claude_rules(tree) if agent.name == "claude" else ([], [])
    views: list[View] = []
    for folder in sorted(found, key=_depth):
        chain = [
            f
            for f in sorted(found, key=_depth)
            if _contains(f, folder) or (agent.chain == "tree" and _contains(folder, f))
        ]
        paths = [p for f in chain for p in found[f]] + always
        view = _view(tree, f"{agent.name}:{folder}", agent, _loaded(tree, paths, agent.imports))
        if all(v.files != view.files for v in views):  # .agents/AGENTS.md behind a root symlink: one view
            views.append(view)
    root = [p for p in found.get(".", [])] + always
    for path, globs in scoped:
        views.append(
            _view(tree, f"{agent.name}:{path}", agent, _loaded(tree, root + [path], agent.imports), tuple(globs))
        )
    return views


def _claude_rules(tree: _Tree) -> tuple[list[str], list[tuple[str, list[str]]]]:
    always, scoped = [], []
    for path in tree.matching((".claude/rules/**/*.md",)):
        mode, globs = _claude_rule_mode(front_matter(tree.text(path)))
        (always.append(path) if mode == "always" else scoped.append((path, globs)))
    return always, scoped


_SOURCE_FREE = re.compile(
    r"(?:^|/)(?:[^/]*\.(?:md|mdc|txt)|\.gitignore|\.gitattributes|LICEN[CS]E[^/]*|"
    r"\.context/.*)$",
    re.I,
)


def has_source_tree(ctx: AuditContext) -> bool:
    """Whether git tracks anything besides context files and prose: a checkout rebuilt from context-file
    history alone has nothing paths, scripts or globs can be judged against."""
    context = {loc.instruction.file for loc in ctx.located}
    return any(p not in context and not _SOURCE_FREE.search(p) for p in ctx.tracked)


def in_skill(path: str) -> bool:
    """A file bundled inside a skill folder (`.agents/skills/<name>/AGENTS.md`) is the skill's reference,
    read when the skill asks for it, not a folder's context file."""
    parts = path.split("/")
    return parts[-1] != "SKILL.md" and any(p == "skills" for p in parts[:-2])


def _depth(folder: str) -> tuple[int, str]:
    return (0 if folder == "." else folder.count("/") + 1, folder)


def _contains(outer: str, inner: str) -> bool:
    return outer == "." or inner == outer or inner.startswith(outer + "/")


def _rule_views(tree: _Tree, agent: Agent) -> list[View]:
    """Rule-folder agents: one view of the always-on rules, and one per scoped or on-request rule. A
    rules folder below the root (`pkg/.cursor/rules/`) applies to its folder: its always-on rules are
    scoped to `pkg/**` and its globs are read from `pkg/`. An agent that reads AGENTS.md too (SHARED) has
    the root one among its always-on files and one view per deeper folder holding one, scoped to it."""
    always, scoped = [], []
    for path in tree.matching(agent.files):
        if tree.target(path) is None:
            continue
        mode, globs = rule_mode(agent.name, path, tree.text(path))
        folder = _nested_rules_folder(path)
        if folder and mode in ("always", "scoped"):
            mode, globs = "scoped", [f"{folder}/**"] if mode == "always" else [f"{folder}/{g}" for g in globs]
        if mode == "always":
            always.append(path)
        elif mode != "never":
            scoped.append((path, globs))
    if not always and not scoped:
        return []  # the repository has none of its own files: what it shares is another agent's view
    found = _shared_chains(tree, agent)
    base = always + found.pop(".", [])
    views = [_view(tree, f"{agent.name}:always", agent, _loaded(tree, base, False))] if base else []
    for folder in sorted(found, key=_depth):
        chain = [p for f in sorted(found, key=_depth) if _contains(f, folder) for p in found[f]]
        sources = _loaded(tree, base + chain, False)
        views.append(_view(tree, f"{agent.name}:{folder}", agent, sources, (f"{folder}/**",)))
    for path, globs in scoped:
        views.append(_view(tree, f"{agent.name}:{path}", agent, _loaded(tree, base + [path], False), tuple(globs)))
    return views


def _shared_chains(tree: _Tree, agent: Agent) -> dict[str, list[str]]:
    """Folder -> the files of AGENT.shared there (the root's: its fallback when it has none of them)."""
    found: dict[str, list[str]] = {}
    for path in tree.paths:
        if posixpath.basename(path) in agent.shared and not in_skill(path):
            found.setdefault(posixpath.dirname(path) or ".", []).append(path)
    if "." not in found:
        root = [name for name in agent.fallback if name in tree.listed]
        if root:
            found["."] = root[:1]
    return found


def _nested_rules_folder(path: str) -> str | None:
    """`pkg/api` for `pkg/api/.cursor/rules/x.mdc`; None for a rules folder at the root."""
    head, sep, _ = path.partition("/.cursor/rules/")
    return head if sep and head else None


def rule_mode(agent: str, path: str, text: str) -> tuple[str, list[str]]:
    """How a rule file loads: "always", "scoped" (GLOBS), "requested" (the agent picks it by its
    description), "manual" (only when mentioned) or "never" (the agent does not read it)."""
    if agent == "cline":
        return (
            ("always", [])
            if path == ".clinerules" or path.startswith(".clinerules/") and path.endswith((".md", ".txt"))
            else ("never", [])
        )
    if posixpath.basename(path).upper().startswith("README"):
        return "never", []  # a rules folder's README describes the rules; no agent loads it as one
    if path in (".cursorrules", ".windsurfrules", ".github/copilot-instructions.md", ".junie/guidelines.md"):
        return "always", []
    if agent == "roo":
        return _roo_mode(path)
    meta = front_matter(text) if text.startswith("---") else {}
    return _RULE_MODES.get(agent, _cursor_mode)(meta)


def _cursor_mode(meta: dict) -> tuple[str, list[str]]:
    globs = scope_globs(meta)
    if meta.get("alwaysApply") is True or set(globs) & _ALWAYS_GLOBS:
        return "always", []
    if globs:
        return "scoped", globs
    return ("requested", []) if str(meta.get("description") or "").strip() else ("manual", [])


def _copilot_mode(meta: dict) -> tuple[str, list[str]]:
    globs = scope_globs({"globs": meta.get("applyTo")})
    if set(globs) & _ALWAYS_GLOBS:
        return "always", []
    return ("scoped", globs) if globs else ("manual", [])


def _roo_mode(path: str) -> tuple[str, list[str]]:
    """Roo Code loads `.roo/rules/` (or `.roorules`) in every mode, `.roo/rules-<mode>/` only in that mode."""
    return ("requested", []) if path.startswith((".roo/rules-", ".roorules-")) else ("always", [])


def _continue_mode(meta: dict) -> tuple[str, list[str]]:
    """Continue: `alwaysApply: true` always; globs scope a rule; `alwaysApply: false` leaves it to the
    model (by its description); with neither, a rule is always included."""
    globs = scope_globs(meta)
    if meta.get("alwaysApply") is True or set(globs) & _ALWAYS_GLOBS:
        return "always", []
    if globs:
        return "scoped", globs
    if meta.get("alwaysApply") is False:
        return ("requested", []) if str(meta.get("description") or "").strip() else ("manual", [])
    return "always", []


def _windsurf_mode(meta: dict) -> tuple[str, list[str]]:
    trigger = str(meta.get("trigger") or "")
    if trigger == "always_on":
        return "always", []
    if trigger == "glob":
        return "scoped", scope_globs(meta)
    return ("requested", []) if trigger == "model_decision" else ("manual", [])


def _claude_rule_mode(meta: dict) -> tuple[str, list[str]]:
    globs = scope_globs({"globs": meta.get("paths")})
    return ("scoped", globs) if globs and not set(globs) & _ALWAYS_GLOBS else ("always", [])


_RULE_MODES: dict[str, Callable[[dict], tuple[str, list[str]]]] = {
    "cursor": _cursor_mode,
    "rules": _cursor_mode,
    "copilot": _copilot_mode,
    "windsurf": _windsurf_mode,
    "claude": _claude_rule_mode,
    "continue": _continue_mode,
}


def _on_request_views(tree: _Tree, kind: OnRequest, base_views: list[View]) -> list[View]:
    """One view per file of KIND: the base view's files, then the file."""
    base = [(f, f) for v in base_views for f in v.files]
    return [
        _view(tree, f"{kind.kind}:{path}", kind.kind, base + [(path, path)])
        for path in tree.matching(kind.globs)
        if tree.target(path) == path
    ]


def _skill_views(tree: _Tree, views: list[View]) -> list[View]:
    """A skill is loaded on request, into a session that already holds its agent's root view: one view per
    agent whose skills folder holds it (`.agents/skills/x` is Codex's, Gemini CLI's, Cursor's and
    Copilot's; a `.claude/skills/x` symlink to it makes it Claude Code's too); a skill in no agent's folder
    (a plugin's `skills/x/`) rides on the root Claude view."""
    roots = {v.agent: v for v in views if v.name in {f"{v.agent}:.", f"{v.agent}:always"}}
    aliases = _skill_aliases(tree)
    out: list[View] = []
    for path in tree.matching(SKILLS):
        if tree.target(path) != path:
            continue
        folder = posixpath.dirname(path)
        homes = {posixpath.dirname(folder)} | aliases.get(folder, set())
        agents = [a.name for a in AGENTS if homes & set(a.skills)] or ["claude"]
        bases: list[View | None] = [roots[a] for a in agents if a in roots] or [None]
        for n, base in enumerate(bases):
            name = f"skill:{folder}" if n == 0 or base is None else f"skill:{folder}@{base.agent}"
            loaded = [(f, f) for f in base.files] if base else []
            out.append(_view(tree, name, "skill", loaded + [(path, path)]))
    return out


_SKILL_FOLDERS = frozenset(folder for a in AGENTS for folder in a.skills)


def _skill_aliases(tree: _Tree) -> dict[str, set[str]]:
    """Skill folder -> the agent skill folders that hold a symlink to it (`.claude/skills/x -> ../../.agents/skills/x`)."""
    out: dict[str, set[str]] = {}
    for path in tree.paths:
        home = posixpath.dirname(path)
        if home in _SKILL_FOLDERS and os.path.islink(tree.root / path):
            real, top = os.path.realpath(tree.root / path), os.path.realpath(tree.root)
            if real.startswith(top + os.sep) and os.path.isdir(real):
                out.setdefault(Path(os.path.relpath(real, top)).as_posix(), set()).add(home)
    return out
