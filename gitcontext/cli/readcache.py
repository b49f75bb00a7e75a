"""The answers of the plain read commands (`ls`, `blame TARGET`, `history FILE`), kept under everything
they were computed from, so asking again with nothing changed costs one git process (`ls-files`) and
some stats: HEAD is read from the repository's files when they are plainly laid out (git.refs), else
asked of `git rev-parse`.

An answer is a function of: the code that ran (every module file the run loaded outside the standard
library; `sys.version` covers the rest); the arguments, the folder asked from, the output stream's kind
and the environment; HEAD's commit (the trailers, lives and births come from its history); the files
git lists in the work tree (`ls-files --cached --others --exclude-standard`, what discovery lists);
the bytes of every file the command opened in the work tree and the git dir (context files, guides,
notes, config), of everything under `.context/`, of `.git/shallow`, `packed-refs`, `refs/replace` and
git's config files; and today's date (UTC; a rationale goes stale by days). The fingerprint hashes all
of them: each file by its stat signature (size, mtime and ctime in ns, inode, mode), each folder by its
names too. What the command opened is recorded while it computes (an audit hook on `open` and on
folder listings, so a file read for the first time by a new check is covered without being named here).

An answer is kept only when the tree lists the same after the run as before it, no input other than a
module changed after RACY seconds before the run started (a file rewritten within the file system's
timestamp granularity could keep its signature), the run exited 0 without writing to stderr (progress
lines aside: a replay would drop a warning), the answer is at most MAX_BYTES and the redactor finds no
secret in it (like every string written under `.git/gitcontext/`). The keeping runs after the answer is
out, in a detached process the command does not wait for (`GITCONTEXT_READ_CACHE=wait` keeps it in the
foreground). Anything not exactly in shape is a miss; deleting the folder changes no result.
`GITCONTEXT_READ_CACHE=0` turns it off.
"""

from __future__ import annotations

import io
import os
import sys
import time

from gitcontext import afterwards
from gitcontext.cli import readinputs as inputs
from gitcontext.digests import sha1
from gitcontext.git.refs import head_commit
from gitcontext.git.spawn import output

FOLDER = "gitcontext/reads"  # under the (per-worktree) git dir
MAGIC = b"gitcontext-reads 1\n"
MAX_BYTES = 8 << 20
MAX_ENTRIES = 64
RACY = 2.0
_VOLATILE = ("_", "PWD", "OLDPWD", "SHLVL", "GITCONTEXT_READ_CACHE")  # a shell's churn; this switch
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Reads:
    """One plain read command's entry: `replay()` writes the kept answer when it still holds; `compute(run)`
    runs it, captures stdout, and keeps the answer when it may."""

    def __init__(self, args: list[str], top: str, git_dir: str, common: str, head: str, shallow: bool = False) -> None:
        self.args, self.top, self.git_dir, self.common, self.head = args, top, git_dir, common, head
        self.shallow = shallow
        here = os.path.relpath(os.getcwd(), top)
        stream = sys.stdout
        env = sorted((k, v) for k, v in os.environ.items() if k not in _VOLATILE)
        self.asked = repr((args, here, stream.encoding, stream.errors, _isatty(stream), sys.version, env))
        self.file = os.path.join(git_dir, FOLDER, sha1(self.asked.encode("utf-8", "surrogateescape"))[:24])

    def replay(self) -> bool:
        entry = _read_entry(self.file)
        if entry is None:
            return False
        fingerprint, paths, output = entry
        if self.fingerprint(paths) != fingerprint:
            return False
        sys.stdout.flush()
        sys.stdout.buffer.write(output)
        sys.stdout.flush()
        return True

    def fingerprint(
        self, paths: list[str], fresh_after: float | None = None, listing: bytes | None = None
    ) -> str | None:
        """The hash of everything the answer depends on, with PATHS the files and folders it opened
        (relative to the top, or absolute), then "" and the modules it ran; None when git cannot list the
        tree, or when an input other than a module was changed after FRESH_AFTER (a time.time()).
        LISTING: the tree's, if known."""
        listing = inputs.listing(self.top) if listing is None else listing
        if listing is None:
            return None
        cut = paths.index("") if "" in paths else len(paths)
        files = {*paths[:cut], *inputs.context_tree(self.top), *inputs.git_inputs(self.common)}
        modules = paths[cut + 1 :]
        parts = [self.asked, self.head, inputs.today(), sha1(listing)]
        for path in sorted(files):
            changed, signature = inputs.signature(path if os.path.isabs(path) else os.path.join(self.top, path))
            if fresh_after is not None and changed > fresh_after:
                return None
            parts.append(f"{path}\0{signature}")
        parts += [f"{path}\0{inputs.signature(path)[1]}" for path in modules]
        return sha1("\n".join(parts).encode("utf-8", "surrogateescape"))

    def compute(self, run, leaving: bool = False) -> int:  # type: ignore[no-untyped-def]
        """RUN() with stdout captured; its output is written out and, when it may be, kept (LEAVING:
        this process exits right after, see `afterwards.aside`)."""
        started = time.time()
        listing = inputs.start_listing(self.top)  # git lists the tree while the command runs
        opened: set[str] = set()
        real, real_err = sys.stdout, sys.stderr
        captured = io.BytesIO()
        wrapper = io.TextIOWrapper(captured, encoding=real.encoding, errors=real.errors, write_through=True)
        wrapper.isatty = real.isatty  # type: ignore[method-assign]  # ANSI codes kept or stripped as before
        sys.stdout, sys.stderr = wrapper, _Counted(real_err)
        counted = sys.stderr
        from gitcontext.git.repo import forget_head, know_head

        know_head(self.top, self.common, self.head, self.shallow)  # the command computes for this HEAD
        try:
            with inputs.recording(opened):
                code = run()
        finally:
            forget_head(self.top)
            before = inputs.listed(listing)
            wrapper.flush()
            output = captured.getvalue()
            wrapper.detach()  # so that dropping it does not close CAPTURED
            sys.stdout, sys.stderr = real, real_err
            real.flush()
            real.buffer.write(output)
            real.flush()
        work = afterwards.take()  # the command's cache writes, then the keeping
        if code == 0 and before is not None and not counted.writes and len(output) <= MAX_BYTES:
            modules = inputs.modules()
            paths = [*sorted(self._relative(opened) - modules), "", *sorted(modules)]
            work.append(lambda: self._keep(before, paths, output, started - RACY))
        afterwards.aside(work, leaving)
        return code

    def _relative(self, opened: set[str]) -> set[str]:
        """Opened files in the work tree (relative) and in the git dir (absolute), the caches excluded."""
        top, git_dir = self.top + os.sep, self.git_dir + os.sep
        caches = os.path.join(self.git_dir, "gitcontext") + os.sep
        kept = set()
        for path in opened:
            if path.startswith(caches):
                continue
            if path.startswith(git_dir):
                kept.add(path)
            elif path.startswith(top):
                kept.add(path[len(top) :])
        return kept

    def _keep(self, before: bytes, paths: list[str], output: bytes, fresh_after: float) -> None:
        """Keep OUTPUT when the tree lists as BEFORE and nothing it read changed since FRESH_AFTER."""
        listing = inputs.listing(self.top)
        if listing != before:
            return  # a file came or went while it ran
        fingerprint = self.fingerprint(paths, fresh_after, listing)
        if fingerprint is None or not _clean(output):
            return
        listed = "\0".join(paths).encode("utf-8", "surrogateescape")
        data = b"".join([MAGIC, fingerprint.encode(), b"\n", b"%d\n" % len(listed), listed, output])
        from gitcontext.provenance.locks import write_cache

        _prune(os.path.dirname(self.file))
        write_cache(self.file, data)


def open_reads(args: list[str]) -> Reads | None:
    """The entry for ARGS in this repository, or None: turned off, not in a work tree with commits."""
    if os.environ.get("GITCONTEXT_READ_CACHE", "1").strip() in ("0", "false", "no", "off"):
        return None
    here = os.getcwd()
    plain = head_commit(here)  # the top of a plain repository: its files say it all
    if plain is not None:
        head, git_dir = plain
        return Reads(
            args, os.path.realpath(here), git_dir, git_dir, head, os.path.lexists(os.path.join(git_dir, "shallow"))
        )
    out = output(
        [
            "rev-parse",
            "--show-toplevel",
            "--absolute-git-dir",
            "--git-common-dir",
            "--is-shallow-repository",
            "--verify",
            "-q",
            "HEAD^{commit}",
        ],
        None,
    )
    lines = out.decode("utf-8", "surrogateescape").split("\n") if out else []
    if len(lines) < 5 or not lines[0] or len(lines[4]) < 40:
        return None
    return Reads(
        args,
        os.path.realpath(lines[0]),
        os.path.realpath(lines[1]),
        os.path.realpath(lines[2]),
        lines[4],
        lines[3] == "true",
    )


def _read_entry(file: str) -> tuple[str, list[str], bytes] | None:
    try:
        with open(os.open(file, os.O_RDONLY | _NOFOLLOW), "rb") as fh:  # a symlink planted there: a miss
            data = fh.read(MAX_BYTES + (1 << 20))
    except OSError:
        return None
    if not data.startswith(MAGIC):
        return None
    rest = data[len(MAGIC) :]
    fingerprint, _, rest = rest.partition(b"\n")
    size, _, rest = rest.partition(b"\n")
    if len(fingerprint) != 40 or not size.isdigit() or int(size) > len(rest):
        return None
    listed, output = rest[: int(size)], rest[int(size) :]
    paths = listed.decode("utf-8", "surrogateescape").split("\0") if listed else []
    return fingerprint.decode("ascii", "replace"), paths, output


def _prune(folder: str) -> None:
    """At most MAX_ENTRIES answers: the least recently written go first."""
    try:
        entries = [(e.stat().st_mtime, e.path) for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
        for _, path in sorted(entries)[: len(entries) - MAX_ENTRIES + 1]:
            os.unlink(path)
    except OSError:
        return  # no folder yet (write_cache makes it), or another run pruned first


def _clean(output: bytes) -> bool:
    from gitcontext.provenance.redact import clean

    text = output.decode("utf-8", "surrogateescape")
    return clean(text) == text


def _isatty(stream) -> bool:  # type: ignore[no-untyped-def]
    try:
        return bool(stream.isatty())
    except Exception:  # noqa: BLE001 - as click.isatty
        return False


class _Counted:
    """A text stream that counts what is written to it (an answer with a warning is not kept: replaying
    it would drop the warning). A progress line (gitcontext.progress: it starts with a carriage return
    and is erased when done) is not a warning and is not counted."""

    def __init__(self, stream) -> None:  # type: ignore[no-untyped-def]
        self.stream, self.writes = stream, 0

    def write(self, text: str) -> int:
        self.writes += bool(text) and not text.startswith("\r")
        return self.stream.write(text)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.stream, name)
