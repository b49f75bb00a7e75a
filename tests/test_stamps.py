"""gitcontext.stamps: what the caches key their code on."""

from __future__ import annotations

import os
from pathlib import Path

from gitcontext import stamps


def test_a_stamp_changes_with_a_modules_size_or_mtime_and_names_it_under_the_package(
    tmp_path: Path, monkeypatch
) -> None:
    package = tmp_path / "gitcontext"
    (package / "sub").mkdir(parents=True)
    for name in ("b.py", "a.py", "notes.txt"):
        (package / "sub" / name).write_text("x = 1\n")
    monkeypatch.setattr(stamps, "PACKAGE", str(package))
    files = stamps.folder_modules("sub")
    assert [Path(f).name for f in files] == ["a.py", "b.py"]
    before = stamps.code_stamps(files)
    assert [s[0] for s in before] == [os.path.join("sub", "a.py"), os.path.join("sub", "b.py")]
    os.utime(files[0], ns=(1, 1))
    assert stamps.code_stamps(files) != before
    (package / "sub" / "b.py").write_text("x = 22\n")
    assert stamps.code_stamps(files)[1][1] != before[1][1]
