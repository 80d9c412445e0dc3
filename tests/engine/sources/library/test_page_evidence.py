from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote

import pytest

from engine.contracts import Claim, ClaimStatus, Locator, Report
from engine.documents.parse import PDFIUM_LOCK, parse_pdf
from engine.snapshots import split_page
from engine.sources.library import Library
from engine.sources.library.page_evidence import (
    LibraryPageEvidence,
    PdfPageEvidence,
    crop_png,
)
from engine.verify.excerpts import verify_on_page
from tests.support.library_claims import report_citing, verified
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import build_claim

LEAD_IN = "o faturamento das unidades participantes deve considerar, até 2028, a incidência:"
ITEM = "I - de 100% (cem por cento) das componentes tarifárias relativas à distribuição;"
PAGES = [
    "Capa da resolução normativa.",
    f"Art. 27. Para minigeração acima de 500 kW,\n{LEAD_IN}\n{ITEM}\nII - demais casos.",
]
HTML = "<html><head><title>Nota</title></head><body><p>Uma nota técnica com texto suficiente "
HTML += "para ser lida pela biblioteca, sobre a geração distribuída.</p></body></html>"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ren 1000.pdf").write_bytes(pdf_bytes(PAGES))
    (folder / "nota.html").write_text(HTML, encoding="utf-8")
    return folder


@pytest.fixture
def library(folder: Path) -> Library:
    return Library.open(folder)


def pdf_url(library: Library) -> str:
    [document] = [d for d in library.documents() if d.path.suffix == ".pdf"]
    return document.url


async def item_claim(library: Library, claim_id: str = "citem", **fields: object) -> Claim:
    claim = build_claim(
        claim_id,
        url=f"{pdf_url(library)}#page=2",
        statement="Incide 100% das componentes tarifárias de distribuição.",
        excerpt=ITEM,
        **fields,
    )
    return await verified(library, claim)


async def test_cited_pdf_claims_get_their_boxes(library: Library) -> None:
    claim = await item_claim(library)
    uncited = await item_claim(library, "cuncited")
    web = build_claim("cweb", url="https://www.aneel.gov.br/nota")

    report = LibraryPageEvidence(library).with_boxes(report_citing(claim, web, uncited=(uncited,)))

    located = report.claim("citem").locator
    assert located is not None
    assert located.page == 2
    assert (located.char_start, located.char_end) == (
        claim.locator.char_start,  # type: ignore[union-attr]
        claim.locator.char_end,  # type: ignore[union-attr]
    )
    [(left, bottom, right, top)] = located.boxes
    assert 0 < left < right
    assert 0 < bottom < top
    assert report.claim("cweb").locator is None
    assert report.claim("cuncited").locator == uncited.locator  # only what the report cites


async def test_boxes_survive_report_json(library: Library) -> None:
    report = LibraryPageEvidence(library).with_boxes(report_citing(await item_claim(library)))

    again = Report.model_validate_json(report.model_dump_json())

    assert again.claim("citem").locator == report.claim("citem").locator
    assert again.claim("citem").locator.boxes  # type: ignore[union-attr]


async def test_context_on_the_same_page_gets_its_own_boxes(library: Library) -> None:
    page_text = (await library.fetch(f"{pdf_url(library)}#page=2")).page_texts()[1]
    start = page_text.index(LEAD_IN)
    claim = await item_claim(
        library,
        context=LEAD_IN,
        context_locator=Locator(page=2, char_start=start, char_end=start + len(LEAD_IN)),
    )

    report = LibraryPageEvidence(library).with_boxes(report_citing(claim))

    located = report.claim("citem")
    assert located.context_locator is not None
    assert len(located.context_locator.boxes) == 1
    assert located.locator is not None
    assert located.context_locator.boxes[0][1] > located.locator.boxes[0][3]  # lead-in above


async def test_crops_only_for_claims_on_library_pdfs(library: Library) -> None:
    claim = await item_claim(library)
    [html] = [d for d in library.documents() if d.path.suffix == ".html"]
    note = build_claim("cnote", url=html.url, excerpt="Uma nota técnica com texto suficiente")
    note = verify_on_page(note, await library.fetch(html.url))
    web = build_claim("cweb", url="https://www.aneel.gov.br/nota")

    crops = LibraryPageEvidence(library).crops(report_citing(claim, note, web))

    assert list(crops) == ["citem"]
    assert crops["citem"].startswith(b"\x89PNG\r\n\x1a\n")


async def test_crop_png_for_one_claim(library: Library) -> None:
    claim = await item_claim(library)

    png = crop_png(claim, library)

    assert png is not None
    assert png.startswith(b"\x89PNG")
    assert crop_png(build_claim("cweb", url="https://example.org/x"), library) is None


async def test_no_crop_when_the_excerpt_left_the_page(library: Library) -> None:
    claim = await item_claim(library)
    moved = claim.model_copy(update={"url": f"{pdf_url(library)}#page=1"})
    moved = moved.model_copy(update={"locator": Locator(page=1, char_start=0, char_end=10)})

    assert crop_png(moved, library) is None
    assert LibraryPageEvidence(library).with_boxes(report_citing(moved)).claim(
        "citem"
    ).locator == Locator(page=1, char_start=0, char_end=10)


async def test_claim_cites_a_file_url_spelled_another_way(library: Library) -> None:
    claim = await item_claim(library)
    path = Path(unquote(split_page(claim.url)[0].removeprefix("file://")))
    assert " " in path.name  # spelled "%20" in the library's URL
    odd = f"file://{path.parent}/../{path.parent.name}/{path.name}#page=2"

    assert crop_png(claim.model_copy(update={"url": odd}), library) is not None


async def test_claim_cites_the_manifest_url(folder: Path) -> None:
    entry = {"file": "ren 1000.pdf", "url": "https://www.aneel.gov.br/ren1000.pdf"}
    (folder / "index.jsonl").write_text(json.dumps(entry) + "\n", encoding="utf-8")
    library = Library.open(folder)
    assert pdf_url(library) == "https://www.aneel.gov.br/ren1000.pdf"

    claim = await item_claim(library)

    assert crop_png(claim, library) is not None


def test_an_old_locator_without_boxes_still_loads() -> None:
    locator = Locator.model_validate({"page": 3, "char_start": 4, "char_end": 9})

    assert locator.boxes == []


async def test_a_claim_that_is_not_verified_gets_no_crop(library: Library) -> None:
    claim = await item_claim(library)
    # The verifier keeps the locator of an excerpt found on another page than the cited one.
    rejected = claim.model_copy(
        update={"status": ClaimStatus.rejected, "url": f"{pdf_url(library)}#page=1"}
    )

    assert crop_png(rejected, library) is None
    assert crop_png(claim.model_copy(update={"status": ClaimStatus.pending}), library) is None


async def test_a_pdf_given_as_bytes_gets_the_boxes_and_crop_its_file_gets(
    library: Library, folder: Path
) -> None:
    claim = await item_claim(library)
    report = report_citing(claim)
    data = (folder / "ren 1000.pdf").read_bytes()
    base = split_page(claim.url)[0]
    from_bytes = PdfPageEvidence(lambda url: data if url == base else None)

    boxed = from_bytes.with_boxes(report).claim("citem").locator
    assert boxed is not None
    assert boxed.boxes
    assert boxed == LibraryPageEvidence(library).with_boxes(report).claim("citem").locator
    assert list(from_bytes.crops(report)) == ["citem"]
    assert from_bytes.crop_png(claim) == crop_png(claim, library)


async def test_a_pdf_pdfium_cannot_open_gives_no_evidence_and_no_error(library: Library) -> None:
    claim = await item_claim(library)
    report = report_citing(claim)
    broken = PdfPageEvidence(lambda url: b"%PDF-1.4 truncated")

    assert broken.with_boxes(report).claim("citem").locator == claim.locator
    assert broken.crops(report) == {}
    assert broken.crop_png(claim) is None


async def test_a_crop_waits_for_pdf_work_of_another_thread(library: Library) -> None:
    """pdfium is not thread-safe: a crop never runs while another thread holds the
    process's pdfium lock (a library read or a web PDF being parsed)."""
    claim = await item_claim(library)
    evidence = LibraryPageEvidence(library)
    with ThreadPoolExecutor(max_workers=1) as pool:
        with PDFIUM_LOCK:
            cropping = pool.submit(evidence.crop_png, claim)
            await asyncio.sleep(0.3)
            assert not cropping.done()  # held back while another use of pdfium runs
        assert (cropping.result(timeout=30) or b"").startswith(b"\x89PNG")


def test_parsing_a_pdf_waits_for_pdf_work_of_another_thread() -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        with PDFIUM_LOCK:
            parsing = pool.submit(parse_pdf, pdf_bytes(PAGES))
            time.sleep(0.3)
            assert not parsing.done()
        assert len(parsing.result(timeout=30).texts) == 2
