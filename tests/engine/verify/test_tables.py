"""Tables as tables in the verifier: a row continued on the next page is read under the
header its table printed on the previous page (verified there), and a row too short to quote
alone ("Bahia 410 655") is quoted with its header. Each relaxation comes with the attacks it
must still refuse: a short excerpt without a header, a "header" that is prose, a header from
two pages back, a page that does not start with the continued table."""

from __future__ import annotations

import pytest

from engine.contracts import Claim, ClaimStatus
from engine.snapshots import Snapshot, with_page
from engine.verify.excerpts import verify_on_page
from tests.support.continued_table import (
    HEADER,
    PAGE_1,
    PAGE_2,
    PROSE_THEN_ROWS,
    URL,
    snapshot_of,
)
from tests.support.page_claims import claim_on


def judged(
    snapshot: Snapshot, page: int, statement: str, excerpt: str, context: str | None
) -> Claim:
    return verify_on_page(
        claim_on(snapshot, statement, excerpt, context, url=with_page(URL, page)), snapshot
    )


@pytest.fixture(scope="module")
def two_pages() -> Snapshot:
    return snapshot_of([PAGE_1, PAGE_2])


# --- a table continued on the next page ------------------------------------------------------


def test_a_continued_row_is_verified_under_the_header_of_the_previous_page(
    two_pages: Snapshot,
) -> None:
    result = judged(
        two_pages,
        2,
        "Rio Grande do Norte — 2023: 210; 2024: 344",
        "Rio Grande do Norte 210 344",
        HEADER,
    )
    assert result.status is ClaimStatus.verified, result.reason
    assert result.locator is not None
    assert result.locator.page == 2
    assert result.context_locator is not None
    assert result.context_locator.page == 1
    header = two_pages.page_texts()[0]
    at = result.context_locator
    assert header[at.char_start : at.char_end] == HEADER
    assert "header from page 1" in (result.reason or "")


def test_a_header_from_two_pages_back_is_rejected() -> None:
    middle = "Pernambuco 190 260\nParaiba 120 180\nAlagoas 90 140"
    snapshot = snapshot_of([PAGE_1, middle, "Sergipe 80 120\nMaranhao 70 110"])
    result = judged(snapshot, 3, "Sergipe — 2023: 80; 2024: 120", "Sergipe 80 120", HEADER)
    assert result.status is ClaimStatus.rejected
    assert "context" in (result.reason or "")


ANOTHER_HEADER_THEN_ROWS = (
    "Distribuidora 2021 2022\nRio Grande do Norte 210 344\nPernambuco 190 260"
)
TABLE_THEN_PROSE = (
    f"{PAGE_1}\n"
    "Os numeros acima foram revistos pela agencia reguladora depois de consultas publicas "
    "com os agentes do setor e as associacoes de consumidores de varias regioes do pais"
)


@pytest.mark.parametrize(
    "pages",
    [
        pytest.param([PAGE_1, PROSE_THEN_ROWS], id="page-does-not-start-with-the-table"),
        pytest.param([PAGE_1, ANOTHER_HEADER_THEN_ROWS], id="page-prints-another-tables-header"),
        pytest.param([TABLE_THEN_PROSE, PAGE_2], id="prose-follows-the-header-page-1"),
    ],
)
def test_a_header_that_does_not_continue_onto_the_next_page_is_rejected(pages: list[str]) -> None:
    result = judged(
        snapshot_of(pages),
        2,
        "Rio Grande do Norte — 2023: 210; 2024: 344",
        "Rio Grande do Norte 210 344",
        HEADER,
    )
    assert result.status is ClaimStatus.rejected
    assert "context" in (result.reason or "")


def test_a_lead_in_from_the_previous_page_is_not_carried_over() -> None:
    lead = (
        "Producao de energia solar por estado\n\nOs estados com maior producao foram os seguintes:"
    )
    result = judged(
        snapshot_of([lead, PAGE_2]),
        2,
        "Os estados com maior producao foram: Rio Grande do Norte 210 344",
        "Rio Grande do Norte 210 344",
        "Os estados com maior producao foram os seguintes:",
    )
    assert result.status is ClaimStatus.rejected


def test_a_header_on_the_next_page_is_not_carried_back() -> None:
    result = judged(
        snapshot_of([PAGE_2, PAGE_1]),
        1,
        "Rio Grande do Norte — 2023: 210; 2024: 344",
        "Rio Grande do Norte 210 344",
        HEADER,
    )
    assert result.status is ClaimStatus.rejected


def test_a_header_on_the_excerpts_own_page_still_verifies_as_before(two_pages: Snapshot) -> None:
    result = judged(two_pages, 1, "Ceara — 2023: 380; 2024: 512", "Ceara 380 512", HEADER)
    assert result.status is ClaimStatus.verified, result.reason
    assert result.context_locator is not None
    assert result.context_locator.page == 1
    assert "header from page" not in (result.reason or "")


# --- rows shorter than an excerpt ----------------------------------------------------------


def test_a_short_row_is_verified_with_its_header(two_pages: Snapshot) -> None:
    result = judged(two_pages, 1, "Bahia — 2023: 410; 2024: 655", "Bahia 410 655", HEADER)
    assert result.status is ClaimStatus.verified, result.reason


def test_a_short_continued_row_is_verified_with_the_previous_pages_header(
    two_pages: Snapshot,
) -> None:
    result = judged(two_pages, 2, "Paraiba — 2023: 120; 2024: 180", "Paraiba 120 180", HEADER)
    assert result.status is ClaimStatus.verified, result.reason
    assert result.context_locator is not None
    assert result.context_locator.page == 1


def test_a_short_excerpt_without_context_is_too_short(two_pages: Snapshot) -> None:
    result = judged(two_pages, 1, "Bahia: 410 e 655.", "Bahia 410 655", None)
    assert result.status is ClaimStatus.rejected
    assert "too short" in (result.reason or "")


@pytest.mark.parametrize(
    ("page", "context"),
    [
        # a sentence that mentions a year is not a column header
        (
            "A producao cresceu em todos os estados no ano de 2024.\nBahia 410 655\nCeara 380 512",
            "A producao cresceu em todos os estados no ano de 2024.",
        ),
        # a lead-in is not a header
        (
            "Os maiores produtores foram:\nBahia 410 655\nCeara 380 512",
            "Os maiores produtores foram:",
        ),
        # a long line of prose without a full stop
        (
            "Segundo a agencia a producao dos estados do Nordeste cresceu muito em 2024 e deve "
            "seguir crescendo\nBahia 410 655",
            "Segundo a agencia a producao dos estados do Nordeste cresceu muito em 2024 e deve "
            "seguir crescendo",
        ),
    ],
)
def test_a_short_excerpt_whose_header_is_prose_is_rejected(page: str, context: str) -> None:
    result = judged(
        Snapshot.from_pages(URL, [page]), 1, "Bahia — 410; 655", "Bahia 410 655", context
    )
    assert result.status is ClaimStatus.rejected


@pytest.mark.parametrize(
    ("excerpt", "statement"),
    [
        ("Bahia 410", "Bahia — 2023: 410"),  # a row cut short: its columns no longer pair
        ("410 655", "2023: 410; 2024: 655"),  # figures without the row's label
        ("ia 410 655", "ia — 2023: 410; 2024: 655"),  # not a whole word
        ("Bahia", "Bahia"),  # no figure: not a row
    ],
)
def test_a_short_excerpt_that_is_not_a_whole_row_is_rejected(
    two_pages: Snapshot, excerpt: str, statement: str
) -> None:
    result = judged(two_pages, 1, statement, excerpt, HEADER)
    assert result.status is ClaimStatus.rejected


def test_a_short_row_with_a_header_cut_from_its_line_is_rejected(two_pages: Snapshot) -> None:
    result = judged(two_pages, 1, "Bahia — 2024: 410", "Bahia 410 655", "2024")
    assert result.status is ClaimStatus.rejected


def test_a_short_row_still_needs_every_number_in_what_it_quotes(two_pages: Snapshot) -> None:
    result = judged(two_pages, 1, "Bahia — 2023: 410; 2024: 665", "Bahia 410 655", HEADER)
    assert result.status is ClaimStatus.rejected
    assert "numbers not in" in (result.reason or "")


def test_a_row_of_a_few_characters_is_still_too_short() -> None:
    page = "Estado 2023 2024\nBA 4 6\nCE 3 5"
    result = judged(Snapshot.from_pages(URL, [page]), 1, "BA — 2023: 4; 2024: 6", "BA 4 6", HEADER)
    assert result.status is ClaimStatus.rejected
    assert "too short" in (result.reason or "")
