"""`Context-Ruling:` trailers: a decision made in review lands in the ledger at commit time.

    Context-Ruling: ci-runners, arm: Run CI on ARM runners from now on (supersedes R-1a2b3c)

Topics, a colon, the summary; an optional final `(supersedes R-…, R-…)` and/or `(answers A-…)`.
`git context sync` folds them; the ruling's id comes from the commit (R-<sha[:8]>, then -2, -3 for
further trailers of that commit), so folding twice, or after a squash that kept the message, adds
nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.provenance.events import to_utc
from gitcontext.rulings.asks import rule, states
from gitcontext.rulings.ledger import read_rulings
from gitcontext.rulings.topics import check_topics

KEY = "context-ruling"
_TAIL = re.compile(r"\s*\((supersedes|answers)\s+([^()]*)\)\s*\Z", re.I)


class RulingTrailer(NamedTuple):
    topics: tuple[str, ...]
    summary: str
    supersedes: tuple[str, ...]
    answers: str | None


def parse(value: str) -> RulingTrailer:
    topics, sep, rest = value.partition(":")
    if not sep:
        raise UserError(
            f"Context-Ruling {value[:60]!r} has no 'topics: summary'",
            fix="write `Context-Ruling: topic-a, topic-b: the decision in a sentence`",
        )
    links: dict[str, list[str]] = {"supersedes": [], "answers": []}
    rest = rest.strip()
    while m := _TAIL.search(rest):
        links[m.group(1).lower()] += [p.strip() for p in m.group(2).split(",") if p.strip()]
        rest = rest[: m.start()].rstrip()
    answers = links["answers"][0] if links["answers"] else None
    return RulingTrailer(check_topics([topics]), rest, tuple(links["supersedes"]), answers)


def sync_rulings(root: Path, rev: str = "HEAD") -> dict[str, Any]:
    """Fold every Context-Ruling trailer reachable from REV into the ledger (idempotent).

    A trailer that cannot become a ruling (no topics, a short summary, an unknown supersede) is
    skipped and named in `skipped` as "sha: reason"; nothing is half-written.
    """
    known = {r.id for r in read_rulings(root)}
    added, skipped = 0, []
    for sha, date, subject, pairs in reversed(list(git.log_trailers(rev, cwd=root))):
        values = [v for k, v in pairs if k.lower() == KEY]
        for n, value in enumerate(values, start=1):
            rid = f"R-{sha[:8]}" + (f"-{n}" if n > 1 else "")
            if rid in known:
                continue
            try:
                t = parse(value)
                open_ask = states(root).get(t.answers or "")
                answers = t.answers if open_ask is not None and open_ask.status == "open" else None
                rule(
                    root,
                    t.topics,
                    t.summary,
                    f"commit {sha[:12]}: {subject}",
                    t.supersedes,
                    answers,
                    id=rid,
                    at=to_utc(date),
                )
            except UserError as exc:
                skipped.append(f"{sha[:12]}: {exc.message}")
                continue
            known.add(rid)
            added += 1
    return {"rulings": added, "skipped": skipped}
