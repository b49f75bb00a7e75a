"""The languages the blast radius parses: one row each (grammar wheel, extensions, queries, resolver).

Adding a language is adding a row here and a resolver module under `radius/resolvers/`. Files in
other languages still count for churn; they just have no import edges.
"""

from __future__ import annotations

import functools
import hashlib
from typing import NamedTuple


class Lang(NamedTuple):
    name: str
    module: str  # the grammar wheel's import name
    factory: str  # the function in that module returning the language pointer
    extensions: tuple[str, ...]
    definitions: str  # tree-sitter query; every @def capture is a defined symbol name
    imports: str  # tree-sitter query; every @import capture is one import (its text)
    resolver: str  # module under gitcontext.radius.resolvers

    @property
    def query_hash(self) -> str:
        return _query_hash(self.definitions, self.imports)


@functools.cache
def _query_hash(definitions: str, imports: str) -> str:
    return hashlib.sha1(f"{definitions}\0{imports}".encode()).hexdigest()[:16]


_JS_DEFS = """
(function_declaration name: (identifier) @def)
(generator_function_declaration name: (identifier) @def)
(class_declaration name: (_) @def)
(method_definition name: (property_identifier) @def)
(variable_declarator name: (identifier) @def)
"""
_JS_IMPORTS = """
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression function: (identifier) @_f arguments: (arguments . (string (string_fragment) @import))
  (#eq? @_f "require"))
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @import)))
"""
_TS_DEFS = (
    _JS_DEFS
    + """
(interface_declaration name: (type_identifier) @def)
(type_alias_declaration name: (type_identifier) @def)
(enum_declaration name: (identifier) @def)
"""
)

LANGUAGES: tuple[Lang, ...] = (
    Lang(
        "python",
        "tree_sitter_python",
        "language",
        (".py", ".pyi"),
        "(function_definition name: (identifier) @def) (class_definition name: (identifier) @def)",
        "(import_statement) @import (import_from_statement) @import",
        "python",
    ),
    Lang(
        "javascript",
        "tree_sitter_javascript",
        "language",
        (".js", ".jsx", ".mjs", ".cjs"),
        _JS_DEFS,
        _JS_IMPORTS,
        "script",
    ),
    Lang(
        "typescript",
        "tree_sitter_typescript",
        "language_typescript",
        (".ts", ".mts", ".cts"),
        _TS_DEFS,
        _JS_IMPORTS,
        "script",
    ),
    Lang("tsx", "tree_sitter_typescript", "language_tsx", (".tsx",), _TS_DEFS, _JS_IMPORTS, "script"),
    Lang(
        "go",
        "tree_sitter_go",
        "language",
        (".go",),
        "(function_declaration name: (identifier) @def) (method_declaration name: (field_identifier) @def)"
        " (type_spec name: (type_identifier) @def)",
        "(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @import))",
        "go",
    ),
    Lang(
        "rust",
        "tree_sitter_rust",
        "language",
        (".rs",),
        "(function_item name: (identifier) @def) (struct_item name: (type_identifier) @def)"
        " (enum_item name: (type_identifier) @def) (trait_item name: (type_identifier) @def)"
        " (const_item name: (identifier) @def) (type_item name: (type_identifier) @def)",
        "(mod_item !body) @import (use_declaration argument: (_) @import) (extern_crate_declaration) @import",
        "rust",
    ),
    Lang(
        "java",
        "tree_sitter_java",
        "language",
        (".java",),
        "(class_declaration name: (identifier) @def) (interface_declaration name: (identifier) @def)"
        " (enum_declaration name: (identifier) @def) (method_declaration name: (identifier) @def)"
        " (record_declaration name: (identifier) @def)",
        "(import_declaration) @import (package_declaration) @import",
        "java",
    ),
)

BY_EXTENSION: dict[str, Lang] = {ext: lang for lang in LANGUAGES for ext in lang.extensions}
BY_NAME: dict[str, Lang] = {lang.name: lang for lang in LANGUAGES}


def language_of(path: str) -> Lang | None:
    dot = path.rfind(".")
    return BY_EXTENSION.get(path[dot:].lower()) if dot > path.rfind("/") else None
