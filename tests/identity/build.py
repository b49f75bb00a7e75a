from __future__ import annotations

from gitcontext.instructions.model import Instruction, normalize


def items(*texts: str, file: str = "CLAUDE.md", headings: tuple[str, ...] = ()) -> list[Instruction]:
    """Instructions as the segmenter would produce them for a flat list of TEXTS."""
    return [Instruction(file, k + 1, k + 1, t, normalize(t), headings, "item", 0, k) for k, t in enumerate(texts)]
