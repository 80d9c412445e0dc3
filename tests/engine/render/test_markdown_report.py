"""report.md read as the report an analyst sends: the question once, the answer first,
contents, figures tables, calculations, sources grouped by document, the appendix last."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from engine.contracts import Section, TableCell
from engine.render.markdown import render_markdown
from tests.support.render_samples import build_claim, build_report, cite, figures_report

QUESTION = (
    "How did Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023?"
)


def headings(markdown: str) -> list[str]:
    return re.findall(r"(?m)^##? (.+)$", markdown)


def part(markdown: str, heading: str) -> str:
    """The text of a `## heading` part, up to the next `## `."""
    return markdown.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0].strip()


@pytest.mark.parametrize("title", ["", f"Report: {QUESTION}", f"Relatório: {QUESTION}"])
def test_the_question_is_the_title_stated_once(title: str) -> None:
    markdown = render_markdown(figures_report(title=title))

    assert markdown.startswith(f"# {QUESTION}\n\n## Summary\n")
    assert markdown.count("revenue and operating income change between") == 1
    assert "Question" not in markdown


def test_the_parts_come_in_the_order_a_reader_needs_them() -> None:
    markdown = render_markdown(figures_report(gaps=["No segment data"]))

    assert headings(markdown) == [
        QUESTION,
        "Summary",
        "Contents",
        "Fiscal 2019",
        "Fiscal 2023",
        "Why it changed",
        "Figures",
        "Calculations",
        "Declared gaps",
        "Sources",
        "Appendix: how this report was made",
    ]


def test_the_summary_answers_first_each_point_cited() -> None:
    assert part(render_markdown(figures_report()), "Summary").splitlines() == [
        "- Revenue grew from $ 42,879 in fiscal 2019 to $ 46,298 in fiscal 2023, +8.0% "
        "(calculated). [1][2] (calc. 1)",
        "- Operating income grew from 1,900 to 2,795, +47.1% (calculated). [3][4] (calc. 2)",
        "- Our operating income rate decreased in fiscal 2023, primarily driven by the "
        "unfavorable gross profit rate. [5]",
    ]


def test_contents_only_with_three_sections() -> None:
    markdown = render_markdown(figures_report())

    assert part(markdown, "Contents").splitlines() == [
        "1. Fiscal 2019",
        "2. Fiscal 2023",
        "3. Why it changed",
        "4. Figures",
        "5. Calculations",
        "6. Sources",
        "7. Appendix: how this report was made",
    ]
    two = figures_report().model_copy(update={"sections": figures_report().sections[:2]})
    assert "## Contents" not in render_markdown(two)


def test_a_figures_table_is_a_table_with_every_cell_cited() -> None:
    markdown = render_markdown(figures_report())
    html = MarkdownIt("commonmark").enable("table").render(markdown)

    assert "<th>February 2, 2019</th>" in html.replace(' style="text-align:right"', "")
    lines = [line for line in part(markdown, "Figures").splitlines() if line.startswith("|")]
    assert lines == [
        "|   | February 2, 2019 | January 28, 2023 | Change |",
        "| --- | ---: | ---: | ---: |",
        "| **Revenue** | $ 42,879 [1] | $ 46,298 [2] | +8.0% [1][2] (calc. 1) |",
        "| **Operating income** | 1,900 [3] | 2,795 [4] | +47.1% [3][4] (calc. 2) |",
    ]


def test_each_calculated_cell_has_its_formula_beneath_the_table() -> None:
    figures = part(render_markdown(figures_report()), "Figures")

    assert figures.endswith(
        "- calc. 1 — calculated: ($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%\n"
        "- calc. 2 — calculated: (2,795 − 1,900) ÷ 1,900 = +47.1%"
    )
    assert "data:image" not in figures  # a chart has no place in a Markdown file


def test_calculations_show_formula_and_cited_inputs() -> None:
    calculations = part(render_markdown(figures_report()), "Calculations").splitlines()

    assert calculations[0].startswith("Computed in code")
    assert calculations[2:5] == [
        "1. **calc. 1** · Revenue, 2019 to 2023: +8.0% (calculated: percentage change)",
        "   - Formula: ($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%",
        "   - Inputs: $ 42,879 (Revenue, 2019) [1]; $ 46,298 (Revenue, 2023) [2]",
    ]


def test_sources_list_each_document_once_with_its_excerpts() -> None:
    sources = part(render_markdown(figures_report()), "Sources")
    lines = [line for line in sources.splitlines() if line and not line.startswith(">")]

    assert lines == [
        "**BESTBUY\\_2019\\_10K** — https://example.org/bestbuy-2019-10k.pdf — "
        "Accessed on 2025-05-01 14:03 UTC",
        "[1] page 53",
        "[3] page 53",
        "**BESTBUY\\_2023\\_10K** — https://example.org/bestbuy-2023-10k.pdf — "
        "Accessed on 2025-05-01 14:03 UTC",
        "[2] page 40",
        "[4] page 40",
        "[5] page 27",
    ]


def test_internal_run_details_sit_only_in_the_appendix() -> None:
    markdown = render_markdown(figures_report())
    body, appendix = markdown.split("## Appendix: how this report was made")

    assert "support judge skipped" in appendix
    assert "### Notes" in appendix
    assert "support judge skipped" not in body
    assert "Spend and limits" not in body
    assert "Claims rejected" not in markdown  # none was


def test_the_portuguese_report_names_its_parts_in_portuguese() -> None:
    markdown = render_markdown(figures_report(language="pt"))

    assert headings(markdown)[1:3] == ["Resumo", "Sumário"]
    for heading in ("Números", "Cálculos", "Fontes", "Apêndice: como este relatório foi feito"):
        assert f"\n## {heading}\n" in markdown
    assert "(cálc. 1)" in markdown


def test_an_excerpt_of_no_break_spaces_is_quoted_with_spaces() -> None:
    excerpt = "\u00a0".join("attributable to Best Buy Co., Inc. shareholders".split())
    claim = build_claim("c1", excerpt=excerpt)
    report = build_report([claim], [Section(title="S", sentences=[cite("Earnings.", "c1")])])

    assert "> attributable to Best Buy Co., Inc. shareholders\n" in render_markdown(report)
    assert report.claim("c1").excerpt == excerpt


def test_a_calculated_cell_citing_no_claim_shows_its_inputs_numbers() -> None:
    report = figures_report()
    [table] = report.tables
    table.rows[0].cells[2] = TableCell(text="+8.0%", calculation_id="k1")

    assert "| +8.0% [1][2] (calc. 1) |" in render_markdown(report)
