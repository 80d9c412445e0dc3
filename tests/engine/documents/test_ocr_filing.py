"""A real filing page read by OCR: page 60 of 3M's 2018 10-K (its cash flow statement, a
FinanceBench evidence page) drawn as an image and put back as a scan. The FinanceBench
question finds the same figure on the same page as in the text-layer original."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.contracts import ClaimStatus
from engine.documents import ocr
from engine.sources.library import Library
from engine.verify.excerpts import verify_on_page
from tests.support.corpus import corpus_folder
from tests.support.render_samples import build_claim
from tests.support.scans import with_page_scanned

FILING = "3M_2018_10K.pdf"
PAGE = 60  # FinanceBench's evidence_page_num 59, counted from 0
QUESTION = "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"
LINE = "Purchases of property, plant and equipment (PP&E)"
FIGURE = "(1,577)"


async def _page_hit(folder: Path, cache: Path) -> tuple[Library, str, str]:
    """The library of `folder`, and the URL and passage of its best hit on page `PAGE`."""
    library = Library.open(folder, cache_dir=cache)
    hits = await library.search(QUESTION, limit=10)
    on_page = [hit for hit in hits if hit.url.endswith(f"#page={PAGE}")]
    assert on_page, [hit.url for hit in hits]
    return library, on_page[0].url, on_page[0].passage


async def test_the_filing_figure_is_found_by_ocr_on_the_same_page(tmp_path: Path) -> None:
    source = corpus_folder("financebench/pdfs", needs=FILING) / FILING
    if not ocr.ocr_available():
        pytest.skip("tesseract with por or eng data is not installed (.ci/run installs it)")
    original, scanned = tmp_path / "original", tmp_path / "scanned"
    original.mkdir()
    scanned.mkdir()
    (original / FILING).write_bytes(source.read_bytes())
    (scanned / FILING).write_bytes(with_page_scanned(source, PAGE - 1))

    _, _, text_passage = await _page_hit(original, tmp_path / "cache-original")
    library, url, ocr_passage = await _page_hit(scanned, tmp_path / "cache-scanned")
    assert FIGURE in text_passage
    assert FIGURE in ocr_passage

    snapshot = await library.fetch(url)
    assert snapshot.pages is not None
    page_text = snapshot.pages[PAGE - 1]
    line = next(line for line in page_text.split("\n") if line.startswith(LINE))
    assert FIGURE in line  # the row keeps its label and its figures on one line
    claim = build_claim(
        "c1",
        statement="3M's purchases of property, plant and equipment were (1,577).",
        url=url,
        excerpt=line,
        source_sha256=snapshot.sha256,
        status=ClaimStatus.pending,
    )
    assert verify_on_page(claim, snapshot).status is ClaimStatus.verified
