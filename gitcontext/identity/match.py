"""Match the instructions of two versions of a file: each instruction is used at most once."""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from gitcontext.identity.pair import Pair
from gitcontext.instructions.model import Instruction

__all__ = ["Pair", "match"]


def match(old: Sequence[Instruction], new: Sequence[Instruction], matcher: str = "default", *,
          renames: Mapping[str, str] | None = None, force_pairs: Iterable[tuple[int, int]] = (),
          force_new: Collection[int] = ()) -> list[Pair]:
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
    if any(not (0 <= o < len(old) and 0 <= n < len(new)) for o, n in forced) or \
            any(not 0 <= n < len(new) for n in force_new):
        raise ValueError(f"a forced index is out of range: pairs {forced}, new {sorted(force_new)}")
    used_new |= set(force_new)
    rest_old = [o for o in range(len(old)) if o not in used_old]
    rest_new = [n for n in range(len(new)) if n not in used_new]
    found = _run([old[o] for o in rest_old], [new[n] for n in rest_new], matcher, renames)
    pairs = [Pair(rest_old[p.old], rest_new[p.new], p.how, p.similarity) for p in found]
    pairs += [Pair(o, n, "forced", 100.0) for o, n in forced]
    return sorted(pairs, key=lambda p: p.new)


def _run(old: Sequence[Instruction], new: Sequence[Instruction], matcher: str,
         renames: Mapping[str, str] | None) -> list[Pair]:
    if matcher == "paper":
        from gitcontext.identity.paper import match_paper
        return match_paper(old, new)
    from gitcontext.identity.scorer import match_default
    return match_default(old, new, renames=renames)
