"""Repository text made inert in a GitHub comment: no mentions, no HTML, no links, no marker.

Bidirectional control characters are shown as their code points. Anything a pull request can write (instruction text, failure quotes, commit subjects, file names)
goes through `text` (prose), `code` (instruction text) or `block` (restore quotes) before it reaches
Markdown. `&` is escaped first, so entity forms (`&#64;`, `&commat;`) stay literal text and cannot
become an `@` after rendering; a literal `@` gets a word joiner, which GitHub's mention and email
autolinking do not read through. Links are only ever made by `blob_link` to the repository's own
files at the head commit.
"""

from __future__ import annotations

import re
import urllib.parse

WORD_JOINER = "\u2060"
MARKER_WORD = re.compile(r"gitcontext:(pr-comment|audit-issue|state)", re.I)
# What Markdown would act on inside a line: emphasis, code, links, strikethrough, table cells. An
# underscore inside a word never emphasizes in GFM, so `stale_days` is left as it is.
_MD_PUNCT = re.compile(r"([\\`*\[\]()|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")
_AUTOLINK = re.compile(r"(?i)(://|www\.)")
_MAX = 400


# Bidirectional controls (embeddings, overrides, isolates, marks) reorder what a reviewer sees
# ("Trojan Source"): each is shown as its code point, `[U+202E]`, never passed through.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def inert(value: str, links: bool = True) -> str:
    """VALUE with nothing GitHub acts on outside markup: bidirectional controls shown as code points, the
    sticky marker's word broken, mentions and (unless LINKS is false: inside a Markdown code span, which
    GitHub never autolinks, so a command stays copyable) autolinks broken by a word joiner. Every renderer
    of repository text for GitHub (the Action's comments, `audit --format markdown`) goes through it."""
    value = _BIDI.sub(lambda m: f"[U+{ord(m.group(0)):04X}]", value)
    value = MARKER_WORD.sub(lambda m: m.group(0).replace(":", ":" + WORD_JOINER), value)
    value = value.replace("@", "@" + WORD_JOINER)
    return _AUTOLINK.sub(lambda m: m.group(0)[0] + WORD_JOINER + m.group(0)[1:], value) if links else value


def clip(value: str, limit: int = _MAX) -> str:
    flat = " ".join(value.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def text(value: str, limit: int = _MAX) -> str:
    """Prose from the repository, one line: HTML escaped, Markdown punctuation escaped, mentions broken."""
    value = clip(value, limit)
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return _MD_PUNCT.sub(lambda m: "\\" + m.group(0), inert(value))


def code(value: str, limit: int = _MAX) -> str:
    """VALUE as an inline code span (`<code>`) on one line, its characters escaped like `text`.

    A `<code>` element rather than backticks so that no `<`, `>` or `&` from the repository reaches
    the body raw: it renders the same monospace text, and the escapes show as the characters.
    """
    return f"<code>{text(value, limit)}</code>"


def block(value: str) -> str:
    """Multi-line verbatim text (a restore quote) as a one-line `<pre>`: HTML-escaped, mentions and marker
    broken, line breaks as `&#10;` so the element sits inside a list item without ending it."""
    value = value.rstrip().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "<pre>" + inert(value).replace("\r", "").replace("\n", "&#10;") + "</pre>"


def blob_link(label: str, server: str, repository: str, sha: str, path: str, line: int | None = None) -> str:
    """[LABEL](server/owner/repo/blob/sha/path#Lline), or plain escaped LABEL when PATH is not a repo file."""
    if not _safe_path(path) or not re.fullmatch(r"[0-9a-f]{40}", sha) or not _repo_name(repository):
        return label
    quoted = urllib.parse.quote(path, safe="/")
    anchor = f"#L{line}" if line else ""
    return f"[{label}]({server.rstrip('/')}/{repository}/blob/{sha}/{quoted}{anchor})"


def _safe_path(path: str) -> bool:
    parts = path.split("/")
    return (
        bool(path)
        and not path.startswith("/")
        and "\\" not in path
        and all(p not in ("", ".", "..") for p in parts)
        and not any(ord(c) < 32 for c in path)
    )


def _repo_name(repository: str) -> bool:
    return re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repository) is not None
