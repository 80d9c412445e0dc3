"""The figures a financial question needs: the measures it names, and the inputs of those it
names that no statement prints.

"What is PepsiCo's FY2022 EBITDA margin?" is answered by no row of a filing: the analyst reads
operating profit on the income statement, depreciation and amortization on the cash-flow
statement and revenue on the income statement, and computes. A reader that only ranks units by
the question's words quotes "Segment EBITDA margin" of another filing instead. So a derived
measure is replaced by what it is computed from, as any finance textbook defines it, and the
reader quotes the row of each. This is generic vocabulary, never the answer to a question.
"""

from __future__ import annotations

from functools import cache

from engine.text.synonyms import SYNONYMS, contains_phrase
from engine.text.tokens import term_set, tokenize

# Derived measure (as questions name it) -> the printed measures it is computed from.
_REVENUE = "revenue"
_COST_OF_SALES = "cost of sales"
_OPERATING_INCOME = "operating income"
_CAPEX = "capital expenditure"
DERIVED: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("ebitda",), (_OPERATING_INCOME, "depreciation and amortization")),
    (("ebit",), (_OPERATING_INCOME,)),
    (("margin", "margins"), (_REVENUE,)),
    (("gross margin", "gross margins"), ("gross profit", _COST_OF_SALES)),
    (("operating margin", "operating margins"), (_OPERATING_INCOME,)),
    (("net margin", "net profit margin"), ("net income",)),
    (("days payable outstanding", "dpo"), ("accounts payable", _COST_OF_SALES, "inventories")),
    (("days sales outstanding", "dso"), ("accounts receivable", _REVENUE)),
    (("days inventory outstanding", "dio"), ("inventories", _COST_OF_SALES)),
    (("inventory turnover",), (_COST_OF_SALES, "inventories")),
    (("fixed asset turnover",), (_REVENUE, "property plant and equipment")),
    (("asset turnover", "total asset turnover"), (_REVENUE, "total assets")),
    (("return on assets", "roa"), ("net income", "total assets")),
    (("return on equity", "roe"), ("net income", "shareholders equity")),
    (("quick ratio", "acid test"), ("cash and cash equivalents", "total current liabilities")),
    (("current ratio", "working capital"), ("total current assets", "total current liabilities")),
    (("interest coverage",), (_OPERATING_INCOME, "interest expense")),
    (("free cash flow",), ("net cash provided by operating activities", _CAPEX)),
    (
        ("capital intensive", "capital intensity"),
        (_CAPEX, _REVENUE, "total assets", "property plant and equipment"),
    ),
    (("debt to equity", "leverage"), ("long-term debt", "shareholders equity")),
    (("dividend payout",), ("dividends paid", "net income")),
    (("ppne", "pp&e", "fixed assets"), ("property plant and equipment",)),
)

# Measures a filing prints as a row: each as the derived measures above name it, then the
# other names a question may use for it.
PRINTED: tuple[tuple[str, ...], ...] = (
    (_REVENUE, "revenues", "net sales", "net revenue", "top line", "topline"),
    (_COST_OF_SALES, "cost of goods sold", "cogs", "cost of revenue"),
    ("gross profit",),
    (_OPERATING_INCOME, "operating profit", "income from operations"),
    ("net income", "net earnings", "net profit"),
    ("depreciation and amortization", "d&a"),
    ("interest expense",),
    ("effective tax rate",),
    ("restructuring",),
    (_CAPEX, "capex", "capital spending", "capital expenditures"),
    ("dividends paid", "dividends"),
    ("accounts payable",),
    ("accounts receivable", "receivables"),
    ("inventories", "inventory"),
    ("total assets",),
    ("total current assets", "current assets"),
    ("total current liabilities", "current liabilities"),
    ("total liabilities",),
    ("long-term debt", "total debt", "debt"),
    ("cash and cash equivalents",),
    ("shareholders equity", "stockholders equity"),
    ("goodwill",),
    ("property plant and equipment",),
    ("net cash provided by operating activities", "operating cash flow", "cash from operations"),
)


def measures_asked(question: str) -> list[str]:
    """The printed measures `question` needs, in order: those it names, and the inputs of
    the derived measures it names ("EBITDA margin" -> operating income, depreciation and
    amortization, revenue). A measure whose words are part of a longer one asked ("income"
    in "operating income") is not asked on its own."""
    tokens = tokenize(question)
    found: list[str] = []
    for names, inputs in DERIVED:
        if any(contains_phrase(tokens, name) for name in names):
            found += inputs
    found += [names[0] for names in PRINTED if any(contains_phrase(tokens, n) for n in names)]
    distinct = list(dict.fromkeys(found))
    return [m for m in distinct if not any(_within(m, other) for other in distinct if other != m)]


def _within(measure: str, other: str) -> bool:
    words, longer = tokenize(measure), tokenize(other)
    return len(words) < len(longer) and contains_phrase(longer, measure)


@cache
def phrasings(measure: str) -> tuple[frozenset[str], ...]:
    """The term sets a row label holds when it states `measure`: its own words, another name
    of it, or a name filings print for it ("revenue": "net sales", "total revenues")."""
    names = next((group for group in PRINTED if measure in group), (measure,))
    asked = {tuple(tokenize(name)) for name in names}
    printed = [
        phrase
        for triggers, phrases in SYNONYMS
        if any(tuple(tokenize(trigger)) in asked for trigger in triggers)
        for phrase in phrases
    ]
    return tuple(dict.fromkeys(t for t in map(term_set, (*names, *printed)) if t))


def states_measure(measure: str, words: frozenset[str]) -> bool:
    """Whether a unit's own words name `measure` in one of its phrasings."""
    return any(phrasing <= words for phrasing in phrasings(measure))
