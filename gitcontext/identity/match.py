"""Match the instructions of two versions of a file: each instruction is used at most once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from gitcontext.identity.pair import Pair
from gitcontext.instructions.model import Instruction

if TYPE_CHECKING:
    from gitcontext.identity.words import Vocabulary

__all__ = ["Pair", "match", "match_changed"]
_TEXT = attrgetter("text")


def match(
    old: Sequence[Instruction],
    new: Sequence[Instruction],
    matcher: str = "default",
    *,
    renames: Mapping[str, str] | None = None,
    force_pairs: Iterable[tuple[int, int]] = (),
    force_new: Collection[int] = (),
) -> list[Pair]:
    """Pairs of (old, new) that are the same instruction, sorted by new index.

    RENAMES (old path -> new path: git's rename detection for this change) tells the default matcher
    what was renamed. FORCE_PAIRS (old index, new index) are the same instruction whatever the matcher
    thinks (`Context-Id: <old-id> reworded`), FORCE_NEW new indices are births (`Context-Id: <id>
    added`); the matcher pairs the rest. An index out of range or used twice is a ValueError.
    """
    forced = list(force_pairs)
    if not forced and not force_new:
        return _run(old, new, matcher, renames)
    used_old, used_new = {o for o, _ in forced}, {n for _, n in forced}
    if len(used_old) < len(forced) or len(used_new) < len(forced) or used_new & set(force_new):
        raise ValueError(f"an instruction is forced twice: pairs {forced}, new {sorted(force_new)}")
    if any(not (0 <= o < len(old) and 0 <= n < len(new)) for o, n in forced) or any(
        not 0 <= n < len(new) for n in force_new
    ):
        raise ValueError(f"a forced index is out of range: pairs {forced}, new {sorted(force_new)}")
    used_new |= set(force_new)
    rest_old = [o for o in range(len(old)) if o not in used_old]
    rest_new = [n for n in range(len(new)) if n not in used_new]
    found = _run([old[o] for o in rest_old], [new[n] for n in rest_new], matcher, renames)
    pairs = [Pair(rest_old[p.old], rest_new[p.new], p.how, p.similarity) for p in found]
    pairs += [Pair(o, n, "forced", 100.0) for o, n in forced]
    return sorted(pairs, key=lambda p: p.new)


def _run(
    old: Sequence[Instruction], new: Sequence[Instruction], matcher: str, renames: Mapping[str, str] | None
) -> list[Pair]:
    if matcher == "paper":
        from gitcontext.identity.paper import match_paper

        return match_paper(old, new)
    from gitcontext.identity.exact import same_text

    pairs, left_old, left_new = same_text(old, new)
    if not (left_old and left_new):  # what match_default returns, without importing the scorer
        return sorted(pairs, key=lambda p: p.new)
    from gitcontext.identity.scorer import match_default

    return match_default(old, new, renames=renames)


def match_changed(
    old: Sequence[Instruction],
    new: Sequence[Instruction],
    head: int,
    tail: int,
    matcher: str = "default",
    vocabulary: Vocabulary | None = None,
) -> list[Pair] | None:
    """`match(old, new, matcher)` in proportion to the change, for a caller that keeps the unchanged
    ends: the first HEAD and the last TAIL instructions of OLD and NEW have the same texts, pair in
    place ("exact", 100), and are not returned; the pairs of the stretch between them are, indexed in
    OLD and NEW. VOCABULARY (words.Vocabulary of OLD's instructions, or of at least those it shares
    with NEW) gives the default matcher its word weights over both whole files; without it they are
    counted over OLD and NEW. None when the whole-file match could pair otherwise: a text of the
    unchanged tail occurs a different number of times in the two stretches (the exact stage pairs
    equal texts in file order, so a tail rule would pair with a changed one) -- then call `match`.
    With those ends kept, `match` pairs every unchanged instruction in place (`tests/identity/
    test_changed.py` checks the equality under hypothesis and on every corpus transition)."""
    stop_old, stop_new = len(old) - tail, len(new) - tail
    if head < 0 or tail < 0 or head > stop_old or head > stop_new:
        raise ValueError(f"unchanged ends {head}, {tail} overlap in {len(old)} and {len(new)} instructions")
    old_mid, new_mid = old[head:stop_old], new[head:stop_new]
    counts = Counter(map(_TEXT, old_mid))
    counts.subtract(map(_TEXT, new_mid))
    uneven = {text for text, n in counts.items() if n}
    if uneven and not uneven.isdisjoint(map(_TEXT, old[stop_old:])):  # a scan at C speed
        return None
    if matcher == "paper":
        from gitcontext.identity.paper import match_paper

        found = match_paper(old_mid, new_mid)
    else:
        from gitcontext.identity.scorer import match_default
        from gitcontext.identity.words import Vocabulary

        if vocabulary is None:
            from gitcontext.identity.profile import profile

            vocabulary = Vocabulary(p.words for p in map(profile, (*old[:head], *old[stop_old:])))
        found = match_default(old_mid, new_mid, vocabulary=vocabulary)
    return [Pair(p.old + head, p.new + head, p.how, p.similarity) for p in found]
