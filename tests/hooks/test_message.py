"""The commit message as a hook reads it: trailer paragraphs a writer split with several `-m`."""

from __future__ import annotations

import subprocess

from hypothesis import given
from hypothesis import strategies as st

from gitcontext.hooks.message import join_trailer_paragraphs


def test_join_trailer_paragraphs_of_several_m_flags() -> None:
    message = "Fix the build\n\nContext-Why: ctx-aaaaaaaaaaaa: CI broke\n\nContext-Why: ctx-bbbbbbbbbbbb: flaky\n"
    assert join_trailer_paragraphs(message, "#") == (
        "Fix the build\n\nContext-Why: ctx-aaaaaaaaaaaa: CI broke\nContext-Why: ctx-bbbbbbbbbbbb: flaky\n"
    )


def test_join_trailer_paragraphs_keeps_prose_comments_and_other_trailers() -> None:
    prose = "Fix\n\nNote: the old API is gone\n\nSigned-off-by: A <a@b>\n"
    assert join_trailer_paragraphs(prose, "#") == prose  # no Context-* trailer would be lost
    one = "Fix\n\nbody text\n\nContext-Why: CI broke\n"
    assert join_trailer_paragraphs(one, "#") == one
    commented = "Fix\n\nContext-Why: a\n\nSigned-off-by: b\n\n# Please enter the commit message\n"
    assert (
        join_trailer_paragraphs(commented, "#") == "Fix\n\nContext-Why: a\nSigned-off-by: b\n\n"
        "# Please enter the commit message\n"
    )


def test_join_trailer_paragraphs_git_then_reads_every_trailer(tmp_path) -> None:
    message = join_trailer_paragraphs("Fix\n\nbody\n\nContext-Why: a\n\nContext-Why: b\n\nSigned-off-by: c\n", "#")
    out = subprocess.run(
        ["git", "interpret-trailers", "--parse"],
        input=message,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    ).stdout
    assert out.splitlines() == ["Context-Why: a", "Context-Why: b", "Signed-off-by: c"]


@given(
    st.lists(
        st.sampled_from(["Fix it", "", "Context-Why: x", "Signed-off-by: y", "prose line", "# comment"]), max_size=12
    )
)
def test_join_trailer_paragraphs_loses_no_line(lines: list[str]) -> None:
    message = "\n".join(lines) + "\n"
    joined = join_trailer_paragraphs(message, "#")
    assert [l for l in joined.splitlines() if l.strip()] == [l for l in message.splitlines() if l.strip()]
