import os
import stat
from pathlib import Path

import pytest

from engine import disk
from engine.disk import write_atomically


def test_a_write_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "entry.json"
    write_atomically(path, b"one")
    write_atomically(path, b"two")
    assert path.read_bytes() == b"two"
    assert [p.name for p in path.parent.iterdir()] == ["entry.json"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_an_interrupted_write_keeps_the_old_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "report.md"
    write_atomically(path, b"old")

    def interrupted(source: str, target: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(disk.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(path, b"new")
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["report.md"]


def test_the_content_is_flushed_to_disk_before_the_rename(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(disk.os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(
        disk.os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1]
    )
    write_atomically(tmp_path / "snapshot.json", b"{}")
    assert events[:2] == ["fsync", "replace"]
