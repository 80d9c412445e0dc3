"""A header verified on the page before its row's says so wherever a report quotes it."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.contracts import Claim, ClaimStatus, Locator
from engine.render.labels import context_text, labels_for
from engine.render.office import excerpt_text


def row_claim(context_page: int) -> Claim:
    return Claim(
        id="c1",
        statement="Rio Grande do Norte — 2023: 210; 2024: 344",
        url="library:/reports/solar.pdf#page=2",
        excerpt="Rio Grande do Norte 210 344",
        locator=Locator(page=2, char_start=0, char_end=27),
        context="Estado 2023 2024",
        context_locator=Locator(page=context_page, char_start=42, char_end=58),
        accessed_at=datetime(2026, 11, 1, tzinfo=UTC),
        source_sha256="0" * 64,
        subagent="researcher-1",
        subquestion="s1",
        status=ClaimStatus.verified,
    )


def test_a_carried_header_names_its_page_in_both_languages() -> None:
    claim = row_claim(context_page=1)
    assert context_text(labels_for("en"), claim) == "Estado 2023 2024 (header from page 1)"
    assert context_text(labels_for("pt"), claim) == "Estado 2023 2024 (cabeçalho da página 1)"
    assert excerpt_text(claim, labels_for("en")) == (
        "“Rio Grande do Norte 210 344” (Estado 2023 2024 (header from page 1))"
    )


def test_a_header_on_the_rows_own_page_is_shown_as_quoted() -> None:
    assert context_text(labels_for("en"), row_claim(context_page=2)) == "Estado 2023 2024"
