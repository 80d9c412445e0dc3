"""A statement's row is quoted with the line that declares its figures' scale: "Revenue
$ 42,879" under "$ and shares in millions, except per share amounts" is $42,879 million,
and the reader quotes that line with the column header as the row's context, so the verifier
checks it on the page and the writer reads the scale from it (`figures_in`)."""

from __future__ import annotations

from engine.contracts import Claim, ClaimStatus
from engine.models.extractive.ranking import Quote, candidates_of, choose_quotes
from engine.snapshots import Snapshot, with_page
from engine.verify.excerpts import verify_on_page
from engine.writing.figures import figures_in
from tests.support.page_claims import claim_on

URL = "library:/filings/BESTBUY_2019_10K.pdf"

# Best Buy's fiscal 2019 statement of earnings (page 53) as the library reads it.
EARNINGS = (
    "Table of Contents\n"
    "Consolidated Statements of Earnings\n"
    "$ and shares in millions, except per share amounts\n"
    "Fiscal Years Ended February 2, 2019 February 3, 2018 January 28, 2017\n"
    "Revenue $ 42,879 $ 42,151 $ 39,403\n"
    "Cost of goods sold 32,918 32,275 29,963\n"
    "Gross profit 9,961 9,876 9,440\n"
    "Selling, general and administrative expenses 8,015 8,023 7,547\n"
    "Operating income 1,900 1,843 1,854\n"
    "Diluted earnings per share $ 5.20 $ 3.26 $ 3.81\n"
    "See Notes to Consolidated Financial Statements."
)
EARNINGS_CONTEXT = (
    "$ and shares in millions, except per share amounts\n"
    "Fiscal Years Ended February 2, 2019 February 3, 2018 January 28, 2017"
)

# Block's selected data (page 52): the scale declared on the line below the years.
SELECTED = (
    "Item 6. SELECTED FINANCIAL DATA\n"
    "Year Ended December 31,\n"
    "2020 2019 2018 2017 2016\n"
    "(in thousands, except per share data)\n"
    "Consolidated Statement of Operations Data:\n"
    "Total net revenue 9,497,578 4,713,500 3,298,177 2,214,253 1,708,721\n"
    "Gross profit 2,733,409 1,889,685 1,303,700 839,306 576,038\n"
    "Basic $ 0.48 $ 0.88 $ (0.09) $ (0.17) $ (0.50)"
)

# A Brazilian company's statement, in thousands of reais.
RESULTADO = (
    "DEMONSTRAÇÕES DO RESULTADO\n"
    "(Em milhares de reais)\n"
    "Exercícios findos em 31 de dezembro de 2023 2022\n"
    "Receita operacional líquida 1.234.567 1.100.320\n"
    "Lucro bruto 456.789 400.100\n"
    "Lucro por ação básico 1,25 1,10"
)


def snapshot_of(page: str, title: str) -> Snapshot:
    return Snapshot.from_pages(URL, [page], title=title)


def quote_of(snapshot: Snapshot, question: str, excerpt_start: str) -> Quote:
    candidates = candidates_of(with_page(URL, 1), snapshot, hit_rank=1)
    quotes = choose_quotes(candidates, question)
    return next(q for q in quotes if q.excerpt.startswith(excerpt_start))


def verified(quote: Quote, snapshot: Snapshot) -> Claim:
    claim = claim_on(snapshot, quote.statement, quote.excerpt, quote.context, url=quote.url)
    checked = verify_on_page(claim, snapshot)
    assert checked.status is ClaimStatus.verified, checked.reason
    return checked.model_copy(update={"title": snapshot.title})


def test_a_statements_row_is_quoted_with_the_line_that_declares_its_scale() -> None:
    snapshot = snapshot_of(EARNINGS, "BESTBUY_2019_10K")
    quote = quote_of(snapshot, "What was Best Buy's revenue in fiscal 2019?", "Revenue")
    assert quote.context == EARNINGS_CONTEXT
    assert quote.statement == (  # the statement alone says what its figures are in
        "Revenue — February 2, 2019: $42,879; February 3, 2018: $42,151; "
        "January 28, 2017: $39,403 ($ and shares in millions, except per share amounts)"
    )
    claim = verified(quote, snapshot)
    revenue = figures_in(claim)[0]
    assert (revenue.text, revenue.unit, revenue.value) == ("$ 42,879", "$ million", 42_879e6)


def test_a_bare_row_under_a_dollar_declaration_is_in_dollars_and_millions() -> None:
    snapshot = snapshot_of(EARNINGS, "BESTBUY_2019_10K")
    quote = quote_of(snapshot, "What was Best Buy's operating income in fiscal 2019?", "Operating")
    claim = verified(quote, snapshot)
    income = figures_in(claim)[0]
    assert (income.text, income.unit, income.value) == ("1,900", "$ million", 1_900e6)


def test_a_per_share_row_under_the_declaration_takes_no_scale() -> None:
    snapshot = snapshot_of(EARNINGS, "BESTBUY_2019_10K")
    quote = quote_of(snapshot, "What was Best Buy's diluted earnings per share?", "Diluted")
    claim = verified(quote, snapshot)
    assert [(f.unit, f.value) for f in figures_in(claim)] == [("$", 5.2), ("$", 3.26), ("$", 3.81)]


def test_a_scale_declared_below_the_years_is_quoted_with_them() -> None:
    snapshot = snapshot_of(SELECTED, "BLOCK_2020_10K")
    quote = quote_of(snapshot, "What was Block's gross profit in 2019?", "Gross profit")
    assert quote.context == "2020 2019 2018 2017 2016\n(in thousands, except per share data)"
    assert quote.statement.endswith("2016: 576,038 (in thousands, except per share data)")
    claim = verified(quote, snapshot)
    by_year = {f.period: (f.unit, f.value) for f in figures_in(claim)}
    assert by_year["2019"] == ("thousand", 1_889_685_000)


def test_a_portuguese_statement_in_thousands_of_reais() -> None:
    snapshot = snapshot_of(RESULTADO, "Relatório Anual 2023")
    quote = quote_of(snapshot, "Qual foi o lucro bruto em 2023?", "Lucro bruto")
    assert quote.context is not None
    assert quote.context.startswith("(Em milhares de reais)\n")
    claim = verified(quote, snapshot)
    gross = figures_in(claim)[0]
    assert (gross.period, gross.unit, gross.value) == ("2023", "R$ mil", 456_789_000)


def test_a_header_that_declares_its_own_scale_is_quoted_alone() -> None:
    page = (
        "Consolidated Statement of Income\n"
        "Years ended December 31\n"
        "(Millions, except per share amounts) 2018 2017 2016\n"
        "Net sales $ 32,765 $ 31,657 $ 30,109\n"
        "Operating income 7,207 7,820 7,223"
    )
    snapshot = snapshot_of(page, "3M_2018_10K")
    quote = quote_of(snapshot, "What were 3M's net sales in 2018?", "Net sales")
    assert quote.context == "(Millions, except per share amounts) 2018 2017 2016"


def test_a_scale_declared_above_a_dated_label_line_is_quoted_with_the_header() -> None:
    page = (
        "SQUARE, INC.\n"
        "CONSOLIDATED STATEMENTS OF OPERATIONS\n"
        "(In thousands, except per share data)\n"
        "Year Ended December 31,\n"
        "2020 2019 2018\n"
        "Revenue:\n"
        "Total net revenue 9,497,578 4,713,500 3,298,177\n"
        "Gross profit 2,733,409 1,889,685 1,303,700"
    )
    snapshot = snapshot_of(page, "BLOCK_2020_10K")
    quote = quote_of(snapshot, "What was Block's gross profit in 2019?", "Gross profit")
    assert quote.context == (
        "(In thousands, except per share data)\nYear Ended December 31,\n2020 2019 2018"
    )
    claim = verified(quote, snapshot)
    by_year = {f.period: (f.unit, f.value) for f in figures_in(claim)}
    assert by_year["2019"] == ("thousand", 1_889_685_000)
