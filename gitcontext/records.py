"""`NamedTuple` for modules on a fresh Python's shortest paths: typing.NamedTuple's class syntax, built on
collections.namedtuple, without importing typing (which brings re, functools and contextlib: 6 ms,
more than `gitcontext.history.replay` and everything else it needs). Type checkers see typing's
(the `TYPE_CHECKING` import at each use), so the fields keep their types there.

    from gitcontext.records import NamedTuple

    class Hunk(NamedTuple):
        start: int
        lines: list[bytes] = []

is `typing.NamedTuple`'s class: a tuple with those fields and defaults, the docstring and the methods
written in the body; `tests/test_records.py` holds the two side by side.
"""

from __future__ import annotations

from collections import namedtuple

_RESERVED = frozenset(
    {
        "__annotations__",
        "__module__",
        "__qualname__",
        "__dict__",
        "__weakref__",
        "__slots__",
        "__new__",
        "__init__",
        "__getnewargs__",
        "_fields",
        "_field_defaults",
        "_make",
        "_replace",
        "_asdict",
        "_source",
    }
)


class _Builder(type):
    def __new__(mcls, name: str, bases: tuple, namespace: dict) -> type:
        if namespace.get("__module__") == __name__ and name == "NamedTuple":
            return super().__new__(mcls, name, bases, namespace)
        fields = list(namespace.get("__annotations__", {}))
        defaults = [namespace[f] for f in fields if f in namespace]
        if any(f not in namespace for f in fields[len(fields) - len(defaults) :]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        cls = namedtuple(name, fields, defaults=defaults, module=namespace.get("__module__"))
        for key, value in namespace.items():
            if key in _RESERVED and key not in ("__annotations__", "__module__", "__qualname__"):
                raise AttributeError(f"{name}: cannot overwrite NamedTuple attribute {key}")
            if key not in fields:
                setattr(cls, key, value)
        return cls


class NamedTuple(metaclass=_Builder):
    """Subclass it as typing.NamedTuple (the class made is a namedtuple, not a subclass of this)."""
