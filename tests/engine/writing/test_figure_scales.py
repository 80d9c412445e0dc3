"""Every figure carries its scale and currency into the answer: a statement's row under "$ and
shares in millions" is "$ 42,879 million" in the summary, in a calculation's result and in
the figures table's unit; a figure that prints its scale ("$46.3 billion") is said as
printed; a per-share figure takes no scale; in Portuguese "US$ 42.879 milhões". Figures that
disagree are reconciled: a segment's gross profit is another measure than the reported one,
and two values of one measure and period are declared, never grown from silently."""

from __future__ import annotations

from engine.contracts import Claim, Draft, Language, Plan, Subquestion
from engine.planning.briefs import make_brief
from engine.render.charts import chart_data
from engine.verify.draft import check_draft
from engine.writing.figures import figures_in, gather_figures, stated_figure
from engine.writing.verbatim import verbatim_draft
from tests.support.render_samples import build_claim

IN_MILLIONS = "$ and shares in millions, except per share amounts"
FY19 = "Fiscal Years Ended February 2, 2019 February 3, 2018 January 28, 2017"
FY23 = "Fiscal Years Ended January 28, 2023 January 29, 2022 January 30, 2021"


def filing_row(claim_id: str, year: int, excerpt: str, statement: str = "") -> Claim:
    header = FY19 if year == 2019 else FY23
    return build_claim(
        claim_id,
        statement=statement or excerpt,
        url=f"https://example.org/bestbuy-{year}-10k.pdf#page=53",
        title=f"BESTBUY_{year}_10K",
        excerpt=excerpt,
        context=f"{IN_MILLIONS}\n{header}",
        subquestion="s1",
    )


R19 = filing_row("r19", 2019, "Revenue $ 42,879 $ 42,151 $ 39,403")
R23 = filing_row("r23", 2023, "Revenue $ 46,298 $ 51,761 $ 47,262")
O19 = filing_row("o19", 2019, "Operating income 1,900 1,843 1,854")
O23 = filing_row("o23", 2023, "Operating income 1,795 3,039 2,391")
EPS19 = filing_row("e19", 2019, "Diluted earnings per share $ 5.20 $ 3.26 $ 3.81")


def draft(question: str, claims: list[Claim], language: Language = "en") -> Draft:
    brief = make_brief(question, language=language)
    plan = Plan(question=question, subquestions=[Subquestion(id="s1", text=question)])
    written = verbatim_draft(brief, plan, claims)
    assert check_draft(written, claims, language=language).dropped == []
    return written


def test_a_figure_is_stated_with_its_scale_and_currency() -> None:
    revenue = figures_in(R19)[0]
    assert stated_figure(revenue, "en") == "$ 42,879 million"
    assert stated_figure(revenue, "pt") == "US$ 42.879 milhões"
    income = figures_in(O19)[0]
    assert stated_figure(income, "en") == "$ 1,900 million"
    eps = figures_in(EPS19)[0]
    assert stated_figure(eps, "en") == "$ 5.20"


def test_a_figure_that_prints_its_scale_is_said_as_printed() -> None:
    prose = build_claim(
        "p",
        excerpt="Revenue was $46.3 billion in fiscal 2023, compared to $51.8 billion in fiscal 2022",
        context=IN_MILLIONS,
    )
    figure = figures_in(prose)[0]
    assert (figure.unit, figure.value) == ("$ billion", 46.3e9)
    assert stated_figure(figure, "en") == "$46.3 billion"


def test_the_summary_states_best_buys_revenue_in_millions() -> None:
    written = draft(
        "How did Best Buy's revenue change from fiscal 2019 to fiscal 2023?", [R19, R23]
    )
    point = written.summary[0].text
    assert "$ 42,879 million in fiscal 2019" in point
    assert "$ 46,298 million in fiscal 2023" in point
    assert "+$ 3,419 million" in point  # the difference, computed in code, in the same unit
    difference = next(c for c in written.calculations if c.kind == "difference")
    assert (difference.unit, difference.text) == ("$ million", "+$ 3,419 million")
    assert [t.unit for t in written.tables] == ["$ million"]


def test_operating_income_keeps_its_dollars_and_millions() -> None:
    written = draft(
        "How did Best Buy's operating income change from fiscal 2019 to fiscal 2023?", [O19, O23]
    )
    point = written.summary[0].text
    assert "fell from $ 1,900 million in fiscal 2019 to $ 1,795 million in fiscal 2023" in point


def test_the_portuguese_summary_states_the_scale_in_portuguese() -> None:
    written = draft(
        "Como variou a receita (revenue) da Best Buy entre 2019 e 2023?",
        [R19, R23],
        language="pt",
    )
    point = written.summary[0].text
    assert "US$ 42.879 milhões" in point
    assert "US$ 46.298 milhões" in point


def test_a_portuguese_statement_in_thousands_of_reais_is_said_in_thousands() -> None:
    row = build_claim(
        "lb",
        statement="Lucro bruto 456.789 400.100",
        excerpt="Lucro bruto 456.789 400.100",
        context="(Em milhares de reais)\nExercícios findos em 31 de dezembro de 2023 2022",
        title="Relatório Anual 2023",
        subquestion="s1",
    )
    figure = figures_in(row)[0]
    assert stated_figure(figure, "pt") == "R$ 456.789 mil"
    assert stated_figure(figure, "en") == "R$ 456,789 thousand"
    written = draft("Como variou o lucro bruto entre 2022 e 2023?", [row], language="pt")
    assert "R$ 456.789 mil" in written.summary[0].text


def test_the_chart_axis_says_the_unit_and_scale() -> None:
    written = draft("How has Best Buy's revenue evolved since 2017?", [R19, R23])
    assert "Revenue was $ 39,403 million in 2017." in [p.text for p in written.summary]
    chart = chart_data(written.tables[0], "en")
    assert chart is not None
    assert chart.unit == "$ million"


BLOCK_CONTEXT = "(In thousands, except per share data)\nYear Ended December 31,\n2020 2019 2018"
GROSS = build_claim(
    "gp",
    statement="Gross profit 2,733,409 1,889,685 1,303,700",
    url="https://example.org/block-2020-10k.pdf#page=86",
    title="BLOCK_2020_10K",
    excerpt="Gross profit 2,733,409 1,889,685 1,303,700",
    context=BLOCK_CONTEXT,
    subquestion="s1",
)
SEGMENT = build_claim(
    "sg",
    statement="Segment gross profit was $1,848,095 thousand in 2019",
    url="https://example.org/block-2020-10k.pdf#page=136",
    title="BLOCK_2020_10K",
    excerpt="Segment gross profit was $1,848,095 thousand in 2019",
    subquestion="s1",
)


def test_blocks_segment_gross_profit_is_another_measure_than_the_reported_one() -> None:
    written = draft("How did Block's gross profit change from 2019 to 2020?", [GROSS, SEGMENT])
    reported = written.summary[0].text
    assert "1,889,685 thousand in 2019" in reported
    assert "2,733,409 thousand in 2020" in reported
    growth = next(c for c in written.calculations if c.kind == "percent_change")
    assert [f.text for f in growth.inputs] == ["1,889,685", "2,733,409"]  # like with like
    segment = [p.text for p in written.summary if "1,848,095" in p.text]
    assert segment
    assert all(text.startswith("Segment gross profit") for text in segment)
    assert not any("1,848,095" in p.text and "2,733,409" in p.text for p in written.summary)


def test_two_values_of_one_measure_and_period_are_declared_not_grown_from() -> None:
    restated = build_claim(
        "gp16",
        statement="Gross profit 1,889,953 1,303,700",
        url="https://example.org/block-2019-10k.pdf#page=80",
        title="BLOCK_2019_10K",
        excerpt="Gross profit 1,889,953 1,303,700",
        context="(In thousands, except per share data)\nYear Ended December 31,\n2019 2018",
        subquestion="s1",
    )
    figures = gather_figures([GROSS, restated])
    assert sorted(f.value for f in figures if f.period == "2019") == [1_889_685e3, 1_889_953e3]
    written = draft("How did Block's gross profit change from 2019 to 2020?", [GROSS, restated])
    declared = [p for p in written.summary if "1,889,685" in p.text and "1,889,953" in p.text]
    assert declared, [p.text for p in written.summary]
    assert set(declared[0].claim_ids) == {"gp", "gp16"}
    assert not any(c.kind == "percent_change" for c in written.calculations)


def test_a_unit_declared_by_the_tables_caption_is_the_figures_unit() -> None:
    caption = "Capacidade instalada de energia solar por estado (MW)\nEstado 2023 2024"
    bahia = build_claim(
        "ba", statement="Bahia 410 655", excerpt="Bahia 410 655", context=caption, subquestion="s1"
    )
    figures = figures_in(bahia)
    assert [(f.unit, f.value) for f in figures] == [("MW", 410e6), ("MW", 655e6)]
    written = draft("Como variou a capacidade instalada da Bahia entre 2023 e 2024?", [bahia])
    assert "410 MW" in written.summary[0].text
    assert "655 MW" in written.summary[0].text


def test_a_table_of_a_statement_printing_its_currency_on_some_rows_has_that_unit() -> None:
    income = build_claim(
        "ni",
        statement="Net income (loss) $ 213,105 $ 375,446 $ (38,453)",
        url="https://example.org/block-2020-10k.pdf#page=86",
        title="BLOCK_2020_10K",
        excerpt="Net income (loss) $ 213,105 $ 375,446 $ (38,453)",
        context=BLOCK_CONTEXT,
        subquestion="s1",
    )
    written = draft(
        "How did Block's gross profit and net income change from 2019 to 2020?",
        [
            GROSS,
            income,
        ],
    )
    loss = figures_in(income)[-1]
    assert (loss.text, loss.value) == ("$ (38,453)", -38_453_000)
    assert stated_figure(loss, "en") == "\u2212$ 38,453 thousand"
    assert [t.unit for t in written.tables] == ["$ thousand"]
    chart_table = written.tables[0]
    assert {row.label for row in chart_table.rows} == {"Gross profit", "Net income (loss)"}


def test_one_row_quoted_with_and_without_its_scale_is_one_figure_in_its_scale() -> None:
    """Block's revenue row is printed in the selected data (p. 52) and in the statement
    (p. 86); a quote of one without the scale's line is the same figure, not a conflict."""
    unscaled = build_claim(
        "gp52",
        statement="Gross profit 2,733,409 1,889,685 1,303,700",
        url="https://example.org/block-2020-10k.pdf#page=52",
        title="BLOCK_2020_10K",
        excerpt="Gross profit 2,733,409 1,889,685 1,303,700",
        context="2020 2019 2018",
        subquestion="s1",
    )
    figures = gather_figures([unscaled, GROSS])
    assert sorted((f.period, f.unit, f.value) for f in figures) == [
        ("2018", "thousand", 1_303_700e3),
        ("2019", "thousand", 1_889_685e3),
        ("2020", "thousand", 2_733_409e3),
    ]
    written = draft("How did Block's gross profit change from 2019 to 2020?", [unscaled, GROSS])
    assert "1,889,685 thousand in 2019" in written.summary[0].text
    assert any(c.kind == "percent_change" for c in written.calculations)


def test_two_values_in_one_document_or_of_two_companies_are_no_disagreement() -> None:
    def cash(claim_id: str, url: str, title: str, excerpt: str) -> Claim:
        return build_claim(
            claim_id,
            statement=excerpt,
            url=url,
            title=title,
            excerpt=excerpt,
            context="($ in millions)\nJanuary 28, 2023 January 29, 2022",
            subquestion="s1",
        )

    sheet = cash(
        "bs", "https://ex.org/bby-2023.pdf#page=40", "BESTBUY_2023_10K", "Cash 1,874 2,936"
    )
    note = cash("nt", "https://ex.org/bby-2023.pdf#page=62", "BESTBUY_2023_10K", "Cash 1,093 1,500")
    other = cash("am", "https://ex.org/amcor-2023.pdf#page=50", "AMCOR_2023_10K", "Cash 689 775")
    question = "How did cash change from 2022 to 2023?"
    for claims in ([sheet, note], [sheet, other]):
        written = draft(question, claims)
        assert not any("disagree" in p.text for p in written.summary), written.summary
