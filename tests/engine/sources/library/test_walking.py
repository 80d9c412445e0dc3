import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.documents.parse import KIND_BY_SUFFIX
from engine.sources.library import walking
from engine.sources.library.files import scan_columns, start_scan
from engine.sources.library.walking import Walk, start_walk, walk
from tests.support.library_files import write_text

NAMES = [
    "a b.pdf",
    "ação #1.md",
    "x.PDF",
    "no_suffix",
    "dots..md",
    "e\u0301.html",
    "sub dir/ç#?%.md",
    "sub dir/.hidden.md",
    ".hidden/inside.md",
    "sub dir/deeper/z.md",
    "a.b/c.txt",
]


def _library(tmp_path: Path) -> Path:
    """A folder with hostile names, a name that is not UTF-8, links inside and out."""
    folder = tmp_path / "docs"
    for name in NAMES:
        write_text(folder / name, name)
    descriptor = os.open(os.fsencode(folder) + b"/caf\xe9.md", os.O_CREAT | os.O_WRONLY)
    os.write(descriptor, b"# Caf\xc3\xa9\n")
    os.close(descriptor)
    outside = write_text(tmp_path / "outside.md", "secret")
    (folder / "inside link.md").symlink_to(folder / "a.b" / "c.txt")
    (folder / "outside link.md").symlink_to(outside)
    (folder / "folder link").symlink_to(folder / "sub dir", target_is_directory=True)
    return folder


def _child_output(folder: Path) -> Walk[str]:
    """What the walk's process writes, run as `FolderWalk` runs it."""
    command = [sys.executable, "-I", "-S", walking.__file__, str(folder), *KIND_BY_SUFFIX]
    written = subprocess.run(command, capture_output=True, check=True).stdout
    return Walk(*marshal.loads(written))


def test_the_walk_s_own_process_writes_the_walk_made_here(tmp_path: Path) -> None:
    folder = _library(tmp_path).resolve()
    here = walk(folder, KIND_BY_SUFFIX)
    child = _child_output(folder)
    assert child.relatives == here.relatives
    assert child.locations == here.locations
    assert [KIND_BY_SUFFIX[suffix] for suffix in child.kinds] == here.kinds
    assert (child.sizes, child.mtimes, child.refused) == (here.sizes, here.mtimes, here.refused)
    assert "caf\udce9.md" in here.relatives  # a name that is not UTF-8, as the file system has it
    assert here.refused == [("outside link.md", "a link to a file outside the library, not read")]
    assert "folder link/z.md" not in here.relatives  # a link to a folder is not followed


def test_a_walk_begun_ahead_gives_what_a_walk_here_gives(tmp_path: Path) -> None:
    folder = _library(tmp_path)
    ahead = start_walk(folder, KIND_BY_SUFFIX)
    assert ahead.result() == walk(folder.resolve(), KIND_BY_SUFFIX)


def test_the_scan_takes_its_folder_s_walk_from_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _library(tmp_path).resolve()
    ahead = start_scan(folder)
    walked_here: list[Path] = []
    monkeypatch.setattr(
        "engine.sources.library.files.walk", lambda *args: walked_here.append(args[0])
    )
    refused: list[str] = []
    scan = scan_columns(folder, lambda path, _why: refused.append(path), ahead)
    assert walked_here == []  # nothing walked here: the child's walk was taken
    assert "ação #1.md" in scan.relatives
    assert refused == ["outside link.md"]


def test_a_walk_begun_for_another_folder_is_cancelled_not_taken(tmp_path: Path) -> None:
    folder = _library(tmp_path)
    other = tmp_path / "other"
    write_text(other / "only.md", "only")
    ahead = start_scan(folder)
    scan = scan_columns(other.resolve(), None, ahead)
    assert scan.relatives == ["only.md"]
    ahead.cancel()  # already cancelled: nothing left to stop


@pytest.mark.parametrize(
    "interpreter",
    ["/nonexistent/python", "/bin/false", "/bin/echo"],
    ids=["cannot-start", "fails", "writes-garbage"],
)
def test_a_walk_its_process_could_not_give_is_made_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interpreter: str
) -> None:
    folder = _library(tmp_path)
    monkeypatch.setattr(walking.sys, "executable", interpreter)
    assert start_walk(folder, KIND_BY_SUFFIX).result() == walk(folder.resolve(), KIND_BY_SUFFIX)


def test_a_torn_walk_is_not_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _library(tmp_path)
    torn = tmp_path / "torn.sh"
    full = marshal.dumps(tuple(_child_output(folder.resolve())))
    (tmp_path / "half").write_bytes(full[: len(full) // 2])
    lopsided = Walk(["a.md", "b.md"], ["/a.md"], [".md", ".md"], [1, 2], [3, 4], [])
    (tmp_path / "lopsided").write_bytes(marshal.dumps(tuple(lopsided)))
    for written in ("half", "lopsided"):
        torn.write_text(f"#!/bin/sh\ncat {tmp_path / written}\n")
        torn.chmod(0o755)
        monkeypatch.setattr(walking.sys, "executable", str(torn))
        assert start_walk(folder, KIND_BY_SUFFIX).result() == walk(folder.resolve(), KIND_BY_SUFFIX)


def test_a_cancelled_walk_leaves_no_process_behind(tmp_path: Path) -> None:
    folder = _library(tmp_path)
    ahead = start_walk(folder, KIND_BY_SUFFIX)
    child = ahead._child
    assert child is not None
    ahead.cancel()
    assert child.returncode is not None
