"""gitcontext.records.NamedTuple is typing.NamedTuple's class, made without importing typing."""

from __future__ import annotations

import pickle
import subprocess
import sys
import typing

import pytest

from gitcontext import records


def _pair(base):
    class Hunk(base):
        """A hunk."""

        start: int
        length: int = 0
        lines: tuple = ()

        def end(self) -> int:
            return self.start + self.length

        @classmethod
        def empty(cls) -> Hunk:
            return cls(0)

    return Hunk


OURS, THEIRS = _pair(records.NamedTuple), _pair(typing.NamedTuple)


def test_fields_defaults_methods_and_docstring_match_typing():
    for attr in ("_fields", "_field_defaults", "__doc__", "__name__"):
        assert getattr(OURS, attr) == getattr(THEIRS, attr)
    a, b = OURS(3, 2, ("x",)), THEIRS(3, 2, ("x",))
    assert a == b == (3, 2, ("x",)) and hash(a) == hash(b)
    assert repr(a) == repr(b) and a._asdict() == b._asdict()
    assert a._replace(length=5) == b._replace(length=5) and type(a._replace(length=5)) is OURS
    assert a.end() == b.end() == 5 and OURS.empty() == THEIRS.empty() == (0, 0, ())
    assert OURS(start=1).lines == () and issubclass(OURS, tuple) and OURS.__slots__ == ()
    assert typing.get_type_hints(OURS) == typing.get_type_hints(THEIRS) == {"start": int, "length": int, "lines": tuple}
    assert OURS.__module__ == __name__
    with pytest.raises(TypeError):
        OURS()


def test_records_pickle_as_namedtuples():
    hunk = Hunk(1, 2)
    assert pickle.loads(pickle.dumps(hunk)) == hunk


class Hunk(records.NamedTuple):  # module level, so pickle can find it by name
    start: int
    length: int = 0


def test_a_field_without_default_after_one_with_is_refused_as_typing_refuses():
    with pytest.raises(TypeError):

        class Bad(records.NamedTuple):
            a: int = 0
            b: int

    with pytest.raises(AttributeError):

        class Worse(records.NamedTuple):
            a: int

            def _replace(self):
                return self


def test_file_versions_in_a_fresh_python_imports_no_typing_enum_re_or_pathlib(tmp_path):
    from tests.helpers import commit, git

    git(tmp_path, "init", "-q", "-b", "main")
    commit(tmp_path, {"CLAUDE.md": "- a rule\n"}, "rules")
    probe = (
        "import sys\nbare = set(sys.modules)\nfrom gitcontext.history.replay import file_versions\n"
        "import gitcontext.git.process  # what a first git call loads\n"
        "print(sorted(m for m in ('typing', 'enum', 're', 'pathlib', 'json', 'subprocess') "
        "if m in set(sys.modules) - bare))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
