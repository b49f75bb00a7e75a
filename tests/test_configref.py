"""docs/configuration.md is the generator's output, every schema key is described, every example is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext import config, configref

ROOT = Path(__file__).resolve().parents[1]


def test_configref_every_key_described() -> None:
    assert configref.missing() == [], "describe each key in gitcontext/configref.py DESCRIPTIONS"


def test_configref_doc_is_the_generated_output() -> None:
    doc = (ROOT / configref.DOC_PATH).read_text(encoding="utf-8")
    assert doc == configref.render(), "run `python -m gitcontext.configref --write` and commit docs/configuration.md"


@pytest.mark.parametrize("dotted", sorted(configref.DESCRIPTIONS))
def test_configref_example_accepted_by_the_schema(tmp_path: Path, dotted: str) -> None:
    path = tuple(dotted.split("."))
    example = configref.DESCRIPTIONS[dotted][1]
    (tmp_path / ".context").mkdir()
    (tmp_path / config.CONFIG_PATH).write_text("\n".join(configref._yaml(path, example)) + "\n", encoding="utf-8")
    loaded = config.load(tmp_path)
    for key in path:
        loaded = loaded[key]
    assert loaded == example


def test_configref_new_key_without_description_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(config.DEFAULTS, "hooks", {**config.DEFAULTS["hooks"], "brand_new": 1})
    assert configref.missing() == ["hooks.brand_new: no description"]
    with pytest.raises(SystemExit, match="hooks.brand_new"):
        configref.render()


def test_configref_description_of_a_removed_key_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(configref.DESCRIPTIONS, "radius.gone", ("no longer exists", 1))
    assert configref.missing() == ["radius.gone: not a key of the schema"]
