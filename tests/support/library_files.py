"""Writing the files of a library folder for the library tests."""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path

import pytest
from fpdf import FPDF

from engine.sources.library import Library
from engine.sources.library.deadline import Deadline
from engine.sources.library.index import workers as workers_module
from engine.sources.library.index.reading import FileOutcome, FileTask
from tests.support.clock import FakeClock

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


class Recorder:
    """Collects the messages a library reports."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: str) -> None:
        self.messages.append(message)


OpenLibrary = Callable[..., Library]


class ReadCounter:
    """Records which files `refresh` reads (each file whose outcome it takes), and reads
    them; `bytes` counts their sizes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.read: list[str] = []
        self.bytes = 0
        self._read_files = workers_module.read_files
        monkeypatch.setattr(workers_module, "read_files", self)

    def __call__(
        self,
        tasks: list[FileTask],
        on_progress: Callable[[str], None],
        deadline: Deadline | None = None,
    ) -> Generator[FileOutcome, None, None]:
        outcomes = self._read_files(tasks, on_progress, deadline)
        try:
            for outcome in outcomes:
                self.read.append(outcome.task.relative)
                self.bytes += outcome.task.size
                yield outcome
        finally:
            outcomes.close()


class TimedReads:
    """Makes each file the index reads in this process (a few text files: no pool) take
    `seconds` on `clock`, a fake one the test holds, and raises KeyboardInterrupt instead of
    reading the file numbered `interrupt_at` (1 for the first), once, as Ctrl-C would."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        clock: FakeClock,
        seconds: float = 1.0,
        interrupt_at: int | None = None,
    ) -> None:
        self.read: list[str] = []
        self._clock = clock
        self._seconds = seconds
        self._interrupt_at = interrupt_at
        self._read_for_index = workers_module.read_for_index
        monkeypatch.setattr(workers_module, "read_for_index", self)

    def __call__(self, task: FileTask) -> FileOutcome:
        if self._interrupt_at is not None and len(self.read) + 1 == self._interrupt_at:
            self._interrupt_at = None  # once: the next opening reads on
            raise KeyboardInterrupt
        outcome = self._read_for_index(task)
        self._clock.advance(self._seconds)
        self.read.append(task.relative)
        return outcome
