"""Boxes and crops of excerpts on pages OCR read (page_boxes.py, page_evidence.py)."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops

from engine.contracts import Claim, ClaimStatus, Locator, Report, Section
from engine.documents import ocr
from engine.documents.layout import Box
from engine.documents.ocr import OcrPage, PageImage, page_from_tsv
from engine.documents.parse import PDFIUM_LOCK
from engine.sources.library import Deadline, Library
from engine.sources.library.page_boxes import (
    ocr_lines,
    ocr_span_boxes,
    page_wants_ocr,
    read_page_by_ocr,
)
from engine.sources.library.page_crops import BOX_PADDING_POINTS, CROP_DPI
from engine.sources.library.page_evidence import LibraryPageEvidence
from engine.verify.excerpts import verify_on_page
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import build_claim, build_report, cite
from tests.support.scans import with_page_scanned

PAGES = [
    "Relatorio anual da usina solar de Petrolina\nA usina entrou em operacao em 2021.",
    "A usina produziu 1.204 MWh em 2023, segundo a ANEEL.\nThe plant employs 310 people.",
]
EXCERPT = "A usina produziu 1.204 MWh em 2023, segundo a ANEEL."
SCALE = CROP_DPI / 72
TSV_HEADER = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight"
TSV_HEADER += "\tconf\ttext"


@pytest.fixture
def tesseract() -> None:
    if not ocr.ocr_available():
        pytest.skip("tesseract with por or eng data is not installed (.ci/run installs it)")


@pytest.fixture
def library(tmp_path: Path) -> Library:
    """A library of one PDF whose second page is a scan (no text layer)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "usina.pdf").write_bytes(with_page_scanned(pdf_bytes(PAGES), 1, dpi=200))
    return Library.open(folder, cache_dir=tmp_path / "cache")


def tsv_page(rows: list[tuple[int, int, int, int, int, int, str]]) -> OcrPage:
    """An OCR page of words: (line, word, left, top, width, height, text), in pixels at
    72 DPI, so a pixel is a point; the page is 800 points tall."""
    lines = [TSV_HEADER]
    for line, word, left, top, width, height, text in rows:
        cells = [5, 1, 1, 1, line, word, left, top, width, height, 90]
        lines.append("\t".join(str(cell) for cell in cells) + f"\t{text}")
    return page_from_tsv("\n".join(lines) + "\n", PageImage(b"", dpi=72, left=0.0, top=800.0))


TWO_LINES = tsv_page(
    [
        (1, 1, 100, 100, 50, 10, "Receita"),
        (1, 2, 155, 100, 40, 10, "de"),
        (1, 3, 200, 100, 40, 10, "1.2O4"),
        (1, 4, 245, 100, 30, 10, "mil"),
        (2, 1, 100, 115, 60, 10, "reais"),
        (2, 2, 165, 115, 40, 10, "em"),
        (2, 3, 210, 115, 40, 10, "2023."),
    ]
)


def word_box(page: OcrPage, text: str) -> Box:
    [box] = [word.box for word in page.words if word.text == text]
    return box


def covers(outer: Box, inner: Box) -> bool:
    return (
        outer[0] <= inner[0] + 0.01
        and outer[1] <= inner[1] + 0.01
        and outer[2] >= inner[2] - 0.01
        and outer[3] >= inner[3] - 0.01
    )


def test_the_words_of_an_excerpt_are_boxed_line_by_line() -> None:
    assert TWO_LINES.text == "Receita de 1.204 mil\nreais em 2023."
    first, second = ocr_span_boxes(TWO_LINES, "1.204 mil reais em")
    assert first == (200.0, 690.0, 275.0, 700.0)  # "1.204" to "mil", line 1
    assert second == (100.0, 675.0, 205.0, 685.0)  # "reais" to "em", line 2
    assert not covers(second, word_box(TWO_LINES, "2023."))


def test_an_excerpt_is_found_as_ocr_text_was_cleaned() -> None:
    """The page text holds "1.204" (look-alike letters cleaned inside numbers), so that is
    what a claim quotes and what is boxed; the raw "1.2O4" is not in the text."""
    [box] = ocr_span_boxes(TWO_LINES, "Receita de 1.204")
    assert box == (100.0, 690.0, 240.0, 700.0)
    assert ocr_span_boxes(TWO_LINES, "Receita de 1.2O4") == []


def test_an_excerpt_not_in_what_ocr_read_gets_no_box() -> None:
    assert ocr_span_boxes(TWO_LINES, "Despesa de 1.204 mil") == []
    assert ocr_span_boxes(OcrPage("", ()), "Receita") == []


def test_the_offsets_pick_the_occurrence_quoted() -> None:
    page = tsv_page(
        [
            (1, 1, 100, 100, 40, 10, "Bahia"),
            (1, 2, 145, 100, 30, 10, "410"),
            (2, 1, 100, 115, 40, 10, "Bahia"),
            (2, 2, 145, 115, 30, 10, "410"),
        ]
    )
    later = page.text.rindex("Bahia")
    [box] = ocr_span_boxes(page, "Bahia 410", (later, later + len("Bahia 410")))
    assert box == (100.0, 675.0, 175.0, 685.0)


def test_ocr_lines_are_one_box_a_line() -> None:
    assert ocr_lines(TWO_LINES) == [(100.0, 690.0, 275.0, 700.0), (100.0, 675.0, 250.0, 685.0)]


async def ocr_claim(library: Library) -> Claim:
    """The claim on page 2 (the scan) as the verifier leaves it: verified, read by OCR."""
    [document] = library.documents()
    url = f"{document.url}#page=2"
    snapshot = await library.fetch(url)
    assert snapshot.ocr_pages == {2}
    claim = build_claim(
        "cocr",
        statement="A usina produziu 1.204 MWh em 2023.",
        url=url,
        excerpt=EXCERPT,
        source_sha256=snapshot.sha256,
        status=ClaimStatus.pending,
    )
    checked = verify_on_page(claim, snapshot)
    assert (checked.status, checked.read_by) == (ClaimStatus.verified, "ocr"), checked.reason
    return checked


def citing(claim: Claim) -> Report:
    return build_report([claim], [Section(title="Usina", sentences=[cite("Frase.", claim.id)])])


def highlighted(png: bytes) -> tuple[int, int, int, int] | None:
    """The bounding box, in the crop's pixels, of its highlighter-yellow pixels."""
    assert png.startswith(b"\x89PNG")
    red, green, blue = Image.open(io.BytesIO(png)).convert("RGB").split()
    mask = ImageChops.multiply(
        ImageChops.multiply(
            red.point(lambda v: 255 if v > 200 else 0), green.point(lambda v: 255 if v > 170 else 0)
        ),
        blue.point(lambda v: 255 if v < 150 else 0),
    )
    return mask.getbbox()


def scanned_page_words(library: Library) -> OcrPage:
    """What OCR reads on the scan, as the parser read it."""
    [document] = library.documents()
    pdf = pypdfium2.PdfDocument(document.path)
    try:
        scan = read_page_by_ocr(pdf, 2)
    finally:
        pdf.close()
    assert scan is not None
    return scan


async def test_an_ocr_claim_is_boxed_over_its_words_and_cropped(
    library: Library, tesseract: None
) -> None:
    claim = await ocr_claim(library)
    evidence = LibraryPageEvidence(library)
    [located] = evidence.with_boxes(citing(claim)).claims
    assert located.locator is not None
    [box] = located.locator.boxes  # one line of the scan
    scan = scanned_page_words(library)
    start = scan.text.index(EXCERPT)
    quoted = [w for w in scan.words if start <= w.start < start + len(EXCERPT)]
    assert [w.text for w in quoted] == EXCERPT.split()
    assert all(covers(box, word.box) for word in quoted)
    union = (
        min(w.box[0] for w in quoted),
        min(w.box[1] for w in quoted),
        max(w.box[2] for w in quoted),
        max(w.box[3] for w in quoted),
    )
    assert box == pytest.approx(union, abs=0.01)  # the words' own region, nothing more
    below = [w for w in scan.words if w.text in {"employs", "people."}]
    assert below
    assert not any(covers(box, word.box) for word in below)

    png = evidence.crops(citing(located))[claim.id]
    assert png == evidence.crop_png(claim)  # boxed on the fly: the same crop
    painted = highlighted(png)
    assert painted is not None
    pad = 2 * round(BOX_PADDING_POINTS * SCALE)
    width, height = painted[2] - painted[0], painted[3] - painted[1]
    assert abs(width - ((box[2] - box[0]) * SCALE + pad)) <= 3
    assert abs(height - ((box[3] - box[1]) * SCALE + pad)) <= 3


async def test_a_claim_on_a_scan_that_says_text_is_boxed_by_ocr_too(
    library: Library, tesseract: None
) -> None:
    """A page without text objects is read by OCR whatever the claim says (a claim verified
    before `read_by` existed says "text")."""
    claim = (await ocr_claim(library)).model_copy(update={"read_by": "text"})
    [located] = LibraryPageEvidence(library).with_boxes(citing(claim)).claims
    assert located.locator is not None
    assert len(located.locator.boxes) == 1


async def test_an_excerpt_not_in_the_pages_ocr_gets_no_box_and_no_crop(
    library: Library, tesseract: None
) -> None:
    """A claim that says it is on the scan but quotes what is not there (page 1's text):
    no highlight anywhere, no crop claiming it."""
    claim = (await ocr_claim(library)).model_copy(
        update={
            "excerpt": "Relatorio anual da usina solar de Petrolina",
            "locator": Locator(page=2, char_start=0, char_end=43),
        }
    )
    evidence = LibraryPageEvidence(library)
    [located] = evidence.with_boxes(citing(claim)).claims
    assert located.locator is not None
    assert located.locator.boxes == []
    assert evidence.crops(citing(claim)) == {}
    assert evidence.crop_png(claim) is None


async def test_a_text_page_is_not_read_by_ocr(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Page 1 keeps its text layer: boxed by pdfium, never sent to Tesseract."""

    def no_ocr(image: PageImage, timeout: float = 0.0) -> OcrPage | None:
        raise AssertionError("a text page was read by OCR")

    monkeypatch.setattr("engine.sources.library.page_boxes.read_image", no_ocr)
    [document] = library.documents()
    claim = build_claim(
        "ctext",
        url=f"{document.url}#page=1",
        excerpt="A usina entrou em operacao em 2021.",
        locator=Locator(page=1, char_start=0, char_end=0),
    )
    evidence = LibraryPageEvidence(library)
    [located] = evidence.with_boxes(citing(claim)).claims
    assert located.locator is not None
    assert len(located.locator.boxes) == 1
    assert evidence.crop_png(claim) is not None
    pdf = pypdfium2.PdfDocument(document.path)
    try:
        with PDFIUM_LOCK:
            assert (page_wants_ocr(pdf, 1), page_wants_ocr(pdf, 2)) == (False, True)
            assert not page_wants_ocr(pdf, 3)
    finally:
        pdf.close()


async def test_ocr_reads_outside_the_pdfium_lock(
    library: Library, tesseract: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tesseract takes seconds: while it reads, another thread's pdfium work goes on."""
    claim = await ocr_claim(library)
    free: list[bool] = []

    def probe() -> None:
        taken = PDFIUM_LOCK.acquire(timeout=30)
        free.append(taken)
        if taken:
            PDFIUM_LOCK.release()

    def read(image: PageImage, timeout: float = ocr.OCR_TIMEOUT_SECONDS) -> OcrPage | None:
        other = threading.Thread(target=probe)
        other.start()
        other.join()
        return ocr.read_image(image, timeout)

    monkeypatch.setattr("engine.sources.library.page_boxes.read_image", read)
    assert LibraryPageEvidence(library).crop_png(claim) is not None
    assert free == [True]


def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The timeouts Tesseract is called with to box or crop a page, as it reads on."""
    timeouts: list[float] = []

    def read(image: PageImage, timeout: float = ocr.OCR_TIMEOUT_SECONDS) -> OcrPage | None:
        timeouts.append(timeout)
        return ocr.read_image(image, timeout)

    monkeypatch.setattr("engine.sources.library.page_boxes.read_image", read)
    return timeouts


async def test_past_the_time_cap_a_cited_scan_is_not_read_again_and_the_report_says_so(
    library: Library, tesseract: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    claim = await ocr_claim(library)
    timeouts = counted_reads(monkeypatch)
    evidence = LibraryPageEvidence(library, Deadline(at=10.0, clock=lambda: 10.0))

    boxed = evidence.with_boxes(citing(claim))

    [located] = boxed.claims
    assert located.locator is not None
    assert located.locator.boxes == []
    assert boxed.notes[-1] == (
        "The time cap was reached while the cited scanned pages were read again for their "
        "highlight: 1 of 1 are shown without it"
    )
    assert evidence.crops(boxed) == {}
    assert timeouts == []


async def test_before_the_cap_a_scan_is_read_once_in_the_time_left(
    library: Library, tesseract: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page is read for its boxes within what is left of the cap, and its crop reuses
    that reading instead of reading the page again."""
    claim = await ocr_claim(library)
    timeouts = counted_reads(monkeypatch)
    evidence = LibraryPageEvidence(library, Deadline(at=100.0, clock=lambda: 10.0))

    boxed = evidence.with_boxes(citing(claim))
    crops = evidence.crops(boxed)

    assert timeouts == [90.0]
    assert claim.id in crops
    assert boxed.notes == citing(claim).notes
