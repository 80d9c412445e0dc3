"""A report as one self-contained HTML file whose excerpts open under each citing sentence.

All report text is untrusted (excerpts and titles come from fetched pages), so the template
autoescapes everything and only http/https/file URLs become links.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import jinja2

from engine.contracts import Claim, ClaimStatus, Report, Section
from engine.render.citations import CitationIndex, safe_href, source_location, source_title
from engine.render.evidence import png_data_uri
from engine.render.labels import Labels, accessed_text, labels_for, page_text, spend_rows
from engine.render.text import one_line, report_title

TEMPLATE_NAME = "report.html.j2"


@dataclass(frozen=True)
class CitationView:
    number: int
    title: str
    excerpt: str
    context: str | None
    """The lead-in of a quoted list item, or the column header of a table row."""
    url: str
    href: str | None
    page: str | None
    accessed: str
    verified: bool
    crop: str | None = None
    """A `data:image/png` URI of the page around the excerpt, highlighted; None for web pages."""


@dataclass(frozen=True)
class SentenceView:
    text: str
    citations: list[CitationView]


@dataclass(frozen=True)
class SectionView:
    title: str
    sentences: list[SentenceView]


@dataclass(frozen=True)
class RejectedView:
    url: str
    href: str | None
    reason: str


@dataclass(frozen=True)
class ConflictView:
    about: str
    citations: list[CitationView]
    """The claims that disagree, newer first."""


@dataclass(frozen=True)
class DroppedView:
    section: str
    text: str
    reason: str


def render_html(
    report: Report, *, expanded: bool = False, crops: Mapping[str, bytes] | None = None
) -> str:
    """The report as HTML.

    `expanded` (for print and PDF) opens every `<details>`, and the bibliography then lists
    sources without repeating the excerpts already printed under each sentence.

    `crops` (PNG bytes by claim id, see `PageEvidence`) show the page around an excerpt:
    inside its expanded citation, or, when `expanded`, once in the bibliography, where each
    citation links to it.
    """
    labels = labels_for(report.language)
    index = CitationIndex(report)
    crops = crops or {}
    citations = {
        claim.id: citation_view(n, claim, labels, crops.get(claim.id)) for n, claim in index.cited()
    }
    return report_template().render(
        language=report.language,
        title=report_title(report),
        question=one_line(report.question),
        labels=labels,
        partial=report.partial,
        gaps=[one_line(gap) for gap in report.gaps],
        sections=[section_view(section, citations) for section in report.sections],
        conflicts=[
            ConflictView(
                one_line(" ".join(part for part in (c.measure, c.period) if part)),
                [citations[claim_id] for claim_id in c.claim_ids if claim_id in citations],
            )
            for c in report.conflicts
        ],
        sources=list(citations.values()),
        rejected=rejected_views(report, labels),
        dropped=[
            DroppedView(one_line(d.section), one_line(d.text), one_line(d.reason))
            for d in report.dropped_sentences
        ],
        notes=[one_line(note) for note in report.notes],
        footer=spend_rows(report),
        expanded=expanded,
    )


@cache
def report_template() -> jinja2.Template:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("engine.render", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return environment.get_template(TEMPLATE_NAME)


def citation_view(
    number: int, claim: Claim, labels: Labels, crop: bytes | None = None
) -> CitationView:
    location = source_location(claim)
    return CitationView(
        number=number,
        title=source_title(claim),
        excerpt=claim.excerpt.strip(),
        context=claim.context.strip() if claim.context else None,
        url=location.base_url,
        href=location.href,
        page=None if location.page is None else page_text(labels, location.page),
        accessed=accessed_text(labels, claim.accessed_at),
        verified=claim.status is ClaimStatus.verified,
        crop=None if crop is None else png_data_uri(crop),
    )


def section_view(section: Section, citations: dict[str, CitationView]) -> SectionView:
    sentences = [
        SentenceView(
            text=one_line(sentence.text),
            citations=[citations[claim_id] for claim_id in dict.fromkeys(sentence.claim_ids)],
        )
        for sentence in section.sentences
    ]
    return SectionView(title=one_line(section.title), sentences=sentences)


def rejected_views(report: Report, labels: Labels) -> list[RejectedView]:
    return [
        RejectedView(
            url=claim.url,
            href=safe_href(claim.url),
            reason=one_line(claim.reason or labels.no_reason),
        )
        for claim in report.claims
        if claim.status is ClaimStatus.rejected
    ]
