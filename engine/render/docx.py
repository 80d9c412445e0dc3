"""A report as a Word document (python-docx): the answer first, then the contents, the
sections with each citation as a real footnote (excerpt, context, source, page, access
date), the figures tables with their charts, the calculations, the sources grouped by
document with their page crops, and the run's details in an appendix
(`engine.render.outline` gives the order).

Every text from a page, a file or a model goes in as a plain run: nothing in it is read as
a field, a style or markup. An excerpt's non-breaking spaces are shown as ordinary ones, so
it wraps between words (Word and LibreOffice break a run of words joined by them mid-word).
"""

from __future__ import annotations

import io
from collections.abc import Mapping

import docx
from docx.document import Document as WordDocument
from docx.enum.text import WD_BREAK
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Cm, Inches, Pt, RGBColor
from docx.table import Table
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from engine.contracts import Claim, ClaimStatus, FiguresTable, Report, Sentence
from engine.render.appendix import appendix
from engine.render.changes import changes_part
from engine.render.citations import (
    CitationIndex,
    CitedExcerpt,
    evidence_text,
    reading_text,
    source_location,
    source_title,
    sources_by_document,
)
from engine.render.docx_footnotes import Footnotes, Line, NoteRun, hyperlink
from engine.render.labels import accessed_text, context_text, labels_for, page_label
from engine.render.office import fitted_inches, flat, markers, shown, xml_safe
from engine.render.outline import contents, listed_gaps, shown_sections
from engine.render.tables import (
    CalculationIndex,
    calculation_heading,
    cell_claim_ids,
    table_chart,
    table_heading,
)
from engine.render.text import plain_prose, prose_spans, report_question, report_title
from engine.words import words_for

PAGE = (Cm(21.0), Cm(29.7))  # A4
MARGIN = Cm(2.0)
CONTENT_INCHES = (21.0 - 4.0) / 2.54
CROP_MAX_INCHES = (CONTENT_INCHES, 3.5)
CHART_MAX_INCHES = (CONTENT_INCHES, 4.5)
BODY_FONT = "Calibri"
_GREY = RGBColor(0x57, 0x60, 0x6A)


def render_docx(report: Report, crops: Mapping[str, bytes]) -> bytes:
    """`report` as a .docx file; `crops` (PNG by claim id) show the cited PDF pages."""
    writer = _Writer(report, crops)
    writer.write()
    out = io.BytesIO()
    writer.document.save(out)
    return out.getvalue()


class _Writer:
    def __init__(self, report: Report, crops: Mapping[str, bytes]) -> None:
        self.report = report
        self.crops = crops
        self.labels = labels_for(report.language)
        self.index = CitationIndex(report)
        self.document: WordDocument = docx.Document()
        self.footnotes = Footnotes(self.document)
        self.calculations = CalculationIndex(report)
        _set_up(self.document, report)

    def write(self) -> None:
        """The parts in the order every renderer follows (`engine.render.outline`)."""
        self.header()
        self.summary()
        self.contents()
        for _, section in shown_sections(self.report):
            self.heading(plain_prose(section.title))
            for sentence in section.sentences:
                self.sentence(self.document.add_paragraph(), sentence)
        if self.report.tables:
            self.heading(self.labels.figures)
            for table in self.report.tables:
                self.figures_table(table)
        self.calculations_part()
        self.conflicts()
        if gaps := listed_gaps(self.report):
            self.heading(self.labels.declared_gaps)
            self.bullets(gaps)
        self.sources()
        self.appendix()

    def heading(self, text: str, level: int = 1) -> Paragraph:
        heading: Paragraph = self.document.add_heading(flat(text), level=level)
        return heading

    def header(self) -> None:
        report, labels = self.report, self.labels
        self.document.add_heading(flat(report_title(report)), level=0)
        question = report_question(report)
        if question is not None:
            _grey(self.document.add_paragraph().add_run(flat(question)), italic=True)
        self.changes()
        if report.partial:
            banner = self.document.add_paragraph()
            banner.add_run(f"{labels.partial_report}. ").bold = True
            banner.add_run(labels.partial_explanation)
            self.bullets(report.gaps, lead=labels.gaps)

    def changes(self) -> None:
        """What changed since the previous report: each change with this report's claims
        as footnotes, and the previous report's excerpts quoted under it with their source."""
        part = changes_part(self.report)
        if part is None:
            return
        words = words_for(self.report.language).changes
        self.heading(part.heading)
        _grey(self.document.add_paragraph().add_run(flat(part.explanation)))
        for change in part.changes:
            paragraph = self.document.add_paragraph(style="List Bullet")
            paragraph.add_run(flat(change.line))
            if change.why:
                _grey(paragraph.add_run(f" — {flat(change.why)}"))
            notes = [self.citation_note(cid) for cid in change.after]
            for position, note in enumerate(notes):
                self.footnotes.add(paragraph, note, follows=position > 0)
            for claim in change.before:
                quote = self.document.add_paragraph()
                quote.paragraph_format.left_indent = Cm(0.6)
                quote.add_run(f"{words.before}: ").bold = True
                self.excerpt_runs(quote, claim)
                where = self.document.add_paragraph()
                where.paragraph_format.left_indent = Cm(0.6)
                for piece in self.source_pieces(claim):
                    _grey(where.add_run(piece.text))

    def bullets(self, items: list[str], *, lead: str | None = None) -> None:
        if not items:
            return
        if lead is not None:
            self.document.add_paragraph().add_run(f"{lead}:").bold = True
        for item in items:
            self.document.add_paragraph(style="List Bullet").add_run(flat(item))

    def summary(self) -> None:
        if not self.report.summary:
            return
        self.heading(self.labels.summary)
        for sentence in self.report.summary:
            self.sentence(self.document.add_paragraph(style="List Bullet"), sentence)

    def contents(self) -> None:
        """A Word TOC field whose shown result is the list of headings, so the contents read
        as they are; updating the field in Word adds the page numbers."""
        names = [heading.title for heading in contents(self.report, self.labels)]
        if not names:
            return
        self.document.add_paragraph().add_run(self.labels.contents).bold = True
        for position, name in enumerate(names):
            paragraph = self.document.add_paragraph()
            paragraph.paragraph_format.left_indent = Cm(0.5)
            paragraph.paragraph_format.space_after = Pt(2)
            if position == 0:
                _field_char(paragraph, "begin")
                instruction = OxmlElement("w:instrText")
                instruction.set(qn("xml:space"), "preserve")
                instruction.text = ' TOC \\o "1-1" \\h \\z \\u '
                paragraph.add_run()._r.append(instruction)
                _field_char(paragraph, "separate")
            paragraph.add_run(name)
            if position == len(names) - 1:
                _field_char(paragraph, "end")

    def sentence(self, paragraph: Paragraph, sentence: Sentence) -> None:
        for span in prose_spans(sentence.text):  # the writer's **bold** set bold, not shown
            run = paragraph.add_run(xml_safe(span.text))
            run.bold, run.italic = span.strong or None, span.emphasis or None
            if span.code:
                run.font.name = "Consolas"
        notes = [self.citation_note(cid) for cid in dict.fromkeys(sentence.claim_ids)]
        notes += [[self.calculation_line(cid)] for cid in dict.fromkeys(sentence.calculation_ids)]
        for position, note in enumerate(notes):
            self.footnotes.add(paragraph, note, follows=position > 0)

    def citation_note(self, claim_id: str) -> list[Line]:
        claim = self.report.claim(claim_id)
        reading = reading_text(self.labels, claim)
        quote: list[NoteRun] = [NoteRun(f"[{self.index.number_of(claim_id)}] ")]
        if claim.read_by == "figure" and reading:  # a model's reading: never a quotation
            quote += [NoteRun(f"{reading}: ", "strong"), NoteRun(flat(claim.excerpt))]
            return [quote, self.source_pieces(claim)]
        quote.append(NoteRun(f"“{shown(claim.excerpt)}”", "quote"))
        if context := context_text(self.labels, claim):
            quote.append(NoteRun(f" ({flat(context)})"))
        if reading:
            quote.append(NoteRun(f" ({reading})"))
        return [quote, self.source_pieces(claim)]

    def source_pieces(self, claim: Claim) -> list[NoteRun]:
        location = source_location(claim)
        pieces = [NoteRun(source_title(claim), "strong")]
        if location.page is not None:
            pieces.append(NoteRun(f", {page_label(self.labels, location.page)}"))
        pieces += [
            NoteRun(". "),
            NoteRun(flat(location.shown), "link", location.href),
            NoteRun(f". {accessed_text(self.labels, claim.accessed_at)}."),
        ]
        if claim.status is not ClaimStatus.verified:
            pieces.append(NoteRun(f" ({self.labels.not_verified})", "strong"))
        return pieces

    def calculation_line(self, calculation_id: str) -> list[NoteRun]:
        calculation = self.report.calculation(calculation_id)
        cited = markers(calculation.claim_ids, self.index)
        return [
            NoteRun(f"{self.calculations.marker(self.labels, calculation_id)}: ", "strong"),
            NoteRun(f"{flat(calculation.formula)} ({self.labels.calculated}; {cited})"),
        ]

    def figures_table(self, table: FiguresTable) -> None:
        caption = self.document.add_paragraph()
        caption.paragraph_format.keep_with_next = True
        caption.add_run(flat(table_heading(table))).bold = True
        grid: Table = self.document.add_table(rows=1 + len(table.rows), cols=1 + len(table.columns))
        grid.style = "Table Grid"
        _cell_text(grid.cell(0, 0).paragraphs[0], "", bold=True)
        for column, label in enumerate(table.columns, start=1):
            _cell_text(grid.cell(0, column).paragraphs[0], flat(label), bold=True)
        for row_number, row in enumerate(table.rows, start=1):
            _cell_text(grid.cell(row_number, 0).paragraphs[0], flat(row.label), bold=True)
            for column, cell in enumerate(row.cells, start=1):
                if cell is None:
                    _cell_text(grid.cell(row_number, column).paragraphs[0], "—")
                    continue
                cited = markers(cell_claim_ids(cell, self.report), self.index)
                text = f"{flat(cell.text)} {cited}".strip()
                if cell.calculation_id is not None:
                    text += f" ({self.calculations.marker(self.labels, cell.calculation_id)})"
                _cell_text(grid.cell(row_number, column).paragraphs[0], text)
        chart = table_chart(table, self.report)
        if chart is not None:
            alt = self.labels.chart.format(title=flat(table.title))
            self.picture(chart.png, CHART_MAX_INCHES, alt)
            _grey(self.document.add_paragraph().add_run(flat(chart.sources)), size=8)
        else:
            self.document.add_paragraph()

    def calculations_part(self) -> None:
        labels = self.labels
        if not self.report.calculations:
            return
        self.heading(labels.calculations)
        _grey(self.document.add_paragraph().add_run(labels.calculations_explanation))
        for number, calculation in self.calculations.numbered():
            paragraph = self.document.add_paragraph()
            paragraph.add_run(f"{labels.calculation_marker.format(number=number)} · ").bold = True
            paragraph.add_run(flat(calculation_heading(calculation, labels))).bold = True
            paragraph.add_run().add_break(WD_BREAK.LINE)
            paragraph.add_run(f"{labels.formula}: {flat(calculation.formula)}")
            paragraph.add_run().add_break(WD_BREAK.LINE)
            inputs = "; ".join(
                f"{flat(figure.text)} {markers(figure.claim_ids, self.index)}"
                for figure in calculation.inputs
            )
            paragraph.add_run(f"{labels.inputs}: {inputs}")

    def conflicts(self) -> None:
        if not self.report.conflicts:
            return
        self.heading(self.labels.conflicts)
        _grey(self.document.add_paragraph().add_run(self.labels.conflicts_explanation))
        for conflict in self.report.conflicts:
            about = " ".join(flat(p) for p in (conflict.measure, conflict.period) if p)
            self.document.add_paragraph().add_run(about).bold = True
            for claim_id in conflict.claim_ids:
                claim = self.report.claim(claim_id)
                line = f"[{self.index.number_of(claim_id)}] {source_title(claim)}: "
                paragraph = self.document.add_paragraph(style="List Bullet")
                paragraph.add_run(flat(line))
                self.excerpt_runs(paragraph, claim)

    def sources(self) -> None:
        labels = self.labels
        self.heading(labels.sources)
        groups = sources_by_document(self.report)
        if not groups:
            self.document.add_paragraph(labels.no_sources)
        for group in groups:
            title = self.document.add_paragraph()
            title.paragraph_format.keep_with_next = True
            title.paragraph_format.space_before = Pt(8)
            title.add_run(flat(group.title)).bold = True
            where = self.document.add_paragraph()
            where.paragraph_format.keep_with_next = True
            if group.href is not None:
                where._p.append(hyperlink(self.document.part, group.href, flat(group.shown)))
            else:
                _grey(where.add_run(flat(group.shown)))
            evidence = evidence_text(labels, group)
            if evidence:
                _grey(where.add_run(f" · {evidence}"))
            for excerpt in group.excerpts:
                self.cited_excerpt(excerpt)

    def cited_excerpt(self, excerpt: CitedExcerpt) -> None:
        labels, claim, page = self.labels, excerpt.claim, excerpt.page
        parts = [f"[{excerpt.number}]"]
        parts += [page_label(labels, page)] if page is not None else []
        parts.append(accessed_text(labels, claim.accessed_at))
        meta = self.document.add_paragraph()
        meta.paragraph_format.keep_with_next = True
        meta.add_run(" · ".join(parts))
        if claim.status is not ClaimStatus.verified:
            meta.add_run(f" · {labels.not_verified}").bold = True
        quote = self.document.add_paragraph()
        quote.paragraph_format.left_indent = Cm(0.6)
        self.excerpt_runs(quote, claim)
        crop = self.crops.get(claim.id)
        if crop is not None:
            where = "" if page is None else f" ({page_label(labels, page)})"
            self.picture(crop, CROP_MAX_INCHES, f"{labels.page_crop}{where}", indent=True)

    def excerpt_runs(self, paragraph: Paragraph, claim: Claim) -> None:
        """The excerpt in italics (a quotation) with its context and "(read by OCR)" in grey;
        a model's reading of a figure says so and is set upright, no quotation."""
        reading = reading_text(self.labels, claim)
        if claim.read_by == "figure" and reading:
            _grey(paragraph.add_run(f"{reading}: "), italic=True)
            paragraph.add_run(flat(claim.excerpt))
            return
        paragraph.add_run(shown(claim.excerpt)).italic = True
        if context := context_text(self.labels, claim):
            _grey(paragraph.add_run(f" ({flat(context)})"))
        if reading:
            _grey(paragraph.add_run(f" ({reading})"))

    def picture(
        self, png: bytes, box: tuple[float, float], alt: str, *, indent: bool = False
    ) -> None:
        size = fitted_inches(png, box[0] - (0.25 if indent else 0.0), box[1])
        if size is None:
            return
        paragraph = self.document.add_paragraph()
        if indent:
            paragraph.paragraph_format.left_indent = Cm(0.6)
        shape = paragraph.add_run().add_picture(io.BytesIO(png), width=Inches(size[0]))
        shape._inline.docPr.set("descr", alt)

    def appendix(self) -> None:
        labels, details = self.labels, appendix(self.report)
        self.heading(labels.appendix)
        _grey(self.document.add_paragraph().add_run(labels.appendix_explanation))
        grid = self.document.add_table(rows=len(details.rows), cols=2)
        grid.style = "Table Grid"
        for number, (label, value) in enumerate(details.rows):
            _cell_text(grid.cell(number, 0).paragraphs[0], label, bold=True)
            _cell_text(grid.cell(number, 1).paragraphs[0], value)
        self.bullets(details.notes, lead=labels.notes)
        rejected = [f"{r.url} — {r.reason}" for r in details.rejected]
        self.bullets(rejected, lead=labels.rejected_claims)
        dropped = [f"{d.section}: {d.text} — {d.reason}" for d in details.dropped]
        self.bullets(dropped, lead=labels.dropped_sentences)


def _set_up(document: WordDocument, report: Report) -> None:
    section = document.sections[0]
    section.page_width, section.page_height = PAGE
    for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(section, side, MARGIN)
    properties = document.core_properties
    properties.title = flat(report_title(report))[:250]
    properties.author = "Fonte"
    properties.language = labels_for(report.language).locale
    properties.created = properties.modified = report.created_at.replace(tzinfo=None)
    normal_style = document.styles["Normal"]
    normal_style.font.name = BODY_FONT
    normal_style.font.size = Pt(10.5)
    normal = normal_style.element.get_or_add_rPr()
    language = OxmlElement("w:lang")
    language.set(qn("w:val"), labels_for(report.language).locale)
    normal.append(language)


def _field_char(paragraph: Paragraph, kind: str) -> None:
    mark = OxmlElement("w:fldChar")
    mark.set(qn("w:fldCharType"), kind)
    paragraph.add_run()._r.append(mark)


def _cell_text(paragraph: Paragraph, text: str, *, bold: bool = False) -> None:
    run = paragraph.add_run(text)
    run.bold = bold
    run.font.size = Pt(9)


def _grey(run: Run, *, italic: bool = False, size: float | None = None) -> None:
    run.font.color.rgb = _GREY
    run.italic = italic or None
    if size is not None:
        run.font.size = Pt(size)
