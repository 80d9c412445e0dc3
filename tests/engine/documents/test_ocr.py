"""OCR of pages without a text layer (engine/documents/ocr.py, through `parse_pdf`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.contracts import ClaimStatus
from engine.documents import ocr
from engine.documents.ocr import PageImage, clean_numeric, page_from_tsv
from engine.documents.parse import UnreadableFile, parse_file, parse_pdf
from engine.sources.library import Library
from engine.verify.excerpts import verify_on_page
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import build_claim
from tests.support.scans import scanned_pdf, with_page_scanned

PAGES = [
    "Relatorio anual da usina solar de Petrolina\nA usina entrou em operacao em 2021.",
    "A usina produziu 1.204 MWh em 2023, segundo a ANEEL.\nThe plant employs 310 people.",
]


@pytest.fixture
def tesseract() -> None:
    if not ocr.ocr_available():
        pytest.skip("tesseract with por or eng data is not installed (.ci/run installs it)")


@pytest.mark.parametrize(
    ("read", "cleaned"),
    [
        ("1,2O4", "1,204"),
        ("lO0", "100"),
        ("(1,5O7)", "(1,507)"),
        ("R$l.2OO", "R$1.200"),
        ("US$3,O00", "US$3,000"),
        ("2O24.", "2024."),
        ("10O%", "100%"),
    ],
)
def test_look_alike_letters_in_a_number_are_digits(read: str, cleaned: str) -> None:
    assert clean_numeric(read) == cleaned


@pytest.mark.parametrize(
    "word", ["Oil", "Illinois", "I", "O", "l.", "Il", "COVID-19", "Q1", "1st", "1o", "10l", "2a"]
)
def test_words_ordinals_and_units_stay_as_read(word: str) -> None:
    assert clean_numeric(word) == word


def test_tsv_words_make_lines_and_boxes_in_page_points() -> None:
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [
        "1\t1\t0\t0\t0\t0\t0\t0\t600\t300\t-1\t",
        "4\t1\t1\t1\t1\t0\t30\t60\t300\t30\t-1\t",
        "5\t1\t1\t1\t1\t1\t30\t60\t120\t30\t95.5\tReceita",
        "5\t1\t1\t1\t1\t2\t180\t60\t90\t30\t91.0\t1.2O4",
        "5\t1\t1\t1\t2\t1\t30\t120\t60\t30\t90.0\t ",
        "5\t1\t2\t1\t1\t1\t30\t150\t150\t30\t89.0\tSegunda",
    ]
    image = PageImage(b"", dpi=150, left=0.0, top=792.0)
    page = page_from_tsv("\n".join([header, *rows]) + "\n", image)
    assert page.text == "Receita 1.204\nSegunda"
    first, second, third = page.words
    assert (first.text, first.start, second.text, second.start) == ("Receita", 0, "1.204", 8)
    assert third.start == page.text.index("Segunda")
    # 150 DPI: a pixel is 72/150 points; y grows downwards in the image, upwards on the page
    assert first.box == pytest.approx((14.4, 792.0 - 90 * 0.48, 72.0, 792.0 - 28.8))
    assert first.confidence == 95.5


def test_scanned_pages_are_read_by_ocr(tesseract: None) -> None:
    scan = scanned_pdf(pdf_bytes(PAGES))
    assert parse_pdf(scan, ocr=False).texts == ("", "")  # no text layer
    parsed = parse_pdf(scan)
    assert parsed.ocr_pages == frozenset({0, 1})
    assert "usina solar de Petrolina" in parsed.texts[0]
    assert "1.204 MWh em 2023" in parsed.texts[1]
    assert "employs 310 people" in parsed.texts[1]


def test_only_the_page_without_a_text_layer_is_read_by_ocr(tesseract: None) -> None:
    source = pdf_bytes(PAGES)
    mixed = parse_pdf(with_page_scanned(source, 1, dpi=200))
    assert mixed.ocr_pages == frozenset({1})
    assert mixed.texts[0] == parse_pdf(source).texts[0]
    assert "1.204 MWh em 2023" in mixed.texts[1]


def test_a_text_page_keeps_its_text_exactly(tesseract: None) -> None:
    source = pdf_bytes(PAGES)
    parsed = parse_pdf(source)
    assert parsed.ocr_pages == frozenset()
    assert parsed.texts == parse_pdf(source, ocr=False).texts


def test_without_tesseract_a_scan_says_ocr_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_pdf(pdf_bytes(PAGES[:1]), dpi=100))
    # Where the PDF reader and the file's reason ask it (both import it when a PDF is read).
    monkeypatch.setattr("engine.documents.ocr.ocr_available", lambda: False)
    monkeypatch.setattr("engine.documents.pdf_reading.ocr_available", lambda: False)
    with pytest.raises(UnreadableFile, match="OCR needs tesseract"):
        parse_file(path)


async def test_a_scanned_library_file_is_found_and_verified_on_its_page(
    tmp_path: Path, tesseract: None
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "usina.pdf").write_bytes(scanned_pdf(pdf_bytes(PAGES)))
    library = Library.open(folder, cache_dir=tmp_path / "cache")
    hits = await library.search("quantos MWh a usina produziu em 2023")
    assert hits
    assert hits[0].url.endswith("#page=2")
    snapshot = await library.fetch(hits[0].url)
    excerpt = "A usina produziu 1.204 MWh em 2023, segundo a ANEEL."
    claim = build_claim(
        "c1",
        statement="A usina produziu 1.204 MWh em 2023.",
        url=hits[0].url,
        excerpt=excerpt,
        source_sha256=snapshot.sha256,
        status=ClaimStatus.pending,
    )
    checked = verify_on_page(claim, snapshot)
    assert (checked.status, checked.read_by) == (ClaimStatus.verified, "ocr")
    assert snapshot.ocr_pages == {1, 2}
    elsewhere = claim.model_copy(update={"url": hits[0].url.replace("#page=2", "#page=1")})
    assert verify_on_page(elsewhere, snapshot).status is ClaimStatus.rejected


async def test_a_claim_on_a_text_page_of_a_partly_scanned_file_is_read_from_its_text(
    tmp_path: Path, tesseract: None
) -> None:
    """Only the scanned page's claims say "read by OCR": the page with a text layer is read
    from it."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "usina.pdf").write_bytes(with_page_scanned(pdf_bytes(PAGES), 1, dpi=200))
    library = Library.open(folder, cache_dir=tmp_path / "cache")
    snapshot = await library.fetch((await library.search("usina MWh 2023"))[0].url)
    assert snapshot.ocr_pages == {2}
    base = snapshot.url
    scanned, texted = (
        build_claim(
            f"c{page}",
            statement=statement,
            url=f"{base}#page={page}",
            excerpt=statement,
            source_sha256=snapshot.sha256,
            status=ClaimStatus.pending,
        )
        for page, statement in (
            (2, PAGES[1].split("\n")[0]),
            (1, "A usina entrou em operacao em 2021."),
        )
    )
    assert verify_on_page(scanned, snapshot).read_by == "ocr"
    assert verify_on_page(texted, snapshot).read_by == "text"
