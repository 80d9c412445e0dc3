import re

from engine.contracts import Claim, Draft, Plan, Subquestion
from engine.planning.briefs import make_brief
from engine.text.numbers import numbers_in
from engine.text.sentences import is_fragment
from engine.verify.draft import check_draft
from engine.writing.verbatim import title_for, verbatim_draft
from tests.support.render_samples import FY19_HEADER, FY19_URL, FY23_HEADER, FY23_URL, build_claim

BBY = "How did Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023?"


def _plan(question: str, *texts: str) -> Plan:
    return Plan(
        question=question,
        subquestions=[
            Subquestion(id=f"s{i}", text=text) for i, text in enumerate(texts or (question,), 1)
        ],
    )


def _row(claim_id: str, label: str, values: str, year: str, **fields: object) -> Claim:
    url, header = (FY19_URL, FY19_HEADER) if year == "2019" else (FY23_URL, FY23_HEADER)
    period = header.removeprefix("Fiscal Years Ended ").split(" 20")[0] + f" {year}"
    first = values.replace("$ ", "").split()[0]
    dollar = "$ " if "$" in values else ""
    fields = {"url": url, "title": f"BESTBUY_{year}_10K", "context": header, **fields}
    return build_claim(
        claim_id,
        statement=f"{label} — {period}: {dollar}{first}",
        excerpt=f"{label} {values}",
        subquestion="s1",
        **fields,
    )


def _bestbuy() -> list[Claim]:
    return [
        _row("r19", "Revenue", "$ 42,879 $ 42,151 $ 39,403", "2019"),
        _row("o19", "Operating income", "1,900 1,843 1,854", "2019"),
        _row("r23", "Revenue", "$ 46,298 $ 51,761 $ 47,262", "2023"),
        _row("o23", "Operating income", "2,795 3,039 2,391", "2023"),
        build_claim(
            "d23",
            statement="Our operating income rate decreased in fiscal 2023, primarily driven by "
            "the unfavorable gross profit rate.",
            excerpt="Our operating income rate decreased in fiscal 2023, primarily driven by "
            "the unfavorable gross profit rate.",
            url="https://example.org/bestbuy-2023-10k.pdf#page=27",
            subquestion="s1",
        ),
    ]


def _draft(question: str, claims: list[Claim], plan: Plan | None = None) -> Draft:
    """The writer's draft, which the number guard publishes whole: every draft of these
    tests passes engine/verify/draft.py's check."""
    brief = make_brief(question)
    draft = verbatim_draft(brief, plan or _plan(question), claims)
    checked = check_draft(draft, claims, language=brief.language)
    assert checked.dropped == []
    assert checked.summary == draft.summary
    assert checked.sections == draft.sections
    assert checked.tables == draft.tables
    assert checked.calculations == draft.calculations
    return draft


def _numbers(text: str) -> set[str]:
    return {token.raw for token in numbers_in(text)}


def test_a_comparison_states_both_sides_and_the_change_computed_in_code() -> None:
    claims = _bestbuy()
    draft = _draft(BBY, claims)
    revenue, income = draft.summary[0], draft.summary[1]
    assert revenue.text.startswith("Revenue rose from $ 42,879 in fiscal 2019 to $ 46,298 in")
    assert income.text.startswith("Operating income rose from 1,900 in fiscal 2019 to 2,795")
    calculations = {c.id: c for c in draft.calculations}
    for point, inputs in ((revenue, {"r19", "r23"}), (income, {"o19", "o23"})):
        assert inputs <= set(point.claim_ids)
        kinds = {calculations[cid].kind for cid in point.calculation_ids}
        assert kinds == {"difference", "percent_change"}  # "change", not "growth": no CAGR
        for cid in point.calculation_ids:
            calculation = calculations[cid]
            assert calculation.text in point.text
            assert set(calculation.claim_ids) <= set(point.claim_ids)
            assert calculation.formula
    assert "+8.0%" in revenue.text
    assert "+47.1%" in income.text


def test_a_comparison_that_asks_for_growth_over_years_gets_a_cagr() -> None:
    question = "What was Best Buy's revenue growth between fiscal 2019 and fiscal 2023?"
    draft = _draft(question, _bestbuy())
    cagr = next(c for c in draft.calculations if c.kind == "cagr")
    assert cagr.text in draft.summary[0].text
    assert "/4)" in cagr.formula


def test_a_side_with_no_verified_figure_gets_no_sentence() -> None:
    claims = [c for c in _bestbuy() if c.id in ("r19", "o19")]
    draft = _draft(BBY, claims)
    assert draft.calculations == []
    assert [p.text for p in draft.summary] == [
        "Revenue was $ 42,879 in fiscal 2019.",
        "Operating income was 1,900 in fiscal 2019.",
    ]
    assert not any("2023" in p.text for p in draft.summary)
    # The figures quoted still make a table: the years the filing prints beside the side.
    assert {cid for table in draft.tables for cid in table.cited_claim_ids()} == {"r19", "o19"}


def test_a_comparison_in_portuguese_uses_its_own_words() -> None:
    question = "Como mudou a receita (revenue) da Best Buy entre 2019 e 2023?"
    draft = _draft(question, _bestbuy())
    assert draft.summary[0].text.startswith("Revenue cresceu de $ 42,879 em 2019 para $ 46,298")
    assert "+8,0%" in draft.summary[0].text


def test_entities_compared_get_each_ones_figure_without_a_calculation() -> None:
    question = "Compare 3M and Amazon net sales in 2018"
    claims = [
        build_claim(
            "m",
            statement="Net sales — 2018: $ 32,765",
            excerpt="Net sales $ 32,765 $ 31,657",
            context="Years ended December 31, 2018 2017",
            title="3M_2018_10K",
        ),
        build_claim(
            "a",
            statement="Net sales — 2018: $ 232,887",
            excerpt="Net sales $ 232,887 $ 177,866",
            context="Year Ended December 31, 2018 2017",
            title="AMAZON_2018_10K",
        ),
    ]
    plan = Plan(question=question, subquestions=[Subquestion(id="q1", text="3M and Amazon sales")])
    draft = _draft(question, claims, plan)
    assert draft.calculations == []
    point = draft.summary[0]
    assert "$ 32,765 for 3M" in point.text
    assert "$ 232,887 for Amazon" in point.text
    assert set(point.claim_ids) == {"m", "a"}


SOLAR = [
    ("f1", "Solar capacity in Brazil grew because distributed generation projects in the"),
    ("p1", "Solar capacity in Brazil reached 37 GW in 2023, led by distributed generation."),
    ("p2", "Distributed generation accounted for 70% of the new solar capacity in 2023."),
    ("p3", "Panel prices fell 30% in Brazil in 2023, which made projects cheaper."),
    ("p4", "The Northeast concentrates most of Brazil's utility-scale solar plants."),
    ("p5", "Net metering credits expire 60 months after billing in Brazil, under Law 14.300."),
    ("p6", "Solar generation in Brazil is forecast to grow again in 2024, analysts said."),
    ("p7", "Solar installers in Brazil employed more than 300,000 people in 2023."),
]


def test_a_question_that_compares_nothing_gets_three_to_six_cited_whole_sentences() -> None:
    question = "How is solar energy growing in Brazil?"
    plan = _plan(question, "solar capacity in Brazil", "solar prices and credits in Brazil")
    claims = [
        build_claim(cid, statement=text, excerpt=text, subquestion="s1" if i < 5 else "s2")
        for i, (cid, text) in enumerate(SOLAR)
    ]
    draft = _draft(question, claims, plan)
    assert 3 <= len(draft.summary) <= 6
    statements = {c.id: c.statement for c in claims}
    for point in draft.summary:
        assert [point.text] == [statements[cid] for cid in point.claim_ids]
        assert not is_fragment(point.text)
    # Each subquestion's best first (its research posted them best first), in turn; the
    # fragment left out though it was ranked above a whole sentence.
    assert [p.claim_ids for p in draft.summary] == [["p1"], ["p5"], ["p2"]]


def test_a_plan_of_many_parts_gets_the_best_of_each_up_to_six_points() -> None:
    question = "How is solar energy growing in Brazil?"
    texts = [text for _, text in SOLAR[1:]]
    plan = _plan(question, *texts)
    claims = [
        build_claim(cid, statement=text, excerpt=text, subquestion=f"s{i}")
        for i, (cid, text) in enumerate(SOLAR[1:], 1)
    ]
    draft = _draft(question, claims, plan)
    assert [p.claim_ids for p in draft.summary] == [[f"p{i}"] for i in range(1, 7)]


def test_no_summary_point_is_a_fragment() -> None:
    cut = "Our operating income rate decreased in fiscal 2023, primarily driven by the"
    claims = [*_bestbuy()[:4], build_claim("x", statement=cut, excerpt=cut, subquestion="s1")]
    draft = _draft(BBY, claims)
    assert draft.summary
    assert not any(is_fragment(p.text) for p in draft.summary)
    assert all("x" not in p.claim_ids for p in draft.summary)


def test_every_number_of_the_draft_is_quoted_or_calculated() -> None:
    claims = {c.id: c for c in _bestbuy()}
    draft = _draft(BBY, list(claims.values()))
    calculated = {c.id: c for c in draft.calculations}
    for sentence in [*draft.summary, *(s for x in draft.sections for s in x.sentences)]:
        quoted = _numbers(" ".join(claims[cid].quoted for cid in sentence.claim_ids))
        quoted |= {n for cid in sentence.calculation_ids for n in _numbers(calculated[cid].text)}
        assert _numbers(sentence.text) <= quoted, sentence.text


def test_sections_quote_statements_and_cite_one_figure_of_one_filing_once() -> None:
    again = _row("r19b", "Revenue", "$ 42,879 $ 42,151 $ 39,403", "2019", url=f"{FY19_URL}0")
    claims = [*_bestbuy(), again]
    draft = _draft(BBY, claims)
    (section,) = draft.sections
    revenue = [s for s in section.sentences if "42,879" in s.text]
    assert len(revenue) == 1
    assert revenue[0].claim_ids == ["r19", "r19b"]
    assert len(section.sentences) == 5


def test_a_point_quoting_a_row_printed_twice_cites_both_pages() -> None:
    question = "What was Best Buy's revenue in fiscal 2019?"
    again = _row("r19b", "Revenue", "$ 42,879 $ 42,151 $ 39,403", "2019", url=f"{FY19_URL}0")
    draft = _draft(question, [_bestbuy()[0], again])
    assert [p.claim_ids for p in draft.summary] == [["r19", "r19b"]]


def test_the_tables_hold_the_compared_figures_and_the_change() -> None:
    draft = _draft(BBY, _bestbuy())
    assert draft.tables
    cited = {cid for table in draft.tables for cid in table.cited_claim_ids()}
    assert {"r19", "r23", "o19", "o23"} <= cited
    used = {
        cell.calculation_id
        for table in draft.tables
        for row in table.rows
        for cell in row.cells
        if cell is not None and cell.calculation_id
    }
    assert used <= {c.id for c in draft.calculations}


def test_the_title_is_the_questions_subject_not_the_question_under_a_label() -> None:
    assert title_for(make_brief(BBY)) == (
        "Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023"
    )
    assert title_for(make_brief("Como está o mercado de energia solar no Nordeste?")) == (
        "Mercado de energia solar no Nordeste"
    )
    long = "What " + " ".join(["very"] * 20) + " long question is this?"
    assert title_for(make_brief(long)) == long
    assert not re.match(r"(Report|Relatório):", title_for(make_brief("Qual é o prazo?")))
