"""Small documents written for each test: PDFs (fpdf2), HTML, Markdown, text, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.sources.library import Library
from tests.support.library_files import (
    HTML_PAGE,
    LAW_MARKDOWN,
    PLAIN_TEXT,
    SOLAR_PAGES,
    WIND_PAGES,
    OpenLibrary,
    Recorder,
    write_pdf,
    write_text,
)


@pytest.fixture
def library_folder(tmp_path: Path) -> Path:
    """One readable file of each kind, two PDFs, and an ignored file."""
    folder = tmp_path / "docs"
    write_pdf(folder / "solar_report.pdf", SOLAR_PAGES)
    write_pdf(folder / "wind" / "wind_review.pdf", WIND_PAGES)
    write_text(folder / "lei_gd.md", LAW_MARKDOWN)
    write_text(folder / "battery.html", HTML_PAGE)
    write_text(folder / "hydrogen.txt", PLAIN_TEXT)
    write_text(folder / "notes.csv", "ignored,file\n")
    return folder


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def warning_log() -> Recorder:
    return Recorder()


@pytest.fixture
def open_library(cache_dir: Path, warning_log: Recorder) -> OpenLibrary:
    def open_(folder: Path, **options: object) -> Library:
        return Library.open(folder, cache_dir=cache_dir, on_warning=warning_log, **options)  # type: ignore[arg-type]

    return open_
