"""A model of what Markdown formatters (mdformat, prettier) and tidy-ups do to a context file without
changing a word: re-wrap list items and paragraphs at a width, change bullets, renumber ordered lists,
toggle emphasis delimiters, add or strip trailing spaces.

It works on the segmenter's own line ranges, so it only touches lines that hold instructions, and it
never starts a wrapped line with something a Markdown parser would read as a new block (a marker, a
heading, a quote, a table pipe, a fence), as real formatters do. Like real formatters, the model may leave
a bold span alone on a line; the segmenter finds labels per paragraph, not per line
(instructions/inline.py), so that is no label.

MDFORMAT runs mdformat as a user of a context file with front matter (`.mdc` rules, skills) has to: on
the body, the front matter kept as it is (what the mdformat-frontmatter plugin does). Bare mdformat
reads `---` as a thematic break and rewrites the YAML as Markdown, so the rule file no longer has its
`globs:`; that is a change of content, not of formatting.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gitcontext.instructions.blocks import front_matter_end, split_lines
from gitcontext.instructions.segment import segment

_ITEM = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+)(.*)$")
_BLOCK_START = re.compile(r"^(?:[-*+#>|=<\[@`~_!:]|\d+[.)])")
_CODE = re.compile(r"(`+)[^`]*?\1")
_STRONG = re.compile(r"(?<![\w*_])(\*\*|__)(?=[^\s*_])([^*_\n]+?)(?<=[^\s*_])\1(?![\w*_])")
_EM = re.compile(r"(?<![\w*_])([*_])(?=[^\s*_])([^*_\n]+?)(?<=[^\s*_])\1(?![\w*_])")


class Style(NamedTuple):
    width: int | None = None  # re-wrap instructions at this width (None: keep the lines)
    bullet: str | None = None  # "-", "*" or "+" for every bullet item
    numbering: str | None = None  # "one" (every item 1.) or "count" (1. 2. 3. per run)
    emphasis: str | None = None  # "prettier" (__ -> **, * -> _) or "mdformat" (__ -> **, _ -> *)
    trailing: str | None = None  # "add" two spaces to every instruction line, or "strip"


STYLES = [
    Style(width=40),
    Style(width=60, bullet="-"),
    Style(width=80, numbering="count"),
    Style(width=100, bullet="*", numbering="one", emphasis="mdformat"),
    Style(width=1000),
    Style(bullet="+", trailing="add"),
    Style(emphasis="prettier", trailing="strip"),
    Style(width=72, bullet="-", numbering="count", emphasis="prettier"),
]


MDFORMAT = {"mdformat defaults": {}, "mdformat --wrap 80": {"wrap": 80}, "mdformat --wrap no": {"wrap": "no"}}


def run_mdformat(text: str, options: dict[str, object]) -> str:
    """mdformat with OPTIONS over TEXT's body; front matter kept verbatim (see the module doc)."""
    import mdformat

    head = front_matter_end(split_lines(text))
    if not head:
        return mdformat.text(text, options=options)
    lines = text.split("\n")
    return "\n".join(lines[:head]) + "\n" + mdformat.text("\n".join(lines[head:]), options=options)


def reformat(text: str, name: str, style: Style) -> str:
    lines = text.split("\n")
    out: dict[int, list[str]] = {}  # first line index -> replacement lines
    drop: set[int] = set()
    count, previous = 0, -2
    for group in _groups(segment(text, name)):
        first, last = group[0].line - 1, group[-1].end_line - 1
        raw = lines[first : last + 1]
        if any(line.lstrip().startswith(">") or "\t" in line for line in raw):
            continue  # quotes and tabs are left as they are
        kind = group[0].kind
        head, body = _split_marker(raw[0]) if kind == "item" else (None, raw[0])
        if kind == "item" and head is None:
            continue
        if head is not None:
            indent, marker, gap = head
            run = marker[0].isdigit() and previous == first - 1  # one ordered list: numbered 1, 2, 3
            count = count + 1 if run else 1
            previous = last if marker[0].isdigit() else -2
            marker = _marker(marker, style, count)
            head = (indent, marker, gap)
        words = " ".join([body.strip(), *(line.strip() for line in raw[1:])]).split()
        if style.emphasis:
            words = _emphasis(" ".join(words), style.emphasis).split()
        if head is not None:
            indent, marker, gap = head
            prefix, cont = f"{indent}{marker}{gap}", " " * len(f"{indent}{marker}{gap}")
        else:
            lead = raw[0][: len(raw[0]) - len(raw[0].lstrip())]
            prefix = cont = lead
        new = _wrap(words, prefix, cont, style.width) if style.width else _keep(raw, head, prefix, words, style)
        if style.trailing == "add":
            new = [line + "  " for line in new]
        elif style.trailing == "strip":
            new = [line.rstrip() for line in new]
        out[first] = new
        drop.update(range(first + 1, last + 1))
    result = []
    for k, line in enumerate(lines):
        if k in out:
            result += out[k]
        elif k not in drop:
            result.append(line)
    return "\n".join(result)


def _groups(insts: list) -> list[list]:
    """Instructions that share lines (the sentences of one paragraph) go together; an item is alone."""
    groups: list[list] = []
    for inst in insts:
        if (
            groups
            and inst.kind == "sentence"
            and groups[-1][-1].kind == "sentence"
            and inst.line <= groups[-1][-1].end_line + 1
        ):
            groups[-1].append(inst)
        else:
            groups.append([inst])
    return groups


def _split_marker(line: str) -> tuple[tuple[str, str, str] | None, str]:
    m = _ITEM.match(line)
    return ((m.group(1), m.group(2), m.group(3)), m.group(4)) if m else (None, line)


def _marker(marker: str, style: Style, count: int) -> str:
    if marker[0].isdigit():
        if style.numbering == "one":
            return "1" + marker[-1]
        if style.numbering == "count":
            return str(count) + marker[-1]
        return marker
    return style.bullet or marker


def _emphasis(text: str, tool: str) -> str:
    """Emphasis delimiters as TOOL writes them, outside code spans: strong is `**`; emphasis is `_`
    (prettier) or `*` (mdformat)."""
    em = "_" if tool == "prettier" else "*"
    swap = {"**": "**", "__": "**", "*": em, "_": em}
    parts, last = [], 0
    for m in _CODE.finditer(text):
        parts.append(
            _STRONG.sub(
                lambda e: swap[e.group(1)] + e.group(2) + swap[e.group(1)],
                _EM.sub(lambda e: swap[e.group(1)] + e.group(2) + swap[e.group(1)], text[last : m.start()]),
            )
        )
        parts.append(m.group(0))
        last = m.end()
    tail = text[last:]
    parts.append(
        _STRONG.sub(
            lambda e: swap[e.group(1)] + e.group(2) + swap[e.group(1)],
            _EM.sub(lambda e: swap[e.group(1)] + e.group(2) + swap[e.group(1)], tail),
        )
    )
    return "".join(parts)


def _wrap(words: list[str], prefix: str, cont: str, width: int) -> list[str]:
    """Greedy fill; a word that would start a new block never begins a line. A line may be left holding
    only a bold span, as real formatters leave one."""
    lines, current = [], prefix + words[0] if words else prefix
    for word in words[1:]:
        if len(current) + 1 + len(word) > width and not _BLOCK_START.match(word):
            lines.append(current)
            current = cont + word
        else:
            current += " " + word
    lines.append(current)
    return lines


def _keep(raw: list[str], head: tuple[str, str, str] | None, prefix: str, words: list[str], style: Style) -> list[str]:
    """The original line breaks, with the new marker and (when toggled) emphasis."""
    if style.emphasis:
        return _wrap(words, prefix, " " * len(prefix) if head else prefix, 1 << 30)
    if head is None:
        return list(raw)
    body = _split_marker(raw[0])[1]
    return [prefix + body, *raw[1:]]
