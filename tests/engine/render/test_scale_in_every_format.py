"""Best Buy's revenue with its scale in every format: the statement's "$ and shares in
millions" reaches the summary ("$ 42,879 million"), the computed change, the figures table's
unit and the chart's axis, in the Markdown, HTML, JSON, PDF, DOCX, PPTX and XLSX a report
is written as, in English and in Portuguese ("US$ 42.879 milhões")."""

from __future__ import annotations

import html
import io
import json
import re

import docx
import openpyxl
import pptx
import pytest

from engine.contracts import Claim, Language, Plan, Report, Subquestion
from engine.planning.briefs import make_brief
from engine.render.charts import chart_data
from engine.render.docx import render_docx
from engine.render.files import render_json
from engine.render.html import render_html
from engine.render.markdown import render_markdown
from engine.render.pdf import render_pdf
from engine.render.pptx import render_pptx
from engine.render.xlsx import render_xlsx
from engine.text import collapse_whitespace
from engine.verify.draft import check_draft
from engine.writing.verbatim import verbatim_draft
from tests.support.pdfs import pdf_text
from tests.support.render_samples import build_claim

IN_MILLIONS = "$ and shares in millions, except per share amounts"
HEADERS = {
    2019: "Fiscal Years Ended February 2, 2019 February 3, 2018 January 28, 2017",
    2023: "Fiscal Years Ended January 28, 2023 January 29, 2022 January 30, 2021",
}
ROWS = {2019: "Revenue $ 42,879 $ 42,151 $ 39,403", 2023: "Revenue $ 46,298 $ 51,761 $ 47,262"}
QUESTIONS = {
    "en": "How did Best Buy's revenue change from fiscal 2019 to fiscal 2023?",
    "pt": "Como variou a receita (revenue) da Best Buy entre 2019 e 2023?",
}
SAID = {  # what each language's report says of the two figures and of their unit
    "en": ("$ 42,879 million", "$ 46,298 million", "$ million"),
    "pt": ("US$ 42.879 milhões", "US$ 46.298 milhões", "$ million"),
}
LANGUAGES = pytest.mark.parametrize("language", ["en", "pt"])


def revenue_row(year: int) -> Claim:
    return build_claim(
        f"r{year}",
        statement=ROWS[year],
        url=f"https://example.org/bestbuy-{year}-10k.pdf#page=53",
        title=f"BESTBUY_{year}_10K",
        excerpt=ROWS[year],
        context=f"{IN_MILLIONS}\n{HEADERS[year]}",
        subquestion="s1",
    )


def revenue_report(language: Language, question: str = "") -> Report:
    question = question or QUESTIONS[language]
    claims = [revenue_row(2019), revenue_row(2023)]
    brief = make_brief(question, language=language)
    plan = Plan(question=question, subquestions=[Subquestion(id="s1", text=question)])
    written = verbatim_draft(brief, plan, claims)
    assert check_draft(written, claims, language=language).dropped == []
    return Report(
        question=question,
        language=language,
        plan=plan,
        claims=claims,
        summary=written.summary,
        sections=written.sections,
        tables=written.tables,
        calculations=written.calculations,
    )


def assert_scaled(text: str, language: Language) -> None:
    old, new, unit = SAID[language]
    text = collapse_whitespace(text)
    assert old in text, text[:2000]
    assert new in text, text[:2000]
    assert unit in text


@LANGUAGES
def test_markdown(language: Language) -> None:
    assert_scaled(render_markdown(revenue_report(language)), language)


@LANGUAGES
def test_html(language: Language) -> None:
    page = render_html(revenue_report(language), expanded=True)
    assert_scaled(html.unescape(re.sub(r"<[^>]+>", " ", page)), language)


@LANGUAGES
def test_json(language: Language) -> None:
    report = json.loads(render_json(revenue_report(language)))
    said = " ".join(point["text"] for point in report["summary"])
    said += " " + " ".join(table["unit"] for table in report["tables"])
    assert_scaled(said, language)


@LANGUAGES
def test_pdf(language: Language) -> None:
    assert_scaled(pdf_text(render_pdf(revenue_report(language))), language)


@LANGUAGES
def test_docx(language: Language) -> None:
    document = docx.Document(io.BytesIO(render_docx(revenue_report(language), {})))
    texts = [p.text for p in document.paragraphs]
    texts += [cell.text for table in document.tables for row in table.rows for cell in row.cells]
    assert_scaled(" ".join(texts), language)


@LANGUAGES
def test_pptx(language: Language) -> None:
    deck = pptx.Presentation(io.BytesIO(render_pptx(revenue_report(language), {})))
    texts: list[str] = []
    for slide in deck.slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                texts.append(shape.text_frame.text)
            if shape.has_table:
                texts += [c.text for row in shape.table.rows for c in row.cells]
    assert_scaled(" ".join(texts), language)


@LANGUAGES
def test_xlsx(language: Language) -> None:
    book = openpyxl.load_workbook(io.BytesIO(render_xlsx(revenue_report(language), {})))
    cells = [
        str(cell.value)
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if cell.value is not None
    ]
    assert_scaled(" ".join(cells), language)


@LANGUAGES
def test_chart_axis(language: Language) -> None:
    over_time = {
        "en": "How has Best Buy's revenue evolved since 2017?",
        "pt": "Como evoluiu a receita (revenue) da Best Buy desde 2017?",
    }
    report = revenue_report(language, over_time[language])
    oldest = {"en": "$ 39,403 million", "pt": "US$ 39.403 milhões"}[language]
    assert any(oldest in point.text for point in report.summary)  # each point of the series
    chart = chart_data(report.tables[0], language)
    assert chart is not None
    assert chart.unit == "$ million"
