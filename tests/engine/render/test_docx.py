"""report.docx as python-docx reads it back: the question once, the summary first, contents,
figures tables as Word tables with their chart, every citation a real footnote holding its
excerpt, context, source, page and access date, the sources grouped by document with their
page crops, and the run's details last, in the report's language."""

from __future__ import annotations

import io

import docx
from docx.document import Document as WordDocument
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml.ns import qn
from lxml import etree

from engine.contracts import Report, Section
from engine.render.docx import render_docx
from tests.support.render_samples import build_claim, build_report, cite, figures_report

QUESTION = (
    "How did Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023?"
)


def opened(report: Report, crops: dict[str, bytes] | None = None) -> WordDocument:
    return docx.Document(io.BytesIO(render_docx(report, crops or {})))


def footnotes(document: WordDocument) -> dict[int, str]:
    """The notes' text by id, as a reader sees them (separators left out)."""
    part = document.part.part_related_by(RT.FOOTNOTES)
    root = etree.fromstring(part.blob)
    notes = {}
    for note in root.iter(qn("w:footnote")):
        number = int(note.get(qn("w:id")))
        if number > 0:
            notes[number] = "".join(t.text or "" for t in note.iter(qn("w:t")))
    return notes


def references(document: WordDocument) -> list[int]:
    body = document.element.body
    return [int(r.get(qn("w:id"))) for r in body.iter(qn("w:footnoteReference"))]


def texts(document: WordDocument) -> list[str]:
    return [p.text for p in document.paragraphs]


def heading(document: WordDocument, text: str) -> int:
    """The position of the heading `text` among the paragraphs (not its line in the contents)."""
    [position] = [
        n
        for n, p in enumerate(document.paragraphs)
        if p.text == text and p.style.name.startswith("Heading")
    ]
    return position


def test_the_question_is_stated_once_and_the_summary_comes_first() -> None:
    document = opened(figures_report())

    paragraphs = texts(document)
    assert paragraphs[0] == QUESTION
    assert document.paragraphs[0].style.name == "Title"
    assert sum(QUESTION in p for p in paragraphs) == 1
    assert not any(p.startswith("Question") for p in paragraphs)
    assert paragraphs[1] == "Summary"
    bullets = [p for p in document.paragraphs if p.style.name == "List Bullet"][:3]
    assert bullets[0].text.startswith("Revenue grew from $ 42,879")
    assert [p.text for p in bullets] == [p for p in paragraphs[2:5]]


def test_every_citation_is_a_footnote_holding_its_excerpt_and_source() -> None:
    report = figures_report()
    document = opened(report)
    notes = footnotes(document)

    assert sorted(references(document)) == sorted(notes) == list(range(1, len(notes) + 1))
    cited = sum(
        len(set(s.claim_ids)) + len(s.calculation_ids) for s in report.published_sentences()
    )
    assert len(notes) == cited
    first = notes[1]
    assert "“Revenue $ 42,879 $ 42,151 $ 39,403”" in first
    assert "Fiscal Years Ended February 2, 2019" in first  # the context, the table's header
    assert "BESTBUY_2019_10K, page 53" in first
    assert "https://example.org/bestbuy-2019-10k.pdf" in first
    assert "Accessed on 2025-05-01 14:03 UTC" in first
    [calculated] = [n for n in notes.values() if "calc. 1:" in n]
    assert "($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%" in calculated


def test_the_figures_table_is_a_word_table_citing_every_cell_with_its_chart_beneath() -> None:
    document = opened(figures_report())

    table = document.tables[0]
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert rows[0] == ["", "February 2, 2019", "January 28, 2023", "Change"]
    assert rows[1] == ["Revenue", "$ 42,879 [1]", "$ 46,298 [2]", "+8.0% [1][2] (calc. 1)"]
    assert rows[2][0] == "Operating income"
    assert len(document.inline_shapes) == 1  # the chart (no page crops were given)
    paragraphs = texts(document)
    assert any(p.startswith("Sources: BESTBUY_2019_10K, p. 53") for p in paragraphs)
    assert "Formula: ($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%" in "\n".join(paragraphs)


def test_contents_are_a_toc_field_that_reads_without_updating() -> None:
    document = opened(figures_report())

    instructions = [t.text for t in document.element.body.iter(qn("w:instrText"))]
    assert any("TOC" in text for text in instructions)
    paragraphs = texts(document)
    start = paragraphs.index("Contents")
    listed = paragraphs[start + 1 : start + 4]
    assert listed == ["Fiscal 2019", "Fiscal 2023", "Why it changed"]


def test_fewer_than_three_sections_have_no_contents() -> None:
    report = figures_report()
    document = opened(report.model_copy(update={"sections": report.sections[:2]}))

    assert "Contents" not in texts(document)
    assert not list(document.element.body.iter(qn("w:instrText")))


def test_sources_list_each_document_once_with_its_excerpts_and_the_appendix_comes_last() -> None:
    document = opened(figures_report())

    paragraphs = texts(document)
    sources = heading(document, "Sources")
    appendix = heading(document, "Appendix: how this report was made")
    assert sources < appendix
    listed = paragraphs[sources:appendix]
    assert listed.count("BESTBUY_2019_10K") == 1
    assert listed.count("BESTBUY_2023_10K") == 1
    assert "Revenue $ 42,879 $ 42,151 $ 39,403" in " ".join(listed)
    notes = [i for i, p in enumerate(paragraphs) if "support judge skipped" in p]
    assert notes
    assert all(i > appendix for i in notes), "internal notes only in the appendix"
    assert not any("rejected" in p.lower() for p in paragraphs), "no empty rejected part"


def test_a_portuguese_report_speaks_portuguese_and_shows_its_page_crop(
    portuguese_report: Report, small_png: bytes
) -> None:
    document = opened(portuguese_report, {"cpdf": small_png})

    paragraphs = texts(document)
    joined = "\n".join(paragraphs)
    assert paragraphs[0] == "Energia solar residencial no Nordeste"
    assert "Como está o mercado de energia solar no Nordeste?" in paragraphs  # the question
    assert "Relatório parcial. " in joined
    assert heading(document, "Fontes") < heading(
        document, "Apêndice: como este relatório foi feito"
    )
    assert "página 60" in joined
    assert "Acessado em 2025-05-01 14:03 UTC" in joined
    assert "Afirmações rejeitadas pelo verificador:" in paragraphs
    assert len(document.inline_shapes) == 1  # the crop of the cited PDF page
    assert "página 60" in document.inline_shapes[0]._inline.docPr.get("descr")
    assert any("Relatório de Geração Distribuída 2024" in n for n in footnotes(document).values())
    assert document.core_properties.language == "pt-BR"
    assert figures_report(language="pt")  # the figures sample renders in Portuguese too
    assert "Resumo" in texts(opened(figures_report(language="pt")))


def test_page_text_goes_in_as_plain_text_wrapping_at_its_non_breaking_spaces() -> None:
    excerpt = (
        "Receita\u00a0líquida de\u00a0R$\u00a01.234 <w:t>x</w:t> {{ TOC }} \x0c fim do trecho."
    )
    claim = build_claim("chostile", excerpt=excerpt, title="<b>Título</b>", url="javascript:x()")
    report = build_report(
        [claim], [Section(title="<h1>Seção</h1>", sentences=[cite("Diz <em>x</em>.", "chostile")])]
    )

    document = opened(report)

    [note] = footnotes(document).values()
    assert "Receita líquida de R$ 1.234 <w:t>x</w:t> {{ TOC }}" in note
    assert "\x0c" not in note
    assert "<b>Título</b>" in note
    assert "<h1>Seção</h1>" in texts(document)
    links = [r for r in document.part.rels.values() if r.reltype == RT.HYPERLINK]
    assert not any("javascript" in r.target_ref for r in links)
