"""A report as Markdown, in the order every renderer follows (`engine.render.outline`): the
title, the summary, the contents, the sections with `[n]` markers, the figures tables, the
calculations, conflicts, declared gaps, the sources grouped by document with their excerpts,
and the appendix on how the report was made.

A table's chart is not written: Markdown has no inline image a report.md could carry without
a second file, and the table above it already holds every plotted value with its citations.
A calculated cell carries a `(calc. n)` mark and the table is followed by one line per
calculated cell giving its formula; the Calculations part lists each with its cited inputs.

Every text that comes from a page, a file or a user goes through `inert_markdown`, so a
report.md opened in any Markdown viewer shows it as text: no HTML, link, image or emphasis
that a page wrote can come alive in the report."""

from __future__ import annotations

from engine.contracts import Claim, ClaimStatus, FiguresTable, Report, Section, Sentence
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
from engine.render.labels import Labels, accessed_text, context_text, labels_for, page_label
from engine.render.outline import contents, listed_gaps, shown_sections
from engine.render.tables import (
    CalculationIndex,
    calculation_heading,
    calculation_title,
    cell_claim_ids,
    figure_label,
    table_heading,
)
from engine.render.text import (
    inert_markdown,
    plain_prose,
    prose_markdown,
    report_question,
    report_title,
)
from engine.text.normalise import collapse_whitespace
from engine.words import words_for


class _Numbers:
    """The citation and calculation numbers of one rendering."""

    def __init__(self, report: Report, labels: Labels) -> None:
        self.report, self.labels = report, labels
        self.citations = CitationIndex(report)
        self.calculations = CalculationIndex(report)

    def cited(self, claim_ids: list[str]) -> str:
        """` [1][3]`: the markers of the claims, each once ("" for none)."""
        markers = "".join(
            f"[{self.citations.number_of(claim_id)}]" for claim_id in dict.fromkeys(claim_ids)
        )
        return f" {markers}" if markers else ""

    def calculated(self, calculation_ids: list[str]) -> str:
        """` (calc. 1)`: the marks of the calculations a sentence or cell states."""
        return "".join(
            f" ({self.calculations.marker(self.labels, cid)})"
            for cid in dict.fromkeys(calculation_ids)
        )

    def sentence(self, sentence: Sentence) -> str:
        return (
            prose_markdown(sentence.text)
            + self.cited(sentence.claim_ids)
            + self.calculated(sentence.calculation_ids)
        )


def render_markdown(report: Report) -> str:
    labels = labels_for(report.language)
    numbers = _Numbers(report, labels)
    question = report_question(report)
    blocks = [
        f"# {inert_markdown(report_title(report))}",
        *([f"*{inert_markdown(question)}*"] if question else []),
        *changes_blocks(report, numbers),
        *partial_blocks(report, labels),
        *summary_blocks(report, numbers),
        *contents_blocks(report, labels),
        *(section_block(section, numbers) for _, section in shown_sections(report)),
        *figures_blocks(report, numbers),
        *calculation_blocks(report, numbers),
        *conflict_blocks(report, numbers.citations, labels),
        *declared_gap_blocks(report, labels),
        sources_block(report, labels),
        appendix_block(report, labels),
    ]
    return "\n\n".join(blocks) + "\n"


def changes_blocks(report: Report, numbers: _Numbers) -> list[str]:
    """What changed since the previous report: each change with this report's citations
    and the previous report's excerpts quoted under it."""
    part = changes_part(report)
    if part is None:
        return []
    words, labels = words_for(report.language).changes, numbers.labels
    items = []
    for change in part.changes:
        line = inert_markdown(change.line) + numbers.cited(list(change.after))
        lines = [f"- {line}" + (f" — {inert_markdown(change.why)}" if change.why else "")]
        lines += [f"  - {words.before}: {before_entry(claim, labels)}" for claim in change.before]
        items.append("\n".join(lines))
    body = [f"{inert_markdown(part.explanation)}", *(["\n".join(items)] if items else [])]
    return ["\n\n".join([f"## {inert_markdown(part.heading)}", *body])]


def before_entry(claim: Claim, labels: Labels) -> str:
    """A previous report's claim, quoted inline with its source, page and access date."""
    page = source_location(claim).page
    where = [inert_markdown(source_title(claim))]
    where += [page_label(labels, page)] if page is not None else []
    where += [accessed_text(labels, claim.accessed_at)]
    excerpt = inert_markdown(collapse_whitespace(claim.excerpt))
    return f"“{excerpt}” — {' — '.join(where)}"


def partial_blocks(report: Report, labels: Labels) -> list[str]:
    if not report.partial:
        return []
    banner = f"**{labels.partial_report}.** {labels.partial_explanation}"
    if report.gaps:
        gap_list = bullet_list([inert_markdown(gap) for gap in report.gaps])
        banner += f"\n\n**{labels.gaps}:**\n\n{gap_list}"
    return [blockquote(banner)]


def summary_blocks(report: Report, numbers: _Numbers) -> list[str]:
    if not report.summary:
        return []
    points = bullet_list([numbers.sentence(sentence) for sentence in report.summary])
    return [f"## {numbers.labels.summary}\n\n{points}"]


def contents_blocks(report: Report, labels: Labels) -> list[str]:
    headings = contents(report, labels)
    if not headings:
        return []
    entries = "\n".join(f"{n}. {inert_markdown(h.title)}" for n, h in enumerate(headings, 1))
    return [f"## {labels.contents}\n\n{entries}"]


def section_block(section: Section, numbers: _Numbers) -> str:
    sentences = [numbers.sentence(sentence) for sentence in section.sentences]
    # One paragraph per sentence, as in the HTML: each sentence stands with its own sources.
    return "\n\n".join([f"## {inert_markdown(plain_prose(section.title))}", *sentences])


def figures_blocks(report: Report, numbers: _Numbers) -> list[str]:
    if not report.tables:
        return []
    tables = [figures_table(table, numbers) for table in report.tables]
    return [f"## {numbers.labels.figures}", *tables]


def figures_table(table: FiguresTable, numbers: _Numbers) -> str:
    """A GFM table (labelled rows and columns, every cell with its markers), then one line
    per calculated cell with its formula."""
    report, labels = numbers.report, numbers.labels
    header = [inert_markdown(table.unit, inline=True)]
    header += [inert_markdown(column, inline=True) for column in table.columns]
    lines = [
        f"**{inert_markdown(table_heading(table))}**",
        "",
        table_line(header),
        table_line(["---", *("---:" for _ in table.columns)]),
    ]
    formulas: dict[str, str] = {}
    for row in table.rows:
        cells = [f"**{inert_markdown(row.label, inline=True)}**"]
        for cell in row.cells:
            if cell is None:
                cells.append("—")
                continue
            text = inert_markdown(cell.text, inline=True) + numbers.cited(
                cell_claim_ids(cell, report)
            )
            if cell.calculation_id is not None:
                text += numbers.calculated([cell.calculation_id])
                marker = numbers.calculations.marker(labels, cell.calculation_id)
                calculation = report.calculation(cell.calculation_id)
                formulas[marker] = inert_markdown(calculation_title(calculation, labels))
            cells.append(text)
        lines.append(table_line(cells))
    if formulas:
        lines += ["", bullet_list([f"{marker} — {line}" for marker, line in formulas.items()])]
    return "\n".join(lines)


def table_line(cells: list[str]) -> str:
    """One row of a GFM table; an empty cell is a space, so the row keeps its columns."""
    return "| " + " | ".join(cell or " " for cell in cells) + " |"


def calculation_blocks(report: Report, numbers: _Numbers) -> list[str]:
    if not report.calculations:
        return []
    labels = numbers.labels
    entries = []
    for number, calculation in numbers.calculations.numbered():
        inputs = "; ".join(
            inert_markdown(figure_label(f.text, f.measure, f.entity, f.period))
            + numbers.cited(f.claim_ids)
            for f in calculation.inputs
        )
        entries.append(
            f"{number}. **{numbers.calculations.marker(labels, calculation.id)}** · "
            f"{inert_markdown(calculation_heading(calculation, labels))}\n"
            f"   - {labels.formula}: {inert_markdown(calculation.formula)}\n"
            f"   - {labels.inputs}: {inputs}"
        )
    body = "\n".join(entries)
    return [f"## {labels.calculations}\n\n{labels.calculations_explanation}\n\n{body}"]


def conflict_blocks(report: Report, index: CitationIndex, labels: Labels) -> list[str]:
    """Each conflict: what it is about, then its claims (newer first) with their sources."""
    if not report.conflicts:
        return []
    items = []
    for conflict in report.conflicts:
        about = inert_markdown(
            " ".join(part for part in (conflict.measure, conflict.period) if part)
        )
        lines = [f"- **{about}**"]
        for claim_id in conflict.claim_ids:
            claim = report.claim(claim_id)
            page = source_location(claim).page  # as the sources list and the HTML read it
            where = page_label(labels, page) if page is not None else ""
            source = " — ".join(
                part for part in (inert_markdown(source_title(claim)), where) if part
            )
            lines.append(
                f"  - [{index.number_of(claim_id)}] {source}: {inert_markdown(claim.excerpt)}"
            )
        items.append("\n".join(lines))
    body = "\n".join(items)
    return [f"## {labels.conflicts}\n\n{labels.conflicts_explanation}\n\n{body}"]


def declared_gap_blocks(report: Report, labels: Labels) -> list[str]:
    gaps = listed_gaps(report)
    if not gaps:
        return []
    return [f"## {labels.declared_gaps}\n\n{bullet_list([inert_markdown(g) for g in gaps])}"]


def sources_block(report: Report, labels: Labels) -> str:
    """Each document once (title, URL, access date), its cited excerpts under it."""
    entries = []
    for group in sources_by_document(report):
        entries.append(
            f"**{inert_markdown(group.title)}** — {inert_markdown(group.shown, url=True)} — "
            f"{accessed_text(labels, group.accessed_at)}"
            + (f" — {evidence}" if (evidence := evidence_text(labels, group)) else "")
        )
        entries.extend(excerpt_entry(cited, labels) for cited in group.excerpts)
    return "\n\n".join([f"## {labels.sources}", *(entries or [labels.no_sources])])


def excerpt_entry(cited: CitedExcerpt, labels: Labels) -> str:
    claim = cited.claim
    line = f"[{cited.number}]"
    if cited.page is not None:
        line += f" {page_label(labels, cited.page)}"
    if claim.status is not ClaimStatus.verified:
        line += f" — **{labels.not_verified}**"
    reading = reading_text(labels, claim)
    if claim.read_by == "figure" and reading:  # a reading, never a quote
        return f"{line} — *{reading}*: {inert_markdown(collapse_whitespace(claim.excerpt))}"
    if reading:  # read by OCR: the quote is of the page's image
        line += f" — *{reading}*"
    context = f"{shown} …\n\n" if (shown := context_text(labels, claim)) else ""
    return f"{line}\n\n{quoted_excerpt(context + claim.excerpt)}"


def appendix_block(report: Report, labels: Labels) -> str:
    """How the report was made: spend and limits always; notes, rejected claims and dropped
    sentences when there are any."""
    parts = appendix(report)
    rows = bullet_list([f"{label}: {inert_markdown(value)}" for label, value in parts.rows])
    blocks = [
        f"## {labels.appendix}",
        labels.appendix_explanation,
        f"### {labels.spend_and_limits}\n\n{rows}",
    ]
    if parts.notes:
        notes = bullet_list([inert_markdown(note) for note in parts.notes])
        blocks.append(f"### {labels.notes}\n\n{notes}")
    if parts.rejected:
        lines = [
            f"{inert_markdown(r.url, url=True)} — {inert_markdown(r.reason)}"
            for r in parts.rejected
        ]
        blocks.append(f"### {labels.rejected_claims} ({len(lines)})\n\n{bullet_list(lines)}")
    if parts.dropped:
        lines = [
            f"{inert_markdown(d.section)}: {inert_markdown(d.text)} — {inert_markdown(d.reason)}"
            for d in parts.dropped
        ]
        blocks.append(f"### {labels.dropped_sentences} ({len(lines)})\n\n{bullet_list(lines)}")
    return "\n\n".join(blocks)


def bullet_list(items: list[str]) -> str:
    """Items already made inert (or ours)."""
    return "\n".join(f"- {item}" for item in items)


def blockquote(text: str) -> str:
    """Quote every line, blank ones included, so a multi-line text stays one quote."""
    return "\n".join(f"> {line}".rstrip() for line in text.strip().splitlines())


def quoted_excerpt(excerpt: str) -> str:
    """An excerpt as a quote whose every line is page text made inert."""
    return blockquote("\n".join(inert_markdown(line) for line in excerpt.strip().splitlines()))
