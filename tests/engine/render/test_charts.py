"""Charts of figures tables: only the table's own figure cells are plotted, read with the
project's number rules, and the line under a chart names each source document once."""

from __future__ import annotations

import io

from PIL import Image

from engine.contracts import FiguresTable, Report, TableCell, TableRow
from engine.render.charts import CHART_DPI, CHART_INCHES, chart_data, chart_png, chart_sources
from tests.support.render_samples import build_claim, figures_report

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BAR_BLUE = (0x2B, 0x6C, 0xB0)  # the first colour of the palette


def one_row(columns: list[str], texts: list[str]) -> FiguresTable:
    cells: list[TableCell | None] = [TableCell(text=t, claim_ids=["r19"]) for t in texts]
    return FiguresTable(
        id="t", title="Revenue", columns=columns, rows=[TableRow(label="Revenue", cells=cells)]
    )


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def colours(picture: Image.Image) -> list[tuple[int, ...]]:
    """Every pixel's (r, g, b), row by row."""
    data = picture.convert("RGB").tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


def bar_spans(png: bytes) -> list[tuple[int, int]]:
    """(top, bottom) pixel rows of the bars of the first colour, left to right."""
    picture = image(png)
    width, height = picture.size
    pixels = picture.load()
    assert pixels is not None
    spans: list[tuple[int, int]] = []
    inside = False
    for x in range(width):
        ys = [y for y in range(height) if pixels[x, y] == BAR_BLUE]
        if ys and not inside:
            spans.append((ys[0], ys[-1]))
        elif ys:
            spans[-1] = (min(spans[-1][0], ys[0]), max(spans[-1][1], ys[-1]))
        inside = bool(ys)
    return spans


def bar_heights(png: bytes) -> list[int]:
    return [bottom - top + 1 for top, bottom in bar_spans(png)]


def without_column(table: FiguresTable, index: int) -> FiguresTable:
    return table.model_copy(
        update={
            "columns": [c for i, c in enumerate(table.columns) if i != index],
            "rows": [
                TableRow(label=r.label, cells=[c for i, c in enumerate(r.cells) if i != index])
                for r in table.rows
            ],
        }
    )


def test_a_chart_is_a_png_of_the_fixed_size_and_the_same_bytes_each_time() -> None:
    table = figures_report().tables[0]
    png = chart_png(table, "en")
    assert png is not None
    assert png.startswith(PNG_SIGNATURE)
    expected = (round(CHART_INCHES[0] * CHART_DPI), round(CHART_INCHES[1] * CHART_DPI))
    assert image(png).size == expected == (1200, 675)
    assert chart_png(table, "en") == png


def test_the_chart_draws_in_its_plot_area() -> None:
    png = chart_png(figures_report().tables[0], "en")
    assert png is not None
    picture = image(png)
    width, height = picture.size
    plot_area = picture.crop((width // 5, height // 5, 4 * width // 5, 4 * height // 5))
    coloured = [p for p in colours(plot_area) if p != (255, 255, 255)]
    assert len(coloured) > plot_area.width * plot_area.height // 10
    assert BAR_BLUE in coloured


def test_fewer_than_three_figures_make_no_chart() -> None:
    assert chart_png(one_row(["2019", "2023"], ["$ 42,879", "$ 46,298"]), "en") is None
    assert chart_png(one_row(["a", "b", "c"], ["n/a", "—", "$ 46,298"]), "en") is None


def test_calculated_cells_are_never_plotted() -> None:
    calculated = TableCell(text="$ 3,419", claim_ids=["r19", "r23"], calculation_id="k1")
    table = figures_report().tables[0]
    revenue, operating = table.rows
    table = table.model_copy(
        update={
            "rows": [
                TableRow(label=revenue.label, cells=[*revenue.cells[:2], calculated]),
                TableRow(label=operating.label, cells=[None, None, calculated]),
            ]
        }
    )
    assert chart_png(table, "en") is None  # 4 amounts in $, only 2 of them figures


def test_the_calculated_column_leaves_the_chart_as_if_it_were_not_there() -> None:
    table = figures_report().tables[0]
    assert table.columns[2] == "Change"
    assert chart_png(table, "en") == chart_png(without_column(table, 2), "en")
    differences = [
        TableRow(
            label=row.label,
            cells=[*row.cells[:2], TableCell(text="3,419", claim_ids=["r19"], calculation_id="k1")],
        )
        for row in table.rows
    ]
    in_amounts = table.model_copy(update={"rows": differences})
    assert chart_png(in_amounts, "en") == chart_png(without_column(table, 2), "en")


def test_a_figure_in_another_unit_is_not_drawn_on_the_same_axis() -> None:
    table = one_row(["2019", "2021", "2023"], ["$ 42,879", "$ 46,298", "22.5%"])
    assert chart_png(table, "en") is None


def test_bars_stand_at_the_values_the_cells_print_in_either_convention() -> None:
    portuguese = chart_png(one_row(["Norte", "Sul", "Leste"], ["1.000,0", "2.000,0", "500"]), "pt")
    english = chart_png(one_row(["North", "South", "East"], ["$ 1,000", "$ 2,000", "$ 500"]), "en")
    # "1,000" in a Portuguese report could be 1.0: an ambiguous figure reads as thousands
    quoted = chart_png(one_row(["Norte", "Sul", "Leste"], ["$ 1,000", "$ 2,000", "$ 500"]), "pt")
    for png in (portuguese, english, quoted):
        assert png is not None
        first, second, third = bar_heights(png)
        assert abs(second / first - 2) < 0.02
        assert abs(third / first - 0.5) < 0.02


def test_a_figure_in_parentheses_or_after_a_minus_is_negative() -> None:
    for texts in (["$ 1,000", "$ 2,000", "$ (500)"], ["1,000", "2,000", "-500"]):
        png = chart_png(one_row(["North", "South", "East"], texts), "en")
        assert png is not None
        (first_top, first_bottom), (_, second_bottom), (third_top, third_bottom) = bar_spans(png)
        assert first_bottom == second_bottom  # both stand on the zero line
        assert third_top >= first_bottom  # hangs below it
        assert abs((third_bottom - third_top) / (first_bottom - first_top) - 0.5) < 0.03


def test_three_periods_in_order_make_a_line_not_bars() -> None:
    texts = ["$ 1,000", "$ 2,000", "$ 1,500"]
    line = chart_png(one_row(["2021", "2022", "2023"], texts), "en")
    bars = chart_png(one_row(["North", "South", "East"], texts), "en")
    assert line is not None
    assert bars is not None
    blue = [sum(p == BAR_BLUE for p in colours(image(png))) for png in (line, bars)]
    assert blue[0] * 5 < blue[1]


def test_the_chart_speaks_the_report_language() -> None:
    table = figures_report().tables[0]
    assert chart_png(table, "pt") != chart_png(table, "en")  # 42.879 and 42,879 on the axis
    # no unit and small whole numbers: the axis title ("Valor", "Value") is the only word
    words_only = one_row(["North", "South", "East"], ["100", "200", "300"])
    assert chart_png(words_only, "pt") != chart_png(words_only, "en")
    assert chart_png(words_only.model_copy(update={"unit": "MW"}), "pt") == chart_png(
        words_only.model_copy(update={"unit": "MW"}), "en"
    )


def test_the_sources_line_names_each_document_once_with_its_pages() -> None:
    report = figures_report()
    line = chart_sources(report.tables[0], report)
    assert line == "Sources: BESTBUY_2019_10K, p. 53; BESTBUY_2023_10K, p. 40"


def test_two_pages_of_one_document_are_one_source_in_the_report_language() -> None:
    report = figures_report(language="pt")
    claims = [
        *report.claims,
        build_claim(
            "r23b",
            url="https://example.org/bestbuy-2023-10k.pdf#page=27",
            title="BESTBUY_2023_10K",
            excerpt="Revenue $ 46,298 $ 51,761 $ 47,262",
        ),
    ]
    table = one_row(["2019", "2022", "2023"], ["$ 42,879", "$ 51,761", "$ 46,298"])
    rows = [
        TableRow(
            label="Revenue",
            cells=[
                TableCell(text="$ 42,879", claim_ids=["r19"]),
                TableCell(text="$ 51,761", claim_ids=["r23b"]),
                TableCell(text="$ 46,298", claim_ids=["r23", "r23b"]),
            ],
        )
    ]
    table = table.model_copy(update={"rows": rows})
    with_table = Report.model_validate(
        {**report.model_dump(), "claims": [c.model_dump() for c in claims]}
    )
    line = chart_sources(table, with_table)
    assert line == "Fontes: BESTBUY_2019_10K, p. 53; BESTBUY_2023_10K, pp. 27, 40"
    assert line.count("BESTBUY_2023_10K") == 1


def test_the_chart_as_data_is_what_the_png_draws_periods_oldest_first() -> None:
    falling = one_row(["2023", "2022", "2021"], ["$ 1,500", "$ 2,000", "$ (1,000)"])
    line = chart_data(falling, "en")
    assert line is not None
    assert (line.kind, line.periods, line.title) == ("line", True, "Revenue")
    assert line.categories == ["2021", "2022", "2023"]
    assert line.series == [("Revenue", [-1000.0, 2000.0, 1500.0])]
    assert line.values == {(0, 0): 1500.0, (0, 1): 2000.0, (0, 2): -1000.0}, "table cells"
    bars = chart_data(one_row(["North", "South", "East"], ["1,000", "2,000", "500"]), "en")
    assert bars is not None
    assert (bars.kind, bars.periods, bars.categories) == ("bar", False, ["North", "South", "East"])
    assert chart_data(one_row(["2019", "2023"], ["$ 42,879", "$ 46,298"]), "en") is None


def test_several_rows_are_bars_grouped_by_row_one_series_a_column_without_calculations() -> None:
    table = figures_report().tables[0]
    data = chart_data(table, "en")
    assert data is not None
    assert data.kind == "bar"
    assert data.categories == [row.label for row in table.rows]
    assert [name for name, _ in data.series] == table.columns[:2], "the change is not plotted"
    assert all(cell.calculation_id is None for cell in data.cells)
    assert data.unit == table.unit


def test_the_axis_names_the_scale_only_while_the_values_keep_it() -> None:
    regions = ["Norte", "Sul", "Leste"]
    same = one_row(regions, ["R$ 800 milhões", "R$ 950 milhões", "R$ 700 milhões"])
    kept = chart_data(same.model_copy(update={"unit": "R$ milhões"}), "pt")
    assert kept is not None
    assert (kept.unit, kept.series[0][1]) == ("R$ milhões", [800.0, 950.0, 700.0])
    mixed = one_row(regions, ["R$ 3,2 bilhões", "R$ 800 milhões", "R$ 1,5 bilhão"])
    full = chart_data(mixed.model_copy(update={"unit": "R$ milhões"}), "pt")
    assert full is not None
    assert full.unit == "BRL", "values in full: not 'R$ milhões'"
    assert full.series[0][1] == [3.2e9, 8e8, 1.5e9]
