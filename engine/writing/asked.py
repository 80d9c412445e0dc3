"""The measure a question asks, computed in code from the report's verified figures.

"What is 3M's FY2022 operating margin?" is answered by no row of a filing: the income
statement prints operating income and net sales, and the margin is one divided by the other.
A report that states operating income has not answered. So the question is read for the
measure it asks (`asked_measure`), either named, in English or Portuguese ("operating
margin", "quick ratio", "fixed asset turnover", "margem bruta", "giro do ativo",
"revenue growth", "crescimento da receita"), or spelled out ("defined as total current
assets divided by total current liabilities", "capex as a % of revenue", "receita /
ativo total"), as the line items it is computed from; a formula the question spells out
wins over a name. Then each input is looked for among the verified figures (`Figure`) of one
entity and one period, its row label read as the line item's name as filings print it
("Net sales", "Total revenues", "Receita líquida"), and the calculator computes the measure
(`asked_points`): the summary states it first, its formula showing the inputs as printed and
citing their claims. A question about a change ("improving", "between FY2021 and FY2022")
gets the measure of each year it names, and a growth the percentage change between them.

An input no verified figure gives is a gap, and the gap names it (`asked_gaps`): "Operating
margin in 2022: no verified figure of revenue". A ratio's denominator asked as an average
over periods ("revenue / average PP&E between FY2017 and FY2018", "inventory turnover based
on average inventory", "o estoque médio") is the mean of its figures of the year asked and
the year before, one calculation (`ratio_to_average`, its average shown in its formula); a
year with no figure of it is a gap naming the input and that year. A measure whose numerator
is a sum ("quick ratio", "liquidez seca": cash and cash equivalents + short-term investments
+ receivables, over current liabilities) is one calculation too (`sum_ratio`), and so is a
days measure (`days`: days payable outstanding, days sales outstanding, days inventory
outstanding, "prazo médio de recebimento": the balance, or its average, over the year's
cost of sales or revenue, × 365). A formula whose operands hold terms beyond their line
items ("(COGS + change in inventory)", "(net sales − returns)", a product other than a days
measure's × 365) is not that measure: it is not computed, and the gap says so. Any other
average (of a numerator, of a margin's input) is not computed, and the gap says which.

The vocabulary is generic finance, as any textbook defines the measures, never the answer
to a question. Pure functions.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from engine.contracts import Calculation, Claim, Figure, Language, Sentence
from engine.text.normalise import collapse_whitespace
from engine.text.periods import years_in
from engine.text.sentences import capitalised
from engine.text.tokens import fold_accents
from engine.words import words_for
from engine.writing.calculator import Calculator, NotComparable
from engine.writing.figures import MINUS, gather_figures
from engine.writing.units import unit_family, unit_scale, year_of

__all__ = ["AskedMeasure", "AskedPoints", "asked_gaps", "asked_measure", "asked_points"]

MeasureKind = Literal["margin", "ratio", "share", "growth", "sum_ratio", "days"]

# The line items measures are computed from: each with the names a filing prints it under
# (a row label, folded: no accents, no punctuation, no "Total" before it), the best first
# ("property plant and equipment net" before the gross "property plant and equipment").
LINE_ITEMS: dict[str, tuple[str, ...]] = {
    "revenue": (
        "net sales",
        "revenues",
        "revenue",
        "net revenues",
        "net revenue",
        "sales",
        "receita liquida",
        "receita operacional liquida",
        "receita liquida de vendas",
        "vendas liquidas",
        "receita",
        "receitas",
        "faturamento",
    ),
    "cost_of_sales": (
        "cost of sales",
        "cost of goods sold",
        "cost of revenue",
        "cost of revenues",
        "cost of products sold",
        "custo dos produtos vendidos",
        "custo das mercadorias vendidas",
        "custo das vendas",
        "custo dos servicos prestados",
    ),
    "gross_profit": ("gross profit", "lucro bruto", "resultado bruto"),
    "operating_income": (
        "operating income",
        "operating profit",
        "income from operations",
        "operating earnings",
        "lucro operacional",
        "resultado operacional",
    ),
    "net_income": (
        "net income",
        "net earnings",
        "net profit",
        "lucro liquido",
        "lucro liquido do exercicio",
        "resultado liquido",
    ),
    "total_assets": ("assets", "total assets", "ativo total", "ativo"),
    "current_assets": ("current assets", "ativo circulante"),
    "current_liabilities": ("current liabilities", "passivo circulante"),
    "cash": (
        "cash and cash equivalents",
        "cash and equivalents",
        "caixa e equivalentes de caixa",
        "caixa e equivalentes",
        "disponibilidades",
    ),
    "short_term_investments": (
        "short term investments",
        "marketable securities",
        "short term marketable securities",
        "aplicacoes financeiras",
        "aplicacoes financeiras de curto prazo",
        "titulos e valores mobiliarios",
    ),
    "inventories": ("inventories", "inventory", "merchandise inventories", "estoques"),
    "receivables": (
        "accounts receivable",
        "trade receivables",
        "receivables",
        "contas a receber",
        "contas a receber de clientes",
    ),
    "ppe": (
        "property plant and equipment net",
        "property and equipment net",
        "net property plant and equipment",
        "net property and equipment",
        "property plant and equipment",
        "property and equipment",
        "imobilizado liquido",
        "imobilizado",
    ),
    "payables": (
        "accounts payable",
        "trade accounts payable",
        "trade payables",
        "fornecedores",
        "contas a pagar",
    ),
    "equity": (
        "shareholders equity",
        "stockholders equity",
        "equity",
        "patrimonio liquido",
    ),
    "debt": ("long term debt", "debt", "divida liquida", "divida", "emprestimos e financiamentos"),
    "interest_expense": ("interest expense", "despesa de juros", "despesas de juros"),
    "capex": (
        "purchases of property plant and equipment",
        "purchases of property and equipment",
        "additions to property and equipment",
        "capital expenditures",
        "capital expenditure",
        "aquisicao de imobilizado",
        "aquisicoes de imobilizado",
    ),
}

# How a question names a line item (folded), beyond the names filings print.
_ASKED_NAMES: dict[str, tuple[str, ...]] = {
    "revenue": ("top line", "topline", "turnover", "total revenue", "total revenues"),
    "cost_of_sales": ("cogs",),
    "net_income": ("net earnings",),
    "ppe": ("pp&e", "ppne", "ppe", "fixed assets", "ativo imobilizado"),
    "inventories": ("estoque",),
    "equity": ("shareholders equity", "stockholders equity", "equity"),
    "capex": ("capex", "capital spending"),
    "total_assets": ("total assets", "ativos totais", "ativo total"),
    "current_assets": ("total current assets", "current assets"),
    "current_liabilities": ("total current liabilities", "current liabilities"),
}

# Measures a question names (folded) -> how they are computed from line items.
_NAMED: tuple[tuple[tuple[str, ...], MeasureKind, tuple[str, ...]], ...] = (
    (
        ("gross margin", "gross margins", "gross profit margin", "margem bruta"),
        "margin",
        ("gross_profit", "revenue"),
    ),
    (
        (
            "operating margin",
            "operating margins",
            "operating profit margin",
            "operating income margin",
            "ebit margin",
            "margem operacional",
            "margem ebit",
        ),
        "margin",
        ("operating_income", "revenue"),
    ),
    (
        (
            "net margin",
            "net profit margin",
            "net income margin",
            "profit margin",
            "margem liquida",
        ),
        "margin",
        ("net_income", "revenue"),
    ),
    (
        ("current ratio", "working capital ratio", "liquidez corrente"),
        "ratio",
        ("current_assets", "current_liabilities"),
    ),
    (
        ("days payable outstanding", "dpo", "prazo medio de pagamento"),
        "days",
        ("payables", "cost_of_sales"),
    ),
    (
        (
            "days sales outstanding",
            "days sales in receivables",
            "dso",
            "prazo medio de recebimento",
        ),
        "days",
        ("receivables", "revenue"),
    ),
    (
        (
            "days inventory outstanding",
            "days in inventory",
            "days of inventory",
            "dio",
            "prazo medio de estocagem",
            "prazo medio dos estoques",
        ),
        "days",
        ("inventories", "cost_of_sales"),
    ),
    (
        ("quick ratio", "acid test ratio", "acid test", "liquidez seca", "indice de liquidez seca"),
        "sum_ratio",
        ("cash", "short_term_investments", "receivables", "current_liabilities"),
    ),
    (
        (
            "fixed asset turnover",
            "fixed assets turnover",
            "giro do ativo imobilizado",
            "giro do imobilizado",
        ),
        "ratio",
        ("revenue", "ppe"),
    ),
    (
        ("total asset turnover", "asset turnover", "assets turnover", "giro do ativo"),
        "ratio",
        ("revenue", "total_assets"),
    ),
    (
        ("inventory turnover", "giro de estoque", "giro do estoque", "giro dos estoques"),
        "ratio",
        ("cost_of_sales", "inventories"),
    ),
    (
        ("receivables turnover", "receivable turnover", "giro de contas a receber"),
        "ratio",
        ("revenue", "receivables"),
    ),
    (
        ("return on assets", "roa", "retorno sobre ativos", "retorno sobre o ativo"),
        "share",
        ("net_income", "total_assets"),
    ),
    (
        ("return on equity", "roe", "retorno sobre o patrimonio liquido"),
        "share",
        ("net_income", "equity"),
    ),
    (
        ("debt to equity", "debt-to-equity", "divida sobre patrimonio"),
        "ratio",
        ("debt", "equity"),
    ),
    (
        ("interest coverage", "cobertura de juros"),
        "ratio",
        ("operating_income", "interest_expense"),
    ),
)

_GROWTH_WORDS = r"(?:growth(?: rate)?|change|crescimento|variacao)"
_CHANGE_ASKED = re.compile(
    r"\b(?:chang\w*|improv\w*|declin\w*|increas\w*|decreas\w*|between|compared?|vs|versus"
    r"|trend|consistent|evolu\w*|variacao|melhor\w*|pior\w*|entre|cresc\w*|caiu|subiu)\b"
)
_AVERAGE = re.compile(r"\b(?:average|avg|mean|media)\b")
_AVERAGED_INPUT = re.compile(r"\b(?:average|avg|mean|media)\s*(?:\(\s*)?$")
# An input a named measure asks as an average: "average inventory", "o estoque médio", "média
# do imobilizado"; not the average of the measure ("average net profit margin").
_AVERAGE_BEFORE = re.compile(
    r"\b(?:average|avg|mean|media\s+d[aeo]s?|media)\s+(?:\(\s*)?(?:(?:the|o|a|os|as)\s+)?$"
)
_AVERAGE_AFTER = re.compile(r"\s+medi[oa]s?\b")
_MEASURE_AFTER = re.compile(
    r"\s*(?:%\s*)?(?:margins?|ratio|growth|as an? (?:%|percent)|como %|em %)"
)
_FORMULA_GIVEN = re.compile(r"\b(?:defined as|define\w*|definid[oa] como)\b|\s/\s|\bdivided by\b")
_SPAN = re.compile(r"\b(?:average|media|\d+[ -]year|through|to|a|ate)\b|[-–]")
_OPERATORS = (
    (re.compile(r"\s+(?:divided by|over|dividid[oa] por)\s+"), None),
    (re.compile(r"\s*/\s*"), None),
    (
        re.compile(
            r"\s+(?:as an? |em |como )?(?:%|percent(?:age)?|percentual|porcentagem)"
            r"\s+(?:of|d[aeo]s?)\s+"
        ),
        "share",
    ),
)
# Terms a formula's operands hold beyond their line item ("(COGS + change in inventory)",
# "(net sales - returns)", "× 365"): such a formula is not the measure computed here.
_YEAR_SPAN = re.compile(r"\b(?:fy)?\d{4}\s*[-–]\s*(?:fy)?\d{4}\b")
_ADDED = re.compile(r"\s[+\-−–]\s|\+|\b(?:plus|minus|less|mais|menos|excluding|exceto)\b")
_TIMES = re.compile(r"[*×]|\b(?:times|multipl\w*|vezes)\b")
_CLAUSE_END = re.compile(r"[.?;!](?:\s|$)")
_LABEL_NOISE = re.compile(r"\([^)]*\)|[^\w&\s]")
_LABEL_LEAD = re.compile(r"^(?:total|consolidated|consolidad[oa]s?)\s+")
_LABEL_TAIL = frozenset({"attributable", "including", "net", "loss", "total", "atribuivel"})
_MONEY = frozenset({"USD", "BRL", "EUR", "GBP", "AUD", "CAD", "JPY", "CHF", "CNY"})
MAX_PERIODS = 3


@dataclass(frozen=True)
class AskedMeasure:
    """A measure a question asks: its name as the question says it, how it is computed
    (`kind`, from the line items of `inputs`: numerator then denominator, or the one
    measure a growth compares), the years asked (oldest first) and the inputs it asks as an
    average over periods, and whether its formula holds terms beyond them."""

    name: str
    kind: MeasureKind
    inputs: tuple[str, ...]
    years: tuple[int, ...]
    averaged: tuple[str, ...] = ()
    beyond: bool | None = False
    """The question's formula holds terms beyond its inputs: the measure is not computed."""


@dataclass(frozen=True)
class AskedPoints:
    sentences: list[Sentence]
    calculations: list[Calculation]
    figures: list[Figure]
    missing: list[tuple[str, str]]
    """Each (period, line item) the measure needs and no verified figure gives."""
    average_missing: list[tuple[str, str, tuple[int, int]]] = field(default_factory=list)
    """Each (period, line item, the two years averaged) of an input asked as an average,
    one of whose years no verified figure gives: the period is the year missing."""


# -- reading the question ---------------------------------------------------------------------


def _folded(text: str) -> str:
    return collapse_whitespace(fold_accents(text).replace("’", "'").replace("'s ", " "))


def _phrase_in(name: str, text: str) -> Iterator[re.Match[str]]:
    """Where `text` names `name`, its words apart by spaces or hyphens: a text that does not
    hold each of its words is not searched (most names, most questions)."""
    if not all(word in text for word in name.split()):
        return iter(())
    return _phrase(name).finditer(text)


@functools.cache
def _phrase(name: str) -> re.Pattern[str]:
    words = [re.escape(word) for word in name.split()]
    return re.compile(r"(?<![\w&])" + r"[\s-]+".join(words) + r"(?![\w&])")


def _names(item: str) -> tuple[str, ...]:
    names = (*_ASKED_NAMES.get(item, ()), *LINE_ITEMS[item])
    return tuple(sorted(dict.fromkeys(names), key=len, reverse=True))


def _items_in(text: str) -> list[tuple[int, int, str]]:
    """The line items `text` (folded) names: (start, end, item), left to right, a longer
    name winning over one it holds ("cost of sales" is not "sales")."""
    found: list[tuple[int, int, str]] = []
    for item in LINE_ITEMS:
        for name in _names(item):
            for match in _phrase_in(name, text):
                found.append((match.start(), match.end(), item))
    found.sort(key=lambda hit: (hit[0], -(hit[1] - hit[0])))
    kept: list[tuple[int, int, str]] = []
    for hit in found:
        if not any(start <= hit[0] < end or start < hit[1] <= end for start, end, _ in kept):
            kept.append(hit)
    return kept


def asked_measure(question: str) -> AskedMeasure | None:
    """The measure `question` asks for, or None: a formula it spells out, else a named
    measure, else a growth of a line item; named as the question writes it ("prazo médio")."""
    measure = _asked(question)
    return replace(measure, name=_as_written(question, measure.name)) if measure else None


def _as_written(question: str, name: str) -> str:
    """`name` (folded) as `question` writes it, its accents kept: the words of the question
    that fold to it, or `name` itself when none do."""
    words = question.split()
    size = len(name.split())
    for start in range(len(words) - size + 1):
        window = " ".join(words[start : start + size]).strip("()?.,;:!\"'")
        if _folded(window) == name:
            return window
    return name


def _asked(question: str) -> AskedMeasure | None:
    text = _folded(question)
    years = _years(text)
    formula = _formula(text, years)
    if formula is not None:
        named = _named(text, years)  # a formula given for a named measure: said by its name
        days = named is not None and named.kind == "days" and named.inputs == formula.inputs
        # A product by 365 is a days measure's, and no other's.
        beyond = formula.beyond is True or (formula.beyond is None and not days)
        if named is None:
            return replace(formula, beyond=beyond)
        kind: MeasureKind = "days" if days else formula.kind
        return replace(formula, name=named.name, kind=kind, beyond=beyond)
    if _FORMULA_GIVEN.search(text):  # a formula read no further is no growth of its terms
        found = _named(text, years)
    else:
        found = _named(text, years) or _growth(text, years)
    if found is None or found.kind == "growth":
        return found
    return replace(found, averaged=_averaged(text, found.inputs))


def _averaged(text: str, inputs: Sequence[str]) -> tuple[str, ...]:
    """The inputs `text` (folded) asks as an average over periods ("average inventory")."""
    found = [
        item
        for start, end, item in _items_in(text)
        if item in inputs
        and not _MEASURE_AFTER.match(text[end:])
        and (_AVERAGE_BEFORE.search(text[:start]) or _AVERAGE_AFTER.match(text[end:]))
    ]
    return tuple(dict.fromkeys(found))


def _years(text: str) -> tuple[int, ...]:
    found = sorted(set(years_in(text)))
    if len(found) == 2 and _AVERAGE.search(text) and found[1] - found[0] < MAX_PERIODS:
        return tuple(range(found[0], found[1] + 1))  # "FY2015 - FY2017 3 year average"
    return tuple(found)


def _formula(text: str, years: tuple[int, ...]) -> AskedMeasure | None:
    for operator, kind in _OPERATORS:
        for match in operator.finditer(text):
            before = [hit for hit in _items_in(text[: match.start()]) if hit[1] >= 0]
            after = _items_in(text[match.end() :])
            if not before or not after:
                continue
            top, bottom = before[-1], after[0]
            # The numerator ends at the operator, the denominator opens after it (an
            # average's words or a parenthesis may stand between).
            gap_before = text[top[1] : match.start()]
            gap_after = text[match.end() : match.end() + after[0][0]]
            if len(gap_before.split()) > 4 or len(gap_after.split()) > 6:
                continue
            # An input asked as an average ("(average PP&E between …)"), not the average of
            # the measure ("3 year average of capex as a % of revenue").
            averaged = tuple(
                item
                for item, near in (
                    (top[2], text[: top[0]]),
                    (bottom[2], text[: match.end() + after[0][0]]),
                )
                if _AVERAGED_INPUT.search(near)
            )
            name = collapse_whitespace(text[top[0] : match.end() + after[0][1]])
            chosen: MeasureKind = "share" if kind == "share" else "ratio"
            rest = text[match.end() + after[0][1] :]
            end = _CLAUSE_END.search(rest)
            operands = " ".join(
                (
                    " ".join(text[: top[0]].split()[-3:]),
                    gap_before,
                    gap_after,
                    rest[: end.start()] if end else rest,
                )
            )
            found = AskedMeasure(name.strip(" ()"), chosen, (top[2], bottom[2]), years, averaged)
            return replace(found, beyond=_beyond(_YEAR_SPAN.sub(" ", operands)))
    return None


def _beyond(operands: str) -> bool | None:
    """Whether a formula's operands hold a term added, subtracted or multiplied beyond
    their line items: None for a product by 365 alone (a days measure's)."""
    if _ADDED.search(operands):
        return True
    if _TIMES.search(operands):
        return None if re.search(r"\b365\b", operands) else True
    return False


def _named(text: str, years: tuple[int, ...]) -> AskedMeasure | None:
    hits: list[tuple[int, int, str, MeasureKind, tuple[str, ...]]] = []
    for names, kind, inputs in _NAMED:
        for name in names:
            for match in _phrase_in(name, text):
                hits.append((match.start(), -len(name), name, kind, inputs))
    # "<line item> margin" / "<line item> % margin": that item over revenue.
    for start, end, item in _items_in(text):
        tail = re.match(r"\s*(?:%|percent(?:age)?)?\s*margins?\b", text[end:])
        if tail and item != "revenue":
            name = text[start : end + tail.end()]
            hits.append((start, -len(name), name, "margin", (item, "revenue")))
    if not hits:
        return None
    _, _, name, kind, inputs = min(hits)
    return AskedMeasure(name, kind, inputs, years)


def _growth(text: str, years: tuple[int, ...]) -> AskedMeasure | None:
    if len(years) < 2:
        return None
    for start, end, item in _items_in(text):
        after = re.match(rf"\s+{_GROWTH_WORDS}\b", text[end:])
        before = re.search(
            rf"\b{_GROWTH_WORDS}\s+(?:in|of|d[aeo]s?)\s+(?:total\s+)?$", text[:start]
        )
        if after or before:
            name = text[before.start() : end] if before else text[start : end + after.end()]  # type: ignore[union-attr]
            return AskedMeasure(name, "growth", (item,), (years[0], years[-1]))
    return None


# -- finding the inputs -----------------------------------------------------------------------


def _label(text: str) -> str:
    label = collapse_whitespace(_LABEL_NOISE.sub(" ", _folded(text)))
    while True:
        shorter = _LABEL_LEAD.sub("", label)
        if shorter == label:
            return label
        label = shorter


def label_rank(label: str, item: str) -> int | None:
    """How well a row label names a line item (0 best: its first printed name), or None
    when it names another thing ("Cost of sales" is not revenue, "Net income per share" is
    not net income)."""
    folded = _label(label)
    for rank, name in enumerate(LINE_ITEMS[item]):
        if folded == name:
            return rank
        rest = folded.removeprefix(name + " ")
        if rest != folded and rest.split()[0] in _LABEL_TAIL:
            return rank
    return None


def _of_item(figures: Sequence[Figure], item: str, entity: str, year: int) -> list[Figure]:
    """The figures of `item` for `entity` in `year`, best first: the best-named row, the
    largest of equals (a consolidated total over a segment's); amounts only (of money, or
    printed without a currency)."""
    found: list[tuple[int, float, Figure]] = []
    for figure in figures:
        if figure.entity.casefold() != entity or year_of(figure.period) != year:
            continue
        if unit_family(figure.unit) not in _MONEY | {""}:
            continue
        rank = label_rank(figure.measure, item)
        if rank is not None:
            found.append((rank, -abs(figure.value), figure))
    return [figure for *_, figure in sorted(found, key=lambda hit: hit[:2])]


def _alike(part: Figure, whole: Figure) -> tuple[Figure, Figure] | None:
    """The two inputs in one unit, or None when they are not like with like. A statement
    prints its currency on some rows only ("Net sales $ 34,229", "Operating income 6,539",
    both in millions of dollars): an amount of the entity without a currency, at the same
    scale as one with it, is taken in that currency."""
    families = (unit_family(part.unit), unit_family(whole.unit))
    if families[0] == families[1] and families[0]:
        return part, whole
    if unit_scale(part.unit) != unit_scale(whole.unit):
        return None
    if families[0] == families[1]:
        return part, whole
    if not families[0]:
        return part.model_copy(update={"unit": whole.unit}), whole
    if not families[1]:
        return part, whole.model_copy(update={"unit": part.unit})
    return None


def _inputs(
    figures: Sequence[Figure], items: Sequence[str], entity: str, year: int
) -> tuple[tuple[Figure, Figure] | None, list[str]]:
    """The best like-with-like pair of inputs of `items` in `year`, and the items no figure
    gives."""
    found = [_of_item(figures, item, entity, year) for item in items]
    absent = [item for item, candidates in zip(items, found, strict=True) if not candidates]
    if absent:
        return None, absent
    for part in found[0]:
        for whole in found[1]:
            pair = _alike(part, whole)
            if pair is not None:
                return pair, []
    return None, []


def _entities(question: str, figures: Sequence[Figure], items: Sequence[str]) -> list[str]:
    """The entities whose figures name the inputs: those naming most of them first, and of
    those one the question names ("3M" of "3M 10K") before the others."""
    named: dict[str, set[str]] = {}
    for figure in figures:
        for item in items:
            if label_rank(figure.measure, item) is not None:
                named.setdefault(figure.entity.casefold(), set()).add(item)
    asked = _squashed(question)

    def in_question(entity: str) -> bool:
        words = entity.split()
        return bool(words) and _squashed(words[0]) in asked

    return sorted(named, key=lambda entity: (-len(named[entity]), not in_question(entity)))


def _squashed(text: str) -> str:
    return "".join(ch for ch in fold_accents(text) if ch.isalnum())


def _periods(
    measure: AskedMeasure, question: str, figures: Sequence[Figure], entity: str
) -> list[int]:
    """The years to compute the measure for, newest first: those the question names when it
    asks a change or an average (the newest alone otherwise); without a year, the newest
    year with every input (and the year before, for a change)."""
    change = _CHANGE_ASKED.search(_folded(question)) is not None or measure.kind == "growth"
    if len(measure.years) == 1 and change:  # "the change as of FY2022": and the year before
        return [measure.years[0], measure.years[0] - 1]
    if measure.years:
        wanted = list(measure.years) if change or len(measure.years) > 2 else [measure.years[-1]]
        return sorted(wanted, reverse=True)[:MAX_PERIODS]
    held = [
        {
            year
            for f in figures
            if f.entity.casefold() == entity
            and label_rank(f.measure, item) is not None
            and (year := year_of(f.period)) is not None
        }
        for item in measure.inputs
    ]
    common = sorted(set.intersection(*held) if held else set(), reverse=True)
    if not common:
        return []
    return common[:2] if change else common[:1]


# -- computing and saying it ------------------------------------------------------------------


def asked_points(
    question: str, figures: Sequence[Figure], calculator: Calculator, language: Language
) -> AskedPoints:
    """The summary's first points: the measure the question asks, computed for each period
    it asks from the verified figures of one entity; and the inputs no figure gives."""
    measure = asked_measure(question)
    if measure is None:
        return AskedPoints([], [], [], [])
    if measure.beyond:
        return AskedPoints([], [], [], [])
    entities = _entities(question, figures, measure.inputs)
    if entities and _averageable(measure):
        return _average_points(measure, question, figures, entities[0], calculator, language)
    if measure.averaged or not entities:
        latest = [str(year) for year in sorted(measure.years, reverse=True)[:1]] or [""]
        unread = measure.averaged or measure.inputs
        return AskedPoints([], [], [], [(period, item) for period in latest for item in unread])
    entity = entities[0]
    if measure.kind == "growth":
        return _growth_points(measure, figures, entity, calculator, language)
    sentences: list[Sentence] = []
    calculations: list[Calculation] = []
    stated: list[Figure] = []
    missing: list[tuple[str, str]] = []
    years = _periods(measure, question, figures, entity)
    if not years:
        missing = [("", item) for item in measure.inputs if item not in _held(figures, entity)]
    pairs: list[tuple[Figure, Figure]] = []
    for year in years:
        if measure.kind == "sum_ratio":
            summed, absent = _summed(figures, measure, entity, year, calculator)
            missing += [(str(year), item) for item in absent]
            if summed is not None:
                sentences.append(_sentence(measure.name, str(year), summed, language))
                calculations.append(summed)
                stated += summed.inputs
            continue
        pair, absent = _inputs(figures, measure.inputs, entity, year)
        missing += [(str(year), item) for item in absent]
        if pair is None:
            continue
        part, whole = pair
        try:
            calculation = _computed(calculator, measure.kind, part, whole)
        except NotComparable:
            continue
        sentences.append(_sentence(measure.name, str(year), calculation, language))
        calculations.append(calculation)
        pairs.append(pair)
        stated += [part, whole]
    if len(pairs) >= 2 and measure.kind in ("margin", "share"):
        over = _over_periods(measure, question, pairs[::-1], calculations[::-1], calculator)
        if over is not None:
            calculation, sentence = over
            sentences.insert(0, _over_sentence(measure.name, calculation, sentence, language))
            calculations.insert(0, calculation)
    distinct = [f for i, f in enumerate(stated) if f not in stated[:i]]
    return AskedPoints(sentences, calculations, distinct, missing)


def _alike_all(found: Sequence[Figure]) -> list[Figure] | None:
    """`found` in one unit (`_alike`, for any number of figures), or None."""
    units = [f for f in found if unit_family(f.unit)]
    if len({unit_family(f.unit) for f in units}) > 1:
        return None
    if not units:
        return list(found)
    unit = units[0].unit
    if any(not unit_family(f.unit) and unit_scale(f.unit) != unit_scale(unit) for f in found):
        return None
    return [f if unit_family(f.unit) else f.model_copy(update={"unit": unit}) for f in found]


def _summed(
    figures: Sequence[Figure],
    measure: AskedMeasure,
    entity: str,
    year: int,
    calculator: Calculator,
) -> tuple[Calculation | None, list[str]]:
    """A ratio whose numerator is a sum of line items ("(cash + short-term investments +
    receivables) ÷ current liabilities") in `year`, and the items no figure gives."""
    found = [_of_item(figures, item, entity, year) for item in measure.inputs]
    absent = [item for item, each in zip(measure.inputs, found, strict=True) if not each]
    if absent:
        return None, absent
    chosen = _alike_all([each[0] for each in found])
    if chosen is None:
        return None, []
    try:
        return calculator.sum_ratio(chosen[:-1], chosen[-1]), []
    except NotComparable:
        return None, []


def _averageable(measure: AskedMeasure) -> bool:
    """A ratio to an average of its denominator ("revenue / average PP&E") and days of an
    average ("average payables / cost of sales × 365") are computed; an average of another
    input is not."""
    if measure.kind == "days":
        return measure.averaged == measure.inputs[:1]
    return measure.kind == "ratio" and measure.averaged == measure.inputs[1:]


def _average_points(
    measure: AskedMeasure,
    question: str,
    figures: Sequence[Figure],
    entity: str,
    calculator: Calculator,
    language: Language,
) -> AskedPoints:
    """The measure of the newest year asked, its input asked as an average the average of
    that year's figure and the year before's ("average PP&E between FY2017 and FY2018")."""
    (averaged,) = measure.averaged
    (top,) = [item for item in measure.inputs if item != averaged]
    if measure.years:
        year = measure.years[-1]
    else:
        held = _periods(replace(measure, averaged=()), question, figures, entity)
        if not held:
            return AskedPoints([], [], [], [("", item) for item in measure.inputs])
        year = held[0]
    span = (year - 1, year)
    tops = _of_item(figures, top, entity, year)
    olds, news = (_of_item(figures, averaged, entity, each) for each in span)
    missing = [(str(year), top)] if not tops else []
    average_missing = [
        (str(each), averaged, span)
        for each, found in zip(span, (olds, news), strict=True)
        if not found
    ]
    for a in tops:
        for old in olds:
            for new in news:
                chosen = _alike_all([a, old, new])
                if chosen is None:
                    continue
                try:
                    if measure.kind == "days":
                        calculation = calculator.days(chosen[1:], chosen[0])
                    else:
                        calculation = calculator.ratio_to_average(*chosen)
                except NotComparable:
                    continue
                sentence = _sentence(measure.name, str(year), calculation, language)
                stated = calculation.inputs
                return AskedPoints([sentence], [calculation], stated, [])
    return AskedPoints([], [], [], missing, average_missing)


def _over_periods(
    measure: AskedMeasure,
    question: str,
    pairs: Sequence[tuple[Figure, Figure]],
    each: Sequence[Calculation],
    calculator: Calculator,
) -> tuple[Calculation, list[Calculation]] | None:
    """Across the periods computed (oldest first): the mean of the margin when the question
    asks an average, else its change from the first to the last; with the margins of the two
    ends, which the sentence states."""
    try:
        if _AVERAGE.search(_folded(question)):
            return calculator.mean_margin(pairs), list(each)
        return calculator.margin_change(pairs[0], pairs[-1]), [each[0], each[-1]]
    except NotComparable:
        return None


def _over_sentence(
    name: str, calculation: Calculation, ends: Sequence[Calculation], language: Language
) -> Sentence:
    writer = words_for(language).writer
    if calculation.kind == "mean_margin":  # its divisor, a count, is in its formula only
        each = [writer.one_in.format(value=c.text, period=c.period) for c in ends]
        text = writer.asked_mean.format(
            measure=capitalised(name),
            period=calculation.period,
            value=calculation.text,
            values=", ".join(each[:-1]) + writer.list_and + each[-1],
        )
    else:
        first, last = ends[0], ends[-1]
        shape = (
            writer.asked_rose
            if calculation.value > 0
            else writer.asked_fell
            if calculation.value < 0
            else writer.asked_flat
        )
        text = shape.format(
            measure=capitalised(name),
            change=calculation.text.lstrip("+" + MINUS),
            old=first.text,
            new=last.text,
            first=first.period,
            last=last.period,
            formula=calculation.formula,
        )
    cited = [calculation, *ends]
    claims = list(dict.fromkeys(cid for c in cited for cid in c.claim_ids))
    return Sentence(text=f"{text}.", claim_ids=claims, calculation_ids=[c.id for c in cited])


def _held(figures: Sequence[Figure], entity: str) -> set[str]:
    return {
        item
        for figure in figures
        if figure.entity.casefold() == entity
        for item in LINE_ITEMS
        if label_rank(figure.measure, item) is not None
    }


def _computed(
    calculator: Calculator, kind: MeasureKind, part: Figure, whole: Figure
) -> Calculation:
    if kind == "margin":
        return calculator.margin(part, whole)
    if kind == "share":
        return calculator.share(part, whole)
    if kind == "days":
        return calculator.days([part], whole)
    return calculator.ratio(part, whole)


def _growth_points(
    measure: AskedMeasure,
    figures: Sequence[Figure],
    entity: str,
    calculator: Calculator,
    language: Language,
) -> AskedPoints:
    (item,) = measure.inputs
    first, last = measure.years[0], measure.years[-1]
    olds, news = _of_item(figures, item, entity, first), _of_item(figures, item, entity, last)
    missing = [(str(year), item) for year, found in ((first, olds), (last, news)) if not found]
    pair = next((p for old in olds for new in news if (p := _alike(old, new)) is not None), None)
    if pair is None:
        return AskedPoints([], [], [], missing)
    old, new = pair
    try:
        calculation = calculator.percent_change(old, new)
    except NotComparable:
        return AskedPoints([], [], [], [])
    sentence = _sentence(measure.name, calculation.period, calculation, language)
    return AskedPoints([sentence], [calculation], [old, new], [])


def _sentence(name: str, period: str, calculation: Calculation, language: Language) -> Sentence:
    writer = words_for(language).writer
    template = writer.asked_span if calculation.kind == "percent_change" else writer.asked
    text = template.format(
        measure=capitalised(name),
        period=period,
        value=calculation.text,
        inputs=calculation.measure,
        formula=calculation.formula,
    )
    return Sentence(
        text=f"{text}.", claim_ids=calculation.claim_ids, calculation_ids=[calculation.id]
    )


def asked_gaps(question: str, claims: Sequence[Claim], language: Language) -> list[str]:
    """The gaps of the measure `question` asks: each period's inputs no verified claim
    prints, named ("Operating margin in 2022: no verified figure of revenue"), or the
    averages it asks that are not computed."""
    measure = asked_measure(question)
    if measure is None:
        return []
    words = words_for(language).gaps
    if measure.beyond:
        return [words.measure_beyond.format(measure=capitalised(measure.name))]
    points = asked_points(question, gather_figures(claims), Calculator(language), language)
    by_period: dict[str, list[str]] = {}
    for period, item in points.missing:
        by_period.setdefault(period, []).append(words.line_items.get(item, item))
    template = (
        words.measure_averaged
        if measure.averaged and not _averageable(measure)
        else words.measure_missing
    )
    gaps: list[str] = []
    for period, items in by_period.items():
        named = words_for(language).writer.list_and.join(dict.fromkeys(items))
        where = words.measure_in.format(period=period) if period else ""
        gaps.append(template.format(measure=capitalised(measure.name), period=where, inputs=named))
    for year, item, (first, last) in points.average_missing:
        gaps.append(
            words.measure_average_missing.format(
                measure=capitalised(measure.name),
                period=words.measure_in.format(period=last),
                inputs=words.line_items.get(item, item),
                year=year,
                first=first,
                last=last,
            )
        )
    return gaps
