"""The HTML report read as the report an analyst sends: the question once, the answer first,
contents, figures tables with their charts, calculations, sources grouped by document."""

from __future__ import annotations

import base64
import importlib.util
import io

import pytest
from PIL import Image

from engine.contracts import Report, Section
from engine.render.html import render_html
from engine.text import collapse_whitespace
from tests.support.html_tree import Element, parse_html
from tests.support.render_samples import (
    NBSP_EXCERPT,
    build_claim,
    build_report,
    cite,
    figures_report,
)

QUESTION = (
    "How did Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023?"
)


def parts(document: Element) -> list[str]:
    """The id of every part of <main> after the header, in order."""
    main = document.find_all("main")[0]
    return [c.attrs.get("id") or c.tag for c in main.children if isinstance(c, Element)][1:]


@pytest.mark.parametrize("title", ["", f"Report: {QUESTION}", f"Relatório: {QUESTION}"])
def test_the_question_is_the_title_stated_once(title: str) -> None:
    markup = render_html(figures_report(title=title))
    document = parse_html(markup)

    assert collapse_whitespace(document.find_all("h1")[0].text()) == QUESTION
    assert document.find_all("p", "question") == []
    assert markup.count("revenue and operating income change between") == 2  # <title>, <h1>
    assert "Question" not in markup


def test_a_title_of_its_own_is_followed_by_the_question_once(portuguese_report: Report) -> None:
    document = parse_html(render_html(portuguese_report))

    assert document.find_all("h1")[0].text() == "Energia solar residencial no Nordeste"
    [question] = document.find_all("p", "question")
    assert question.text() == "Como está o mercado de energia solar no Nordeste?"
    assert "Pergunta" not in render_html(portuguese_report)


def test_the_parts_come_in_the_order_a_reader_needs_them() -> None:
    document = parse_html(render_html(figures_report(gaps=["No segment data"])))

    assert parts(document) == [
        "summary",
        "nav",
        "section-1",
        "section-2",
        "section-3",
        "figures",
        "calculations",
        "gaps",
        "sources",
        "appendix",
    ]


def test_the_summary_answers_first_each_point_cited() -> None:
    [summary] = parse_html(render_html(figures_report())).find_all("section", "summary")

    assert collapse_whitespace(summary.find_all("h2")[0].text()) == "Summary"
    points = summary.find_all("li")
    assert len(points) == 3
    assert [[a.text() for a in li.find_all("a", "marker")] for li in points] == [
        ["[1]", "[2]"],
        ["[3]", "[4]"],
        ["[5]"],
    ]
    [calculated] = points[0].find_all("a", "calc-marker")
    assert calculated.text() == "calc. 1"
    assert calculated.attrs["href"] == "#calculation-1"
    assert "÷" in (calculated.attrs["title"] or "")


def test_contents_link_to_every_part_only_with_three_sections(portuguese_report: Report) -> None:
    [contents] = parse_html(render_html(figures_report())).find_all("nav", "contents")

    links = [(a.attrs["href"], a.text()) for a in contents.find_all("a")]
    assert links[:3] == [
        ("#section-1", "Fiscal 2019"),
        ("#section-2", "Fiscal 2023"),
        ("#section-3", "Why it changed"),
    ]
    assert [href for href, _ in links[3:]] == [
        "#figures",
        "#calculations",
        "#sources",
        "#appendix",
    ]
    assert parse_html(render_html(portuguese_report)).find_all("nav") == []  # two sections


def test_a_figures_table_labels_rows_and_columns_and_cites_every_cell() -> None:
    [table] = parse_html(render_html(figures_report())).find_all("table", "figures")

    assert (
        collapse_whitespace(table.find_all("caption")[0].text()) == "Revenue and operating income"
    )
    head = [th.text() for th in table.find_all("thead")[0].find_all("th")]
    assert head == ["", "February 2, 2019", "January 28, 2023", "Change"]
    body = table.find_all("tbody")[0]
    assert [th.text() for th in body.find_all("th")] == ["Revenue", "Operating income"]
    cells = body.find_all("td")
    assert len(cells) == 6
    assert all(cell.find_all("a", "marker") for cell in cells)
    assert [a.text() for a in cells[0].find_all("a", "marker")] == ["[1]"]


def test_a_calculated_cell_is_marked_with_its_formula() -> None:
    [table] = parse_html(render_html(figures_report())).find_all("table", "figures")

    calculated = table.find_all("td", "calculated")
    assert [collapse_whitespace(td.text()) for td in calculated] == [
        "+8.0%[1][2] calc. 1",
        "+47.1%[3][4] calc. 2",
    ]
    assert calculated[0].attrs["title"] == "calculated: ($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%"
    assert [a.attrs["href"] for a in calculated[0].find_all("a", "calc-marker")] == [
        "#calculation-1"
    ]


@pytest.mark.skipif(
    importlib.util.find_spec("engine.render.charts") is None, reason="charts not there yet"
)
def test_each_table_has_its_chart_beneath_it_with_its_sources() -> None:
    markup = render_html(figures_report())
    [figures] = parse_html(markup).find_all("section", "figures")

    [chart] = figures.find_all("figure", "chart")
    [image] = chart.find_all("img")
    source = image.attrs["src"] or ""
    assert source.startswith("data:image/png;base64,")
    picture = Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1])))
    assert picture.width > 400
    assert image.attrs["alt"] == "Chart: Revenue and operating income"
    caption = collapse_whitespace(chart.find_all("figcaption")[0].text())
    assert "BESTBUY_2019_10K" in caption
    assert "BESTBUY_2023_10K" in caption
    assert markup.index('class="figures"') < markup.index('class="chart"')


def test_calculations_show_formula_and_cited_inputs() -> None:
    [part] = parse_html(render_html(figures_report())).find_all("section", "calculations")

    [first, second] = part.find_all("ol", "calculations")[0].find_all("li")
    assert first.attrs["id"] == "calculation-1"
    assert collapse_whitespace(first.find_all("p")[0].text()) == (
        "calc. 1 · Revenue, 2019 to 2023: +8.0% (calculated: percentage change)"
    )
    assert collapse_whitespace(first.find_all("p", "formula")[0].text()) == (
        "Formula: ($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%"
    )
    assert collapse_whitespace(first.find_all("p", "inputs")[0].text()) == (
        "Inputs: $ 42,879 (Revenue, 2019)[1]; $ 46,298 (Revenue, 2023)[2]"
    )
    assert [a.text() for a in second.find_all("a", "marker")] == ["[3]", "[4]"]


def test_sources_list_each_document_once_with_its_excerpts() -> None:
    [bibliography] = parse_html(render_html(figures_report())).find_all("section", "bibliography")

    documents = bibliography.find_all("li", "document")
    assert [collapse_whitespace(d.find_all("p", "source-title")[0].text()) for d in documents] == [
        "BESTBUY_2019_10K",
        "BESTBUY_2023_10K",
    ]
    numbers = [
        [li.attrs["id"] for li in d.find_all("ol", "excerpts")[0].find_all("li")] for d in documents
    ]
    assert numbers == [["source-1", "source-3"], ["source-2", "source-4", "source-5"]]
    pages = [collapse_whitespace(p.text()) for p in documents[1].find_all("p", "cited")]
    assert pages == ["[2] page 40", "[4] page 40", "[5] page 27"]
    [link] = documents[1].find_all("p", "cited")[2].find_all("a")
    assert link.attrs["href"] == "https://example.org/bestbuy-2023-10k.pdf#page=27"


def test_internal_run_details_sit_only_in_the_appendix() -> None:
    document = parse_html(render_html(figures_report()))
    [appendix] = document.find_all("section", "appendix")

    assert (
        collapse_whitespace(appendix.find_all("h2")[0].text())
        == "Appendix: how this report was made"
    )
    assert "support judge skipped" in appendix.text()
    body = "".join(s.text() for s in document.find_all("section") if "appendix" not in s.classes())
    assert "support judge skipped" not in body
    assert "offline" not in body


def test_the_portuguese_report_names_its_parts_in_portuguese() -> None:
    markup = render_html(figures_report(language="pt"))

    for heading in ("Resumo", "Sumário", "Números", "Cálculos", "Fontes"):
        assert f"<h2>{heading}</h2>" in markup
    assert "Apêndice: como este relatório foi feito" in markup
    assert "cálc. 1" in markup
    assert "Summary" not in markup


def nbsp_report() -> Report:
    claim = build_claim("cnbsp", title="BESTBUY_2019_10K", excerpt=NBSP_EXCERPT)
    section_sentence = cite(
        "Net earnings attributable to shareholders were $ 1,464 million.", "cnbsp"
    )
    return build_report(
        [claim], [Section(title="Earnings", sentences=[section_sentence])], language="en"
    )


def test_an_excerpt_of_no_break_spaces_is_shown_with_spaces_and_stored_verbatim() -> None:
    report = nbsp_report()
    document = parse_html(render_html(report, expanded=True))

    [excerpt] = document.find_all("blockquote", "excerpt")
    assert "\u00a0" not in excerpt.text()
    assert "attributable to Best Buy Co., Inc. shareholders" in excerpt.text()
    assert report.claim("cnbsp").excerpt == NBSP_EXCERPT  # the report keeps the page's text
    style = document.find_all("style")[0].text()
    assert "overflow-wrap: anywhere" in style
