"""`fonte ask --web` shows the pages of the PDFs it fetched as `--library` shows its own:
boxes in report.json, highlighted crops in report.html and report.pdf; HTML pages stay
text-only. Real providers, fetcher, verifier and renderers against the offline web."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from engine.cli import EXIT_OK, main
from engine.sources.web import DiskSnapshotStore
from engine.text import collapse_whitespace
from evals.offline_web import OfflineWeb
from evals.web_pages import pdf_page, wiki_page
from tests.support.cli_pages import ServeWeb
from tests.support.pdfs import pdf_bytes

PDF_PATH = "/relatorio-gd-2024.pdf"
PDF_PAGES = [
    "Relatorio anual de geracao distribuida 2024. Sumario executivo.",
    "A potencia instalada de geracao distribuida no Brasil chegou a 26 GW em 2023.\n"
    "Os sistemas residenciais lideraram o crescimento.",
]
ARTICLE = [
    "A geracao distribuida no Brasil e regulada pela Lei 14.300 de 2022.",
    "A potencia instalada de geracao distribuida cresceu rapidamente desde 2019.",
]
QUESTION = "Qual a potencia instalada de geracao distribuida no Brasil?"
DATA_PNG = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


@pytest.fixture
def web(serve_web: ServeWeb) -> OfflineWeb:
    pages = [
        pdf_page(
            PDF_PATH,
            pdf_bytes(PDF_PAGES),
            title="Relatorio de geracao distribuida 2024",
            text=" ".join(PDF_PAGES),
        ),
        wiki_page("Geracao distribuida", ARTICLE),
    ]
    return serve_web(pages)


def ask(tmp_path: Path, out: str, formats: str = "json,html") -> Path:
    folder = tmp_path / out
    arguments = ["ask", "--web", QUESTION, "--out", str(folder), "--format", formats]
    arguments += ["--cache-dir", str(tmp_path / "cache"), "--no-clarify"]
    assert main(arguments) == EXIT_OK
    return folder


def cited_claims(folder: Path) -> list[dict[str, Any]]:
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    cited = {
        claim_id
        for section in report["sections"]
        for sentence in section["sentences"]
        for claim_id in sentence["claim_ids"]
    }
    return [c for c in report["claims"] if c["id"] in cited and c["status"] == "verified"]


def on_the_pdf(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = [c for c in claims if c["url"].split("#")[0].endswith(PDF_PATH)]
    assert found, "the offline model no longer cites the PDF: the question needs updating"
    return found


def crops_in(folder: Path) -> list[bytes]:
    html = (folder / "report.html").read_text(encoding="utf-8")
    return [base64.b64decode(data) for data in DATA_PNG.findall(html)]


def images_in(pdf: Path) -> int:
    document = pypdfium2.PdfDocument(pdf)
    try:
        found = 0
        for page in document:
            found += len(list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])))
            page.close()
        return found
    finally:
        document.close()


def test_claims_on_a_fetched_pdf_get_boxes_and_crops_and_html_claims_none(
    web: OfflineWeb, tmp_path: Path
) -> None:
    folder = ask(tmp_path, "out", "json,html,pdf")

    claims = cited_claims(folder)
    pdf_claims = on_the_pdf(claims)
    html_claims = [c for c in claims if c not in pdf_claims]
    assert html_claims, "the offline model no longer cites the HTML page"
    for claim in pdf_claims:
        page_text = collapse_whitespace(PDF_PAGES[claim["locator"]["page"] - 1])
        assert collapse_whitespace(claim["excerpt"]) in page_text
        [(left, bottom, right, top)] = claim["locator"]["boxes"]
        assert 0 < left < right
        assert 0 < bottom < top
    assert all(not (c["locator"] or {}).get("boxes") for c in html_claims)
    crops = crops_in(folder)
    assert len(crops) == len(pdf_claims)  # one per citation of the PDF, none for the HTML
    assert all(png.startswith(b"\x89PNG\r\n\x1a\n") for png in crops)
    assert images_in(folder / "report.pdf") == len(pdf_claims)


def test_a_second_run_from_the_cache_still_shows_the_pdf(web: OfflineWeb, tmp_path: Path) -> None:
    ask(tmp_path, "first")
    folder = ask(tmp_path, "second")

    pdf_reads = [r for r in web.requests if r.target.split("?")[0] == PDF_PATH]
    assert len(pdf_reads) == 1  # the second run read the PDF from the snapshot cache
    pdf_claims = on_the_pdf(cited_claims(folder))
    assert all(claim["locator"]["boxes"] for claim in pdf_claims)
    assert len(crops_in(folder)) == len(pdf_claims)


def test_a_corrupt_cached_pdf_leaves_the_report_text_only(web: OfflineWeb, tmp_path: Path) -> None:
    assert crops_in(ask(tmp_path, "first"))
    store = DiskSnapshotStore(tmp_path / "cache" / "snapshots")
    kept = store.pdf_path_for(web.base_url + PDF_PATH)
    assert kept.exists()
    kept.write_bytes(b"%PDF-1.7\n" + b"\x00 not a pdf any more " * 50)

    folder = ask(tmp_path, "second")

    pdf_claims = on_the_pdf(cited_claims(folder))
    assert all(claim["locator"]["boxes"] == [] for claim in pdf_claims)
    assert crops_in(folder) == []
