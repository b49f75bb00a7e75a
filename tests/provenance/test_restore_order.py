"""Several rules retired and restored, in any order of either, give the file back byte for byte: a rule
put back next to a neighbour restored before it keeps the place it had (issue 29, "restoring several
rules in retire order reverses them")."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitcontext import config as config_mod
from gitcontext.provenance.retire import restore, retire
from tests.helpers import commit, git, run_cli, run_json

RULES = [
    "Use uv for installs.",
    "Run pytest -q before you push.",
    "Keep each pull request under 400 lines.",
    "Write the changelog entry with the change.",
    "Never commit generated files.",
    "Tag releases from main only.",
]
TEXT = "# Rules\n\n" + "".join(f"- {r}\n" for r in RULES) + "\n## Style\n\n- Prefer small functions.\n"
ORDERS = list(permutations([1, 2, 3]))


def _ids(capsys) -> dict[str, str]:
    return {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}


@pytest.mark.parametrize("retired", ORDERS, ids=lambda o: "".join(map(str, o)))
@pytest.mark.parametrize("restored", ["same", "reverse"])
def test_restoring_neighbours_in_either_order_gives_the_file_back(repo, capsys, retired, restored):
    commit(repo, {"AGENTS.md": TEXT})
    ids = _ids(capsys)
    order = [ids[RULES[n]] for n in retired]
    for id in order:
        assert run_cli(capsys, "retire", id, "--reason", "trying without it")[0] == 0
    for id in order if restored == "same" else order[::-1]:
        code, _, err = run_cli(capsys, "restore", id)
        assert code == 0, err
    assert (repo / "AGENTS.md").read_text() == TEXT


@pytest.mark.parametrize("retired", [(0, 5), (5, 0), (0, 1, 5), (4, 5)], ids=str)
def test_restoring_rules_at_the_ends_of_a_list_keeps_their_places(repo, capsys, retired):
    commit(repo, {"AGENTS.md": TEXT})
    ids = _ids(capsys)
    order = [ids[RULES[n]] for n in retired]
    for id in order:
        assert run_cli(capsys, "retire", id, "--reason", "trying without it")[0] == 0
    for id in order:
        assert run_cli(capsys, "restore", id)[0] == 0
    assert (repo / "AGENTS.md").read_text() == TEXT


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_retire_and_restore_orders_give_the_file_back(tmp_path_factory, data) -> None:
    """Property: 2 to 4 of six rules (some at the ends of the list) retired in one order and restored in
    another leave the file byte-identical."""
    chosen = data.draw(st.lists(st.sampled_from(range(len(RULES))), min_size=2, max_size=4, unique=True))
    back = data.draw(st.permutations(chosen))
    repo = tmp_path_factory.mktemp("orders")
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"AGENTS.md": TEXT})
    config = config_mod.load(repo)
    ids = {RULES[n]: retire(repo, config, RULES[n], "trying without it").id for n in chosen}
    for n in back:
        restore(repo, config, ids[RULES[n]])
    assert (repo / "AGENTS.md").read_text() == TEXT
