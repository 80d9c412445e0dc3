"""A table of solar capacity by state that a PDF prints over two pages, its header on the first
alone, as the library reads it back: for the tests of rows read under the header of the page
before (the extractive model's quotes and the verifier's contexts)."""

from __future__ import annotations

from engine.documents.parse import parse_pdf
from engine.snapshots import Snapshot
from tests.support.pdfs import pdf_bytes

URL = "library:/reports/solar.pdf"
PAGE_1 = (
    "Capacidade instalada de energia solar por estado (MW)\n\n"
    "Estado 2023 2024\n"
    "Bahia 410 655\n"
    "Ceara 380 512\n"
    "Piaui 300 420"
)
PAGE_2 = (
    "Rio Grande do Norte 210 344\n"
    "Pernambuco 190 260\n"
    "Paraiba 120 180\n\n"
    "Fonte: ANEEL, dados de dezembro."
)
HEADER = "Estado 2023 2024"
PROSE_THEN_ROWS = (
    "A expansao da geracao distribuida no Nordeste seguiu forte ao longo de todo o ano, "
    "puxada por consumidores residenciais e pequenos comercios de varias cidades.\n"
    "Rio Grande do Norte 210 344\nPernambuco 190 260"
)
"""A page that goes on with rows of the table only after a paragraph of prose."""


def snapshot_of(pages: list[str], title: str = "") -> Snapshot:
    """The pages as the library reads them: a PDF written by fpdf2, parsed back."""
    return Snapshot.from_pages(URL, parse_pdf(pdf_bytes(pages)).texts, title=title)
