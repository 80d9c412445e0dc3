import os
import threading
from pathlib import Path

import pytest

from engine.sources.library import files as files_module
from engine.sources.library.cache import ParsedTextCache, file_sha256
from engine.sources.library.files import find_library_files, read_library_files
from engine.sources.library.parse import DocumentKind, ParsedFile
from tests.engine.sources.library.conftest import Recorder, write_pdf, write_text


def _read(folder: Path, cache: ParsedTextCache, warnings: Recorder) -> list[tuple[str, ParsedFile]]:
    progress = Recorder()
    readable = read_library_files(
        folder, cache, on_warning=warnings, on_progress=progress, on_cache_error=pytest.fail
    )
    return [(file.relative, parsed) for file, parsed in readable]


def test_finds_supported_files_recursively_in_path_order(library_folder: Path) -> None:
    write_text(library_folder / ".hidden" / "secret.md", "x")
    write_text(library_folder / ".draft.md", "x")
    found = [
        (p.relative_to(library_folder).as_posix(), k) for p, k in find_library_files(library_folder)
    ]
    assert found == [
        ("battery.html", DocumentKind.html),
        ("hydrogen.txt", DocumentKind.text),
        ("lei_gd.md", DocumentKind.markdown),
        ("solar_report.pdf", DocumentKind.pdf),
        ("wind/wind_review.pdf", DocumentKind.pdf),
    ]


def test_reads_every_kind_and_caches_the_text(library_folder: Path, tmp_path: Path) -> None:
    cache = ParsedTextCache(tmp_path / "parsed")
    warnings = Recorder()
    readable = _read(library_folder, cache, warnings)
    assert [name for name, _ in readable] == [
        "battery.html",
        "hydrogen.txt",
        "lei_gd.md",
        "solar_report.pdf",
        "wind/wind_review.pdf",
    ]
    assert warnings.messages == []
    solar = dict(readable)["solar_report.pdf"]
    assert len(solar.texts) == 3
    sha = file_sha256(library_folder / "solar_report.pdf")
    assert cache.get(sha, DocumentKind.pdf) == solar


def test_cached_files_are_not_parsed_again(
    library_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ParsedTextCache(tmp_path / "parsed")
    first = _read(library_folder, cache, Recorder())

    def no_parsing(*args: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(files_module, "_parse_all", no_parsing)
    assert _read(library_folder, cache, Recorder()) == first


def test_bad_files_are_skipped_with_one_warning_each(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    write_text(folder / "good.md", "# Good\nText.")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7 truncated")
    (folder / "image.txt").write_bytes(b"\x00\x01\x02binary")
    (folder / "empty.html").touch()
    warnings = Recorder()
    readable = _read(folder, ParsedTextCache(tmp_path / "parsed"), warnings)
    assert [name for name, _ in readable] == ["good.md"]
    assert len(warnings.messages) == 3
    assert warnings.messages[0].startswith("skipped broken.pdf: not a readable PDF")
    assert warnings.messages[1] == "skipped empty.html: empty file"
    assert warnings.messages[2] == "skipped image.txt: binary content (NUL bytes), not text"
    # Remembered: the second read warns the same without parsing.
    again = Recorder()
    _read(folder, ParsedTextCache(tmp_path / "parsed"), again)
    assert again.messages == warnings.messages


def test_progress_counts_parsed_files(library_folder: Path, tmp_path: Path) -> None:
    progress = Recorder()
    read_library_files(
        library_folder,
        ParsedTextCache(tmp_path / "parsed"),
        on_warning=Recorder(),
        on_progress=progress,
        on_cache_error=pytest.fail,
    )
    assert sorted(progress.messages) == sorted(f"parsing {n}/5 files" for n in range(1, 6))


def test_a_crashed_worker_skips_its_file_for_this_run_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    write_pdf(folder / "a.pdf", ["Alpha page"])
    write_pdf(folder / "b.pdf", ["Beta page"])
    monkeypatch.setattr(files_module, "parse_file_or_reason", _crash)
    warnings = Recorder()
    cache = ParsedTextCache(tmp_path / "parsed")
    assert _read(folder, cache, warnings) == []
    assert warnings.messages == [
        "skipped a.pdf: parser failed (BrokenProcessPool)",
        "skipped b.pdf: parser failed (BrokenProcessPool)",
    ]
    monkeypatch.undo()
    assert [name for name, _ in _read(folder, cache, Recorder())] == ["a.pdf", "b.pdf"]


def test_cache_write_failure_is_reported_not_raised(library_folder: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("file in the way")
    errors: list[OSError] = []
    readable = read_library_files(
        library_folder,
        ParsedTextCache(blocker / "parsed"),
        on_warning=Recorder(),
        on_progress=Recorder(),
        on_cache_error=errors.append,
    )
    assert len(readable) == 5
    assert len(errors) == 5


def _crash(path: str) -> ParsedFile:
    os._exit(1)  # what a segfault in pdfium looks like to the pool


def test_parsing_while_other_threads_run_uses_spawned_workers(
    library_folder: Path, tmp_path: Path
) -> None:
    release = threading.Event()
    bystander = threading.Thread(target=release.wait)
    bystander.start()
    try:
        assert files_module._pool_context().get_start_method() == "spawn"
        readable = _read(library_folder, ParsedTextCache(tmp_path / "parsed"), Recorder())
    finally:
        release.set()
        bystander.join()
    assert len(readable) == 5
    assert files_module._pool_context().get_start_method() == "fork"
