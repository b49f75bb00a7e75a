"""Score a matcher against hand-labelled rewordings (the format of shared/labels/*.jsonl)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from gitcontext.identity.formatting import same_text
from gitcontext.identity.match import Pair
from gitcontext.instructions.model import Instruction
from gitcontext.instructions.segment import segment

# (old, new) -> pairs; called with `renames=` too when a transition has renames (Callable cannot say an
# optional keyword: match and scorer.match_default take it)
Matcher = Callable[..., list[Pair]]
_MARKER = re.compile(r"^\s*([-*+]|\d+[.)])\s+")
_SPACE = re.compile(r"\s+")


class Transition(NamedTuple):
    id: str
    old: list[Instruction]
    new: list[Instruction]
    gold: frozenset[tuple[str, str]]
    renames: dict[str, str] = {}  # git's file renames in this change (old path -> new path)


class Score(NamedTuple):
    tp: list[tuple[str, str, str]]  # (transition id, old text, new text)
    fp: list[tuple[str, str, str]]
    fn: list[tuple[str, str, str]]

    @property
    def precision(self) -> float:
        return len(self.tp) / max(1, len(self.tp) + len(self.fp))

    @property
    def recall(self) -> float:
        return len(self.tp) / max(1, len(self.tp) + len(self.fn))

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def label_norm(text: str) -> str:
    """The labels' normalisation: strip a list marker, fold whitespace, trim."""
    return _SPACE.sub(" ", _MARKER.sub("", text, count=1)).strip()


def load(path: Path) -> list[Transition]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        name = row.get("file", "CLAUDE.md")
        gold = frozenset((label_norm(a), label_norm(b)) for a, b in row["reworded"])
        out.append(
            Transition(
                row["id"], segment(row["old"], name), segment(row["new"], name), gold, dict(row.get("renames", {}))
            )
        )
    return out


def load_case(folder: Path, name: str = "AGENTS.md") -> Transition:
    """A golden case folder: old.md, new.md and expected.json ({"reworded": [[old, new], ...]}, and
    optionally "renames": {old path: new path}, the file renames git detects in that change)."""
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    gold = frozenset((label_norm(a), label_norm(b)) for a, b in expected["reworded"])
    old = segment((folder / "old.md").read_text(encoding="utf-8"), name)
    new = segment((folder / "new.md").read_text(encoding="utf-8"), name)
    return Transition(folder.name, old, new, gold, dict(expected.get("renames", {})))


def evaluate(matcher: Matcher, transitions: Iterable[Transition]) -> Score:
    """Micro-averaged: predicted rewordings are matched pairs whose normalised texts differ in their words
    (formatting.same_text: a re-wrap, a bullet, emphasis or backtick change is not a rewording, on either
    side of the comparison, so a gold pair that only adds backticks is not counted)."""
    tp, fp, fn = [], [], []
    for t in transitions:
        predicted = set()
        for p in matcher(t.old, t.new, renames=t.renames) if t.renames else matcher(t.old, t.new):
            pair = (label_norm(t.old[p.old].text), label_norm(t.new[p.new].text))
            if not same_text(*pair):
                predicted.add(pair)
        gold = {pair for pair in t.gold if not same_text(*pair)}
        tp += [(t.id, *pair) for pair in sorted(predicted & gold)]
        fp += [(t.id, *pair) for pair in sorted(predicted - gold)]
        fn += [(t.id, *pair) for pair in sorted(gold - predicted)]
    return Score(tp, fp, fn)
