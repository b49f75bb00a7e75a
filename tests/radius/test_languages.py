"""The languages table: every row's grammar loads and its queries find definitions and imports."""

from __future__ import annotations

import pytest

from gitcontext.radius.languages import LANGUAGES, language_of
from gitcontext.radius.treesitter import parse

SAMPLES = {
    "python": (
        b"import a.b\nfrom .c import d\ndef f(): pass\nclass K: pass\n",
        {"import a.b", "from .c import d"},
        {"f", "K"},
    ),
    "javascript": (b"import x from './x';\nconst y = require('./y');\nfunction g() {}\n", {"./x", "./y"}, {"g", "y"}),
    "typescript": (b"import type {T} from '../t';\ninterface I {}\nenum E { A }\n", {"../t"}, {"I", "E"}),
    "tsx": (b"export { B } from './b';\nexport const C = () => <div/>;\n", {"./b"}, {"C"}),
    "go": (b'package p\nimport "example.com/m/q"\nfunc F() {}\ntype T struct{}\n', {"example.com/m/q"}, {"F", "T"}),
    "rust": (
        b'mod m;\n#[path = "x.rs"]\nmod y;\nuse crate::a::b;\nextern crate e;\nfn f() {}\nstruct S;\n',
        {"mod m;", '#[path = "x.rs"] mod y;', "crate::a::b", "extern crate e;"},
        {"f", "S"},
    ),
    "java": (b"package p;\nimport a.b.C;\nclass D { void m() {} }\n", {"package p;", "import a.b.C;"}, {"D", "m"}),
}


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.name)
def test_languages_row_parses_its_sample(lang) -> None:
    source, imports, definitions = SAMPLES[lang.name]
    parsed = parse(lang, source)
    assert set(parsed.imports) == imports
    assert definitions <= set(parsed.definitions)
    assert not parsed.partial


def test_languages_extension_lookup() -> None:
    assert language_of("a/b.TSX").name == "tsx"
    assert language_of("x.d.ts").name == "typescript"
    assert language_of("Makefile") is None and language_of("dir.py/README") is None
