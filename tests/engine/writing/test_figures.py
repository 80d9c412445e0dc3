"""The figures verified claims print: table rows read with their column headers, prose
figures with the year they are of, each figure once; and the tables they make."""

from engine.contracts import ClaimStatus, Figure
from engine.writing.calculator import Calculator
from engine.writing.figures import (
    figures_in,
    figures_tables,
    gather_figures,
    header_cells,
    unit_family,
    unit_scale,
)
from tests.support.render_samples import FY19_HEADER, R19, R23, REVENUES, build_claim

R19_AGAIN = R19.model_copy(update={"id": "r19b", "url": "https://example.org/bestbuy#page=60"})
O19 = build_claim(
    "o19",
    title="BESTBUY_2019_10K",
    excerpt="Operating income 1,900 1,843 1,854",
    context=FY19_HEADER,
)


def described(figures: list[Figure]) -> list[tuple[str, str, str, float, str, str]]:
    return [(f.measure, f.entity, f.period, f.value, f.unit, f.text) for f in figures]


def test_a_table_row_gives_one_figure_a_column_with_the_columns_year() -> None:
    assert described(figures_in(R19)) == [
        ("Revenue", "BESTBUY 10K", "2019", 42879, "$", "$ 42,879"),
        ("Revenue", "BESTBUY 10K", "2018", 42151, "$", "$ 42,151"),
        ("Revenue", "BESTBUY 10K", "2017", 39403, "$", "$ 39,403"),
    ]
    assert {tuple(f.claim_ids) for f in figures_in(R19)} == {("r19",)}


def test_column_headers_keep_their_own_words() -> None:
    assert header_cells(FY19_HEADER) == [
        ("February 2, 2019", "2019"),
        ("February 3, 2018", "2018"),
        ("January 28, 2017", "2017"),
    ]
    assert header_cells("(In millions) FY2022 FY2021") == [("FY2022", "2022"), ("FY2021", "2021")]
    assert header_cells("31 de dezembro de 2023 31/12/2022") == [
        ("31 de dezembro de 2023", "2023"),
        ("31/12/2022", "2022"),
    ]


def test_a_declared_scale_is_in_the_unit_and_the_value() -> None:
    claim = build_claim(
        "m",
        title="Relatório Anual 2023",
        excerpt="Receita líquida 1.234,5 1.100,0",
        context="(em milhões de reais) 2023 2022",
    )
    assert described(figures_in(claim)) == [
        ("Receita líquida", "Relatório Anual", "2023", 1_234_500_000, "R$ milhões", "1.234,5"),
        ("Receita líquida", "Relatório Anual", "2022", 1_100_000_000, "R$ milhões", "1.100,0"),
    ]
    per_share = build_claim(
        "eps",
        excerpt="Diluted earnings per share $ 3.93 $ 3.98",
        context="(In millions, except per share amounts) 2022 2021",
    )
    assert [(f.value, f.unit) for f in figures_in(per_share)] == [(3.93, "$"), (3.98, "$")]


def test_a_row_whose_cells_do_not_match_its_headers_gives_nothing() -> None:
    three_cells_two_years = build_claim(
        "x", excerpt="Revenue 1,900 1,843 1,854", context="2022 2021"
    )
    no_header = build_claim("y", excerpt="Revenue 1,900 1,843 1,854")
    assert figures_in(three_cells_two_years) == []
    assert figures_in(no_header) == []


def test_prose_gives_the_figures_with_a_unit_and_the_year_they_are_of() -> None:
    claim = build_claim(
        "p",
        title="BESTBUY_2023_10K",
        excerpt=(
            "We reported revenue of $46.3 billion in fiscal 2023, compared to $51.8 billion in "
            "fiscal 2022. Revenue decreased 10.6% in fiscal 2023, and we had 71,100 employees "
            "in 2023."
        ),
    )
    assert described(figures_in(claim)) == [
        ("Revenue", "BESTBUY 10K", "2023", 46.3e9, "$ billion", "$46.3 billion"),
        ("Revenue", "BESTBUY 10K", "2022", 51.8e9, "$ billion", "$51.8 billion"),
    ]


def test_prose_without_a_year_gives_nothing() -> None:
    claim = build_claim("q", excerpt="A microgeração vai até 75 kW de potência instalada.")
    assert figures_in(claim) == []
    dated = build_claim("r", excerpt="Em 2023, a microgeração ia até 75 kW de potência instalada.")
    assert described(figures_in(dated)) == [
        ("Microgeração", "Página r", "2023", 75_000, "kW", "75 kW")
    ]


def test_the_same_row_cited_from_two_pages_is_one_figure_citing_both() -> None:
    figures = gather_figures([R19, R19_AGAIN, O19])
    assert len(figures) == 6
    assert figures[0].claim_ids == ["r19", "r19b"]
    rejected = R23.model_copy(update={"status": ClaimStatus.rejected})
    assert gather_figures([rejected]) == []


def test_units_are_read_by_the_quantity_rules() -> None:
    assert [unit_family(u) for u in ("$", "$ million", "R$ milhões", "%", "p.p.", "MW", "")] == [
        "USD",
        "USD",
        "BRL",
        "%",
        "pp",
        "W",
        "",
    ]
    assert [int(unit_scale(u)) for u in ("$", "$ billion", "mil", "kW")] == [1, 10**9, 1000, 1000]


def test_a_table_has_a_row_per_measure_and_a_column_per_period_from_the_headers() -> None:
    figures = gather_figures([R19, R19_AGAIN, R23])
    by_period = {f.period: f for f in figures}
    change = Calculator("en").percent_change(by_period["2019"], by_period["2023"])
    (table,) = figures_tables(figures, [change], language="en", claims=[R19, R23])
    assert table.title == "Revenue"
    assert table.unit == "$"
    assert table.columns == [
        "January 28, 2017",
        "February 3, 2018",
        "February 2, 2019",
        "January 30, 2021",
        "January 29, 2022",
        "January 28, 2023",
        "Change 2019 to 2023",
    ]
    cells = table.rows[0].cells
    assert [c.text for c in cells if c] == [*REVENUES, "+8.0%"]
    assert cells[2] is not None
    assert cells[2].claim_ids == ["r19", "r19b"]
    assert cells[-1] is not None
    assert (cells[-1].calculation_id, cells[-1].claim_ids) == ("k1", ["r19", "r19b", "r23"])


def test_without_claims_columns_are_the_periods_and_units_make_separate_tables() -> None:
    tables = figures_tables(gather_figures([R19, O19]), language="pt")
    assert [(t.id, t.title, t.unit) for t in tables] == [
        ("t1", "Revenue", "$"),
        ("t2", "Operating income", ""),
    ]
    assert tables[0].columns == ["2017", "2018", "2019"]


def test_a_bare_row_under_the_header_of_a_dollar_row_sits_in_its_table() -> None:
    """A statement prints "$" on its first row only: "Operating income 1,900" under the
    same header of the same filing as "Revenue $ 42,879" is one table with it, its cells as
    printed; the same bare row from another document stays a table of its own."""
    same_page = O19.model_copy(update={"url": R19.url})
    claims = [R19, same_page]
    (table,) = figures_tables(gather_figures(claims), language="en", claims=claims)
    assert [row.label for row in table.rows] == ["Revenue", "Operating income"]
    assert [c.text for c in table.rows[1].cells if c] == ["1,854", "1,843", "1,900"]
    claims = [R19, O19]  # O19 is cited from a page of its own
    tables = figures_tables(gather_figures(claims), language="en", claims=claims)
    assert [t.title for t in tables] == ["Revenue", "Operating income"]


def test_figures_that_disagree_leave_their_cell_empty_and_one_figure_makes_no_table() -> None:
    restated = R19.model_copy(
        update={
            "id": "r19r",
            "title": "BESTBUY_2020_10K",
            "excerpt": "Revenue $ 42,879 $ 42,000 $ 39,403",
        }
    )
    (table,) = figures_tables(gather_figures([R19, restated]), language="en")
    assert [c.text if c else None for c in table.rows[0].cells] == ["$ 39,403", None, "$ 42,879"]
    lone = build_claim("l", excerpt="Capital expenditures 1,577", context="2018")
    assert figures_tables(gather_figures([lone]), language="en") == []


def test_one_period_of_several_entities_makes_entity_columns() -> None:
    acme = build_claim("a", title="Acme 2022", excerpt="Revenue $ 10 $ 9", context="2022 2021")
    globex = build_claim("g", title="Globex 2022", excerpt="Revenue $ 20", context="2022")
    figures = [f for f in gather_figures([acme, globex]) if f.period == "2022"]
    (table,) = figures_tables(figures, language="en")
    assert table.columns == ["Acme", "Globex"]
    assert [c.text if c else None for c in table.rows[0].cells] == ["$ 10", "$ 20"]


def test_a_table_title_keeps_the_case_of_labels_printed_in_capitals() -> None:
    rates = build_claim(
        "p1",
        excerpt="I - 50% (cinquenta por cento) a partir de 2032;\n\n"
        "II - 75% (setenta e cinco por cento) a partir de 2033.",
        context="Os veículos pagarão os seguintes percentuais da tarifa:",
    )
    tables = figures_tables(gather_figures([rates]), language="pt", claims=[rates])
    assert tables, gather_figures([rates])
    assert "iI" not in tables[0].title  # an item's numeral is not a word to put in lower case
