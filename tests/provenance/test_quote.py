"""cut/paste on real context files: removing any instruction and pasting its quote gives the same bytes."""
from __future__ import annotations

import pytest

from gitcontext.instructions.segment import segment
from gitcontext.provenance.quote import cut, paste
from tests.helpers import corpus_events

NAMES = ["astral-sh__ruff", "charmbracelet__crush", "github__spec-kit", "oxc-project__oxc", "vercel__ai"]


def _final_texts(name: str) -> dict[str, str]:
    last: dict[str, str] = {}
    for event in corpus_events(name):
        if event["content"] is not None and not event.get("symlink_target"):
            last[event["path"]] = event["content"]
        else:
            last.pop(event["path"], None)
    return last


@pytest.mark.parametrize("name", NAMES)
def test_cut_then_paste_is_byte_exact_for_every_instruction(name):
    checked = 0
    for path, text in _final_texts(name).items():
        items = segment(text, path)
        for inst in items:
            others = [o for o in items if o.index != inst.index]
            remaining, quote = cut(text, inst, others)
            assert inst.text not in [i.text for i in segment(remaining, path)] or \
                sum(i.text == inst.text for i in items) > 1, (path, inst.line)
            restored, how = paste(remaining, quote)
            assert (restored, how) == (text, "exact"), (path, inst.line, inst.text)
            checked += 1
    assert checked > 20


def test_paste_in_line_sentence_becomes_its_own_line_under_heading():
    text = "# A\n\nNever push. Always open a PR.\n\n# B\n\n- Other rule here.\n"
    items = segment(text)
    remaining, quote = cut(text, items[1], [items[0], items[2]])
    assert remaining == "# A\n\nNever push.\n\n# B\n\n- Other rule here.\n"
    moved = "# B\n\n- Other rule here.\n\n# A\n\nNever push at all.\n"
    restored, how = paste(moved, quote)
    assert how == "heading"
    assert restored == "# B\n\n- Other rule here.\n\n# A\n\nNever push at all.\nAlways open a PR.\n"
