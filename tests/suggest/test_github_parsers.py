"""The GitHub reader's parsers: a remote URL's repository, the issues a body closes, a text as it is kept."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.suggest.github_reader import MAX_TEXT, bounded, closing_issues, repository_of

_name = st.text("abcXYZ019_.-", min_size=1, max_size=12).filter(lambda n: n not in (".", "..") and ".git" not in n)
_number = st.integers(1, 10**6).map(str)
REPO = "octo/repo"


@given(_name, _name, st.sampled_from(["https://github.com/{}/{}", "git@github.com:{}/{}", "ssh://git@github.com:22/{}/{}"]),
       st.sampled_from(["", ".git", "/"]))  # fmt: skip
def test_repository_of_every_remote_shape(owner: str, name: str, shape: str, tail: str) -> None:
    assert repository_of(shape.format(owner, name) + tail) == f"{owner}/{name}"


def test_repository_of_another_host_or_no_url() -> None:
    assert repository_of("https://gitlab.com/octo/repo.git") is None
    assert repository_of("") is None and repository_of("/srv/git/repo.git") is None
    assert repository_of("https://ghe.example.com/octo/repo", "https://ghe.example.com") == "octo/repo"


_ref = st.one_of(
    st.tuples(st.just("mine"), st.sampled_from(["Fixes #{}", "closes octo/repo#{}", "Resolved: #{}",
                                                 "fix https://github.com/octo/repo/issues/{}"]), _number),
    st.tuples(st.just("theirs"), st.sampled_from(["Fixes other/repo#{}", "closes https://github.com/other/repo/issues/{}",
                                                   "see #{}", "Fixes https://evil.example/octo/repo/issues/{}"]), _number),
)  # fmt: skip


@given(st.lists(_ref, max_size=6), st.text(" \nabc.", max_size=10))
def test_closing_issues_only_this_repositorys_in_order(refs: list, filler: str) -> None:
    body = filler.join(f" {shape.format(n)}." for _, shape, n in refs)
    wanted = list(dict.fromkeys(n for whose, _, n in refs if whose == "mine"))
    assert closing_issues(body, REPO) == wanted


def test_closing_issues_is_linear_on_hostile_text() -> None:
    hostile = "fixes " + "a/" * 50_000 + "fixes https://" + "a." * 50_000
    started = time.process_time()
    assert closing_issues(hostile, REPO) == []
    assert time.process_time() - started < 2


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=3 * MAX_TEXT // 1000).map(lambda t: t * 1000))
def test_bounded_is_cut_and_redacted(text: str) -> None:
    token = "ghp_" + "D" * 36
    kept = bounded(text + " " + token)
    assert len(kept) <= MAX_TEXT and token not in kept
    assert bounded(None) == "" and bounded(12) == ""
