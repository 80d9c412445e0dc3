"""Small documents written for each test: PDFs (fpdf2), HTML, Markdown, text, bad files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fpdf import FPDF

from engine.sources.library import Library

SOLAR_PAGES = [
    "Solar Outlook 2024\nAnnual review of rooftop photovoltaic installations.",
    "Installed capacity grew to 37 GW in 2023.\nResidential systems led the growth.",
    "Cash flows from investing activities\nPurchases of property, plant and equipment (1,577)",
]
WIND_PAGES = ["Wind Turbines Review\nOffshore wind farms in the North Sea.", "Blade length: 107 m."]

LAW_MARKDOWN = """# Lei da Geração Distribuída

Art. 1º Para fins desta Lei, **microgeração distribuída** é a central geradora com potência
instalada menor ou igual a 75 kW.

Art. 2º A **minigeração distribuída** tem potência instalada maior que 75 kW e menor ou igual
a 5 MW.
"""

HTML_PAGE = """<html><head><title>Battery Storage Notes</title>
<script>var tracking = "lithium";</script></head>
<body><nav>Home | About | Contact</nav>
<article><h1>Battery storage</h1>
<p>Home battery storage paired with rooftop solar reduces evening grid imports.</p>
<p>Lithium iron phosphate cells dominate new residential installations this year.</p>
</article><footer>Copyright</footer></body></html>
"""

PLAIN_TEXT = "Hydrogen electrolysers\n\nGreen hydrogen costs fell by a third since 2020.\n"


def write_pdf(path: Path, pages: list[str]) -> Path:
    """A PDF with one page per entry (latin-1 text: fpdf2's core fonts)."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


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


class Recorder:
    """Collects the messages a library reports."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: str) -> None:
        self.messages.append(message)


@pytest.fixture
def warning_log() -> Recorder:
    return Recorder()


OpenLibrary = Callable[..., Library]


@pytest.fixture
def open_library(cache_dir: Path, warning_log: Recorder) -> OpenLibrary:
    def open_(folder: Path, **options: object) -> Library:
        return Library.open(folder, cache_dir=cache_dir, on_warning=warning_log, **options)  # type: ignore[arg-type]

    return open_
