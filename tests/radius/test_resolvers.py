"""Import resolution per language against a set of files (no parsing involved)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.radius.resolvers import EXTERNAL, Tree, manifests, resolver

PY = [
    "src/app/__init__.py",
    "src/app/core.py",
    "src/app/io/__init__.py",
    "src/app/io/disk.py",
    "src/app/_ext.pyi",
    "scripts/run.py",
    "scripts/helper.py",
    "tests/test_x.py",
]


def _py(spec: str, path: str) -> list[str] | str:
    return resolver("python")(spec, path, Tree("/nonexistent", PY))


def _tree(tmp_path: Path, files: dict[str, str]) -> Tree:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return Tree(tmp_path, files)


def test_resolve_python_src_layout_relative_and_fallbacks() -> None:
    assert _py("import app.core", "tests/test_x.py") == ["src/app/core.py"]
    assert _py("from app.io import disk, missing", "tests/test_x.py") == [
        "src/app/io/__init__.py",
        "src/app/io/disk.py",
    ]
    assert _py("from .. import core", "src/app/io/disk.py") == ["src/app/core.py"]
    assert _py("from . import disk", "src/app/io/__init__.py") == ["src/app/io/disk.py"]
    assert _py("import app.io.nothing.deeper", "tests/test_x.py") == ["src/app/io/__init__.py"]
    assert _py("from app.core import \\ thing", "tests/test_x.py") == ["src/app/core.py"]
    assert _py("import helper", "scripts/run.py") == ["scripts/helper.py"]
    assert _py("from app import _ext", "tests/test_x.py") == ["src/app/_ext.pyi"]
    assert _py("import os, json", "tests/test_x.py") == EXTERNAL
    assert _py("from .gone import x", "src/app/core.py") == "relative import not found"


def test_resolve_python_namespace_packages_across_distributions(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.uv.workspace]\nmembers = ["libs/*"]\n',
            "libs/api/pyproject.toml": "[project]\nname = 'acme-api'\n",
            "libs/api/src/acme/api/__init__.py": "",
            "libs/api/src/acme/api/trace.py": "",
            "libs/sdk/pyproject.toml": '[tool.setuptools.packages.find]\nwhere = ["lib"]\n',
            "libs/sdk/lib/acme/sdk/__init__.py": "",
            "tools/hatch/pyproject.toml": '[tool.hatch.build.targets.wheel]\npackages = ["code/acme"]\n',
            "tools/hatch/code/acme/tool.py": "",
            "libs/api/src/acme/context.py": "",
        },
    )
    resolve = resolver("python")
    assert resolve("from acme.api import trace", "libs/sdk/lib/acme/sdk/__init__.py", tree) == [
        "libs/api/src/acme/api/trace.py"
    ]
    assert resolve("import acme.sdk", "tools/hatch/code/acme/tool.py", tree) == ["libs/sdk/lib/acme/sdk/__init__.py"]
    assert resolve("from acme import tool", "libs/api/src/acme/api/trace.py", tree) == ["tools/hatch/code/acme/tool.py"]
    # a namespace portion's folder is not a script folder: `import context` is not acme/context.py
    assert resolve("import context", "libs/api/src/acme/context.py", tree) == EXTERNAL
    assert resolve("from acme.other import x", "libs/api/src/acme/context.py", tree) == EXTERNAL  # another portion


def test_resolve_python_configured_root_and_malformed_pyproject(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"pyproject.toml": "[tool.setuptools\nbroken", "code/lib/mod.py": "", "run.py": ""})
    assert resolver("python")("import mod", "run.py", tree) == EXTERNAL
    assert "pyproject.toml" in tree.errors and "TOML" in tree.errors["pyproject.toml"]
    tree = Tree(tmp_path, ["code/lib/mod.py", "run.py"], roots=["code/lib"])
    assert resolver("python")("import mod", "run.py", tree) == ["code/lib/mod.py"]


def test_resolve_script_index_and_extensions() -> None:
    tree = Tree("/x", ["web/a.ts", "web/lib/index.tsx", "web/b.mjs", "web/c.d.ts"])
    resolve = resolver("script")
    assert resolve("./lib", "web/a.ts", tree) == ["web/lib/index.tsx"]
    assert resolve("./b.mjs", "web/a.ts", tree) == ["web/b.mjs"]
    assert resolve("./c", "web/a.ts", tree) == ["web/c.d.ts"]
    assert resolve("react", "web/a.ts", tree) == EXTERNAL and resolve("./a", "web/a.ts", tree) == []
    assert resolve("./gone", "web/a.ts", tree) == "relative import not found"


def test_resolve_script_tsconfig_paths_with_extends(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "tsconfig.base.json": '{ // comments and trailing commas are JSONC\n "compilerOptions": {"baseUrl": ".",'
            ' "paths": {"@core/*": ["packages/core/src/*"], "@core": ["packages/core/src"],'
            ' "~/*": ["missing/*", "app/*"],},},}',
            "app/tsconfig.json": '{"extends": "../tsconfig.base.json"}',
            "packages/core/src/index.ts": "",
            "packages/core/src/util/str.ts": "",
            "app/main.ts": "",
            "app/feature.ts": "",
            "lib/shared.ts": "",
        },
    )
    resolve = resolver("script")
    assert resolve("@core/util/str", "app/main.ts", tree) == ["packages/core/src/util/str.ts"]
    assert resolve("@core", "app/main.ts", tree) == ["packages/core/src/index.ts"]
    assert resolve("~/feature", "app/main.ts", tree) == ["app/feature.ts"]
    assert resolve("lib/shared", "app/main.ts", tree) == ["lib/shared.ts"]  # baseUrl
    assert resolve("@core/nothing", "app/main.ts", tree) == "path alias target not found"


def test_resolve_script_workspace_packages_and_exports(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "package.json": '{"workspaces": {"packages": ["packages/*"]}}',
            "pnpm-workspace.yaml": "packages:\n  - 'tools/*'\n",
            "packages/ui/package.json": '{"name": "@acme/ui", "exports": {".": {"types": "./dist/index.d.ts",'
            ' "import": "./dist/index.js"}, "./button": "./src/button.tsx",'
            ' "./icons/*": "./src/icons/*.ts"}}',
            "packages/ui/src/index.ts": "",
            "packages/ui/src/button.tsx": "",
            "packages/ui/src/icons/add.ts": "",
            "tools/cli/package.json": '{"name": "cli", "main": "lib/main.js", "imports": {"#cfg": "./lib/cfg.js"}}',
            "tools/cli/lib/main.js": "",
            "tools/cli/lib/cfg.js": "",
            "app/page.tsx": "",
        },
    )
    resolve = resolver("script")
    assert resolve("@acme/ui", "app/page.tsx", tree) == ["packages/ui/src/index.ts"]  # dist -> src
    assert resolve("@acme/ui/button", "app/page.tsx", tree) == ["packages/ui/src/button.tsx"]
    assert resolve("@acme/ui/icons/add", "app/page.tsx", tree) == ["packages/ui/src/icons/add.ts"]
    assert resolve("cli", "app/page.tsx", tree) == ["tools/cli/lib/main.js"]
    assert resolve("#cfg", "tools/cli/lib/main.js", tree) == ["tools/cli/lib/cfg.js"]
    assert resolve("@acme/ui/nope", "app/page.tsx", tree) == "workspace package entry not found"


def test_resolve_script_malformed_tsconfig_is_an_error_not_a_crash(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"tsconfig.json": '{"compilerOptions": {"paths": ', "a.ts": "", "b.ts": ""})
    assert resolver("script")("./b", "a.ts", tree) == ["b.ts"]
    assert resolver("script")("@x/y", "a.ts", tree) == EXTERNAL
    assert tree.errors["tsconfig.json"].startswith("not JSON: line 1")


def test_resolve_go_nested_modules_pick_the_longest(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "go.mod").write_text("module example.com/root\n")
    (tmp_path / "tools" / "go.mod").write_text("module example.com/root/tools\n")
    tree = Tree(tmp_path, ["go.mod", "tools/go.mod", "tools/x/x.go", "tools/x/x_test.go", "root.go", "x/y.go"])
    resolve = resolver("go")
    assert resolve("example.com/root/tools/x", "a.go", tree) == ["tools/x/x.go"]
    assert resolve("example.com/root/x", "a.go", tree) == ["x/y.go"]
    assert resolve("example.com/root", "x/y.go", tree) == ["root.go"]
    assert resolve("fmt", "a.go", tree) == EXTERNAL
    assert resolve("example.com/root/none", "a.go", tree) == "package directory not found"


def test_resolve_go_replace_and_work(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "svc/go.mod": "module example.com/svc\n\nrequire (\n\tgithub.com/acme/lib v1.2.0 // indirect\n)\n"
            "replace github.com/acme/lib => ../forks/lib\nreplace github.com/x/y v1.0.0 => github.com/z/y v1.1.0\n",
            "forks/lib/go.mod": "module github.com/acme/lib\n",
            "forks/lib/text/text.go": "",
            "svc/main.go": "",
            "go.work": "go 1.22\n\nuse (\n\t./svc\n\t./forks/lib\n)\n",
        },
    )
    resolve = resolver("go")
    assert resolve("github.com/acme/lib/text", "svc/main.go", tree) == ["forks/lib/text/text.go"]
    assert resolve("github.com/x/y", "svc/main.go", tree) == EXTERNAL
    broken = _tree(tmp_path / "b", {"go.mod": "module example.com/b\nreplace (\n", "a.go": ""})
    assert resolver("go")("example.com/b/x", "a.go", broken) == EXTERNAL and "go.mod" in broken.errors


def test_resolve_rust_mod_use_super_and_braces() -> None:
    tree = Tree("/x", ["Cargo.toml", "src/main.rs", "src/net/mod.rs", "src/net/tcp.rs", "src/util.rs"])
    resolve = resolver("rust")
    assert resolve("pub mod net;", "src/main.rs", tree) == ["src/net/mod.rs"]
    assert resolve("mod tcp;", "src/net/mod.rs", tree) == ["src/net/tcp.rs"]
    assert resolve("crate::{util::helper, net::tcp::{Conn, Listener as L}}", "src/net/mod.rs", tree) == [
        "src/net/tcp.rs",
        "src/util.rs",
    ]
    assert resolve("super::util", "src/net/mod.rs", tree) == ["src/util.rs"]
    assert resolve("std::io", "src/main.rs", tree) == EXTERNAL
    assert resolve("mod gone;", "src/main.rs", tree) == "mod file not found"


def test_resolve_rust_workspace_crates_path_attribute_and_renames(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n[workspace.dependencies]\n'
            'fastparse = { package = "my-parser", path = "crates/parser" }\n'
            '[package]\nname = "tool"\n[[bin]]\nname = "t"\npath = "crates/core/main.rs"\n',
            "crates/parser/Cargo.toml": '[package]\nname = "my-parser"\n',
            "crates/parser/src/lib.rs": "",
            "crates/parser/src/lexer.rs": "",
            "crates/app/Cargo.toml": '[package]\nname = "app"\n[dependencies]\nfastparse.workspace = true\n',
            "crates/app/src/lib.rs": "",
            "crates/app/src/sys/unix.rs": "",
            "crates/core/main.rs": "",
            "crates/core/flags.rs": "",
            "crates/app/tests/it.rs": "",
            "crates/app/tests/common/mod.rs": "",
        },
    )
    resolve = resolver("rust")
    assert resolve("my_parser::lexer::Token", "crates/core/main.rs", tree) == ["crates/parser/src/lexer.rs"]
    assert resolve("my_parser::Parser", "crates/core/main.rs", tree) == ["crates/parser/src/lib.rs"]
    assert resolve("fastparse::lexer", "crates/app/src/lib.rs", tree) == ["crates/parser/src/lexer.rs"]
    assert resolve('#[path = "sys/unix.rs"] mod imp;', "crates/app/src/lib.rs", tree) == ["crates/app/src/sys/unix.rs"]
    assert resolve("crate::flags::Args", "crates/core/main.rs", tree) == ["crates/core/flags.rs"]
    assert resolve("mod common;", "crates/app/tests/it.rs", tree) == ["crates/app/tests/common/mod.rs"]
    assert resolve("extern crate my_parser;", "crates/app/src/lib.rs", tree) == ["crates/parser/src/lib.rs"]
    bad = _tree(tmp_path / "bad", {"Cargo.toml": "[package\n", "src/lib.rs": ""})
    assert resolver("rust")("serde::Serialize", "src/lib.rs", bad) == EXTERNAL and "Cargo.toml" in bad.errors


def test_resolve_java_source_roots_from_package_lines() -> None:
    files = [
        "a/src/main/java/com/x/B.java",
        "a/src/main/java/com/x/C.java",
        "a/src/test/java/com/x/BTest.java",
        "b/src/main/java/com/x/B.java",
        "o/x/com/ab/D.java",
    ]
    decls = {f: (f"package {'.'.join(f.split('/java/')[1].split('/')[:-1])};",) for f in files if "/java/" in f}
    tree = Tree("/x", files, decls=decls)
    resolve = resolver("java")
    assert resolve("import com.x.B;", "a/src/test/java/com/x/BTest.java", tree) == ["a/src/main/java/com/x/B.java"]
    assert resolve("import com.x.B;", "b/src/main/java/com/x/Z.java", tree) == ["b/src/main/java/com/x/B.java"]
    assert resolve("import static com.x.C.run;", "Z.java", tree) == ["a/src/main/java/com/x/C.java"]
    assert resolve("import com.x.*;", "a/src/main/java/com/x/B.java", tree) == [
        "a/src/main/java/com/x/C.java",
        "a/src/test/java/com/x/BTest.java",
        "b/src/main/java/com/x/B.java",
    ]
    assert resolve("import java.util.List;", "Z.java", tree) == EXTERNAL
    assert resolve("import com.x.Missing;", "Z.java", tree) == "class not found"
    assert resolve("package com.x;", "a/src/main/java/com/x/B.java", tree) == []


def test_resolve_python_absolute_import_inside_a_package_is_not_a_sibling() -> None:
    files = PY + ["src/app/types.py", "scripts/types.py"]
    tree = Tree("/nonexistent", files)
    assert resolver("python")("from types import TracebackType", "src/app/core.py", tree) == EXTERNAL
    assert resolver("python")("from app.types import Thing", "src/app/core.py", tree) == ["src/app/types.py"]
    assert resolver("python")("import types", "scripts/run.py", tree) == ["scripts/types.py"]  # a script's dir


@pytest.mark.parametrize("name", ["tsconfig.json", "Cargo.toml", "go.mod", "package.json", "pnpm-workspace.yaml"])
@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=200))
def test_manifests_parse_any_text_or_report_it(name: str, text: str) -> None:
    try:
        manifests.parse(name, text)
    except manifests.Malformed as exc:
        assert str(exc)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "compilerOptions",
                    "paths",
                    "baseUrl",
                    "extends",
                    "exports",
                    "main",
                    "workspaces",
                    "packages",
                    "name",
                    "imports",
                    ".",
                    "./x",
                    "@a/*",
                    "types",
                    "import",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=80, deadline=None)
@given(tsconfig=_JSON, package=_JSON)
def test_resolve_script_manifests_of_any_shape_never_raise(tmp_path_factory, tsconfig, package) -> None:
    import json

    root = tmp_path_factory.mktemp("shapes")
    files = {
        "tsconfig.json": json.dumps(tsconfig),
        "package.json": json.dumps(package),
        "pkgs/a/package.json": json.dumps(package),
        "src/x.ts": "",
        "pkgs/a/index.ts": "",
    }
    tree = _tree(root, files)
    for spec in ("./x", "@a/b", "a", "#x", "x", "@a/b/c"):
        found = resolver("script")(spec, "src/x.ts", tree)
        assert isinstance(found, (list, str))


@settings(max_examples=60, deadline=None)
@given(
    cargo=st.dictionaries(
        st.sampled_from(["package", "lib", "bin", "dependencies", "workspace", "target"]), _JSON, max_size=4
    )
)
def test_resolve_rust_cargo_of_any_shape_never_raises(tmp_path_factory, cargo) -> None:
    root = tmp_path_factory.mktemp("cargo")
    lines = [f"{key} = {_toml(value)}" for key, value in cargo.items()]
    tree = _tree(root, {"Cargo.toml": "\n".join(lines) + "\n", "src/lib.rs": "", "src/a.rs": ""})
    for spec in ("crate::a", "mod a;", "other::x", "extern crate other;"):
        assert isinstance(resolver("rust")(spec, "src/lib.rs", tree), (list, str))


def _toml(value) -> str:
    """VALUE as a TOML inline value (None becomes a string: TOML has no null)."""
    import json

    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '""'
    return json.dumps(value)
