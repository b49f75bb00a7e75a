"""The registry is data and the precision rule is a mechanism: a default-on check has earned it."""

from __future__ import annotations

import copy

import pytest

from gitcontext.audit.registry import (
    BASES,
    CHECKS,
    PRECISION_RULE,
    Gate,
    Part,
    experimental,
    experimental_finding,
    in_part,
    marked,
    part_of,
)
from gitcontext.audit.select import left_out, modules, narrowed, select
from gitcontext.config import DEFAULTS
from gitcontext.errors import UserError


def _config(**audit_keys):
    config = copy.deepcopy(DEFAULTS)
    config["audit"].update(audit_keys)
    return config


@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_registry_default_on_only_by_the_precision_rule(check_id: str) -> None:
    gate = CHECKS[check_id]
    assert gate.basis in BASES
    if gate.default:  # a development figure or no figure never turns a check on
        assert gate.basis == "exact" or (
            gate.basis == "fresh" and gate.precision is not None and gate.precision >= PRECISION_RULE
        ), check_id
    if gate.basis in ("fresh", "dev"):
        assert 0 < gate.sampled and 0 <= gate.right <= gate.sampled and gate.sample, check_id


def test_registry_rows_name_their_modules() -> None:
    for check_id, module in modules().items():
        assert module.CHECK.id == check_id and callable(module.run)


def test_registry_gate_describes_its_figure() -> None:
    assert Gate("m", False, "fresh", 5, 12, "x").describe() == "precision 0.42 (5 of 12, fresh sample)"
    assert Gate("m", True, "exact").describe().startswith("exact")
    assert Gate("m", False, "unmeasured").describe() == "precision not measured yet"
    assert marked("GC100") == " (experimental)" and marked("GC107") == "" and marked("GC999") == ""


def test_select_default_leaves_experimental_checks_out() -> None:
    ids = {m.CHECK.id for m in select(_config())}
    parts = {c for c in CHECKS if part_of(c)}  # experimental checks whose default part has earned it
    assert narrowed(_config()) == parts
    assert ids == {c for c, g in CHECKS.items() if g.default} | parts
    assert set(left_out(_config(), select(_config()), narrowed(_config()))) == {c for c in CHECKS if experimental(c)}
    assert narrowed(_config(), everything=True) == frozenset() == narrowed(_config(), ["GC103"])


def _with_part(monkeypatch, right: int, sampled: int) -> Part:
    gate = CHECKS["GC103"]
    assert gate.part is not None
    part = gate.part._replace(right=right, sampled=sampled)
    monkeypatch.setitem(CHECKS, "GC103", gate._replace(part=part))
    return part


def test_a_part_runs_by_default_only_at_the_precision_rule(monkeypatch) -> None:
    part = _with_part(monkeypatch, 17, 19)
    assert part.default and part_of("GC103") == part and narrowed(_config()) == {"GC103"}
    assert "GC103" in {m.CHECK.id for m in select(_config())}
    assert narrowed(_config(experimental=["GC103"])) == frozenset()  # asked for whole
    assert in_part("GC103", {"class": "moved"}) and not in_part("GC103", {"class": "never-existed"})
    assert not experimental_finding("GC103", {"class": "deleted"}) and experimental_finding("GC103", {})
    assert marked("GC103", {"class": "moved"}) == "" and marked("GC103", {}) == " (experimental)"
    below = _with_part(monkeypatch, 26, 34)
    assert not below.default and part_of("GC103") is None and narrowed(_config()) == frozenset()
    assert "GC103" not in {m.CHECK.id for m in select(_config())}
    assert experimental_finding("GC103", {"class": "moved"}) and marked("GC103", {"class": "moved"})


def test_registry_parts_are_measured() -> None:
    for check_id, gate in CHECKS.items():
        if gate.part is not None:
            part = gate.part
            assert not gate.default and part.classes and part.sample and part.name, check_id
            assert 0 <= part.right <= part.sampled and part.sampled > 0, check_id


def test_select_experimental_by_flag_config_and_check() -> None:
    assert {m.CHECK.id for m in select(_config(), everything=True)} == set(CHECKS)
    picked = {m.CHECK.id for m in select(_config(experimental=["GC103", "duplicate"]))}
    assert {"GC103", "GC200"} <= picked and "GC300" not in picked
    assert [m.CHECK.id for m in select(_config(), ["GC300"])] == ["GC300"]  # --check runs it, experimental or not
    disabled = _config(disable=["GC200"], experimental=["GC200"])
    assert "GC200" not in {m.CHECK.id for m in select(disabled, everything=True)}
    assert "GC200" not in left_out(disabled, select(disabled))  # disabled on purpose: nothing to tell


def test_select_unknown_experimental_check_names_the_key() -> None:
    with pytest.raises(UserError, match="audit.experimental"):
        select(_config(experimental=["GC999"]))
