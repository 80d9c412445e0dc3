"""`fonte ask --library` over Word and Excel tables: a question about one row ("Celpe",
"Bahia", "Ceará") is answered by that row, quoted whole with its table's header as context,
and verified; not by the header line, nor by a paragraph that speaks of the table. A row is
never given the header of another table (stacked tables, a sheet holding two)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pptx
import pytest
from pptx.util import Inches

from engine.cli import EXIT_OK, main
from engine.documents.ocr import ocr_available

UTILITIES = (
    ("Coelba", "BA", "0,712"),
    ("Enel CE", "CE", "0,701"),
    ("Cosern", "RN", "0,745"),
    ("Energisa PB", "PB", "0,768"),
    ("Equatorial PI", "PI", "0,690"),
    ("Equatorial MA", "MA", "0,677"),
    ("Celpe", "PE", "0,789"),
    ("Equatorial AL", "AL", "0,654"),
    ("Energisa SE", "SE", "0,733"),
    ("Sulgipe", "SE", "0,721"),
    ("Energisa Borborema", "PB", "0,752"),
    ("Enel RJ", "RJ", "0,612"),
    ("Light", "RJ", "0,598"),
)
UTILITY_HEADER = "Distribuidora | Estado | Índice de satisfação"
CAPACITY_HEADER = "State | Installed capacity (MW)"


def _docx(*tables: tuple[str, list[tuple[str, ...]]], intro: str, outro: str) -> bytes:
    """A report: a heading, `intro`, each table under its caption, then `outro`."""
    document = docx.Document()
    document.add_heading("Relatório de distribuição 2024", level=1)
    document.add_paragraph(intro)
    for caption, rows in tables:
        document.add_paragraph(caption)
        table = document.add_table(rows=0, cols=len(rows[0]))
        for values in rows:
            for cell, value in zip(table.add_row().cells, values, strict=True):
                cell.text = value
    document.add_paragraph(outro)
    stream = io.BytesIO()
    document.save(stream)
    return stream.getvalue()


def _xlsx(cells: dict[str, list[tuple[object, ...]]]) -> bytes:
    """A workbook whose sheets hold, from row 1, the rows given (None an empty row)."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in cells.items():
        sheet = book.create_sheet(name)
        for number, values in enumerate(rows, start=1):
            for column, value in enumerate(values, start=1):
                if value is not None:
                    sheet.cell(number, column, value)
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def ask(tmp_path: Path, question: str, files: dict[str, bytes]) -> list[dict[str, Any]]:
    """The verified claims of `fonte ask` over a library holding `files`, in report order."""
    folder = tmp_path / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    out = tmp_path / "out"
    argv = ["ask", question, "--library", str(folder), "--out", str(out)]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--format", "json"]
    assert main(argv) == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    return [c for c in report["claims"] if c["status"] == "verified"]


SATISFACTION = _docx(
    (
        "Tabela 1 - Índice de satisfação por distribuidora",
        [tuple(UTILITY_HEADER.split(" | ")), *UTILITIES],
    ),
    intro=(
        "Este relatório apresenta o índice de satisfação dos consumidores das distribuidoras "
        "de energia elétrica em 2024, medido pela agência reguladora."
    ),
    outro="A média regional do índice de satisfação ficou em 0,730 no ano, acima de 2023.",
)


@pytest.mark.parametrize(
    ("question", "row", "figure"),
    [
        ("Qual o índice de satisfação da Celpe?", "Celpe | PE | 0,789", "0,789"),
        ("Qual foi o índice de satisfação da Cosern em 2024?", "Cosern | RN | 0,745", "0,745"),
        ("What was Sulgipe's satisfaction index?", "Sulgipe | SE | 0,721", "0,721"),
    ],
)
def test_a_docx_table_row_answers_under_its_header(
    question: str, row: str, figure: str, tmp_path: Path
) -> None:
    claims = ask(tmp_path, question, {"satisfacao.docx": SATISFACTION})
    assert claims, "no verified claim"
    first = claims[0]
    assert (first["excerpt"], first["context"]) == (row, UTILITY_HEADER), claims
    assert figure in first["statement"]
    assert "Índice de satisfação" in first["statement"]


def test_a_docx_row_of_the_second_table_is_read_under_its_own_header(tmp_path: Path) -> None:
    capacity = [
        ("Bahia", "385"),
        ("Ceará", "1,240"),
        ("Pernambuco", "210"),
    ]
    report = _docx(
        ("Table 1 - Satisfaction", [("Utility", "Satisfaction index"), ("Coelba", "0.712")]),
        ("Table 2 - Solar plants", [tuple(CAPACITY_HEADER.split(" | ")), *capacity]),
        intro="This report sets out the installed capacity of solar plants by state in 2024.",
        outro="Capacity grew in every state during the year, led by the northeast.",
    )
    claims = ask(tmp_path, "What is the installed capacity of Ceará?", {"report.docx": report})
    assert claims, "no verified claim"
    assert (claims[0]["excerpt"], claims[0]["context"]) == ("Ceará | 1,240", CAPACITY_HEADER)
    assert all(c["context"] != "Utility | Satisfaction index" for c in claims)


def test_an_xlsx_row_answers_under_a_header_not_on_the_first_row(tmp_path: Path) -> None:
    rows: list[tuple[object, ...]] = [
        ("Capacidade instalada de usinas solares por estado (MW)",),
        (None,),
        ("Estado", "Capacidade (MW)", "Usinas"),
        *(
            (state, mw, plants)
            for state, mw, plants in [
                ("Pernambuco", 210, 14),
                ("Paraíba", 175, 11),
                ("Bahia", 385, 22),
                ("Piauí", 512, 30),
                ("Ceará", 240, 16),
            ]
        ),
    ]
    book = _xlsx({"Resumo": [("Notas", "Fonte: ANEEL, 2024")], "Capacidade": rows})
    claims = ask(tmp_path, "Qual a capacidade instalada da Bahia?", {"capacidade.xlsx": book})
    assert claims, "no verified claim"
    first = claims[0]
    assert first["url"].endswith("capacidade.xlsx#page=2")
    assert (first["excerpt"], first["context"]) == (
        "Bahia | 385 | 22",
        "Estado | Capacidade (MW) | Usinas",
    )
    assert "Capacidade (MW): 385" in first["statement"]


def test_a_sheet_of_two_tables_answers_from_each_under_its_own_header(tmp_path: Path) -> None:
    # Two tables one under the other, no empty row between: the second's header ends the first.
    rows: list[tuple[object, ...]] = [
        ("Distribuidora", "Índice de satisfação"),
        ("Coelba", "0,712"),
        ("Celpe", "0,789"),
        ("Cosern", "0,745"),
        ("Distribuidora", "Perdas (%)"),
        ("Coelba", "13,1"),
        ("Celpe", "15,6"),
        ("Cosern", "8,9"),
    ]
    book = _xlsx({"Indicadores": rows})
    files = {"indicadores.xlsx": book}
    losses = ask(tmp_path / "a", "What are Celpe's losses (perdas)?", files)
    assert losses, "no verified claim"
    assert (losses[0]["excerpt"], losses[0]["context"]) == (
        "Celpe | 15,6",
        "Distribuidora | Perdas (%)",
    )
    index = ask(tmp_path / "b", "Qual o índice de satisfação da Celpe?", files)
    assert index, "no verified claim"
    assert (index[0]["excerpt"], index[0]["context"]) == (
        "Celpe | 0,789",
        "Distribuidora | Índice de satisfação",
    )
    for claim in [*losses, *index]:
        if claim["excerpt"] == "Celpe | 15,6":
            assert claim["context"] == "Distribuidora | Perdas (%)"


STOCKED_SHEET = _xlsx(
    {
        "Estoque": [
            ("Estoque de módulos solares por depósito",),
            (None,),
            ("Depósito", "Módulos", "Inversores"),
            ("Salvador", 1240, 88),
            ("Recife", 960, 41),
            ("Fortaleza", 1515, 67),
        ]
    }
)


@pytest.mark.seen
@pytest.mark.skipif(
    not ocr_available() or shutil.which("soffice") is None, reason="needs tesseract and soffice"
)
@pytest.mark.parametrize(
    ("question", "name", "data", "row", "header"),
    [
        (
            "Qual o índice de satisfação da Celpe?",
            "satisfacao.docx",
            SATISFACTION,
            "Celpe | PE | 0,789",
            UTILITY_HEADER,
        ),
        (
            "Quantos inversores há no depósito de Recife?",
            "estoque.xlsx",
            STOCKED_SHEET,
            "Recife | 960 | 41",
            "Depósito | Módulos | Inversores",
        ),
    ],
)
def test_a_row_and_its_header_are_seen_as_printed(
    question: str, name: str, data: bytes, row: str, header: str, tmp_path: Path
) -> None:
    # The seen check prints the file with LibreOffice and reads back the row and its header.
    claims = ask(tmp_path, question, {name: data})
    assert claims, "no verified claim"
    first = claims[0]
    assert (first["excerpt"], first["context"]) == (row, header)
    assert first["seen_by"] == "office", first


def test_a_row_deep_in_a_long_sheet_answers_under_its_header(tmp_path: Path) -> None:
    towns = [(f"Município {n:03d}", 1000 + 7 * n, f"{n % 10},{n % 7}") for n in range(1, 121)]
    towns[63] = ("Juazeiro", 2158, "4,8")
    rows: list[tuple[object, ...]] = [("Município", "Unidades consumidoras", "DEC (horas)")]
    book = _xlsx({"Continuidade": [*rows, *towns]})
    claims = ask(tmp_path, "Qual o DEC de Juazeiro?", {"continuidade.xlsx": book})
    assert claims, "no verified claim"
    assert (claims[0]["excerpt"], claims[0]["context"]) == (
        "Juazeiro | 2158 | 4,8",
        "Município | Unidades consumidoras | DEC (horas)",
    )
    assert "DEC (horas): 4,8" in claims[0]["statement"]


def test_a_pptx_table_row_answers_under_its_header(tmp_path: Path) -> None:
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(0.3), Inches(8), Inches(0.8))
    box.text_frame.text = "Wind farms by state, 2024"
    values = [
        ("State", "Wind farms"),
        ("Bahia", "312"),
        ("Rio Grande do Norte", "287"),
        ("Ceará", "98"),
    ]
    frame = slide.shapes.add_table(len(values), 2, Inches(1), Inches(1.5), Inches(6), Inches(2))
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            frame.table.cell(r, c).text = value
    stream = io.BytesIO()
    deck.save(stream)
    claims = ask(tmp_path, "How many wind farms does Ceará have?", {"wind.pptx": stream.getvalue()})
    assert claims, "no verified claim"
    assert (claims[0]["excerpt"], claims[0]["context"]) == ("Ceará | 98", "State | Wind farms")


def test_a_docx_row_under_a_section_row_keeps_its_tables_header(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Geração distribuída por estado e região, em MW.")
    rows = [
        ("Estado", "Potência (MW)"),
        ("Nordeste", None),
        ("Bahia", "385"),
        ("Ceará", "240"),
        ("Sudeste", None),
        ("Minas Gerais", "1.020"),
        ("São Paulo", "870"),
    ]
    table = document.add_table(rows=0, cols=2)
    for label, value in rows:
        cells = table.add_row().cells
        if value is None:  # a section's row: one cell merged across the table
            cells[0].merge(cells[1]).text = label
        else:
            cells[0].text, cells[1].text = label, value
    stream = io.BytesIO()
    document.save(stream)
    claims = ask(tmp_path, "Qual a potência de Minas Gerais?", {"gd.docx": stream.getvalue()})
    assert claims, "no verified claim"
    assert (claims[0]["excerpt"], claims[0]["context"]) == (
        "Minas Gerais | 1.020",
        "Estado | Potência (MW)",
    )
