"""gitcontext.lazyre.lazy is re.compile, done at the pattern's first use."""

from __future__ import annotations

import re
import subprocess
import sys

from gitcontext.lazyre import lazy


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    source, text = r"(?P<key>[a-z]+)=(\d+)", "a=1, bb=22; c=x"
    later, now = lazy(source), re.compile(source)
    assert [m.groups() for m in later.finditer(text)] == [m.groups() for m in now.finditer(text)]
    assert later.sub(r"\2", text) == now.sub(r"\2", text)
    assert later.split(text) == now.split(text)
    assert later.match(text).span() == now.match(text).span()
    assert later.search("zz x=9").group("key") == "x"
    assert later.fullmatch("q=5") and not later.fullmatch("q=5!")
    assert (later.pattern, later.flags, later.groups, later.groupindex) == (
        now.pattern,
        now.flags,
        now.groups,
        now.groupindex,
    )


def test_flags_and_bytes_patterns() -> None:
    assert lazy(r"^ab$", re.I | re.M).findall("AB\nx\nab") == ["AB", "ab"]
    assert lazy(rb"\0(\w+)").findall(b"\0one\0two") == [b"one", b"two"]


def test_nothing_is_compiled_before_the_first_use() -> None:
    probe = (
        "import re, sys\nfrom gitcontext.lazyre import lazy\nseen = []\noriginal = re.compile\n"
        "re.compile = lambda *a: seen.append(a) or original(*a)\n"
        "p = lazy('x+')\nprint(len(seen))\np.match('xx'); p.search('x'); p.sub('', 'x')\nprint(len(seen))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1"]
