"""Commands whose dependency is an extra say which extra to install when it is missing."""

from __future__ import annotations

import pytest

from gitcontext.cli.common import require_extra
from gitcontext.errors import UserError


def test_require_extra_names_the_extra_and_the_install_command() -> None:
    with pytest.raises(UserError) as raised:
        require_extra("gitcontext_no_such_module", "agents", "mcp")
    assert "`git context mcp` needs the `agents` extra" in raised.value.message
    assert "git-context-provenance[agents]" in (raised.value.fix or "")


def test_require_extra_passes_when_the_module_is_there() -> None:
    require_extra("json", "agents", "mcp")  # no error


def test_the_core_install_does_not_require_the_agents_server() -> None:
    """mcp (and what it pulls in) is an extra: the runtime dependencies do not name it."""
    from pathlib import Path

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    assert not any(dep.startswith("mcp") for dep in project["dependencies"])
    assert any(dep.startswith("mcp") for dep in project["optional-dependencies"]["agents"])


def test_the_core_install_does_not_require_the_language_server() -> None:
    from pathlib import Path

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    assert not any(dep.startswith(("pygls", "lsprotocol")) for dep in project["dependencies"])
    assert {dep.split(">")[0] for dep in project["optional-dependencies"]["editor"]} == {"pygls", "lsprotocol"}
