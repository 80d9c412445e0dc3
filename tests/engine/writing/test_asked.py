from dataclasses import replace

import pytest

from engine.contracts import Claim, Draft, Plan, Subquestion
from engine.planning.briefs import make_brief
from engine.verify.draft import check_draft
from engine.writing.asked import asked_gaps, asked_measure, label_rank
from engine.writing.verbatim import verbatim_draft
from tests.support.render_samples import build_claim

MMM_HEADER = "(Millions, except per share amounts) 2022 2021 2020"


def _row(claim_id: str, title: str, excerpt: str, context: str) -> Claim:
    return build_claim(
        claim_id,
        statement=excerpt,
        excerpt=excerpt,
        context=context,
        title=title,
        url=f"https://example.org/{title.casefold()}.pdf#page=40",
        subquestion="s1",
    )


def _mmm() -> list[Claim]:
    """3M's income statement rows as the research quotes them: net sales printed with its
    currency, operating income without (both in millions of dollars)."""
    return [
        _row("n", "3M_2022_10K", "Net sales $ 34,229 $ 35,355 $ 32,184", MMM_HEADER),
        _row("o", "3M_2022_10K", "Operating income 6,539 7,369 7,161", MMM_HEADER),
        _row("c", "3M_2022_10K", "Cost of sales 19,232 18,795 16,605", MMM_HEADER),
    ]


def _draft(question: str, claims: list[Claim]) -> Draft:
    """The offline writer's draft, which the number guard publishes whole."""
    brief = make_brief(question)
    plan = Plan(question=question, subquestions=[Subquestion(id="s1", text=question)])
    draft = verbatim_draft(brief, plan, claims)
    checked = check_draft(draft, claims, language=brief.language)
    assert checked.dropped == []
    assert checked.summary == draft.summary
    assert checked.calculations == draft.calculations
    return draft


def test_3m_operating_margin_is_computed_from_verified_inputs_and_said_first() -> None:
    draft = _draft("What is 3M's FY2022 operating margin?", _mmm())
    first = draft.summary[0]
    assert first.text.startswith("Operating margin in 2022: 19.1%")
    assert "6,539 million ÷ $ 34,229 million = 19.1%" in first.text
    assert set(first.claim_ids) == {"n", "o"}
    (calculation,) = [c for c in draft.calculations if c.id in first.calculation_ids]
    assert calculation.kind == "margin"
    assert [f.text for f in calculation.inputs] == ["6,539", "$ 34,229"]
    assert asked_gaps("What is 3M's FY2022 operating margin?", _mmm(), "en") == []


def test_the_entity_the_question_names_is_the_one_computed() -> None:
    header = "(in millions) 2022 2021"
    claims = [
        *_mmm(),
        _row("gs", "GLOBEX_2022_10K", "Net sales $ 12,000 $ 11,000", header),
        _row("go", "GLOBEX_2022_10K", "Operating income $ 1,200 $ 990", header),
    ]
    first = _draft("What is Globex's FY2022 operating margin?", claims).summary[0]
    assert first.text.startswith("Operating margin in 2022: 10.0%")
    assert set(first.claim_ids) == {"gs", "go"}


def test_a_margin_change_states_the_margin_of_each_year() -> None:
    question = (
        "What drove operating margin change as of FY2022 for 3M? If operating margin is not "
        "a useful metric for a company like this, then please state that and explain why."
    )
    draft = _draft(question, _mmm())
    change = draft.summary[0]
    assert change.text.startswith(
        "Operating margin fell 1.7 pp, from 20.8% in 2021 to 19.1% in 2022 "
        "((6,539 ÷ $ 34,229) − (7,369 ÷ $ 35,355) = −1.7 pp)"
    )
    kinds = {c.id: c.kind for c in draft.calculations}
    assert [kinds[k] for k in change.calculation_ids] == ["margin_change", "margin", "margin"]
    assert draft.summary[1].text.startswith("Operating margin in 2022: 19.1%")
    assert draft.summary[2].text.startswith("Operating margin in 2021: 20.8%")


def test_an_average_margin_over_years_is_their_mean() -> None:
    header = "Fiscal Years Ended January 28, 2017 January 30, 2016 January 31, 2015"
    claims = [
        _row("r", "HOOLI_2017_10K", "Revenue $ 39,403 $ 39,528 $ 40,339", header),
        _row("n", "HOOLI_2017_10K", "Net earnings $ 1,228 $ 897 $ 1,233", header),
    ]
    question = "What is the FY2015 - FY2017 3 year average net profit margin (as a %) for Hooli?"
    first = _draft(question, claims).summary[0]
    assert first.text == (
        "Net profit margin, mean of 2015 to 2017: 2.8% "
        "(the mean of 3.1% in 2015, 2.3% in 2016 and 3.1% in 2017)."
    )


def test_a_portuguese_margin_change() -> None:
    header = "(em milhões de reais) 2023 2022"
    claims = [
        _row("r", "NATURA_2023_DFP", "Receita líquida 26.737,2 36.350,3", header),
        _row("o", "NATURA_2023_DFP", "Lucro operacional 1.500,0 2.900,0", header),
    ]
    question = "Como variou a margem operacional da Natura entre 2022 e 2023?"
    first = _draft(question, claims).summary[0]
    assert first.text.startswith("Margem operacional caiu 2,4 p.p., de 8,0% em 2022 para 5,6%")


def test_a_portuguese_question_gets_its_margin_in_portuguese() -> None:
    header = "(em milhões de reais) 2023 2022"
    claims = [
        _row("r", "NATURA_2023_DFP", "Receita líquida 26.737,2 36.350,3", header),
        _row("b", "NATURA_2023_DFP", "Lucro bruto 17.356,1 23.603,6", header),
    ]
    draft = _draft("Qual foi a margem bruta da Natura em 2023?", claims)
    first = draft.summary[0]
    assert first.text.startswith("Margem bruta em 2023: 64,9%")
    assert "17.356,1 milhões ÷ 26.737,2 milhões = 64,9%" in first.text


def test_a_formula_spelled_out_in_the_question_is_computed() -> None:
    header = "December 31, 2016 December 31, 2015"
    claims = [
        _row("a", "ACME_2016_10K", "Total current assets 1,001,425 798,060", header),
        _row("l", "ACME_2016_10K", "Total current liabilities 577,464 334,202", header),
        _row("x", "ACME_2016_10K", "Other current assets 56,331 41,447", header),
    ]
    question = (
        "What is Acme's FY2016 working capital ratio? Define working capital ratio as total "
        "current assets divided by total current liabilities. Round to two decimal places."
    )
    first = _draft(question, claims).summary[0]
    assert first.text.startswith("Working capital ratio in 2016: 1.73")
    assert set(first.claim_ids) == {"a", "l"}


def test_a_turnover_of_another_company_uses_its_cost_of_sales_not_its_sales() -> None:
    header = "(in millions) 2021 2020"
    claims = [
        _row("s", "GLOBEX_2021_10K", "Sales $ 12,000 $ 11,000", header),
        _row("c", "GLOBEX_2021_10K", "Cost of sales $ 8,000 $ 7,500", header),
        _row("i", "GLOBEX_2021_10K", "Inventories $ 2,000 $ 1,900", header),
    ]
    first = _draft("What was Globex's inventory turnover in FY2021?", claims).summary[0]
    assert first.text.startswith("Inventory turnover in 2021: 4.00")
    assert "$ 8,000 million ÷ $ 2,000 million" in first.text


def test_a_growth_asked_is_the_percentage_change_between_the_years() -> None:
    header = "2021 2020 2019"
    claims = [
        _row("r", "INITECH_2021_10K", "Total net revenue 9,497,578 4,713,500 3,298,177", header)
    ]
    question = "What is the FY2020 - FY2021 total revenue growth rate for Initech?"
    first = _draft(question, claims).summary[0]
    assert "+101.5%" in first.text  # said once: the comparison of the two years says it


def test_a_growth_of_a_measure_the_filing_names_otherwise_is_computed() -> None:
    header = "(in millions) Year Ended December 31, 2016 2017"
    claims = [_row("s", "AMAZON_2017_10K", "Net sales $ 135,987 $ 177,866", header)]
    question = "What is Amazon's year-over-year change in revenue from FY2016 to FY2017?"
    first = _draft(question, claims).summary[0]
    assert first.text.startswith("Change in revenue, 2016 to 2017: +30.8%")


def test_a_missing_input_is_a_gap_that_names_it() -> None:
    header = "(in millions) 2023 2022"
    claims = [_row("r", "UMBRELLA_2023_10K", "Revenue $ 5,000 $ 4,000", header)]
    question = "What was Umbrella's gross margin in FY2023?"
    assert asked_gaps(question, claims, "en") == [
        "Gross margin in 2023: no verified figure of gross profit"
    ]
    draft = _draft(question, claims)
    assert not draft.calculations
    portuguese = asked_gaps("Qual foi a margem bruta da Umbrella em 2023?", claims, "pt")
    assert portuguese == ["Margem bruta em 2023: nenhum número verificado de lucro bruto"]


def test_an_input_asked_as_an_average_is_averaged_over_its_two_periods() -> None:
    header = "(in millions) 2018 2017"
    claims = [
        _row("r", "CVS_2018_10K", "Total revenues $ 194,579 $ 184,786", header),
        _row("p", "CVS_2018_10K", "Property and equipment, net 11,349 10,292", header),
    ]
    question = (
        "What is the FY2018 fixed asset turnover ratio for CVS? Fixed asset turnover ratio is "
        "defined as: FY2018 revenue / (average PP&E between FY2017 and FY2018)."
    )
    draft = _draft(question, claims)
    first = draft.summary[0]
    assert first.text.startswith("Fixed asset turnover in 2018: 17.98")
    assert (
        "(10,292 million + 11,349 million) ÷ 2 = $ 10,820.5 million; "
        "$ 194,579 million ÷ $ 10,820.5 million = 17.98"
    ) in first.text
    assert set(first.claim_ids) == {"r", "p"}
    (calculation,) = [c for c in draft.calculations if c.id in first.calculation_ids]
    assert calculation.kind == "ratio_to_average"
    assert [f.text for f in calculation.inputs] == ["$ 194,579", "10,292", "11,349"]
    assert asked_gaps(question, claims, "en") == []


def _vandelay() -> list[Claim]:
    header = "(in millions) 2023 2022"
    return [
        _row("s", "VANDELAY_2023_10K", "Net sales $ 50,000 $ 40,000", header),
        _row("c", "VANDELAY_2023_10K", "Cost of goods sold $ 30,000 $ 25,000", header),
        _row("i", "VANDELAY_2023_10K", "Inventories $ 7,000 $ 5,000", header),
    ]


def test_a_named_turnover_over_an_average_input_is_computed() -> None:
    question = "What was Vandelay's inventory turnover in FY2023, based on average inventory?"
    first = _draft(question, _vandelay()).summary[0]
    assert first.text.startswith("Inventory turnover in 2023: 5.00")
    assert (
        "($ 5,000 million + $ 7,000 million) ÷ 2 = $ 6,000 million; "
        "$ 30,000 million ÷ $ 6,000 million = 5.00"
    ) in first.text
    assert set(first.claim_ids) == {"c", "i"}


def test_a_portuguese_turnover_over_an_average_stock() -> None:
    header = "(em milhões de reais) 2023 2022"
    claims = [
        _row("c", "AURORA_2023_DFP", "Custo dos produtos vendidos 12.000,0 10.000,0", header),
        _row("e", "AURORA_2023_DFP", "Estoques 3.500,0 2.500,0", header),
    ]
    question = "Qual foi o giro do estoque da Aurora em 2023, usando o estoque médio?"
    first = _draft(question, claims).summary[0]
    assert first.text.startswith("Giro do estoque em 2023: 4,00")
    assert (
        "(2.500,0 milhões + 3.500,0 milhões) ÷ 2 = R$ 3.000,0 milhões; "
        "12.000,0 milhões ÷ R$ 3.000,0 milhões = 4,00"
    ) in first.text


def test_an_average_missing_a_period_is_a_gap_naming_the_input_and_the_period() -> None:
    header = "(in millions) 2018"
    claims = [
        _row("r", "PENDANT_2018_10K", "Total revenues $ 9,000", header),
        _row("p", "PENDANT_2018_10K", "Property and equipment, net 3,000", header),
    ]
    question = (
        "What is Pendant's FY2018 fixed asset turnover? Define it as FY2018 revenue / "
        "(average PP&E between FY2017 and FY2018)."
    )
    draft = _draft(question, claims)
    assert not any(c.kind == "ratio_to_average" for c in draft.calculations)
    assert asked_gaps(question, claims, "en") == [
        "Fixed asset turnover in 2018: no verified figure of property, plant and equipment "
        "in 2017, which its average of 2017 and 2018 needs"
    ]
    portuguese = (
        "Qual o giro do imobilizado da Pendant em 2018, com o imobilizado médio de 2017 e 2018?"
    )
    assert asked_gaps(portuguese, claims, "pt") == [
        "Giro do imobilizado em 2018: nenhum número verificado de imobilizado em 2017, "
        "necessário à sua média de 2017 e 2018"
    ]


def _kramerica(*, investments: bool = True) -> list[Claim]:
    header = "(in millions) December 31, 2022 December 31, 2021"
    rows = [
        _row("k", "KRAMERICA_2022_10K", "Cash and cash equivalents $ 1,200 $ 1,000", header),
        _row("a", "KRAMERICA_2022_10K", "Accounts receivable, net 900 850", header),
        _row("l", "KRAMERICA_2022_10K", "Total current liabilities 2,000 1,900", header),
        _row("v", "KRAMERICA_2022_10K", "Inventories 700 650", header),
    ]
    if investments:
        rows.append(_row("m", "KRAMERICA_2022_10K", "Short-term investments 300 250", header))
    return rows


def test_a_quick_ratio_sums_its_numerator_in_code() -> None:
    draft = _draft("What is Kramerica's quick ratio for FY2022?", _kramerica())
    first = draft.summary[0]
    assert first.text.startswith("Quick ratio in 2022: 1.20")
    assert "($ 1,200 million + 300 million + 900 million) ÷ 2,000 million = 1.20" in first.text
    assert set(first.claim_ids) == {"k", "m", "a", "l"}
    (calculation,) = [c for c in draft.calculations if c.id in first.calculation_ids]
    assert calculation.kind == "sum_ratio"


def test_a_portuguese_quick_ratio() -> None:
    header = "(em milhões de reais) 2023 2022"
    claims = [
        _row("k", "AURORA_2023_DFP", "Caixa e equivalentes de caixa 800,0 700,0", header),
        _row("f", "AURORA_2023_DFP", "Aplicações financeiras 200,0 100,0", header),
        _row("r", "AURORA_2023_DFP", "Contas a receber de clientes 1.000,0 900,0", header),
        _row("p", "AURORA_2023_DFP", "Passivo circulante 1.600,0 1.500,0", header),
    ]
    first = _draft("Qual a liquidez seca da Aurora em 2023?", claims).summary[0]
    assert first.text.startswith("Liquidez seca em 2023: 1,25")
    assert (
        "(800,0 milhões + 200,0 milhões + 1.000,0 milhões) ÷ 1.600,0 milhões = 1,25" in first.text
    )


def test_a_quick_ratio_missing_an_input_is_a_gap_naming_it() -> None:
    claims = _kramerica(investments=False)
    question = "What is Kramerica's quick ratio for FY2022?"
    assert not any(c.kind == "sum_ratio" for c in _draft(question, claims).calculations)
    assert asked_gaps(question, claims, "en") == [
        "Quick ratio in 2022: no verified figure of short-term investments"
    ]
    assert asked_gaps("Qual a liquidez seca da Kramerica em 2022?", claims, "pt") == [
        "Liquidez seca em 2022: nenhum número verificado de aplicações financeiras"
    ]


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        ("What was Vandelay's inventory turnover in FY2023, based on average inventory?", "v"),
        ("What is Kramerica's quick ratio for FY2022?", "k"),
        ("What is Soylent's FY2023 DPO, on average accounts payable?", "s"),
    ],
)
def test_an_edited_result_of_an_averaged_summed_or_days_measure_is_dropped(
    question: str, claims: str
) -> None:
    rows = {"v": _vandelay, "k": _kramerica, "s": _soylent}[claims]()
    draft = _draft(question, rows)
    first = draft.summary[0]
    (calculation,) = [c for c in draft.calculations if c.id in first.calculation_ids]
    edited = calculation.model_copy(
        update={
            "value": calculation.value + 1,
            "text": "9.99",
            "formula": calculation.formula.replace(calculation.text, "9.99"),
        }
    )
    forged = replace(
        draft,
        calculations=[edited if c.id == calculation.id else c for c in draft.calculations],
        summary=[
            first.model_copy(update={"text": first.text.replace(calculation.text, "9.99")}),
            *draft.summary[1:],
        ],
    )
    checked = check_draft(forged, rows, language="en")
    assert calculation.id not in {c.id for c in checked.calculations}
    assert all(calculation.id not in s.calculation_ids for s in checked.summary)


@pytest.mark.parametrize(
    ("question", "kind", "inputs"),
    [
        ("What is 3M's FY2022 operating margin?", "margin", ("operating_income", "revenue")),
        ("Qual a margem operacional da Vale em 2022?", "margin", ("operating_income", "revenue")),
        ("Qual foi a margem líquida do Itaú em 2021?", "margin", ("net_income", "revenue")),
        (
            "What is the FY2021 unadjusted operating income % margin?",
            "margin",
            ("operating_income", "revenue"),
        ),
        (
            "What is Boeing's current ratio for FY2022?",
            "ratio",
            ("current_assets", "current_liabilities"),
        ),
        ("What is the fixed asset turnover of CVS in 2018?", "ratio", ("revenue", "ppe")),
        (
            "What is Kramerica's acid-test ratio in 2022?",
            "sum_ratio",
            ("cash", "short_term_investments", "receivables", "current_liabilities"),
        ),
        ("Qual o giro do ativo da Vale em 2022?", "ratio", ("revenue", "total_assets")),
        ("What is MGM's capex as a % of revenue in FY2020?", "share", ("capex", "revenue")),
        (
            "Qual o retorno sobre o patrimônio líquido da Ambev em 2022?",
            "share",
            ("net_income", "equity"),
        ),
        ("What was Acme's revenue growth between FY2020 and FY2021?", "growth", ("revenue",)),
        ("Qual foi o crescimento da receita líquida entre 2021 e 2022?", "growth", ("revenue",)),
        (
            "Compute net income divided by total assets for FY2020.",
            "ratio",
            ("net_income", "total_assets"),
        ),
    ],
)
def test_the_measure_a_question_asks(question: str, kind: str, inputs: tuple[str, ...]) -> None:
    asked = asked_measure(question)
    assert asked is not None
    assert (asked.kind, asked.inputs) == (kind, inputs)


@pytest.mark.parametrize(
    "question",
    [
        "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
        "Who are the primary customers of Boeing as of FY2022?",
        "Qual o prazo da lei 14.300?",
    ],
)
def test_a_question_asking_no_measure_gets_none(question: str) -> None:
    assert asked_measure(question) is None


@pytest.mark.parametrize(
    ("label", "item", "named"),
    [
        ("Net sales", "revenue", True),
        ("Total net revenue", "revenue", True),
        ("Cost of sales", "revenue", False),
        ("Net income attributable to 3M", "net_income", True),
        ("Net income per share", "net_income", False),
        ("Property, plant and equipment — net", "ppe", True),
        ("Total current assets", "current_assets", True),
        ("Other current assets", "current_assets", False),
        ("Receita líquida", "revenue", True),
        ("Lucro bruto", "gross_profit", True),
    ],
)
def test_a_row_label_names_a_line_item(label: str, item: str, named: bool) -> None:
    assert (label_rank(label, item) is not None) is named


def _soylent() -> list[Claim]:
    header = "(in millions) 2023 2022"
    return [
        _row("s", "SOYLENT_2023_10K", "Net sales $ 73,000 $ 65,000", header),
        _row("c", "SOYLENT_2023_10K", "Cost of sales $ 36,500 $ 33,000", header),
        _row("p", "SOYLENT_2023_10K", "Accounts payable 4,500 3,500", header),
        _row("r", "SOYLENT_2023_10K", "Accounts receivable, net 8,000 7,000", header),
    ]


def test_days_payable_outstanding_over_average_payables() -> None:
    question = (
        "What is Soylent's FY2023 days payable outstanding (DPO)? DPO is average accounts "
        "payable between FY2022 and FY2023 divided by cost of sales, times 365."
    )
    first = _draft(question, _soylent()).summary[0]
    assert first.text.startswith("Days payable outstanding in 2023: 40.0 days")
    assert "(3,500 million + 4,500 million) ÷ 2 = $ 4,000 million; " in first.text
    assert "$ 4,000 million ÷ $ 36,500 million × 365 = 40.0 days" in first.text
    assert set(first.claim_ids) == {"c", "p"}


def test_days_sales_outstanding_of_one_year_in_portuguese() -> None:
    header = "(em milhões de reais) 2023 2022"
    claims = [
        _row("r", "AURORA_2023_DFP", "Receita líquida 7.300,0 6.000,0", header),
        _row("c", "AURORA_2023_DFP", "Contas a receber de clientes 1.000,0 900,0", header),
    ]
    first = _draft("Qual o prazo médio de recebimento da Aurora em 2023?", claims).summary[0]
    assert first.text.startswith("Prazo médio de recebimento em 2023: 50,0 dias")
    assert "1.000,0 milhões ÷ 7.300,0 milhões × 365 = 50,0 dias" in first.text


def test_days_inventory_missing_a_year_of_its_average_is_a_gap() -> None:
    header = "(in millions) 2023"
    claims = [
        _row("c", "SOYLENT_2023_10K", "Cost of sales $ 36,500", header),
        _row("i", "SOYLENT_2023_10K", "Inventories $ 3,000", header),
    ]
    question = "What were Soylent's days inventory outstanding in FY2023, on average inventory?"
    assert asked_gaps(question, claims, "en") == [
        "Days inventory outstanding in 2023: no verified figure of inventories in 2022, which "
        "its average of 2022 and 2023 needs"
    ]


@pytest.mark.parametrize(
    ("question", "language"),
    [
        (
            "What is Soylent's FY2023 days payable outstanding (DPO)? DPO is defined as: 365 * "
            "(average accounts payable between FY2022 and FY2023) / (FY2023 COGS + change in "
            "inventory between FY2022 and FY2023).",
            "en",
        ),
        (
            "What is Soylent's FY2023 asset turnover? Define it as (FY2023 net sales - returns) "
            "/ average total assets between FY2022 and FY2023.",
            "en",
        ),
        (
            "Qual o giro do ativo da Soylent em 2023, definido como receita líquida / (ativo "
            "total menos caixa)?",
            "pt",
        ),
    ],
)
def test_a_formula_with_terms_beyond_its_inputs_is_not_computed_and_the_gap_says_so(
    question: str, language: str
) -> None:
    header = "(in millions) 2023 2022"
    claims = [*_soylent(), _row("t", "SOYLENT_2023_10K", "Total assets 90,000 80,000", header)]
    brief = make_brief(question)
    plan = Plan(question=question, subquestions=[Subquestion(id="s1", text=question)])
    draft = verbatim_draft(brief, plan, claims)
    assert not draft.calculations
    (gap,) = asked_gaps(question, claims, language)  # type: ignore[arg-type]
    assert ("formula" in gap) if language == "en" else ("fórmula" in gap)
