"""A report as one self-contained HTML file: the answer first, then the sections (each
citation opens under its sentence), the figures tables with their charts, the calculations,
the sources grouped by document and the appendix on how the report was made.

All report text is untrusted (excerpts and titles come from fetched pages), so the template
autoescapes everything and only http/https/file URLs become links.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import jinja2

from engine.contracts import Claim, ClaimStatus, Report, Section, Sentence
from engine.render.appendix import appendix
from engine.render.changes import changes_part
from engine.render.citations import (
    CitationIndex,
    SourceGroup,
    evidence_text,
    reading_text,
    source_location,
    source_title,
    sources_by_document,
)
from engine.render.evidence import png_data_uri
from engine.render.labels import Labels, accessed_text, context_text, labels_for, page_label
from engine.render.outline import contents, listed_gaps, section_anchor, shown_sections
from engine.render.tables import (
    CalculationIndex,
    calculation_heading,
    calculation_title,
    cell_claim_ids,
    figure_label,
    table_chart,
    table_heading,
)
from engine.render.text import (
    ProseSpan,
    display_text,
    plain_prose,
    prose_spans,
    report_question,
    report_title,
)
from engine.text.normalise import collapse_whitespace
from engine.words import words_for

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
    read_by: str | None = None
    """How the excerpt was read when not from the text layer ("read by OCR", or a figure's
    reading, "read from the figure on page 4 …"); None for page text."""
    figure: bool = False
    """The excerpt is a model's reading of a figure: shown as such, never as a quotation."""


@dataclass(frozen=True)
class CalculationRef:
    marker: str
    anchor: str
    title: str
    """The formula, shown on hover."""


@dataclass(frozen=True)
class EvidenceView:
    """A citation opened under its sentence; the first one of a claim holds its page crop,
    the others link to it."""

    citation: CitationView
    holds_crop: bool


@dataclass(frozen=True)
class SentenceView:
    text: list[ProseSpan]
    """The prose as set (`prose_spans`): the template makes bold, italic and code of it."""
    citations: list[CitationView]
    calculations: list[CalculationRef]
    evidence: list[EvidenceView]


@dataclass(frozen=True)
class SectionView:
    anchor: str
    title: str
    sentences: list[SentenceView]


@dataclass(frozen=True)
class CellView:
    text: str
    citations: list[CitationView]
    calculation: CalculationRef | None


@dataclass(frozen=True)
class RowView:
    label: str
    cells: list[CellView | None]


@dataclass(frozen=True)
class TableView:
    caption: str
    corner: str
    columns: list[str]
    rows: list[RowView]
    chart: str | None
    """A `data:image/png` URI of the table's chart."""
    chart_alt: str
    chart_sources: str

    @property
    def wide(self) -> bool:
        """More columns of figures than a tablet's width holds side by side: laid out as one
        block per row there (the template's `wide`), so no figure is split or cut."""
        return len(self.columns) > WIDE_TABLE_COLUMNS


WIDE_TABLE_COLUMNS = 4


@dataclass(frozen=True)
class InputView:
    label: str
    citations: list[CitationView]


@dataclass(frozen=True)
class CalculationView:
    anchor: str
    marker: str
    heading: str
    formula: str
    inputs: list[InputView]


@dataclass(frozen=True)
class ConflictView:
    about: str
    citations: list[CitationView]
    """The claims that disagree, newer first."""


@dataclass(frozen=True)
class ChangeView:
    line: str
    why: str
    citations: list[CitationView]
    """This report's claims."""
    before: list[CitationView]
    """The previous report's claims, as it sealed them (numbered 0: not among the sources)."""


@dataclass(frozen=True)
class ChangesView:
    heading: str
    explanation: str
    changes: list[ChangeView]


@dataclass(frozen=True)
class ExcerptView:
    citation: CitationView
    holds_crop: bool
    """The crop is printed here (print, or no sentence opens this citation); otherwise the
    entry links to the crop under the sentence."""


@dataclass(frozen=True)
class DocumentView:
    title: str
    url: str
    href: str | None
    accessed: str
    excerpts: list[ExcerptView]


class _Views:
    """The views one rendering builds, sharing its citation and calculation numbers."""

    def __init__(
        self, report: Report, labels: Labels, crops: Mapping[str, bytes], expanded: bool
    ) -> None:
        self.report, self.labels, self.expanded = report, labels, expanded
        self.calculation_index = CalculationIndex(report)
        self.citations = {
            claim.id: citation_view(n, claim, labels, crops.get(claim.id))
            for n, claim in CitationIndex(report).cited()
        }
        self.crops_inline: set[int] = set()

    def cited(self, claim_ids: list[str]) -> list[CitationView]:
        return [self.citations[cid] for cid in dict.fromkeys(claim_ids) if cid in self.citations]

    def changes(self) -> ChangesView | None:
        part = changes_part(self.report)
        if part is None:
            return None
        entries = [
            ChangeView(
                line=change.line,
                why=change.why,
                citations=self.cited(list(change.after)),
                before=[citation_view(0, claim, self.labels) for claim in change.before],
            )
            for change in part.changes
        ]
        return ChangesView(part.heading, part.explanation, entries)

    def calculation_ref(self, calculation_id: str) -> CalculationRef:
        calculation = self.report.calculation(calculation_id)
        number = self.calculation_index.number_of(calculation_id)
        return CalculationRef(
            marker=self.calculation_index.marker(self.labels, calculation_id),
            anchor=f"calculation-{number}",
            title=calculation_title(calculation, self.labels),
        )

    def sentence(self, sentence: Sentence, *, opens: bool) -> SentenceView:
        citations = self.cited(sentence.claim_ids)
        evidence = []
        if opens and not self.expanded:
            for c in citations:
                holds = c.crop is not None and c.number not in self.crops_inline
                self.crops_inline.add(c.number)
                evidence.append(EvidenceView(c, holds))
        return SentenceView(
            text=prose_spans(sentence.text),
            citations=citations,
            calculations=[
                self.calculation_ref(cid) for cid in dict.fromkeys(sentence.calculation_ids)
            ],
            evidence=evidence,
        )

    def section(self, position: int, section: Section) -> SectionView:
        return SectionView(
            anchor=section_anchor(position),
            title=plain_prose(section.title),
            sentences=[self.sentence(s, opens=True) for s in section.sentences],
        )

    def tables(self) -> list[TableView]:
        views = []
        for table in self.report.tables:
            chart = table_chart(table, self.report)
            rows = [
                RowView(
                    label=collapse_whitespace(row.label),
                    cells=[
                        None
                        if cell is None
                        else CellView(
                            text=display_text(cell.text),
                            citations=self.cited(cell_claim_ids(cell, self.report)),
                            calculation=None
                            if cell.calculation_id is None
                            else self.calculation_ref(cell.calculation_id),
                        )
                        for cell in row.cells
                    ],
                )
                for row in table.rows
            ]
            views.append(
                TableView(
                    caption=table_heading(table),
                    corner=collapse_whitespace(table.unit),
                    columns=[collapse_whitespace(column) for column in table.columns],
                    rows=rows,
                    chart=None if chart is None else png_data_uri(chart.png),
                    chart_alt=self.labels.chart.format(title=collapse_whitespace(table.title)),
                    chart_sources="" if chart is None else chart.sources,
                )
            )
        return views

    def calculations(self) -> list[CalculationView]:
        return [
            CalculationView(
                anchor=f"calculation-{number}",
                marker=self.calculation_index.marker(self.labels, calculation.id),
                heading=calculation_heading(calculation, self.labels),
                formula=collapse_whitespace(calculation.formula),
                inputs=[
                    InputView(
                        figure_label(f.text, f.measure, f.entity, f.period),
                        self.cited(f.claim_ids),
                    )
                    for f in calculation.inputs
                ],
            )
            for number, calculation in self.calculation_index.numbered()
        ]

    def document(self, group: SourceGroup) -> DocumentView:
        excerpts = []
        for cited in group.excerpts:
            c = self.citations[cited.claim.id]
            excerpts.append(
                ExcerptView(c, c.crop is not None and c.number not in self.crops_inline)
            )
        return DocumentView(
            title=group.title,
            url=group.shown,
            href=group.href,
            accessed=" · ".join(
                part
                for part in (
                    accessed_text(self.labels, group.accessed_at),
                    evidence_text(self.labels, group),
                )
                if part
            ),
            excerpts=excerpts,
        )


def render_html(
    report: Report, *, expanded: bool = False, crops: Mapping[str, bytes] | None = None
) -> str:
    """The report as HTML.

    Interactive (the default), every citation under a section's sentence is a `<details>` a
    reader opens to see its excerpt and, for a page of a PDF, the crop of that page (`crops`:
    PNG bytes by claim id, see `PageEvidence`). `expanded` (for print and PDF) shows the
    sentences with their citation numbers only: each excerpt is printed once, with its crop,
    under its document in the sources.
    """
    labels = labels_for(report.language)
    views = _Views(report, labels, crops or {}, expanded)
    summary = [views.sentence(s, opens=False) for s in report.summary]
    sections = [views.section(n, section) for n, section in shown_sections(report)]
    # After the sections: a crop a sentence holds is not printed again under its document.
    documents = [views.document(group) for group in sources_by_document(report)]
    return report_template().render(
        language=report.language,
        title=report_title(report),
        question=report_question(report),
        labels=labels,
        change_words=words_for(report.language).changes,
        changes=views.changes(),
        partial=report.partial,
        gaps=[collapse_whitespace(gap) for gap in report.gaps],
        summary=summary,
        contents=contents(report, labels),
        sections=sections,
        tables=views.tables(),
        calculations=views.calculations(),
        conflicts=[
            ConflictView(
                collapse_whitespace(" ".join(part for part in (c.measure, c.period) if part)),
                views.cited(c.claim_ids),
            )
            for c in report.conflicts
        ],
        declared_gaps=listed_gaps(report),
        documents=documents,
        appendix=appendix(report),
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
        excerpt=display_text(claim.excerpt),
        context=display_text(shown) if (shown := context_text(labels, claim)) else None,
        url=location.shown,
        href=location.href,
        page=None if location.page is None else page_label(labels, location.page),
        accessed=accessed_text(labels, claim.accessed_at),
        verified=claim.status is ClaimStatus.verified,
        crop=None if crop is None else png_data_uri(crop),
        read_by=reading_text(labels, claim),
        figure=claim.read_by == "figure",
    )
