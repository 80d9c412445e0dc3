"""A watch tells of every change a user, an editor, a sync tool or a script makes to a
library folder, the moment the call that made it returns (no waiting, no sleep), and of
nothing a reader does."""

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.sources.library.watching import WATCH_SWITCH, watch_folder
from tests.support.library_files import write_text


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    write_text(folder / "lei.md", "# Lei\n\nArt. 1º Texto.\n")
    write_text(folder / "sub" / "deeper" / "nota.txt", "nota")
    write_text(folder / ".hidden" / "alvo.md", "# Alvo\n")
    write_text(folder / "index.jsonl", '{"file": "lei.md", "title": "Lei"}\n')
    (folder / "link.md").symlink_to(folder / ".hidden" / "alvo.md")
    write_text(tmp_path / "outside" / "other.md", "other")
    (folder / "out.md").symlink_to(tmp_path / "outside" / "other.md")
    return folder


def _append(path: Path) -> None:
    with path.open("a", encoding="utf-8") as file:  # in place: the folder's entry unchanged
        file.write("more\n")


def _editor_save(path: Path) -> None:
    temporary = path.with_name(f".{path.name}.swp")
    temporary.write_text("saved\n", encoding="utf-8")
    os.replace(temporary, path)


def _same_size_rewrite(path: Path) -> None:
    status = path.stat()
    data = path.read_bytes()
    with path.open("r+b") as file:
        file.write(data[:1].swapcase())
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))  # even the mtime restored


CHANGES: dict[str, Callable[[Path, Path], object]] = {
    "new file": lambda folder, _: write_text(folder / "novo.md", "# Novo\n"),
    "new file deep down": lambda folder, _: write_text(folder / "sub/deeper/x.pdf", "%PDF"),
    "appended in place": lambda folder, _: _append(folder / "lei.md"),
    "rewritten, size and mtime kept": lambda folder, _: _same_size_rewrite(folder / "lei.md"),
    "saved by an editor (rename over)": lambda folder, _: _editor_save(folder / "lei.md"),
    "touched": lambda folder, _: os.utime(folder / "sub" / "deeper" / "nota.txt"),
    "truncated": lambda folder, _: os.truncate(folder / "lei.md", 0),
    "removed": lambda folder, _: (folder / "lei.md").unlink(),
    "renamed": lambda folder, _: (folder / "lei.md").rename(folder / "lei2.md"),
    "moved into a subfolder": lambda folder, _: (folder / "lei.md").rename(folder / "sub/l.md"),
    "moved in from outside": lambda folder, tmp: shutil.move(tmp / "outside/other.md", folder),
    "folder made, file in it": lambda folder, _: write_text(folder / "new" / "a.md", "# A\n"),
    "folder removed": lambda folder, _: shutil.rmtree(folder / "sub"),
    "folder renamed": lambda folder, _: (folder / "sub").rename(folder / "renamed"),
    "hidden folder shown": lambda folder, _: (folder / ".hidden").rename(folder / "shown"),
    "a linked file's target edited": lambda folder, _: _append(folder / ".hidden/alvo.md"),
    "manifest edited": lambda folder, _: _append(folder / "index.jsonl"),
    "made unreadable": lambda folder, _: (folder / "sub").chmod(0o000),
    "the folder itself renamed": lambda folder, tmp: folder.rename(tmp / "moved"),
}


@pytest.mark.parametrize("change", list(CHANGES), ids=list(CHANGES))
def test_a_change_is_seen_the_moment_it_is_made(tmp_path: Path, change: str) -> None:
    folder = _folder(tmp_path)
    watch = watch_folder(folder)
    assert watch is not None
    assert not watch.changed()
    CHANGES[change](folder, tmp_path)
    assert watch.changed()  # no wait: the kernel queued it inside the call that made it
    assert watch.changed()  # and it stays so
    watch.close()


def test_reading_and_listing_the_folder_is_no_change(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    watch = watch_folder(folder)
    assert watch is not None
    for path in folder.rglob("*"):
        if path.is_file():
            path.read_bytes()
        path.stat()
    list(os.scandir(folder))
    assert not watch.changed()


def test_a_change_outside_the_folder_is_none_of_its_business(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    watch = watch_folder(folder)
    assert watch is not None
    _append(tmp_path / "outside" / "other.md")  # out.md links to it: never read, never watched
    write_text(tmp_path / "elsewhere.md", "x")
    assert not watch.changed()


def test_a_closed_watch_promises_nothing(tmp_path: Path) -> None:
    watch = watch_folder(_folder(tmp_path))
    assert watch is not None
    watch.close()
    watch.close()
    assert watch.changed()


def test_watching_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WATCH_SWITCH, "0")
    assert watch_folder(_folder(tmp_path)) is None


def test_no_watch_when_the_system_refuses_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Refusing:
        def inotify_init1(self, flags: int) -> int:
            return 3

        def inotify_add_watch(self, descriptor: int, path: bytes, mask: int) -> int:
            return -1  # ENOSPC: the limit on watches reached

    closed: list[int] = []
    monkeypatch.setattr("engine.sources.library.watching._libc", Refusing)
    monkeypatch.setattr("engine.sources.library.watching.ctypes.get_errno", lambda: 28)
    monkeypatch.setattr("engine.sources.library.watching.os.close", closed.append)
    assert watch_folder(_folder(tmp_path)) is None
    assert closed == [3]
