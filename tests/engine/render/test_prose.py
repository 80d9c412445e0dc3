"""The writer's prose as a reader sees it in every format: its Markdown inline marks set as
bold, italic or code ("o **caput** do artigo" shows "caput" in bold, never the asterisks)
and character references shown as their characters ("SG&amp;A" is "SG&A"), in prose and in
page text alike."""

from __future__ import annotations

import io

import docx
import openpyxl
import pptx
import pytest
from markdown_it import MarkdownIt

from engine.contracts import Report
from engine.render.docx import render_docx
from engine.render.html import render_html
from engine.render.markdown import render_markdown
from engine.render.pptx import render_pptx
from engine.render.text import ProseSpan, plain_prose, prose_spans
from engine.render.xlsx import render_xlsx
from tests.support.render_samples import build_claim, build_report, cite, section

CAPUT = "Conforme o **caput** do art. 5º, a *compensação* vale por 60 meses."
SGA = "Em 2023 as despesas de SG&amp;A da Vale subiram para R$ 2,1 bilhões."
CODE = "The filing's `Item 7` shows SG&amp;A of __$ 3,457 million__ in fiscal 2024."
EXCERPT = "Despesas com vendas, gerais e administrativas (SG&amp;A) de R$ 2,1 bilhões em 2023"


def prose_report(language: str = "pt") -> Report:
    claims = [build_claim("c1", excerpt=EXCERPT, title="Vale &#8211; Relatório 20-F 2023")]
    sentences = [cite(CAPUT, "c1"), cite(SGA, "c1"), cite(CODE, "c1")]
    return build_report(
        claims,
        [section("Despesas **operacionais**", *sentences)],
        summary=[cite(SGA, "c1")],
        language=language,
    )


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        (
            "o **caput** do artigo",
            [ProseSpan("o "), ProseSpan("caput", strong=True), ProseSpan(" do artigo")],
        ),
        (
            "a _microgeração_ e `x`",
            [
                ProseSpan("a "),
                ProseSpan("microgeração", emphasis=True),
                ProseSpan(" e "),
                ProseSpan("x", code=True),
            ],
        ),
        (
            "**receita _líquida_**",
            [ProseSpan("receita ", strong=True), ProseSpan("líquida", True, True)],
        ),
        ("2 * 3 * 4 and snake_case_name", [ProseSpan("2 * 3 * 4 and snake_case_name")]),
        ("AT&T, R&D &copy &#8220;ok&#8221; &nosuch;", [ProseSpan("AT&T, R&D &copy “ok” &nosuch;")]),
    ],
)
def test_prose_is_read_into_spans_as_markdown_sets_it(text: str, spans: list[ProseSpan]) -> None:
    assert prose_spans(text) == spans


def test_plain_prose_drops_the_marks() -> None:
    assert plain_prose(CAPUT) == "Conforme o caput do art. 5º, a compensação vale por 60 meses."
    assert plain_prose(SGA).count("SG&A") == 1


def test_markdown_sets_the_marks_and_shows_entities_once() -> None:
    markdown = render_markdown(prose_report())
    html = MarkdownIt("commonmark").render(markdown)
    assert "<strong>caput</strong>" in html
    assert "<em>compensação</em>" in html
    assert "<code>Item 7</code>" in html
    assert "**" not in html
    assert "SG&amp;A" in html  # "SG&A" on screen
    assert "&amp;amp;" not in html
    assert "## Despesas operacionais" in markdown
    assert "Vale – Relatório 20-F 2023" in markdown


def test_html_sets_the_marks_and_shows_entities_once() -> None:
    page = render_html(prose_report())
    assert "<strong>caput</strong>" in page
    assert "<em>compensação</em>" in page
    assert "<code>Item 7</code>" in page
    assert "<strong>$ 3,457 million</strong>" in page
    assert "**" not in page
    assert "&amp;amp;" not in page
    assert "SG&amp;A) de R$ 2,1 bilhões" in page  # the excerpt, as the page showed it


def test_docx_sets_bold_runs_and_shows_entities_once() -> None:
    document = docx.Document(io.BytesIO(render_docx(prose_report(), {})))
    runs = [run for paragraph in document.paragraphs for run in paragraph.runs]
    bold = [run.text for run in runs if run.bold]
    assert bold == ["caput", "$ 3,457 million", "Vale – Relatório 20-F 2023"]  # and a source
    assert next(run.text for run in runs if run.italic) == "compensação"  # then the excerpt
    text = "\n".join(paragraph.text for paragraph in document.paragraphs)
    assert "**" not in text
    assert "&amp;" not in text
    assert "Despesas operacionais" in text
    assert "despesas de SG&A da Vale" in text


def test_pptx_and_xlsx_show_no_marks_or_entities() -> None:
    deck = pptx.Presentation(io.BytesIO(render_pptx(prose_report("en"), {})))
    shown = "\n".join(
        shape.text_frame.text
        for slide in deck.slides
        for shape in slide.shapes
        if shape.has_text_frame
    )
    assert "caput" in shown
    assert "**" not in shown
    assert "&amp;" not in shown
    assert "SG&A" in shown
    book = openpyxl.load_workbook(io.BytesIO(render_xlsx(prose_report(), {})))
    summary = [row[1] for row in book["Resumo"].iter_rows(min_row=4, values_only=True)]
    assert summary == [plain_prose(SGA)]
