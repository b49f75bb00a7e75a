"""GC204: a line worded after its own folder is the copy adapted to its place (the golden folders under
tests/cases/audit/GC204 run the check)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gitcontext.audit.checks.gc204_twins import names_own_place
from gitcontext.instructions.model import Instruction, normalize


def _inst(file: str, text: str) -> Instruction:
    return Instruction(file, 3, 3, text, normalize(text), (), "sentence")


def test_a_description_naming_its_own_package_is_adapted() -> None:
    storage = _inst("packages/core/storage-js/AGENTS.md", "Isomorphic storage client for Supabase.")
    main = _inst("packages/core/supabase-js/AGENTS.md", "Main isomorphic Supabase client for JavaScript.")
    assert names_own_place(storage, main) and names_own_place(main, storage)


def test_a_reworded_rule_in_two_packages_is_not_adapted() -> None:
    a = _inst("packages/a/AGENTS.md", "Run the unit tests before every push.")
    b = _inst("packages/b/AGENTS.md", "Run the unit tests before every commit.")
    assert not names_own_place(a, b)


@given(st.text(max_size=80), st.text(max_size=80))
def test_copies_in_one_folder_never_name_their_own_place(x: str, y: str) -> None:
    assert not names_own_place(_inst("pkg/AGENTS.md", x), _inst("pkg/CLAUDE.md", y))
