from __future__ import annotations

from datetime import timedelta

import pytest

from engine.contracts import ClaimStatus, Locator, Report, Section
from engine.render.citations import (
    CitationIndex,
    origin_text,
    safe_href,
    source_location,
    source_title,
    sources_by_document,
)
from engine.render.labels import labels_for
from engine.sources.kinds import Origin
from tests.support.render_samples import build_claim, build_report, cite, figures_report


def test_claims_are_numbered_in_reading_order_not_board_order(portuguese_report: Report) -> None:
    index = CitationIndex(portuguese_report)

    assert [index.number_of(cid) for cid in ("cabsolar", "cpdf", "clei")] == [1, 2, 3]
    assert [(n, claim.id) for n, claim in index.cited()] == [
        (1, "cabsolar"),
        (2, "cpdf"),
        (3, "clei"),
    ]


def test_only_cited_claims_enter_the_bibliography(portuguese_report: Report) -> None:
    index = CitationIndex(portuguese_report)

    cited_ids = {claim.id for _, claim in index.cited()}
    assert "cuncited" not in cited_ids
    assert "crejected" not in cited_ids
    assert len(index) == 3
    with pytest.raises(KeyError):
        index.number_of("cuncited")


def test_two_claims_from_one_url_keep_separate_numbers() -> None:
    url = "https://example.org/same-page"
    report = build_report(
        [build_claim("ca", url=url), build_claim("cb", url=url)],
        [Section(title="S", sentences=[cite("One.", "cb"), cite("Two.", "ca", "cb")])],
    )
    index = CitationIndex(report)

    assert index.number_of("cb") == 1
    assert index.number_of("ca") == 2
    assert [claim.id for _, claim in index.cited()] == ["cb", "ca"]


def test_page_comes_from_the_url_fragment_and_is_dropped_from_the_shown_url() -> None:
    location = source_location(build_claim("c1", url="https://x.org/doc.pdf#page=60"))

    assert location.base_url == "https://x.org/doc.pdf"
    assert location.page == 60
    assert location.href == "https://x.org/doc.pdf#page=60"


def test_page_falls_back_to_the_locator() -> None:
    claim = build_claim(
        "c1", url="https://x.org/doc.pdf", locator=Locator(page=7, char_start=0, char_end=5)
    )

    assert source_location(claim).page == 7


def test_unpaged_source_has_no_page() -> None:
    assert source_location(build_claim("c1", url="https://x.org/a#section")).page is None


@pytest.mark.parametrize(
    "url",
    [
        "http://example.org/a",
        "https://example.org/a?b=c#page=2",
        "HTTPS://EXAMPLE.ORG/",
    ],
)
def test_web_urls_are_linkable(url: str) -> None:
    assert safe_href(url) == url


@pytest.mark.parametrize(
    "url",
    [
        "file:///srv/library/report.pdf",  # a path on the machine that wrote the report
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "/relative/path",
        "https://example.org/a b",
        "http://[::1",
    ],
)
def test_other_urls_are_not_linkable(url: str) -> None:
    assert safe_href(url) is None


def test_source_title_falls_back_to_the_url_without_page() -> None:
    claim = build_claim("c1", title="  ", url="https://x.org/doc.pdf#page=3")

    assert source_title(claim) == "https://x.org/doc.pdf"
    assert source_title(build_claim("c2", title="A\nTitle")) == "A Title"


def test_sources_are_grouped_by_document_in_first_citation_order() -> None:
    groups = sources_by_document(figures_report())

    assert [(g.title, g.url) for g in groups] == [
        ("BESTBUY_2019_10K", "https://example.org/bestbuy-2019-10k.pdf"),
        ("BESTBUY_2023_10K", "https://example.org/bestbuy-2023-10k.pdf"),
    ]
    assert [[(e.number, e.claim.id, e.page) for e in g.excerpts] for g in groups] == [
        [(1, "r19", 53), (3, "o19", 53)],
        [(2, "r23", 40), (4, "o23", 40), (5, "d23", 27)],
    ]
    assert groups[1].excerpts[2].href == "https://example.org/bestbuy-2023-10k.pdf#page=27"
    assert groups[0].href == "https://example.org/bestbuy-2019-10k.pdf"
    assert all(g.verified for g in groups)


def test_a_group_keeps_the_earliest_access_and_flags_an_unverified_excerpt() -> None:
    first = build_claim("ca", url="https://x.org/doc.pdf#page=2", title="Doc")
    later = build_claim(
        "cb",
        url="https://x.org/doc.pdf#page=5",
        title="Doc",
        accessed_at=first.accessed_at + timedelta(days=1),
        status=ClaimStatus.pending,
    )
    report = build_report(
        [later, first], [Section(title="S", sentences=[cite("One.", "cb"), cite("Two.", "ca")])]
    )
    [group] = sources_by_document(report)

    assert [e.number for e in group.excerpts] == [1, 2]
    assert group.accessed_at == first.accessed_at
    assert not group.verified


def test_an_unlinkable_document_is_grouped_without_a_link() -> None:
    report = build_report(
        [build_claim("c1", url="javascript:alert(1)")],
        [Section(title="S", sentences=[cite("One.", "c1")])],
    )
    [group] = sources_by_document(report)

    assert group.href is None
    assert group.excerpts[0].href is None


def test_every_origin_is_labelled_in_the_reports_language_and_nothing_else_is() -> None:
    english, portuguese = labels_for("en"), labels_for("pt")
    said = {origin: origin_text(english, origin.value) for origin in Origin}
    assert said == {
        Origin.library: "team library",
        Origin.conversation: "shared in this conversation",
        Origin.web: "web",
        Origin.slack: "Slack search",
    }
    assert origin_text(portuguese, "slack") == "busca do Slack"
    assert origin_text(english, "gopher") == ""
    assert origin_text(english, None) == ""
