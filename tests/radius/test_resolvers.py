"""Import resolution per language against a set of files (no parsing involved)."""
from __future__ import annotations

from pathlib import Path

from gitcontext.radius.resolvers import Tree, resolver

PY = ["src/app/__init__.py", "src/app/core.py", "src/app/io/__init__.py", "src/app/io/disk.py",
      "src/app/_ext.pyi", "scripts/run.py", "scripts/helper.py", "tests/test_x.py"]


def _py(spec: str, path: str) -> list[str]:
    return resolver("python")(spec, path, Tree("/nonexistent", PY))


def test_resolve_python_src_layout_relative_and_fallbacks() -> None:
    assert _py("import app.core", "tests/test_x.py") == ["src/app/core.py"]
    assert _py("from app.io import disk, missing", "tests/test_x.py") == ["src/app/io/__init__.py",
                                                                          "src/app/io/disk.py"]
    assert _py("from .. import core", "src/app/io/disk.py") == ["src/app/core.py"]
    assert _py("from . import disk", "src/app/io/__init__.py") == ["src/app/io/disk.py"]
    assert _py("import app.io.nothing.deeper", "tests/test_x.py") == ["src/app/io/__init__.py"]
    assert _py("from app.core import \\ thing", "tests/test_x.py") == ["src/app/core.py"]
    assert _py("import helper", "scripts/run.py") == ["scripts/helper.py"]
    assert _py("from app import _ext", "tests/test_x.py") == ["src/app/_ext.pyi"]
    assert _py("import os, json", "tests/test_x.py") == []


def test_resolve_script_index_and_extensions() -> None:
    tree = Tree("/x", ["web/a.ts", "web/lib/index.tsx", "web/b.mjs", "web/c.d.ts"])
    resolve = resolver("script")
    assert resolve("./lib", "web/a.ts", tree) == ["web/lib/index.tsx"]
    assert resolve("./b.mjs", "web/a.ts", tree) == ["web/b.mjs"]
    assert resolve("./c", "web/a.ts", tree) == ["web/c.d.ts"]
    assert resolve("react", "web/a.ts", tree) == [] and resolve("./a", "web/a.ts", tree) == []


def test_resolve_go_nested_modules_pick_the_longest(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "go.mod").write_text("module example.com/root\n")
    (tmp_path / "tools" / "go.mod").write_text("module example.com/root/tools\n")
    tree = Tree(tmp_path, ["go.mod", "tools/go.mod", "tools/x/x.go", "tools/x/x_test.go", "root.go", "x/y.go"])
    resolve = resolver("go")
    assert resolve("example.com/root/tools/x", "a.go", tree) == ["tools/x/x.go"]
    assert resolve("example.com/root/x", "a.go", tree) == ["x/y.go"]
    assert resolve("example.com/root", "x/y.go", tree) == ["root.go"]
    assert resolve("fmt", "a.go", tree) == []


def test_resolve_rust_mod_use_super_and_braces() -> None:
    tree = Tree("/x", ["Cargo.toml", "src/main.rs", "src/net/mod.rs", "src/net/tcp.rs", "src/util.rs"])
    resolve = resolver("rust")
    assert resolve("pub mod net;", "src/main.rs", tree) == ["src/net/mod.rs"]
    assert resolve("mod tcp;", "src/net/mod.rs", tree) == ["src/net/tcp.rs"]
    assert resolve("crate::{util::helper, net::tcp::{Conn, Listener as L}}", "src/net/mod.rs", tree) == \
        ["src/net/tcp.rs", "src/util.rs"]
    assert resolve("super::util", "src/net/mod.rs", tree) == ["src/util.rs"]
    assert resolve("std::io", "src/main.rs", tree) == []


def test_resolve_java_class_static_and_wildcard() -> None:
    tree = Tree("/x", ["m/src/com/a/B.java", "m/src/com/a/C.java", "n/com/a/B.java", "o/x/com/ab/D.java"])
    resolve = resolver("java")
    assert resolve("import com.a.B;", "Z.java", tree) == ["m/src/com/a/B.java", "n/com/a/B.java"]
    assert resolve("import static com.a.C.run;", "Z.java", tree) == ["m/src/com/a/C.java"]
    assert resolve("import com.a.*;", "m/src/com/a/B.java", tree) == ["m/src/com/a/C.java", "n/com/a/B.java"]
    assert resolve("import java.util.List;", "Z.java", tree) == []


def test_resolve_python_absolute_import_inside_a_package_is_not_a_sibling() -> None:
    files = PY + ["src/app/types.py", "scripts/types.py"]
    tree = Tree("/nonexistent", files)
    assert resolver("python")("from types import TracebackType", "src/app/core.py", tree) == []
    assert resolver("python")("from app.types import Thing", "src/app/core.py", tree) == ["src/app/types.py"]
    assert resolver("python")("import types", "scripts/run.py", tree) == ["scripts/types.py"]   # a script's dir
