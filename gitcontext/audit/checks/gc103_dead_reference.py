"""GC103 dead-reference: a path, link, `@import`, folder tree, command (script, Make target, just recipe,
cargo package, test id, a file a command is given) or code symbol that the repository no longer has —
judged against git's index, the way an agent would look for it.

Example: AGENTS.md draws the layout in a code fence, and one entry is gone::

    site/
      agents/          # agents.cloudflare.com
      ai-playground/   # Workers AI playground

    AGENTS.md:26  GC103 dead-reference  `site/ai-playground/` was deleted in 1bfb804 (2026-06-04, "update deps");
                  remove the reference, or bring it back with `git checkout 1bfb804^ -- site/ai-playground`

and `cd examples/playground && pnpm dev` is reported when examples/playground/package.json has no `dev`
script (nor any binary of that name). Paths are read wherever they are written: code spans, links,
`@imports`, drawn trees, bare in prose, list items, table cells, mermaid labels, `<path>…</path>` tags, and
the files commands are given (`pytest tests/test_x.py`, `pnpm tsx src/x.ts`, `./scripts/x.sh`); the files a
skill's SKILL.md links inside its folder are judged too. A path resolves relative to the file, the folders
the text says to work in ("from `packages/x`", `cd x &&`, a step before that starts with `cd x`, a scoped
rule's `paths:`; a sentence wrapped onto the next line is one clause), the owning package, the
repository root, or as the tail of any tracked path; a link
relative to its file or from the root (a skill's `[x](packages/a/x.ts)`; Claude's `[x](@docs/x.md)` names
`docs/x.md`); an ESM specifier `./x.js` names
`x.ts`. Commands resolve the way their runner does (see audit/judge_commands.py). Each miss is classified
from history: **moved** (git's rename detection, or the folder it went into: `src/` after a move into
`packages/core/src/`, a module file that became a folder), **deleted** (the commit, date and subject, and
the command that brings it back — from the path that commit deleted, when the file was renamed before), or **never existed** (a note, only when its folder exists, with the
tracked file of the same name when there is one). A code symbol is dead when the tree had it when its line
was written (blame) and no tracked source file has it now: a name that tree lacked too is another library's
API (`Dialog.createHandle()` in a migration guide), a placeholder or a plan. Likewise a path that never
existed itself, under a folder deleted before its line was written, is no file the repository lost (a
hypothetical `examples/id_rsa.example`): not reported. An `@import` outside the repository (absolute, or
`..` past the root) and a `file:///Users/…` link into someone's home are dead for everyone else: reported,
never read.

Not reported: build output and gitignored paths, a working file history created and deleted three times or
more (a release's notes file) or one of a numbered family its folder still holds (`changelog/3519.added.md`
beside `changelog/4413.added.md`, a name that starts with its number: a fragment a release consumed, named
as the pattern's example; `src/execution/v0.ts` beside `v1.ts` is still judged), placeholders (`src/<name>/`, `.../x.ts`, a drawn tree's entries under
`plugin-<name>/`, a call with a placeholder word: `WithX()`, `getXById()`), anti-examples ("not `.toml`"), a
path its clause says is gone or replaced ("the `src/scss/` folder has been removed", "the
`.contributing/*.md` guides this skill supersedes"), a naming convention's example ("name test files like
`src/parser.test.ts`", "tests mirror the source, e.g. `tests/test_manager.py` for `app/manager.py`"), a
climbing path in a rule about code (`import from
../src`: relative to the code, alive when `src` is somewhere), an optional file ("if `x` exists, load it"),
other repositories (and what a list of another repository's files named, wherever the file names it again),
examples that never existed, folder trees that mostly do not match the tree (an illustration), a bare prose
word with a slash that never existed or whose first word alone was a folder, in an example too
(`client/server`, "e.g. a row whose tests/logs overflow"), the tools an MCP server gives the agent
(`mcp__x__y()`, names listed under an MCP heading), a test id whose name is the reader's to fill in
(`tests/x.py::test_name`); `FILE:SYMBOL` (`agent/sandbox.py:create_sandbox`) names the file, and the paths, commands and symbols of a skill a
workspace package ships to its users (`"files": ["skills"]`) or that dotagents installs from another
repository (`agents.toml`'s `[[skills]]` with a `source`): they name the user's project; their links to
their own files are judged. When the checkout holds no source tree (only context files), one note says so and no
path is judged. In a shallow clone a missing path that history does not explain may have been deleted before
the boundary: one note lists them with the fix (`git fetch --unshallow`, or `fetch-depth: 0` in the Action)
rather than guessing either way.

Cost: the audit's one listing of the tree, one `git cat-file --batch` of the manifests the commands
need, one `git check-ignore`, one `git log --diff-filter=D` restricted by pathspecs to the missing paths'
top-most missing folders (and one rename pass over the commits that removed them), one blame per file
whose missing path history explains by a move or a folder's deletion, one `git grep` for the symbols
(then one blame per file naming a missing one, and one `git grep` of each tree that wrote such lines, at
most 12); nothing per reference.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.deadrefs import Judging
from gitcontext.audit.facts import has_head, shallow
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.judge_paths import Verdict
from gitcontext.audit.manifests import installed_skills, publishes
from gitcontext.audit.ref import Ref
from gitcontext.audit.references import references
from gitcontext.audit.symbols import mcp_tools
from gitcontext.audit.tree import ids_by_line, loaded_files, read
from gitcontext.audit.views import has_source_tree

CHECK = Check(
    "GC103",
    "dead-reference",
    "warning",
    "a path, link, @import, folder tree, command, test id or symbol git no longer has",
)
_PATH_KINDS = ("path", "link", "import", "tree", "symbol", "home")
_MOVABLE_KINDS = ("path", "link", "import", "tree", "test")  # what history can say was moved or deleted
_BUNDLED_EXTS = (".md", ".mdc", ".mdx", ".txt")
_SHIPPED_KINDS = ("link", "import")  # what a skill shipped to the library's users is judged on


def run(ctx: AuditContext) -> Iterator[Finding]:
    refs = judged_refs(ctx)
    if CHECK.id in ctx.part_only:  # only moved and deleted paths are wanted: no command or symbol is judged
        refs = [r for r in refs if r.kind in _MOVABLE_KINDS]
    if not has_source_tree(ctx):
        paths = sum(1 for r in refs if r.kind in _PATH_KINDS)
        if paths:
            yield finding(
                CHECK,
                f"no source tree in this checkout (only context files are tracked): {paths} "
                "paths, scripts and symbols are not judged",
                severity="note",
                evidence={"tracked": len(ctx.tracked), "unjudged": paths},
            )
        return
    by_line = ids_by_line(ctx)
    unknown: list[Ref] = []
    said: set[tuple[str, int, str]] = set()  # a link and its text naming one path: one finding
    for ref, verdict in Judging(ctx, refs, shallow(ctx), ctx.rev if has_head(ctx) else None).verdicts():
        if verdict.cls == "unknown":
            unknown.append(ref)
            continue
        resolved = verdict.evidence.get("resolved")
        key = (ref.file, ref.line, f"{verdict.cls}:{resolved}" if resolved else f"{ref.kind}:{ref.text}")
        if key not in said:
            said.add(key)
            yield _finding(ref, verdict, by_line.get((ref.file, ref.line)))
    if unknown:
        yield _shallow_note(unknown)


def _finding(ref: Ref, verdict: Verdict, instruction: str | None) -> Finding:
    quiet = verdict.cls == "never-existed" and "suggested" not in verdict.evidence or ref.kind == "symbol"
    return finding(
        CHECK,
        verdict.message,
        id=instruction or None,
        file=ref.file,
        line=ref.line,
        severity="note" if quiet else None,
        evidence={
            "class": verdict.cls,
            "kind": ref.kind,
            "ref": ref.text,
            "key": f"{ref.kind}:{ref.text}",
            **verdict.evidence,
        },
    )


def _shallow_note(unknown: list[Ref]) -> Finding:
    shown = ", ".join(f"`{r.text}` ({r.file}:{r.line})" for r in unknown[:5])
    return finding(
        CHECK,
        f"shallow clone: {len(unknown)} referenced path(s) are not in the tree and the "
        f"history that would say whether they were deleted is cut off: {shown}"
        f"{', ...' if len(unknown) > 5 else ''}; fix: git fetch --unshallow (in the Action: "
        "actions/checkout with fetch-depth: 0)",
        severity="note",
        evidence={
            "class": "shallow",
            "refs": [{"file": r.file, "line": r.line, "ref": r.text} for r in unknown[:50]],
            "count": len(unknown),
        },
    )


def judged_refs(ctx: AuditContext) -> list[Ref]:
    """The references of the files some agent loads, and of the files a loaded SKILL.md links inside its
    own folder (a skill's bundled references: `references/tools.md`), and of the files those link,
    three hops deep; not the tools an MCP server gives the agent (listed under an MCP heading of a
    loaded file)."""
    loaded = loaded_files(ctx)
    refs = {file: list(references(file, read(ctx, file))) for file in loaded}
    frontier = [f for f in loaded if posixpath.basename(f) == "SKILL.md"]
    for _ in range(3):
        found = []
        for file in frontier:
            folder = _skill_folder(file)
            for ref in refs[file]:
                target = _bundled(ctx, file, folder, ref)
                if target and target not in refs:
                    refs[target] = list(references(target, read(ctx, target)))
                    found.append(target)
        frontier = found
    tools = {name for file in loaded for name in mcp_tools(read(ctx, file))}
    shipped = _shipped_skill_folders(ctx, refs)
    return [
        ref
        for file in sorted(refs)
        for ref in refs[file]
        if (ref.kind != "symbol" or ref.text not in tools)
        and (ref.kind in _SHIPPED_KINDS or not any(file.startswith(f + "/") for f in shipped))
    ]


def _shipped_skill_folders(ctx: AuditContext, refs: dict[str, list[Ref]]) -> set[str]:
    """The `skills/` folders of workspace packages that publish them (`"files": ["dist", "skills"]` in
    the package's package.json), and the skills dotagents installs from another repository (the root
    `agents.toml`): skills for every project that uses them, whose paths, commands and symbols
    (`src/server/trpc.ts`, `pnpm run deploy`, the `.cursor/skills/` it links) are the user's project's,
    not this repository's. Only their links and @imports (to the skill's own bundled files) are judged."""
    folders = set(installed_skills(read(ctx, "agents.toml"))) if "agents.toml" in ctx.tracked else set()
    for file in refs:
        parts = file.split("/")
        at = max((n for n, p in enumerate(parts[:-1]) if p == "skills"), default=-1)
        if at > 0 and not parts[0].startswith("."):
            package = "/".join(parts[:at])
            if publishes(read(ctx, f"{package}/package.json"), "/".join(parts[at:])):
                folders.add(f"{package}/skills")
    return folders


def _skill_folder(file: str) -> str:
    parts = file.split("/")
    at = max((n for n, p in enumerate(parts[:-1]) if p == "skills"), default=-1)
    return "/".join(parts[: at + 2]) if 0 <= at < len(parts) - 2 else posixpath.dirname(file)


def _bundled(ctx: AuditContext, file: str, folder: str, ref: Ref) -> str | None:
    if ref.kind not in ("link", "path", "import") or not ref.text.endswith(_BUNDLED_EXTS):
        return None
    for base in (posixpath.dirname(file), folder):
        target = posixpath.normpath(posixpath.join(base, ref.text))
        if target.startswith(folder + "/") and target in ctx.tracked and "\n" not in target:
            return target
    return None
