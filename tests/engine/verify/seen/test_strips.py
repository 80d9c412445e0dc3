"""The seen check's render of an excerpt's region stays under the pixel limit: on a
200-inch page (60,000² pixels at 300 DPI) nothing is rendered, so nothing is seen."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.support.hostile_files import huge_page_pdf
from tests.support.memory_watch import GIGABYTE, run_watched

_RENDER = """
import sys, pypdfium2
from engine.verify.seen.strips import render_strips
pdf = pypdfium2.PdfDocument(sys.argv[1])
print(len(render_strips(pdf, 1, ((100.0, 100.0, 14000.0, 14000.0),))))
"""


def test_a_region_past_the_pixel_limit_is_not_rendered(tmp_path: Path) -> None:
    poster = tmp_path / "poster.pdf"
    poster.write_bytes(huge_page_pdf())
    run = run_watched([sys.executable, "-c", _RENDER, str(poster)], GIGABYTE)
    assert not run.killed, f"the render went past 1 GB ({run.peak:,} bytes)"
    assert run.stdout.strip() == "0", run.stderr[-2000:]
