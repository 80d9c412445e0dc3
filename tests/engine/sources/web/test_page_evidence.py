"""Page evidence for PDFs fetched from the web: a real fetch from the loopback page server,
the verifier's verdict, then boxes and crops drawn from the bytes the cache kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.assembly import open_web_sources
from engine.contracts import Claim, ClaimStatus, Locator, Report, Section
from engine.snapshots import InMemorySnapshotStore
from engine.sources.library import Deadline
from engine.sources.library.page_evidence import PdfPageEvidence
from engine.sources.web.fetcher import WebFetcher
from engine.sources.web.page_evidence import WebPageEvidence
from engine.sources.web.snapshot_cache import CachingFetcher, DiskSnapshotStore
from engine.verify.excerpts import verify_on_page
from tests.support.page_server import PageServer, page
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import build_claim, build_report, cite
from tests.support.scans import with_page_scanned

ITEM = "I - de 100% (cem por cento) das componentes tarifarias relativas a distribuicao;"
PAGES = ["Capa da resolucao normativa.", f"Art. 27. Para minigeracao acima de 500 kW:\n{ITEM}"]
NOTE = "Uma nota tecnica com texto suficiente para ser lida, sobre a geracao distribuida."
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def served(page_server: PageServer) -> PageServer:
    page_server.routes["/ren1000.pdf"] = page(pdf_bytes(PAGES), "application/pdf")
    page_server.routes["/nota"] = page(f"<html><body><p>{NOTE}</p></body></html>")
    return page_server


@pytest.fixture
def store(tmp_path: Path) -> DiskSnapshotStore:
    return DiskSnapshotStore(tmp_path / "snapshots")


async def read_and_verify(fetcher: CachingFetcher, claim: Claim) -> Claim:
    checked = verify_on_page(claim, await fetcher.fetch(claim.url))
    assert checked.status is ClaimStatus.verified, checked.reason
    return checked


async def pdf_claim(
    fetcher: CachingFetcher, served: PageServer, claim_id: str = "cpdf", page_number: int = 2
) -> Claim:
    url = served.url("/ren1000.pdf") + f"#page={page_number}"
    return await read_and_verify(fetcher, build_claim(claim_id, url=url, excerpt=ITEM))


async def note_claim(fetcher: CachingFetcher, served: PageServer) -> Claim:
    claim = build_claim("cnota", url=served.url("/nota"), excerpt=NOTE)
    return await read_and_verify(fetcher, claim)


def report_citing(*claims: Claim) -> Report:
    sentences = [cite(f"Frase {claim.id}.", claim.id) for claim in claims]
    return build_report(list(claims), [Section(title="Regras", sentences=sentences)])


async def test_a_cited_claim_on_a_fetched_pdf_gets_boxes_and_a_crop(
    served: PageServer, web_fetcher: WebFetcher, store: DiskSnapshotStore
) -> None:
    fetcher = CachingFetcher(web_fetcher, store)
    report = report_citing(await pdf_claim(fetcher, served), await note_claim(fetcher, served))
    evidence = WebPageEvidence(store)

    boxed = evidence.with_boxes(report)
    crops = evidence.crops(report)

    located = boxed.claim("cpdf").locator
    assert located is not None
    assert located.page == 2
    [(left, bottom, right, top)] = located.boxes
    assert 0 < left < right
    assert 0 < bottom < top
    assert boxed.claim("cnota").locator == report.claim("cnota").locator  # HTML: text only
    assert list(crops) == ["cpdf"]
    assert crops["cpdf"].startswith(PNG)
    assert evidence.crop_png(report.claim("cpdf")) == crops["cpdf"]
    assert evidence.crop_png(report.claim("cnota")) is None


async def test_the_crop_is_the_one_a_library_draws_from_the_same_pdf(
    served: PageServer, web_fetcher: WebFetcher, store: DiskSnapshotStore
) -> None:
    claim = await pdf_claim(CachingFetcher(web_fetcher, store), served)
    same_file = PdfPageEvidence(lambda url: pdf_bytes(PAGES))

    assert WebPageEvidence(store).crop_png(claim) == same_file.crop_png(claim)


async def test_a_page_read_from_the_cache_later_still_gets_its_crop(
    served: PageServer, web_fetcher: WebFetcher, store: DiskSnapshotStore
) -> None:
    await CachingFetcher(web_fetcher, store).fetch(served.url("/ren1000.pdf"))
    asked = len(served.paths())

    later = CachingFetcher(web_fetcher, DiskSnapshotStore(store.folder))
    claim = await pdf_claim(later, served)

    assert len(served.paths()) == asked
    assert WebPageEvidence(DiskSnapshotStore(store.folder)).crop_png(claim) is not None


@pytest.mark.parametrize(
    "damage",
    [b"%PDF-1.4\n%%EOF\n", b"%PDF-1.7\n" + b"\x00garbage" * 100, None],
    ids=["empty", "garbage", "truncated"],
)
async def test_a_corrupt_kept_pdf_gives_no_evidence_and_no_error(
    served: PageServer, web_fetcher: WebFetcher, store: DiskSnapshotStore, damage: bytes | None
) -> None:
    claim = await pdf_claim(CachingFetcher(web_fetcher, store), served)
    kept = store.pdf_path_for(claim.url)
    kept.write_bytes(kept.read_bytes()[:400] if damage is None else damage)
    report = report_citing(claim)
    evidence = WebPageEvidence(store)

    assert evidence.with_boxes(report).claim("cpdf").locator == claim.locator
    assert evidence.crops(report) == {}
    assert evidence.crop_png(claim) is None


async def test_claims_not_verified_or_whose_excerpt_left_the_page_stay_text_only(
    served: PageServer, web_fetcher: WebFetcher, store: DiskSnapshotStore
) -> None:
    claim = await pdf_claim(CachingFetcher(web_fetcher, store), served)
    rejected = claim.model_copy(update={"id": "crej", "status": ClaimStatus.rejected})
    moved = claim.model_copy(
        update={
            "id": "cmoved",
            "url": served.url("/ren1000.pdf") + "#page=1",
            "locator": claim.locator.model_copy(update={"page": 1}),  # type: ignore[union-attr]
        }
    )
    report = report_citing(rejected, moved)
    evidence = WebPageEvidence(store)

    assert evidence.crops(report) == {}
    boxed = evidence.with_boxes(report)
    assert boxed.claim("crej").locator == rejected.locator
    assert boxed.claim("cmoved").locator.boxes == []  # type: ignore[union-attr]


async def test_a_pdf_never_fetched_has_no_crop(store: DiskSnapshotStore) -> None:
    claim = build_claim("cweb", url="https://example.org/r.pdf#page=2", excerpt=ITEM)
    assert WebPageEvidence(store).crop_png(claim) is None
    assert WebPageEvidence(store).crops(report_citing(claim)) == {}


async def test_a_run_without_a_disk_store_draws_from_memory(
    served: PageServer, web_fetcher: WebFetcher
) -> None:
    fetcher = CachingFetcher(web_fetcher, InMemorySnapshotStore())
    claim = await pdf_claim(fetcher, served)

    crops = WebPageEvidence(fetcher.pdfs).crops(report_citing(claim))

    assert list(crops) == ["cpdf"]


def test_a_kept_scan_is_not_read_again_past_the_run_s_time_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web's page evidence keeps the run's deadline as a library's does: past it, a
    cited scanned page of a kept PDF is not read by OCR again for its highlight, and the
    report says how many were left without it."""
    url = "https://www.example.org/usina.pdf"
    excerpt = "A usina produziu 1.204 MWh em 2023, segundo a ANEEL."
    pages = ["Relatorio anual da usina solar de Petrolina.", excerpt]
    sources = open_web_sources(tmp_path, env={}, deadline=Deadline(at=10.0, clock=lambda: 10.0))
    read: list[object] = []
    monkeypatch.setattr("engine.sources.library.page_boxes.read_image", lambda *a: read.append(a))
    assert isinstance(sources.fetcher, CachingFetcher)
    sources.fetcher.pdfs.keep_pdf(url, with_page_scanned(pdf_bytes(pages), 1, dpi=200))
    claim = build_claim(
        "cocr",
        url=f"{url}#page=2",
        excerpt=excerpt,
        read_by="ocr",
        statement="1.204 MWh.",
        status=ClaimStatus.verified,
        locator=Locator(page=2, char_start=0, char_end=len(excerpt)),
    )
    boxed = sources.evidence.with_boxes(report_citing(claim))
    assert read == []
    assert boxed.notes[-1].startswith("The time cap was reached while the cited scanned pages")
    assert sources.evidence.crops(boxed) == {}
