"""Context files from a pull request: no input hangs segmentation or escapes the work tree unreported."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from gitcontext import config as config_mod
from gitcontext.errors import UserError
from gitcontext.instructions.discover import decode, discover, link_problems
from gitcontext.instructions.frontmatter import front_matter
from gitcontext.instructions.segment import segment
from tests.helpers import commit, write


@pytest.mark.parametrize("n", [1000, 2000, 20000])
def test_segment_runs_of_backticks_are_linear(n):
    text = f"- Run {'`' * n} before pushing. Then stop.\n- Another `code. span` here.\n"
    found = segment(text)
    assert [i.kind for i in found] == ["item", "item"]


def test_ls_on_a_file_of_backticks_returns(repo):
    commit(repo, {"CLAUDE.md": "# Rules\n\n" + "`" * 2000 + " now. Then stop.\n"})
    done = subprocess.run([sys.executable, "-m", "gitcontext", "ls"], cwd=repo, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_front_matter_alias_bomb_is_read_as_plain_pairs():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(9)
    )
    meta = front_matter(f"---\n{bomb}globs: src/**\n---\n- Rule one here.\n")
    assert meta["globs"] == "src/**"


@pytest.mark.parametrize("data", ["- Rule one.\n".encode("utf-16"), "- Rule one.\n".encode("utf-16-le")])
def test_decode_names_utf16_and_the_conversion(data):
    with pytest.raises(UserError, match="UTF-16") as info:
        decode("CLAUDE.md", data)
    assert "iconv -f UTF-16 -t UTF-8" in str(info.value)


def test_symlinked_context_files_out_of_the_repository_or_looping_are_reported(repo, tmp_path):
    outside = tmp_path / "elsewhere.md"
    outside.write_text("- A rule from outside.\n")
    write(repo, "AGENTS.md", "- Real rule here.\n")
    os.symlink(outside, repo / "CLAUDE.md")
    os.symlink("GEMINI.md", repo / "GEMINI.md")  # a loop
    config = config_mod.load(repo)
    assert discover(repo, config) == ["AGENTS.md"]
    problems = dict(link_problems(repo, config))
    assert "symlink out of the repository" in problems["CLAUDE.md"]
    assert "loop" in problems["GEMINI.md"]


@pytest.mark.parametrize("n", [1000, 20000, 100000])
def test_segment_inline_payload_is_linear(n):
    """Imports, tags, labels and alerts are found by token within a block (instructions/inline.py):
    long runs of near-misses must not backtrack (an import-like run of dots once took O(n^2))."""
    near_misses = [
        "@" + "a." * n + "!",
        "text " + "<a " * n,
        "</x> " * n + "end",
        "**" + "a" * n,
        "[!" + "A" * n,
        "<x> " * n + "end\n</x>",
    ]
    for text in near_misses:
        segment(f"- First item here.\n\n{text}\n")
