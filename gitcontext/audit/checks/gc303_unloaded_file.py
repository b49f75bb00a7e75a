"""GC303 unloaded-file: a context file that no agent reads, or a scoped rule whose globs match no tracked file.

Example::

    packages/web/.cursorrules     Cursor reads .cursorrules at the repository root only
    .github/instructions/api.instructions.md   applyTo: "src/api/**"  (src/api/ was renamed to server/api/)

    packages/web/.cursorrules  GC303 unloaded-file  no agent loads this file (Cursor reads .cursorrules at
                               the repository root only)
    .github/instructions/api.instructions.md  GC303 unloaded-file  its globs (src/api/**) match no tracked file

Which files each agent reads is audit.views.AGENTS; a file discovery finds (the `discovery.include` globs)
that is in no view is reported, and so is a Cursor, Copilot, Windsurf or `.claude/rules/` rule whose globs
select nothing git tracks — it loads for no file an agent can open (not judged when the checkout holds
only context files). Rules loaded on request (a description) or by mention are loaded, and not reported;
neither is a README in a rules folder, nor a file shipped to other projects: a packaged skill (a SKILL.md
outside every agent's folder: `skills/public/<name>/SKILL.md` a product serves, `skills/.curated/<name>/`
of a skill catalog, an SDK's sample skill, an eval fixture) or any context file under `examples/`, `templates/`, `assets/` or `fixtures/`
(`examples/showcases/mcp-demo/.cursorrules`, `assets/.windsurfrules` a tool copies into new projects) is
data, loaded once copied out, never where it lies. A SKILL.md inside an agent's own folder
(`.claude/skill/x/SKILL.md`, a misspelt skills folder) is still reported.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.views import has_source_tree, in_skill, views_of
from gitcontext.instructions.discover import discover
from gitcontext.instructions.globs import compile_globs

CHECK = Check("GC303", "unloaded-file", "warning", "a context file no agent loads, or a scoped rule matching no file")

_ROOT_ONLY = {".cursorrules": "Cursor", ".windsurfrules": "Windsurf", ".clinerules": "Cline"}


def run(ctx: AuditContext) -> Iterator[Finding]:
    loaded = {f for view in views_of(ctx) for f in view.files}
    for path in discover(ctx.root, ctx.config):
        if path in loaded or in_skill(path) or shipped(path):
            continue
        if posixpath.basename(path).upper().startswith("README"):
            continue  # a rules folder's README documents the rules: loaded by no one, by design
        base = posixpath.basename(path)
        why = f" ({_ROOT_ONLY[base]} reads {base} at the repository root only)" if base in _ROOT_ONLY else ""
        yield finding(CHECK, f"no agent loads this file{why}", file=path, evidence={"kind": "unloaded"})
    if not has_source_tree(ctx):
        return  # only context files are tracked: a glob has nothing to match yet
    tracked = sorted(ctx.tracked)
    for view in views_of(ctx):
        if not view.scope:
            continue
        rx = compile_globs(tuple(_repo_glob(g) for g in view.scope))
        if not any(rx.match(p) for p in tracked):
            escaped = any("\\" in g for g in view.scope)
            hint = "; its backslash looks like a Markdown formatter's escape" if escaped else ""
            yield finding(
                CHECK,
                f"its globs ({', '.join(view.scope)}) match no tracked file, so it never loads{hint}",
                file=view.files[-1],
                view=view.name,
                evidence={"kind": "no_match", "globs": list(view.scope)},
                fix="write the globs in quotes in the front matter, so a formatter leaves them alone"
                if escaped
                else None,
            )


# The dot-folders agents read skills and rules from; a SKILL.md elsewhere (`skills/.curated/x/SKILL.md` of a
# skill catalog) is packaged for installing.
AGENT_FOLDERS = frozenset(
    ".claude .agents .agent .codex .github .cursor .roo .gemini .opencode .windsurf .kiro .qwen .continue "
    ".junie .clinerules .goose .amp .crush".split()
)
_SHIPPED = frozenset(
    "examples example templates template assets fixtures fixture samples sample testdata starters boilerplates "
    "showcases scaffolds".split()
)


_WORD_SPLIT = re.compile(r"[-_.\s]+")  # `agent_templates`, `project-templates`: the words of a folder's name


def shipped(path: str) -> bool:
    """A file an agent is not meant to load where it lies: a packaged skill (a SKILL.md outside every agent's
    folder: a product's bundled skills, a catalog's, a sample, a fixture), or any context file under a folder of things
    shipped to other projects (`examples/`, `templates/`, `assets/`, `fixtures/`, and a name made of words, one of
    them such a word: `agent_templates/`, `project-templates/`): it loads once copied out."""
    parts = path.split("/")
    if parts[-1] == "SKILL.md" and not any(p in AGENT_FOLDERS for p in parts[:-1]):
        return True
    return any(word in _SHIPPED for p in parts[:-1] for word in _WORD_SPLIT.split(p.casefold()))


def _repo_glob(glob: str) -> str:
    """A rule glob as a repository path glob; one without a slash matches at any depth, as in .gitignore."""
    glob = glob[2:] if glob.startswith("./") else glob.lstrip("/")
    return glob if "/" in glob.rstrip("/") else "**/" + glob
