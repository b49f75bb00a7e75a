"""requirements/action.txt, the versions the Action installs: one exact pin per dependency for every Python
the package supports (its classifiers), each inside pyproject.toml's range, so a warm job installs nothing new
and a cold one installs what was tested."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PINS = [
    Requirement(line.split("#")[0])
    for line in (ROOT / "requirements" / "action.txt").read_text(encoding="utf-8").splitlines()
    if line.split("#")[0].strip()
]
PYTHONS = [
    c.rsplit(" :: ", 1)[1]
    for c in PROJECT["project"]["classifiers"]
    if c.startswith("Programming Language :: Python :: 3.")
]


def _environment(version: str) -> dict[str, str]:
    return {"python_version": version, "python_full_version": f"{version}.0"}


def _pinned(version: str) -> dict[str, str]:
    pins: dict[str, str] = {}
    for pin in PINS:
        if pin.marker is None or pin.marker.evaluate(_environment(version)):
            [spec] = pin.specifier
            assert spec.operator == "==", f"{pin}: pins are exact"
            name = canonicalize_name(pin.name)
            assert name not in pins, f"{pin.name} pinned twice for Python {version}"
            pins[name] = spec.version
    return pins


def test_action_constraints_cover_the_supported_pythons():
    assert PYTHONS == ["3.10", "3.11", "3.12", "3.13"]


@pytest.mark.parametrize("version", PYTHONS)
def test_action_constraints_pin_every_dependency_inside_its_range(version):
    pins = _pinned(version)
    needed = [*PROJECT["project"]["dependencies"], *PROJECT["build-system"]["requires"]]
    for text in needed:
        dependency = Requirement(text)
        if dependency.marker is not None and not dependency.marker.evaluate(_environment(version)):
            continue
        name = canonicalize_name(dependency.name)
        assert name in pins, f"{dependency.name} is not pinned for Python {version} in requirements/action.txt"
        assert dependency.specifier.contains(pins[name], prereleases=True), (
            f"{dependency.name}=={pins[name]} is outside pyproject's {dependency.specifier}"
        )
