"""The term a definition-list entry defines ("**Purpose**: …", "`tokensGenerated`: …")."""

from __future__ import annotations

import re

_TERM = re.compile(
    r"^\s*(?:\*\*|__)(?P<a>[^*_\n]{1,80}?)(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)\s+\S"
    r"|^\s*`(?P<b>[^`\n]{1,80})`\s*:\s+\S"
)


_EMPHASIS = frozenset(
    """important note notes warning warnings caution tip tips critical required requirement
never always do don't dont must avoid rule rules remember reminder nb attention mandatory forbidden""".split()
)


def term(text: str) -> str | None:
    """The term a definition-list entry defines ("**Purpose**: …", "`tokensGenerated`: …"), casefolded;
    None for plain prose, or for a label that is only emphasis ("**Important:** …", "**Never**: …")."""
    m = _TERM.match(text)
    if not m:
        return None
    label = " ".join((m.group("a") or m.group("b")).replace("`", "").casefold().split())
    return None if set(re.findall(r"[\w']+", label)) <= _EMPHASIS else label
