"""A report as a PowerPoint deck (python-pptx): a title slide, the summary, each figures
table (with its chart), the calculations, one slide per section with its key points, and
the sources grouped by document. Each slide names its sources at its foot ("[1]
BESTBUY_2019_10K, p. 53") and holds their excerpts in its speaker notes.

Text is fitted before it is placed: the largest size at which it fits its box, points
split across slides ("cont.") when it does not, so nothing runs off a slide. Every text
from a page or a model goes in as a plain run.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import cast

import pptx
from pptx.presentation import Presentation
from pptx.slide import Slide
from pptx.util import Emu, Inches

from engine.contracts import Claim, FiguresTable, Report, Section, Sentence
from engine.render import slide_shapes as draw
from engine.render.changes import changes_part
from engine.render.citations import (
    CitationIndex,
    evidence_text,
    reading_text,
    source_location,
    source_title,
    sources_by_document,
)
from engine.render.labels import accessed_text, format_utc, labels_for
from engine.render.office import (
    excerpt_text,
    fitted_inches,
    flat,
    markers,
    slide_source_line,
)
from engine.render.outline import shown_sections
from engine.render.slide_shapes import ACCENT, BULLET_INDENT, GREY, INK
from engine.render.slide_text import fitting_size, paged_entries, shortened, slide_chunks
from engine.render.tables import (
    CalculationIndex,
    calculation_heading,
    cell_claim_ids,
    table_chart,
    table_heading,
)
from engine.render.text import plain_prose, report_question, report_title
from engine.words import words_for

WIDTH, HEIGHT = 13.333, 7.5  # inches, 16:9
SIDE = 0.6
CONTENT_WIDTH = WIDTH - 2 * SIDE
TITLE_TOP, TITLE_HEIGHT = 0.35, 1.0
BODY_TOP = TITLE_TOP + TITLE_HEIGHT + 0.1
FOOT_HEIGHT = 0.75
FOOT_TOP = HEIGHT - FOOT_HEIGHT - 0.2
BODY_HEIGHT = FOOT_TOP - BODY_TOP - 0.1
POINTS_PER_SLIDE = 6
BODY_SIZES = (24, 22, 20, 18, 16, 14)
TITLE_SIZES = (32, 28, 24, 20, 18)
FOOT_SIZES = (11, 10, 9, 8)
TABLE_ROWS_PER_SLIDE = 8
MIN_CHART_INCHES = 2.0
"""The least height a chart is shown at under its table; less, and it gets a slide."""
BLANK_LAYOUT = 6


def render_pptx(report: Report, crops: Mapping[str, bytes]) -> bytes:
    """`report` as a .pptx deck. The page crops are the PDF's and the DOCX's to show; a
    slide's notes carry its excerpts instead, so `crops` is accepted and left unused."""
    deck = _Deck(report)
    deck.write()
    out = io.BytesIO()
    deck.presentation.save(out)
    return out.getvalue()


class _Deck:
    def __init__(self, report: Report) -> None:
        self.report = report
        self.labels = labels_for(report.language)
        self.words = words_for(report.language).report
        self.index = CitationIndex(report)
        self.presentation: Presentation = pptx.Presentation()
        self.presentation.slide_width = Inches(WIDTH)
        self.presentation.slide_height = Inches(HEIGHT)
        properties = self.presentation.core_properties
        properties.title = flat(report_title(report))[:250]
        properties.author = "Fonte"
        properties.language = labels_for(report.language).locale
        self.calculations = CalculationIndex(report)

    def write(self) -> None:
        """Title, summary, each section with the figures tables it cites after it, the
        tables no section cites, the calculations, the sources."""
        report = self.report
        self.title_slide()
        self.changes_slides()
        self.points_slides(self.labels.summary, report.summary)
        sections = [section for _, section in shown_sections(report)]
        placed = _tables_by_section(report, sections)
        for position, section in enumerate(sections):
            self.points_slides(flat(plain_prose(section.title)), section.sentences)
            for table in placed.get(position, []):
                self.table_slides(table)
        for table in placed.get(None, []):
            self.table_slides(table)
        if report.calculations:
            self.calculations_slide()
        self.sources_slides()

    def blank(self) -> Slide:
        layout = self.presentation.slide_layouts[BLANK_LAYOUT]
        return cast(Slide, self.presentation.slides.add_slide(layout))

    def slide(self, title: str) -> Slide:
        slide = self.blank()
        size = fitting_size([title], CONTENT_WIDTH, TITLE_HEIGHT, TITLE_SIZES) or TITLE_SIZES[-1]
        frame = draw.box(slide, SIDE, TITLE_TOP, CONTENT_WIDTH, TITLE_HEIGHT)
        text = shortened(title, CONTENT_WIDTH, TITLE_HEIGHT, size)
        draw.styled_run(frame.paragraphs[0], text, size, bold=True, colour=ACCENT)
        return slide

    def title_slide(self) -> None:
        report, labels = self.report, self.labels
        slide = self.blank()
        title = flat(report_title(report))
        size = fitting_size([title], CONTENT_WIDTH, 2.6, (40, 36, 32, 28, 24, 20)) or 20
        frame = draw.box(slide, SIDE, 1.6, CONTENT_WIDTH, 2.6)
        draw.styled_run(
            frame.paragraphs[0], shortened(title, CONTENT_WIDTH, 2.6, size), size, bold=True
        )
        lines = [flat(q) for q in [report_question(report)] if q]
        lines.append(format_utc(report.created_at).split(" ")[0])
        if report.partial:
            lines.append(f"{labels.partial_report}. {labels.partial_explanation}")
        size = fitting_size(lines, CONTENT_WIDTH, 2.0, (20, 18, 16, 14, 12)) or 12
        frame = draw.box(slide, SIDE, 4.4, CONTENT_WIDTH, 2.0)
        for position, line in enumerate(lines):
            paragraph = draw.paragraph(frame, position)
            partial = report.partial and position == len(lines) - 1
            draw.styled_run(paragraph, line, size, bold=partial, colour=INK if partial else GREY)

    def points_slides(self, title: str, sentences: Sequence[Sentence]) -> None:
        """The sentences as points, at most `POINTS_PER_SLIDE` a slide and fitted."""
        if not sentences:
            return
        points = [self.point_text(s) for s in sentences]
        chunks = slide_chunks(
            points, CONTENT_WIDTH, BODY_HEIGHT, BODY_SIZES[-1], POINTS_PER_SLIDE, BULLET_INDENT
        )
        for number, chunk in enumerate(chunks):
            heading = title if number == 0 else f"{title} ({self.words.continued})"
            slide = self.slide(heading)
            self.place_points(slide, [points[i] for i in chunk])
            cited = [cid for i in chunk for cid in sentences[i].claim_ids]
            cited += [
                cid
                for i in chunk
                for calc in sentences[i].calculation_ids
                for cid in self.report.calculation(calc).claim_ids
            ]
            self.foot(slide, cited)

    def place_points(self, slide: Slide, texts: list[str]) -> None:
        """`texts` as bullet points in the slide's body, at the largest size that fits."""
        size = fitting_size(texts, CONTENT_WIDTH, BODY_HEIGHT, BODY_SIZES, BULLET_INDENT)
        if size is None:  # a single point longer than a slide holds
            size = BODY_SIZES[-1]
            texts = [shortened(t, CONTENT_WIDTH, BODY_HEIGHT, size, BULLET_INDENT) for t in texts]
        frame = draw.box(slide, SIDE, BODY_TOP, CONTENT_WIDTH, BODY_HEIGHT)
        for position, text in enumerate(texts):
            paragraph = draw.paragraph(frame, position)
            draw.bullet(paragraph)
            draw.styled_run(paragraph, text, size)

    def changes_slides(self) -> None:
        """What changed since the previous report, right after the title: each change a
        point with this report's citations at the foot; the previous report's excerpts, as
        it sealed them, in the notes beside this report's."""
        part = changes_part(self.report)
        if part is None:
            return
        points = [
            f"{flat(c.line)} {markers(list(c.after), self.index)}".rstrip()
            + (f" — {flat(c.why)}" if c.why else "")
            for c in part.changes
        ]
        if not points:
            slide = self.slide(flat(part.heading))
            self.place_points(slide, [flat(part.explanation)])
            return
        chunks = slide_chunks(
            points, CONTENT_WIDTH, BODY_HEIGHT, BODY_SIZES[-1], POINTS_PER_SLIDE, BULLET_INDENT
        )
        for number, chunk in enumerate(chunks):
            continued = f" ({self.words.continued})" if number else ""
            slide = self.slide(flat(part.heading) + continued)
            self.place_points(slide, [points[i] for i in chunk])
            cited = [cid for i in chunk for cid in part.changes[i].after]
            self.foot(slide, cited)
            self.notes(slide, cited, before=[c for i in chunk for c in part.changes[i].before])

    def point_text(self, sentence: Sentence) -> str:
        text = f"{flat(plain_prose(sentence.text))} {markers(sentence.claim_ids, self.index)}"
        for calculation_id in dict.fromkeys(sentence.calculation_ids):
            text += f" ({self.calculations.marker(self.labels, calculation_id)})"
        return text

    def table_slides(self, table: FiguresTable) -> None:
        chart = table_chart(table, self.report)
        groups = [
            table.rows[start : start + TABLE_ROWS_PER_SLIDE]
            for start in range(0, len(table.rows), TABLE_ROWS_PER_SLIDE)
        ]
        title = flat(table_heading(table))
        for number, rows in enumerate(groups):
            heading = title if number == 0 else f"{title} ({self.words.continued})"
            slide = self.slide(heading)
            size = max(9, 16 - len(table.columns))
            row_height = size * 2.2 / 72
            height = row_height * (len(rows) + 1)
            shape = slide.shapes.add_table(
                len(rows) + 1,
                len(table.columns) + 1,
                Inches(SIDE),
                Inches(BODY_TOP),
                Inches(CONTENT_WIDTH),
                Inches(height),
            )
            grid = shape.table
            label_width = min(3.5, CONTENT_WIDTH / (len(table.columns) + 1) * 1.5)
            grid.columns[0].width = Inches(label_width)
            for column in range(1, len(table.columns) + 1):
                grid.columns[column].width = Emu(
                    int(Inches(CONTENT_WIDTH - label_width) / len(table.columns))
                )
            draw.cell(grid.cell(0, 0).text_frame, "", size, bold=True)
            for column, label in enumerate(table.columns, start=1):
                draw.cell(grid.cell(0, column).text_frame, flat(label), size, bold=True)
            for row_number, row in enumerate(rows, start=1):
                draw.cell(grid.cell(row_number, 0).text_frame, flat(row.label), size, bold=True)
                for column, cell in enumerate(row.cells, start=1):
                    text = "—"
                    if cell is not None:
                        numbers = markers(cell_claim_ids(cell, self.report), self.index)
                        text = f"{flat(cell.text)} {numbers}".strip()
                        if cell.calculation_id is not None:
                            mark = self.calculations.marker(self.labels, cell.calculation_id)
                            text += f" ({mark})"
                    draw.cell(grid.cell(row_number, column).text_frame, text, size)
            cited = [
                cid
                for row in rows
                for c in row.cells
                if c
                for cid in cell_claim_ids(c, self.report)
            ]
            room_top = BODY_TOP + height + 0.25
            if chart is not None and number == 0:
                if FOOT_TOP - room_top >= MIN_CHART_INCHES:
                    self.picture(slide, chart.png, room_top, FOOT_TOP - room_top - 0.1)
                else:
                    self.foot(slide, cited)
                    slide = self.slide(self.labels.chart.format(title=flat(table.title)))
                    self.picture(slide, chart.png, BODY_TOP, BODY_HEIGHT)
            self.foot(slide, cited)

    def picture(self, slide: Slide, png: bytes, top: float, height: float) -> None:
        size = fitted_inches(png, CONTENT_WIDTH, height)
        if size is None:
            return
        left = SIDE + (CONTENT_WIDTH - size[0]) / 2
        slide.shapes.add_picture(
            io.BytesIO(png), Inches(left), Inches(top), Inches(size[0]), Inches(size[1])
        )

    def calculations_slide(self) -> None:
        labels = self.labels
        lines: list[str] = []
        for number, calculation in self.calculations.numbered():
            lines.append(
                f"{labels.calculation_marker.format(number=number)} · "
                f"{flat(calculation_heading(calculation, labels))}\n"
                f"{labels.formula}: {flat(calculation.formula)} "
                f"{markers(calculation.claim_ids, self.index)}"
            )
        chunks = slide_chunks(lines, CONTENT_WIDTH, BODY_HEIGHT - 0.6, 12, POINTS_PER_SLIDE)
        for number, chunk in enumerate(chunks):
            heading = labels.calculations + (f" ({self.words.continued})" if number else "")
            slide = self.slide(heading)
            note = draw.box(slide, SIDE, BODY_TOP, CONTENT_WIDTH, 0.5)
            draw.styled_run(note.paragraphs[0], labels.calculations_explanation, 14, colour=GREY)
            texts = [lines[i] for i in chunk]
            size = fitting_size(texts, CONTENT_WIDTH, BODY_HEIGHT - 0.6, BODY_SIZES) or 12
            frame = draw.box(slide, SIDE, BODY_TOP + 0.6, CONTENT_WIDTH, BODY_HEIGHT - 0.6)
            for position, text in enumerate(texts):
                paragraph = draw.paragraph(frame, position)
                draw.styled_run(
                    paragraph, shortened(text, CONTENT_WIDTH, BODY_HEIGHT - 0.6, size), size
                )
            calculations = [self.report.calculations[i] for i in chunk]
            self.foot(slide, [cid for c in calculations for cid in c.claim_ids])

    def sources_slides(self) -> None:
        labels = self.labels
        groups = sources_by_document(self.report)
        entries: list[tuple[str, list[str]]] = []
        line_claims: list[list[str | None]] = []  # per entry, the claim of each line
        for group in groups:
            lines = [flat(group.shown)]
            lines += [evidence] if (evidence := evidence_text(labels, group)) else []
            of: list[str | None] = [None] * len(lines)
            for excerpt in group.excerpts:
                where = f"{self.words.page_short} {excerpt.page} · " if excerpt.page else ""
                when = accessed_text(labels, excerpt.claim.accessed_at)
                read = f" · {reading}" if (reading := reading_text(labels, excerpt.claim)) else ""
                lines.append(f"[{excerpt.number}] {where}{when}{read}")
                of.append(excerpt.claim.id)
            entries.append((flat(group.title), lines))
            line_claims.append(of)
        if not entries:
            slide = self.slide(labels.sources)
            frame = draw.box(slide, SIDE, BODY_TOP, CONTENT_WIDTH, 1.0)
            draw.styled_run(frame.paragraphs[0], labels.no_sources, 18)
            return
        height = FOOT_TOP + FOOT_HEIGHT - BODY_TOP
        continued = f" ({self.words.continued})"
        pages = paged_entries([[t, *lines] for t, lines in entries], CONTENT_WIDTH, height, 11, 4)
        for number, page in enumerate(pages):
            slide = self.slide(labels.sources + (continued if number else ""))
            shown: list[tuple[str, int]] = []  # (text, its place in its entry: 0 its title)
            claims: list[str] = []
            for entry, indices in page:
                title, lines = entries[entry]
                goes_on = bool(indices) and indices[0] > 0
                shown.append((title + (continued if goes_on else ""), 0))
                shown += [(lines[i], i + 1) for i in indices]
                claims += [c for i in indices if (c := line_claims[entry][i]) is not None]
            size = fitting_size([t for t, _ in shown], CONTENT_WIDTH, height, (16, 14, 12, 11))
            size = size or 11
            frame = draw.box(slide, SIDE, BODY_TOP, CONTENT_WIDTH, height)
            for position, (text, place) in enumerate(shown):
                draw.styled_run(
                    draw.paragraph(frame, position),
                    shortened(text, CONTENT_WIDTH, height, size),
                    size,
                    bold=place == 0,
                    colour=INK if place < 2 else GREY,
                )
            self.notes(slide, claims)

    def foot(self, slide: Slide, claim_ids: Sequence[str]) -> None:
        """The sources of a slide at its foot, and their excerpts in its notes."""
        cited = list(dict.fromkeys(claim_ids))
        if not cited:
            return
        lines = [
            slide_source_line(self.index.number_of(cid), self.report.claim(cid), self.words)
            for cid in cited
        ]
        text = "   ".join(lines)
        size = fitting_size([text], CONTENT_WIDTH, FOOT_HEIGHT, FOOT_SIZES) or FOOT_SIZES[-1]
        text = shortened(text, CONTENT_WIDTH, FOOT_HEIGHT, size)
        frame = draw.box(slide, SIDE, FOOT_TOP, CONTENT_WIDTH, FOOT_HEIGHT)
        draw.styled_run(frame.paragraphs[0], text, size, colour=GREY)
        self.notes(slide, cited)

    def notes(self, slide: Slide, claim_ids: Sequence[str], before: Sequence[Claim] = ()) -> None:
        """The excerpts of the slide's claims; `before`: a previous report's, as it sealed
        them, after them."""
        blocks = [self.words.slide_sources + ":"]
        for cid in dict.fromkeys(claim_ids):
            claim = self.report.claim(cid)
            number = self.index.number_of(cid)
            location = source_location(claim)
            blocks.append(
                f"{slide_source_line(number, claim, self.words)} — {flat(location.shown)}\n"
                f"{excerpt_text(claim, self.labels)}\n"
                f"{accessed_text(self.labels, claim.accessed_at)}"
            )
        label = words_for(self.report.language).changes.before
        blocks += [
            f"{label}: {flat(source_title(claim))} — {flat(source_location(claim).shown)}\n"
            f"{excerpt_text(claim, self.labels)}\n"
            f"{accessed_text(self.labels, claim.accessed_at)}"
            for claim in before
        ]
        frame = slide.notes_slide.notes_text_frame
        if frame is not None:
            frame.text = "\n\n".join(blocks)


def _tables_by_section(
    report: Report, sections: Sequence[Section]
) -> dict[int | None, list[FiguresTable]]:
    """Each table under the last section whose sentences cite one of its figures (by
    position), or under None when no section does."""
    placed: dict[int | None, list[FiguresTable]] = {}
    for table in report.tables:
        cells = [c for row in table.rows for c in row.cells if c is not None]
        cited = {cid for cell in cells for cid in cell_claim_ids(cell, report)}
        citing = [
            position
            for position, section in enumerate(sections)
            if any(cited.intersection(s.claim_ids) for s in section.sentences)
        ]
        placed.setdefault(citing[-1] if citing else None, []).append(table)
    return placed
