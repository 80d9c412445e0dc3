"""The extractive model reads tables as tables: a row at the top of a page is quoted under
the header its table printed on the page before, and a row shorter than an excerpt is quoted
whole under its header; each quote is what the verifier then verifies."""

from __future__ import annotations

from engine.contracts import Claim, ClaimStatus
from engine.models.extractive.ranking import Quote, candidates_of, choose_quotes
from engine.snapshots import Snapshot, with_page
from engine.verify.excerpts import verify_on_page
from tests.support import continued_table
from tests.support.continued_table import PAGE_1, PAGE_2, PROSE_THEN_ROWS, URL
from tests.support.page_claims import claim_on

CAPTIONED = "Capacidade instalada de energia solar por estado (MW)\nEstado 2023 2024"
"""The table's header with the caption above it that declares its unit (MW): a row is quoted
under both, so its figures are read in MW (`statements.with_declared_scale`)."""


def snapshot_of(pages: list[str]) -> Snapshot:
    return continued_table.snapshot_of(pages, title="Solar no Nordeste")


def quotes_for(snapshot: Snapshot, question: str) -> list[Quote]:
    candidates = [
        candidate
        for page in range(1, len(snapshot.page_texts()) + 1)
        for candidate in candidates_of(with_page(URL, page), snapshot, hit_rank=page)
    ]
    return choose_quotes(candidates, question)


def verified(quote: Quote, snapshot: Snapshot) -> Claim:
    return verify_on_page(
        claim_on(snapshot, quote.statement, quote.excerpt, quote.context, url=quote.url), snapshot
    )


def test_a_row_on_the_next_page_is_quoted_under_the_header_of_the_page_before() -> None:
    snapshot = snapshot_of([PAGE_1, PAGE_2])
    quotes = quotes_for(snapshot, "Qual a capacidade instalada do Rio Grande do Norte em 2024?")
    row = next(q for q in quotes if q.excerpt == "Rio Grande do Norte 210 344")
    assert row.url == with_page(URL, 2)
    assert row.context == CAPTIONED
    assert row.statement == "Rio Grande do Norte — 2023: 210; 2024: 344 (MW)"
    checked = verified(row, snapshot)
    assert checked.status is ClaimStatus.verified, checked.reason
    assert checked.context_locator is not None
    assert checked.context_locator.page == 1


def test_a_short_row_is_quoted_with_its_header_and_verifies() -> None:
    snapshot = snapshot_of([PAGE_1, PAGE_2])
    quotes = quotes_for(snapshot, "Qual a capacidade instalada da Bahia em 2024?")
    row = next(q for q in quotes if q.excerpt == "Bahia 410 655")
    assert row.context == CAPTIONED
    assert row.statement == "Bahia — 2023: 410; 2024: 655 (MW)"
    checked = verified(row, snapshot)
    assert checked.status is ClaimStatus.verified, checked.reason


def test_a_short_row_of_a_continued_table_is_quoted_and_verifies() -> None:
    snapshot = snapshot_of([PAGE_1, PAGE_2])
    quotes = quotes_for(snapshot, "Qual a capacidade instalada da Paraiba em 2024?")
    row = next(q for q in quotes if q.excerpt == "Paraiba 120 180")
    assert (row.url, row.context) == (with_page(URL, 2), CAPTIONED)
    assert verified(row, snapshot).status is ClaimStatus.verified


def test_the_last_pages_header_is_not_carried_to_the_first() -> None:
    snapshot = snapshot_of([PAGE_2, PAGE_1])
    quotes = quotes_for(snapshot, "Qual a capacidade instalada do Rio Grande do Norte em 2024?")
    assert all(q.context is None for q in quotes if "Rio Grande" in q.excerpt)


def test_a_short_row_without_a_header_is_not_quoted() -> None:
    page = (
        "Capacidade instalada de energia solar por estado, em MW.\n\nBahia 410 655\nCeara 380 512"
    )
    quotes = quotes_for(snapshot_of([page]), "Qual a capacidade instalada da Bahia?")
    assert not any(q.excerpt == "Bahia 410 655" for q in quotes)


def test_a_row_after_a_page_of_prose_is_not_read_under_the_header_before() -> None:
    snapshot = snapshot_of([PAGE_1, PROSE_THEN_ROWS])
    quotes = quotes_for(snapshot, "Qual a capacidade instalada do Rio Grande do Norte em 2024?")
    assert all(q.context != CAPTIONED for q in quotes if "Rio Grande" in q.excerpt)
    for quote in quotes:
        assert verified(quote, snapshot).status is ClaimStatus.verified
