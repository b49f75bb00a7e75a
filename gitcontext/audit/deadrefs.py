"""GC103's references judged together, so that each question to git is asked once for all of them: the
tree is the audit's one listing; manifests come in one `cat-file --batch`; the missing paths get one
`check-ignore` and one history pass (audit/pathhistory.py); the symbols one `git grep`."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from datetime import datetime, timezone

from gitcontext import git
from gitcontext.audit.context import AuditContext
from gitcontext.audit.drawn import place_tree
from gitcontext.audit.judge_commands import (
    cargo_verdict,
    just_verdict,
    make_verdict,
    run_folder,
    script_verdict,
    test_verdict,
    where_folders,
)
from gitcontext.audit.judge_paths import Lookup, Verdict, home_verdict, lookup, outside_verdict, path_verdict
from gitcontext.audit.manifests import Manifests
from gitcontext.audit.pathhistory import PathHistory
from gitcontext.audit.ref import Ref, generated, join, strip_top
from gitcontext.audit.tree import index, package_of

TREE_MIN_MATCH = 0.5  # a drawn tree matching less of the repository than this is an illustration
MAX_WRITTEN_TREES = 12  # the trees of the commits that wrote lines naming missing symbols, newest first
_COMMANDS = {"script", "make", "just", "cargo", "test"}
_DOCS = ("*.md", "*.mdc", "*.mdx", "*.txt", "*.rst")


class Judging:
    def __init__(self, ctx: AuditContext, refs: list[Ref], shallow: bool, rev: str | None) -> None:
        """REV: the history that says where missing paths went (None: no commit yet)."""
        self.ctx = ctx
        self.rev = rev
        self.index = index(ctx)
        self.shallow = shallow
        self.refs = list({(r.file, r.line, r.kind, r.text): r for r in refs}.values())
        kinds = {r.kind for r in self.refs}
        if any(w.startswith("pkg:") or w == "*" for r in self.refs for w in r.where):
            kinds.add("script")
        tests = {c for r in self.refs if r.kind == "test" for c in self._test_files(r)}
        self.manifests = Manifests(ctx.root, ctx.tracked, kinds, tests) if kinds & (_COMMANDS | {"script"}) else None

    def verdicts(self) -> Iterator[tuple[Ref, Verdict]]:
        """Every dead reference with its verdict, in the order of REFS (a drawn tree's at its entries)."""
        symbols = self._removed_symbols()
        pending: list[tuple[Ref, Lookup]] = []
        for ref in self.refs:
            if ref.kind == "tree":
                continue
            if ref.kind == "symbol":
                if (ref.file, ref.line, ref.text) in symbols:
                    yield ref, _symbol_verdict(ref, symbols[(ref.file, ref.line, ref.text)])
                continue
            verdict, found = self._judge(ref)
            if verdict:
                yield ref, verdict
            elif found:
                pending.append((ref, found))
        pending += self._tree_lookups()
        yield from self._missing_paths(pending)

    def _judge(self, ref: Ref) -> tuple[Verdict | None, Lookup | None]:
        folder = posixpath.dirname(ref.file)
        if ref.kind == "home":
            return home_verdict(self.index, ref), None
        if ref.kind == "import" and (ref.text.startswith("/") or join(folder, ref.text) is None):
            return outside_verdict(ref), None
        where = where_folders(self.index, self.manifests, ref)
        if ref.kind in _COMMANDS:
            return self._command(ref, where)
        if ref.form == "arg" and ref.cwd is not None:
            cwd = run_folder(self.index, ref)
            if cwd is None:
                return None, None  # the `cd` names no folder: it is judged itself, or a placeholder
            where = [cwd]
        return None, lookup(self.index, ref, where, package_of(self.ctx, folder))

    def _command(self, ref: Ref, where: list[str]) -> tuple[Verdict | None, Lookup | None]:
        assert self.manifests is not None
        if ref.cwd is not None and run_folder(self.index, ref) is None:
            return None, None
        if ref.kind == "script":
            return script_verdict(self.index, self.manifests, ref, where), None
        if ref.kind == "make":
            return make_verdict(self.index, self.manifests, ref, where), None
        if ref.kind == "just":
            return just_verdict(self.index, self.manifests, ref, where), None
        if ref.kind == "cargo":
            return cargo_verdict(self.manifests, ref), None
        path, verdict = test_verdict(self.index, self.manifests, ref, self._folders(ref, where))
        if not path:
            return verdict, None
        as_path = ref._replace(kind="path", text=path, form="arg")
        return None, lookup(
            self.index, as_path, self._folders(ref, where), package_of(self.ctx, posixpath.dirname(ref.file))
        )

    def _folders(self, ref: Ref, where: list[str]) -> list[str]:
        cwd = run_folder(self.index, ref)
        return [cwd] if cwd is not None else [posixpath.dirname(ref.file), *where]

    def _test_files(self, ref: Ref) -> list[str]:
        path = ref.text.partition("::")[0]
        folders = [posixpath.dirname(ref.file), ref.cwd or "", *ref.where, ""]
        return [c for f in folders if (c := join(f, path))]

    def _tree_lookups(self) -> list[tuple[Ref, Lookup]]:
        """A drawn tree is judged as a whole: against the base it matches best, and only if it mostly
        matches; an entry under a missing folder of the tree is that folder's, not its own."""
        groups: dict[tuple[str, int], list[Ref]] = {}
        for ref in self.refs:
            if ref.kind == "tree":
                groups.setdefault((ref.file, ref.group), []).append(ref)
        out = []
        for group in groups.values():
            here = posixpath.dirname(group[0].file)
            bases = list(
                dict.fromkeys([here, package_of(self.ctx, here), *where_folders(self.index, None, group[0]), ""])
            )
            rate, base, strip = place_tree([r.text for r in group], bases, self.index.exists)
            if rate < TREE_MIN_MATCH:
                continue
            missing: list[str] = []
            for ref in group:
                path = strip_top(ref.text, strip)
                full = join(base, path) if path else None
                if not full or self.index.exists(full) or any(full.startswith(m + "/") for m in missing):
                    continue
                missing.append(full)
                shown = full + ("/" if ref.text.endswith("/") else "")
                out.append((ref._replace(text=shown), Lookup((full,), ("",), False)))
        return out

    def _missing_paths(self, pending: list[tuple[Ref, Lookup]]) -> Iterator[tuple[Ref, Verdict]]:
        wanted = sorted({c for _, found in pending for c in found.candidates if not generated(c)})
        forms = [f for c in wanted for f in (c, c + "/")]
        ignored = {f.rstrip("/") for f in git.check_ignore(forms, self.ctx.root)} if forms else set()
        missing = [c for c in wanted if c not in ignored]
        history = PathHistory(self.ctx.root, self.rev, missing, self.index.exists)
        judged = []
        for ref, found in pending:
            if any(c in ignored for c in found.candidates):
                continue
            fates = [history.fate(c) for c in found.candidates]
            verdict = path_verdict(self.index, ref, found, fates, self.shallow)
            if verdict:
                judged.append((ref, verdict, found.tail))
        yield from self._not_written_after(judged)

    def _not_written_after(self, judged: list[tuple[Ref, Verdict, bool]]) -> Iterator[tuple[Ref, Verdict]]:
        """JUDGED without the paths whose line was written (blame) after the commit history blames:

        - a path that never existed itself under a folder deleted before its line was written: its author
          never saw that folder, so the path names something else (a word pair, a hypothetical
          `examples/id_rsa.example`), not a file the repository lost;
        - a path that is the tail of a tracked path (TAIL) and moved there before its line was written:
          its author knew the new layout and wrote it relative to its package (`src/ui/` of the
          `@spotlightjs/spotlight` package, a Dart package's `lib/sentry.dart`), not the old root path."""
        late = [(r, v) for r, v, tail in judged if _dated_by_author(v, tail)]
        lines: dict[str, set[int]] = {}
        for ref, _ in late:
            lines.setdefault(ref.file, set()).add(ref.line)
        written = {
            (file, n): date
            for file, numbers in lines.items()
            for n, (commit, date) in git.blame_lines(file, sorted(numbers), "HEAD", self.ctx.root).items()
            if commit.strip("0")
        }
        for ref, verdict, tail in judged:
            date = written.get((ref.file, ref.line)) if _dated_by_author(verdict, tail) else None
            if not (date and _after(date, verdict.evidence["date"])):
                yield ref, verdict

    def _removed_symbols(self) -> dict[tuple[str, int, str], str]:
        """(file, line, name) -> the commit that wrote the line, for each symbol no tracked source file has
        now and the tree had when its line was written: renamed or removed since. A name that tree did not
        have either is another library's API (`Dialog.createHandle()` in a migration guide), a
        placeholder or a plan, and says nothing about this repository. One `git grep` of the work tree,
        one blame per file naming a missing symbol, one `git grep` per commit that wrote such lines (the
        newest MAX_WRITTEN_TREES)."""
        wanted = sorted({r.text for r in self.refs if r.kind == "symbol"})
        missing = set(wanted) - git.grep_words(wanted, _DOCS, self.ctx.root) if wanted else set()
        refs = [r for r in self.refs if r.kind == "symbol" and r.text in missing]
        lines: dict[str, set[int]] = {}
        for ref in refs:
            lines.setdefault(ref.file, set()).add(ref.line)
        written: dict[tuple[str, int], tuple[str, str]] = {}
        for file, numbers in lines.items():
            for number, (commit, date) in git.blame_lines(file, sorted(numbers), "HEAD", self.ctx.root).items():
                if commit.strip("0"):
                    written[(file, number)] = (commit, date)
        names: dict[tuple[str, str], set[str]] = {}
        for ref in refs:
            if (ref.file, ref.line) in written:
                commit, date = written[(ref.file, ref.line)]
                names.setdefault((date, commit), set()).add(ref.text)
        had = {
            commit: git.grep_words(sorted(found), _DOCS, self.ctx.root, rev=commit)
            for (_, commit), found in sorted(names.items(), reverse=True)[:MAX_WRITTEN_TREES]
        }
        return {
            (r.file, r.line, r.text): commit
            for r in refs
            if (commit := written.get((r.file, r.line), ("", ""))[0]) and r.text in had.get(commit, set())
        }


def _dated_by_author(verdict: Verdict, tail: bool) -> bool:
    """Whether VERDICT holds only for a line written before its commit (see Judging._not_written_after)."""
    return verdict.cls == "deleted" and "folder" in verdict.evidence or verdict.cls == "moved" and tail


def _after(written: str, removed: str) -> bool:
    """WRITTEN (blame's author time, epoch seconds) is later than REMOVED (an ISO date); False when
    either cannot be read."""
    try:
        return datetime.fromtimestamp(int(written), timezone.utc) > datetime.fromisoformat(removed)
    except (ValueError, TypeError, OverflowError):
        return False


def _symbol_verdict(ref: Ref, commit: str) -> Verdict:
    what = {"class": "class", "parameter": "parameter"}.get(ref.tool, "function")
    lead = "" if ref.written.rstrip("=") in (ref.text, ref.text + "()") else f"`{ref.written}`: "
    return Verdict(
        "missing",
        f"{lead}the {what} `{ref.text}` was in the tree when this line was written ({commit[:9]}) and is in "
        "no tracked source file now: renamed or removed; fix the name or remove the line",
        {"symbol": ref.text, "written": commit},
    )
