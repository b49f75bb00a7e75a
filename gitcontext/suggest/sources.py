"""Where a rule's why may be written: the commits that wrote it and the pull requests they came from.

A rule's sources are its birth and each rewording (a move carries no why: its commit says where the
rule went). Each is the commit that wrote the text (the side-branch commit of a merge, as `git blame`
would say) and the first-parent merge that brought it (`via`). The texts read for a source, in the
order they are tried: the commit's message, the merge's message (the pull request's title), and, with
a GitHub reader, the pull request's title and body and the issues it closes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

from gitcontext import git
from gitcontext.suggest.text import gitlab_mr, pr_number


class Source(NamedTuple):
    change: str  # born | reworded
    commit: str
    via: str  # the first-parent merge that brought COMMIT ("" when it is on the first-parent line)
    file: str = ""  # the context file COMMIT wrote the rule into


class Thread(NamedTuple):
    """A pull request's or an issue's text as GitHub has it."""

    number: str
    title: str
    body: str
    issues: tuple[Thread, ...] = ()  # the issues a pull request closes
    url: str = ""  # its page on GitHub


class Reader(Protocol):
    """What `suggest --github` reads: a pull request by number, or the one a commit came from."""

    def pull(self, number: str) -> Thread | None: ...

    def pull_of(self, commit: str) -> str | None: ...


class Text(NamedTuple):
    """One text a why may come from, with what it is about: how many rules its change wrote, and the
    paths it touched outside the context files."""

    origin: str  # commit | merge | pull-request | issue
    commit: str  # the commit it is anchored to (a suggestion's `commit`)
    part: str  # how to read TEXT: "commit" (subject + body), "title", "body"
    text: str
    rules: int
    others: int  # paths touched that are neither context files nor .context/
    number: str = ""  # the pull request (or issue) it is
    pr: str = ""  # the pull request it is, or belongs to (an issue's: the pull request that closes it)
    url: str = ""  # the pull request's or issue's page, when a GitHub reader read it
    written: tuple[str, ...] = ()  # the texts of the rules its change wrote (each once)


def sources_of(life) -> list[Source]:
    """The birth, then each rewording, of a lineage Life."""
    out = [Source("born", life.born.commit, life.born.via, life.born.file)]
    out += [Source("reworded", c.commit, c.via, c.file) for c in life.changes if c.kind == "reworded"]
    return out


def rules_written(lives: Iterable) -> Counter[str]:
    """commit -> how many births and rewordings it wrote (a merge counts everything it brought)."""
    counts: Counter[str] = Counter()
    for life in lives:
        for source in sources_of(life):
            counts[source.commit] += 1
            if source.via:
                counts[source.via] += 1
    return counts


def texts_written(lives: Iterable) -> dict[str, tuple[str, ...]]:
    """commit -> the texts of the rules it wrote (born or reworded there; a merge: all it brought), each once."""
    out: dict[str, dict[str, None]] = {}
    for life in lives:
        steps = [(life.born.commit, life.born.via, life.born.text)]
        steps += [(c.commit, c.via, c.text) for c in life.changes if c.kind == "reworded"]
        for commit, via, text in steps:
            for sha in (commit, via):
                if sha:
                    out.setdefault(sha, {})[text] = None
    return {sha: tuple(texts) for sha, texts in out.items()}


class History(NamedTuple):
    """The commit texts, paths and rule counts every source of a run is judged by (read once)."""

    messages: dict[str, git.CommitText]
    paths: dict[str, list[str]]
    rules: Counter[str]
    context: frozenset[str]  # every context file path the replay saw
    first: Counter[tuple[str, str]]  # (file, commit) -> the rules born in that file's first version
    written: dict[str, tuple[str, ...]]  # commit -> the texts of the rules it wrote

    def born_with_file(self, source: Source) -> int:
        """How many rules SOURCE's commit wrote into its file when it created the file (0: the file existed)."""
        return self.first[(source.file, source.commit)] if source.change == "born" else 0

    def others(self, sha: str) -> int:
        return sum(1 for p in self.paths.get(sha, ()) if p not in self.context and not p.startswith(".context/"))


def read_history(root, lives: Sequence, chosen: Sequence, context: Iterable[str]) -> History:
    """One `git log` for the messages and one for the paths of every source of the CHOSEN lives."""
    shas = sorted({sha for life in chosen for s in sources_of(life) for sha in (s.commit, s.via) if sha})
    first = Counter((life.born.file, life.born.commit) for life in lives if life.born.version == 0)
    return History(
        git.commit_texts(shas, root),
        git.touched_paths(shas, root),
        rules_written(lives),
        frozenset(context),
        first,
        texts_written(lives),
    )


def texts_of(source: Source, history: History, reader: Reader | None = None) -> list[Text]:
    """The texts of SOURCE in the order they are tried (see the module's docstring)."""
    out = []
    mine = history.messages.get(source.commit)
    if mine is not None:
        out.append(_commit_text(source.commit, mine.message, "commit", history))
    merge = history.messages.get(source.via) if source.via else None
    if merge is not None:
        out.append(_commit_text(source.via, merge.message, "merge", history))
    anchor = source.via or source.commit
    if reader is not None:
        out += _threads(reader, anchor, merge or mine, history)
    return out


def _commit_text(sha: str, message: str, origin: str, history: History) -> Text:
    subject = message.split("\n", 1)[0]
    number = pr_number(subject) or gitlab_mr(message) or ""
    rules, others, written = history.rules[sha], history.others(sha), history.written.get(sha, ())
    return Text(origin, sha, "commit", message, rules, others, number, number, written=written)


def _threads(reader: Reader, anchor: str, commit: git.CommitText | None, history: History) -> list[Text]:
    number = pr_number(commit.message.split("\n", 1)[0]) if commit is not None else None
    number = number or reader.pull_of(anchor)
    thread = reader.pull(number) if number else None
    if thread is None:
        return []
    rules, others, written = history.rules[anchor], history.others(anchor), history.written.get(anchor, ())
    pr = thread.number
    out = [
        Text("pull-request", anchor, "title", thread.title, rules, others, pr, pr, thread.url, written),
        Text("pull-request", anchor, "body", thread.body, rules, others, pr, pr, thread.url, written),
    ]
    for issue in thread.issues:
        out += [
            Text("issue", anchor, "title", issue.title, rules, others, issue.number, pr, issue.url, written),
            Text("issue", anchor, "body", issue.body, rules, others, issue.number, pr, issue.url, written),
        ]
    return out
