"""Anchors: the literal things a rule names (code spans, paths, file names, flags, numbers with units).

Two texts that name different anchors are different rules even when the words around them agree
("Flash with `make flash`" vs "Erase with `make erase`"); a rewording keeps or extends its anchors, or
renames one while keeping its distinctive part, its *name* (`@acme/cli` -> `@internal/cli`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from gitcontext.identity.renames import apply
from gitcontext.identity.words import fold

_CODE = re.compile(r"`+([^`]+?)`+")
_BARE = re.compile(
    r"""(?<![\w`])(
      --?[a-zA-Z][\w-]+                     # flags
    | [\w.@~-]*/[\w./@<>*~-]*               # paths
    | [\w-]{2,}\.(?:[a-zA-Z]{1,5})\b(?!\.\w) # file names such as README.md
    | \d+(?:\.\d+)?(?:\s?(?:%|[kKMGT]?i?[bB]\b|[kMG]?Hz\b|[mµn]?s\b|px\b|fps\b)|x\d+) # measures
)""",
    re.X,
)
_EXTENSION = re.compile(r"(?<=[^.])\.[a-zA-Z]\w{0,4}$")
_NOT_LETTER = re.compile(r"[^a-z]+")
_IDENTIFIER = re.compile(r"^@[A-Za-z]|[a-z][A-Z]|/[^/]+/.")  # @Sigil, camelCase, a path two levels deep


def raw_anchors(text: str) -> list[str]:
    """Anchors of TEXT as written: code spans first, then bare paths, file names, flags and measures."""
    found = [m.group(1) for m in _CODE.finditer(text)]
    rest = _CODE.sub(" ", text)
    return found + [m.group(1).rstrip(".,;:") for m in _BARE.finditer(rest)]


def anchors(text: str) -> frozenset[str]:
    """Folded anchors of TEXT: code spans first, then bare paths, file names, flags and measures."""
    return frozenset(f for f in (fold(a) for a in raw_anchors(text)) if f)


def names(text: str, raw_found: list[str] | None = None) -> dict[str, str]:
    """Folded anchor -> its name (see name) for the anchors of TEXT (RAW_FOUND: its raw_anchors, when
    the caller has them) that have one."""
    out: dict[str, str] = {}
    for raw in raw_anchors(text) if raw_found is None else raw_found:
        key, value = fold(raw), name(raw)
        if key and value:
            out[key] = min(out.get(key, value), value)  # one answer whatever order the text has
    return out


def name(raw: str) -> str:
    """The distinctive part of one anchor: the last path segment without its extension, letters only
    (`@acme/cli` -> cli, `blog/authors.yml` -> authors, `python3.12` -> python). A renamed anchor keeps
    it; a different one changes it. A command (words with spaces) or a bare number has none."""
    raw = raw.strip().rstrip("/.,;:")
    if not raw or any(c.isspace() for c in raw):
        return ""
    last = raw.rsplit("/", 1)[-1]
    return _NOT_LETTER.sub("", _EXTENSION.sub("", last).casefold())


def specific(raw: str) -> bool:
    """An anchor that names one precise thing rather than a word or a common file: a code identifier
    (`@Overwrite`, `LocationService`) or a path at least two levels deep (`assets/mod/lang/en_us.json`)."""
    return bool(_IDENTIFIER.search(raw.strip().rstrip("/.,;:")))


def strip_anchors(text: str) -> str:
    """TEXT without its code spans and bare anchors: the prose around what the rule names."""
    return _BARE.sub(" ", _CODE.sub(" ", text))


def survives(
    anchor: str,
    other_anchors: frozenset[str],
    other_text: str,
    own_name: str = "",
    other_names: frozenset[str] = frozenset(),
    subs: Iterable[tuple[tuple[str, ...], tuple[str, ...]]] = (),
) -> bool:
    """An anchor survives a rewording if the other side mentions it, names an anchor that extends it or
    that it extends (`pytest -m slow` ~ `pytest -n auto -m slow`: one's words in order in the other),
    names an anchor with the same name (OWN_NAME in OTHER_NAMES: a rename), or names it renamed by one
    of SUBS (renames.apply: a substitution this transition applies to several rules, or git's)."""
    if f" {anchor} " in f" {other_text} ":
        return True
    if own_name and own_name in other_names:
        return True
    words = anchor.split()
    if len(words) > 1 and any("".join(words) == "".join(o.split()) for o in other_anchors):
        return True  # `SwiftLint` (swift lint) is `swiftlint`
    if any(_within(words, o.split()) or _within(o.split(), words) for o in other_anchors):
        return True
    if subs:
        return any(r in other_anchors or f" {r} " in f" {other_text} " for r in apply(anchor, subs))
    return False


def extends(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One anchor, as words split at spaces, is the other with words appended: the same command given
    more arguments (`cargo test` / `cargo test --workspace`, `npm ci` / `npm ci --ignore-scripts`). A
    word put in front (`yarn test` / `cd pkg && yarn test`) or a different word (`yarn test` /
    `yarn test:unit`) is not an extension of what the other names."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return bool(short) and len(short) < len(long) and long[: len(short)] == short


def _within(short: list[str], long: list[str]) -> bool:
    """SHORT's words appear in LONG in the same order (not necessarily adjacent)."""
    rest = iter(long)
    return all(word in rest for word in short)


def replaced(
    a_anchors: frozenset[str],
    a_folded: str,
    b_anchors: frozenset[str],
    b_folded: str,
    a_names: Mapping[str, str] | None = None,
    b_names: Mapping[str, str] | None = None,
    subs: Iterable[tuple[tuple[str, ...], tuple[str, ...]]] = (),
) -> float:
    """How much each side names what the other does not: the smaller of the two sides' shares of lost
    anchors. 1.0 is a clean swap (`make flash` vs `make erase`), the signature of a deleted rule and a
    different added one; 0 when only one side lost or gained anchors (adding backticks, an example or a
    flag is a rewording) or when every swapped anchor kept its name (A_NAMES, B_NAMES: a rename); in
    between when a rule swaps one of several things it names.
    """
    if not a_anchors or not b_anchors:
        return 0.0
    a_names, b_names = a_names or {}, b_names or {}
    a_set, b_set = frozenset(a_names.values()), frozenset(b_names.values())
    subs = tuple(subs)
    lost_a = sum(not survives(x, b_anchors, b_folded, a_names.get(x, ""), b_set, subs) for x in a_anchors)
    lost_b = sum(not survives(x, a_anchors, a_folded, b_names.get(x, ""), a_set, subs) for x in b_anchors)
    return min(lost_a / len(a_anchors), lost_b / len(b_anchors))
