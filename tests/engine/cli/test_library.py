import io
import os
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress

from engine.cli import EXIT_BAD_INPUT, EXIT_OK, main
from engine.cli.library import IndexProgress, progress_bar
from engine.sources.library import walking
from tests.support.cli_pages import LAW
from tests.support.clock import FakeClock


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lei_14300.md").write_text(LAW, encoding="utf-8")
    (docs / "notas.txt").write_text("Notas sobre café e chá.", encoding="utf-8")
    return docs


def _index(folder: Path, tmp_path: Path) -> int:
    return main(["library", "index", str(folder), "--cache-dir", str(tmp_path / "cache")])


def test_first_index_adds_every_file(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _index(folder, tmp_path) == EXIT_OK
    err = capsys.readouterr().err
    assert f"index of {folder.resolve()} refreshed in" in err
    assert "2 documents" in err
    assert "added 2, changed 0, removed 0, unreadable 0" in err
    assert "added: lei_14300.md" in err


def test_a_refresh_says_what_changed_and_why_a_file_is_unreadable(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _index(folder, tmp_path)
    capsys.readouterr()
    (folder / "notas.txt").write_text("Notas novas sobre energia solar.", encoding="utf-8")
    (folder / "nova.md").write_text("# Nova\nUma lei nova.", encoding="utf-8")
    (folder / "lei_14300.md").unlink()
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4 broken")
    assert _index(folder, tmp_path) == EXIT_OK
    err = capsys.readouterr().err
    assert "added 1, changed 1, removed 1, unreadable 1" in err
    assert "added: nova.md" in err
    assert "changed: notas.txt" in err
    assert "removed: lei_14300.md" in err
    assert "unreadable: scan.pdf: not a readable PDF" in err


def test_an_index_up_to_date_reads_nothing(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _index(folder, tmp_path)
    capsys.readouterr()
    assert _index(folder, tmp_path) == EXIT_OK
    err = capsys.readouterr().err
    assert "up to date" in err
    assert "added 0, changed 0, removed 0, unreadable 0" in err


def test_a_long_list_of_names_is_cut(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in range(12):
        (folder / f"n{number:02d}.txt").write_text(f"Nota {number}.", encoding="utf-8")
    _index(folder, tmp_path)
    err = capsys.readouterr().err
    assert "added: … and 4 more" in err


def test_a_missing_folder_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _index(tmp_path / "absent", tmp_path) == EXIT_BAD_INPUT
    assert "library folder not found" in capsys.readouterr().err


def test_the_progress_bar_counts_files_read() -> None:
    progress = Progress(console=Console(file=io.StringIO()))
    bar = IndexProgress(progress)
    (task,) = progress.tasks
    bar("reading /somewhere")
    assert (task.description, task.total) == ("reading /somewhere", None)
    bar("indexing 3/10 files")
    assert (task.description, task.completed, task.total) == ("indexing", 3, 10)
    bar("indexing 10/10 files")
    assert task.completed == task.total == 10


def test_a_file_name_cannot_forge_a_line_of_the_summary(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "ok.md\nunreadable: ok.md: corrupted.md").write_text("# Ok\nUm texto.")
    (folder / "vazio.md\nadded: x.md").touch()
    (folder / "rel\u202eam.md").write_text("# Bidi\nOutro texto.")
    _index(folder, tmp_path)
    err = capsys.readouterr().err
    assert "  added: ok.md\\nunreadable: ok.md: corrupted.md\n" in err
    assert "  unreadable: vazio.md\\nadded: x.md: empty file\n" in err
    assert "\nunreadable: ok.md" not in err
    assert "\nadded: x.md" not in err
    assert "rel\\u202eam.md" in err
    assert "\u202e" not in err


def test_many_unreadable_files_of_one_reason_are_counted_not_listed(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in range(300):
        (folder / f"vazio{number:03d}.md").touch()
    _index(folder, tmp_path)
    err = capsys.readouterr().err
    assert "unreadable 300" in err
    assert err.count("unreadable: vazio") == 10
    assert "  unreadable: … and 290 more: empty file" in err


def test_an_unreadable_subfolder_and_a_bad_manifest_are_warned_about(
    folder: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    locked = folder / "locked"
    locked.mkdir()
    (locked / "a.md").write_text("# A\nTexto.")
    (folder / "index.jsonl").write_text("{not json\n")
    scandir = os.scandir

    def refusing(path: os.PathLike[str] | str) -> object:
        if Path(path) == locked:  # chmod 000 does not stop root, who runs the tests
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    # the refusal is this process's: no walk begun in a process of its own (which would
    # read the folder) can be taken, so the walk is made here
    monkeypatch.setattr(walking.sys, "executable", "/nonexistent/python")
    assert _index(folder, tmp_path) == EXIT_OK
    err = capsys.readouterr().err
    assert "  skipped: locked/: folder not readable (Permission denied)" in err
    assert "  warning: manifest index.jsonl: 1 unusable line(s) skipped (1)" in err


def test_the_progress_bar_escapes_a_folder_name() -> None:
    progress = Progress(console=Console(file=io.StringIO()))
    bar = IndexProgress(progress)
    bar("reading /lib/a\nb\u202e")
    assert progress.tasks[0].description == "reading /lib/a\\nb\\u202e"


def test_without_a_terminal_the_index_says_how_far_it_got_every_few_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bar shows nothing in a log or a pipe: there, one line every few seconds."""
    clock = FakeClock()
    with progress_bar(clock=clock) as on_progress:
        on_progress("indexing 1/40 files")
        clock.advance(1.0)
        on_progress("indexing 2/40 files")  # too soon after the last line: not said
        clock.advance(5.0)
        on_progress("reading: 2/40 files (3 of 90 MB), 12 pages read by OCR indexed so far")
    assert capsys.readouterr().err.splitlines() == [
        "library: indexing 1/40 files",
        "library: reading: 2/40 files (3 of 90 MB), 12 pages read by OCR indexed so far",
    ]


def test_the_progress_bar_counts_files_read_while_pages_are_ocr_read() -> None:
    progress = Progress(console=Console(file=io.StringIO()))
    bar = IndexProgress(progress)
    bar("indexing 3/7 files, 40 pages read by OCR")
    (task,) = progress.tasks
    assert (task.completed, task.total) == (3, 7)
