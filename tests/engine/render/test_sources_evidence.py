"""The Sources part shows each document's own date and standing beside its access date, in
Markdown, HTML and Word (the PDF is the expanded HTML), in the report's language."""

from __future__ import annotations

import io
import re

import docx

from engine.contracts import Report, Section
from engine.render.citations import sources_by_document
from engine.render.docx import render_docx
from engine.render.html import render_html
from engine.render.markdown import render_markdown
from tests.support.render_samples import build_claim, build_report, cite


def report(language: str = "pt", **claim_fields: object) -> Report:
    claims = [
        build_claim("c1", url="https://www.gov.br/aneel/gd", **claim_fields),
        build_claim("c2", url="https://solar.blogspot.com/gd", published="2021", standing="other"),
    ]
    sentences = [cite("Afirmação c1", "c1"), cite("Afirmação c2", "c2")]
    return build_report(claims, [Section(title="Mercado", sentences=sentences)], language=language)


DATED = {"published": "2024-03-01", "standing": "primary"}


def sources_part(markdown: str) -> str:
    return markdown.split("## Fontes", 1)[1] if "## Fontes" in markdown else markdown


def test_markdown_lists_each_documents_date_and_standing() -> None:
    shown = sources_part(render_markdown(report(**DATED)))
    assert re.search(r"gov\.br.*data da fonte: 2024-03-01 · fonte primária \(oficial\)", shown)
    assert re.search(r"blogspot.*data da fonte: 2021 · outra fonte \(blog, fórum", shown)


def test_html_and_word_show_them_too_in_english() -> None:
    english = report("en", **DATED)
    html = render_html(english, expanded=True)
    assert "source dated 2024-03-01 · primary source (official)" in html
    assert "source dated 2021 · other source (blog, forum, unknown)" in html
    word = docx.Document(io.BytesIO(render_docx(english, {})))
    text = "\n".join(p.text for p in word.paragraphs)
    assert "source dated 2024-03-01 · primary source (official)" in text


def test_a_report_from_before_dates_and_standings_shows_neither() -> None:
    old = report()  # c1 carries no date or standing
    [first, _] = sources_by_document(old)
    assert (first.published, first.standing) == ("", None)
    lines = sources_part(render_markdown(old)).splitlines()
    line = next(text for text in lines if "gov.br" in text)
    assert "data da fonte" not in line
    assert "fonte primária" not in line
