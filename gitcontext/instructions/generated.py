"""Whether a context file says a tool wrote it: its copies are the tool's, not a rule someone repeated.

The audit leaves such files out of its pool of loaded instructions (audit.alike) and the pre-commit
hook's repeat warning leaves them out too (hooks.repeats): one test, here.
"""

from __future__ import annotations

import re

_GENERATED = re.compile(
    r"\b(?:do\s+not\s+edit|auto-?generated|(?:this|the)\s+file\s+(?:is|was)\s+(?:auto-?)?generated|"
    r"generated\s+(?:file|by)\b(?!s))",
    re.I,
)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_GENERATOR_KEY = re.compile(r"^[ \t]*generated[_-]?by[ \t]*:[ \t]*\S", re.I | re.M)
# `<!-- prompt_hash: a79b3f50… -->`: a tool stamps what it writes with its source's hash, to know when to rewrite it
_STAMP = re.compile(r"<!--\s*[\w.-]*(?:hash|checksum|digest|sha1|sha256)\s*[:=]\s*[0-9a-f]{16,}\s*-->", re.I)


def generated(text: str) -> bool:
    """Whether TEXT says that a tool wrote it: a "do not edit" comment or first lines, a front-matter key
    naming its generator (`generatedBy: "1.4.1"`, as the openspec CLI writes into every skill it installs;
    the next `openspec update` overwrites any edit), or a comment at its top or end stamping the hash of
    what it was made from (`<!-- prompt_hash: a79b… -->`, as the Agentuity CLI ends each guide it writes).
    A rule about generated files ("Never commit generated files") is no mark."""
    head = text[:600]
    top = "\n".join(head.splitlines()[:3])
    if any(_GENERATED.search(m.group(0)) for m in _COMMENT.finditer(head)) or _GENERATED.search(top):
        return True
    if _STAMP.search(head) or _STAMP.search(text[-600:]):
        return True
    return bool(_GENERATOR_KEY.search(_front_matter(text)))


def _front_matter(text: str) -> str:
    """The YAML front matter at the top of TEXT (between `---` lines, at most its first 4,000 characters)."""
    if not text.startswith("---"):
        return ""
    end = text.find("\n---", 3, 4000)
    return text[3:end] if end > 0 else ""
