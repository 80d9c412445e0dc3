"""Every format opens a compared report with "What changed since <date>" (engine/render/
changes.py): each change's line, why a gone one is gone, the previous report's excerpt as it
sealed it and this report's citation; "No change since <date>" when nothing changed; and
nothing of the kind in a report compared with none. In both languages."""

from __future__ import annotations

import asyncio
import html
import io
import re
from collections.abc import Callable

import docx
import openpyxl
import pptx
import pytest

from engine.changes import explain_gone, with_changes
from engine.contracts import Report
from engine.render import change_lines, render_docx, render_html, render_markdown, render_pptx
from engine.render.pdf import render_pdf
from engine.render.xlsx import render_xlsx
from engine.text.normalise import collapse_whitespace
from engine.words import words_for
from tests.support.pages_source import PagesSource
from tests.support.pdfs import pdf_text
from tests.support.report_changes import (
    ALPHA_NEW,
    ALPHA_OLD,
    BETA,
    current_report,
    previous_report,
)


def _html_text(report: Report) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", render_html(report)))


def _docx_text(report: Report) -> str:
    document = docx.Document(io.BytesIO(render_docx(report, {})))
    return "\n".join(paragraph.text for paragraph in document.paragraphs)


def _pptx_text(report: Report) -> str:
    deck = pptx.Presentation(io.BytesIO(render_pptx(report, {})))
    texts = []
    for slide in deck.slides:
        texts += [shape.text_frame.text for shape in slide.shapes if shape.has_text_frame]
        texts.append(slide.notes_slide.notes_text_frame.text)
    return "\n".join(texts)


def _xlsx_text(report: Report) -> str:
    workbook = openpyxl.load_workbook(io.BytesIO(render_xlsx(report, {})))
    cells = [
        str(value)
        for sheet in workbook.worksheets
        for row in sheet.iter_rows(values_only=True)
        for value in row
        if value is not None
    ]
    return "\n".join(cells)


FORMATS: dict[str, Callable[[Report], str]] = {
    "md": render_markdown,
    "html": _html_text,
    "pdf": lambda report: pdf_text(render_pdf(report)),
    "docx": _docx_text,
    "pptx": _pptx_text,
    "xlsx": _xlsx_text,
}


def compared(language: str) -> Report:
    current = current_report().model_copy(update={"language": language})
    return asyncio.run(explain_gone(with_changes(current, previous_report()), PagesSource()))


@pytest.mark.parametrize("language", ["en", "pt"])
@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_opens_with_what_changed_citing_both_sides(name: str, language: str) -> None:
    words = words_for(language)
    text = collapse_whitespace(FORMATS[name](compared(language)))
    heading = words.changes.heading.format(date="2026-11-02 09:00 UTC")
    assert heading in text
    assert text.index(heading) < text.index(ALPHA_NEW)  # before what the report quotes
    for line in change_lines(compared(language)):
        assert collapse_whitespace(line).split(" — ")[0] in text, line
    assert words.changes.gone_reasons["removed"] in text
    assert ALPHA_OLD in text  # the old side, as the previous report sealed it
    assert BETA in text


def test_the_lines_of_the_changes_in_both_languages() -> None:
    assert change_lines(compared("en")) == [
        "Alpha revenue, Alpha Solar annual report, 2025: from $12.4 million to $13.1 million",
        "New source: Gamma Solar annual report",
        "Source no longer found: Beta Solar annual report — why: the file or page was removed",
    ]
    assert change_lines(compared("pt")) == [
        "Alpha revenue, Alpha Solar annual report, 2025: de $12.4 million para $13.1 million",
        "Nova fonte: Gamma Solar annual report",
        "Fonte não mais encontrada: Beta Solar annual report — por quê: o arquivo ou a página "
        "foi removido",
    ]


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_report_unchanged_since_its_previous_one_says_so(name: str) -> None:
    unchanged = with_changes(previous_report(), previous_report())
    text = collapse_whitespace(FORMATS[name](unchanged))
    assert words_for("en").changes.no_change.format(date="2026-11-02 09:00 UTC") in text
    assert change_lines(unchanged) == []


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_report_compared_with_none_has_no_such_part(name: str) -> None:
    text = FORMATS[name](current_report())
    assert "What changed" not in text
    assert "No change since" not in text


def test_the_workbook_opens_on_its_changes_sheet() -> None:
    workbook = openpyxl.load_workbook(io.BytesIO(render_xlsx(compared("pt"), {})))
    assert workbook.sheetnames[0] == "Mudanças"
    assert workbook.active is not None
    assert workbook.active.title == "Mudanças"


def test_the_markdown_cites_the_new_side_by_number_and_quotes_the_old_one() -> None:
    markdown = render_markdown(compared("en"))
    part = markdown.split("## Revenue")[0]
    assert "from $12.4 million to $13.1 million [1]" in part
    assert f"  - Before: “{ALPHA_OLD}” — Alpha Solar annual report — Accessed on" in part
    assert "New source: Gamma Solar annual report [3]" in part
