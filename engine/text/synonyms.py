"""Query expansion: the words a question uses versus the words a filing or statute prints.

Analysts ask for "capex" or "revenue"; a cash-flow statement prints "purchases of property,
plant and equipment" and an income statement "net sales". Plain BM25 cannot bridge that, so
a query that names one of these terms also searches for its usual printed synonyms. This is
generic finance, market and question vocabulary (English and Portuguese), never answers to
particular questions.
"""

from __future__ import annotations

from functools import cache

from engine.text.tokens import tokenize

# Each entry: the phrases a question may use -> the phrases documents print instead.
SYNONYMS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        ("capital expenditure", "capex", "capital spending"),
        (
            "purchases of property plant and equipment",
            "purchases of property and equipment",
            "additions to property and equipment",
        ),
    ),
    (("revenue", "turnover", "top line", "topline"), ("net sales", "total revenues")),
    (("net sales",), ("revenue",)),
    (("net income", "net profit"), ("net earnings",)),
    (("net earnings",), ("net income",)),
    (("cogs", "cost of goods sold"), ("cost of sales", "cost of revenue")),
    (("cost of sales",), ("cost of goods sold", "cost of revenue", "cost of products sold")),
    (
        ("operating income", "operating profit"),
        ("operating profit", "operating income", "income from operations", "operating earnings"),
    ),
    (("property plant and equipment", "fixed assets", "ppne"), ("property and equipment",)),
    (("shareholders equity", "stockholders equity"), ("stockholders equity", "total equity")),
    (("sg&a",), ("selling general and administrative expenses",)),
    (("ebitda",), ("operating income depreciation and amortization",)),
    (("eps", "earnings per share"), ("earnings per share", "per share diluted")),
    (("pp&e",), ("property plant and equipment",)),
    (("free cash flow",), ("net cash provided by operating activities", "capital expenditures")),
    (
        ("operating cash flow", "cash from operations"),
        ("net cash provided by operating activities",),
    ),
    (("dividends",), ("cash dividends paid",)),
    (("buyback", "buybacks", "share repurchase"), ("repurchases of common stock",)),
    (("total debt",), ("long-term debt", "short-term borrowings")),
    (("working capital",), ("current assets", "current liabilities")),
    (("inventory turnover",), ("inventories", "cost of sales")),
    (("headcount", "workforce"), ("employees",)),
    # Filings name disputes and their sections in legal terms.
    (
        ("legal battles", "legal battle", "lawsuits", "lawsuit", "legal disputes"),
        ("legal proceedings", "litigation"),
    ),
    (("spin off", "spin-off", "spinoff"), ("separation", "separating")),
    (("retirees",), ("postretirement", "benefit payments")),
    # Statutes state a limit as a bound, rarely with the word "limit".
    (
        ("limite", "limites", "teto", "limit", "limits", "threshold"),
        ("menor ou igual", "less than or equal", "not exceeding"),
    ),
    # Rooftop solar is regulated as distributed generation (micro/minigeração) in Brazil.
    (
        ("energia solar", "solar residencial", "residential solar"),
        ("fotovoltaica", "microgeração distribuída", "geração distribuída"),
    ),
    # Statutes grant an acquired right by saying a new rule does not apply until a date.
    (("direito adquirido", "grandfathering"), ("não se aplicam até", "não se aplica até")),
    # Brazilian tariff jargon: "Fio B" is the distribution-network component of the tariff.
    (("fio b",), ("componentes tarifárias", "remuneração dos ativos do serviço de distribuição")),
    # A question in English about a Brazilian statute: its words for the aspects of a law.
    (("time limit", "time limits", "deadline", "deadlines"), ("prazo", "prazos")),
    (("validity",), ("validade",)),
    (("transition",), ("transição", "transitórias")),
    (("obligation", "obligations"), ("obrigação", "obrigações")),
    # Statutes lay an obligation down as what one "must" do, a prohibition as what is "vedado".
    (
        ("obrigação", "obrigações"),
        ("deve", "devem", "deverá", "deverão", "é obrigatório"),
    ),
    (
        ("vedação", "vedações", "prohibition", "prohibitions"),
        ("é vedado", "é vedada", "é proibido", "fica proibido"),
    ),
    # Statutes state a validity by when a right or a credit expires.
    (
        ("validade", "validity", "expiry"),
        ("expiram", "expira", "expirarão", "vencimento", "expire", "expires"),
    ),
    # Statutes state a transition by saying a new rule does not apply until a date.
    (
        ("transição", "transition"),
        ("não se aplicam até", "não se aplica até", "período de transição"),
    ),
    # A question for a duration ("por quanto tempo") is answered in these words.
    (("quanto tempo",), ("prazo", "meses", "anos")),
    (("faturamento",), ("receita",)),
    (("receita",), ("faturamento",)),
    (("lucro",), ("resultado liquido",)),
)

# Where a figure is printed, rather than what it is called: helps find the page, but a
# sentence naming the section does not state the figure, so relevance does not use these.
REPORTED_UNDER: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        ("capital expenditure", "capex", "capital spending"),
        ("cash flows from investing activities",),
    ),
    (
        ("balance sheet", "statement of financial position"),
        ("consolidated balance sheets", "total assets", "total liabilities"),
    ),
)

# What a ratio or a judgement of one is computed from: a filing prints the line items, rarely
# the ratio ("quick ratio" is cash, receivables and current liabilities on the balance sheet;
# "capital-intensive" is capex and fixed assets against total assets), so a search looks for
# them too. Generic definitions of financial metrics, never answers to particular questions;
# the items do not state the figure asked, so relevance does not use these either.
COMPUTED_FROM: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("gross margin", "gross margins"), ("gross profit", "cost of sales", "net sales")),
    (
        ("operating margin", "operating margins"),
        ("operating income", "total revenues", "net sales"),
    ),
    (("net margin", "net profit margin"), ("net income", "net sales")),
    (("effective tax rate",), ("provision for income taxes", "income before income taxes")),
    (
        ("quick ratio", "acid test"),
        (
            "total current assets",
            "total current liabilities",
            "cash and cash equivalents",
            "receivables",
        ),
    ),
    (("current ratio",), ("total current assets", "total current liabilities")),
    (
        ("capital intensive", "capital intensity"),
        (
            "purchases of property plant and equipment",
            "property plant and equipment net",
            "total assets",
        ),
    ),
    (("interest coverage",), ("interest expense", "operating income")),
    (("m&a", "mergers and acquisitions"), ("acquisitions", "divestitures")),
    (("liquidity",), ("cash and cash equivalents", "current assets", "current liabilities")),
    (("return on assets", "roa"), ("net income", "total assets")),
    (("return on equity", "roe"), ("net income", "total equity")),
    (("asset turnover",), ("net sales", "total assets")),
    (("days payable outstanding", "dpo"), ("accounts payable", "cost of sales")),
    (("days sales outstanding", "dso"), ("accounts receivable", "net sales")),
)

# Words of how a question is asked, not of what it asks ("What is the amount, in USD, ...?
# Give a response relying on the details shown ..."; "FY" of "FY2018"; "roughly how much";
# "Has it reported any materially important ..."; "which region performed worst"; "if it is
# not a useful metric for a company like this, explain why"): a source
# states the figure or the fact, not these words, so matching them only adds noise. Rare in
# the candidates, they would otherwise outweigh the words that name the subject.
QUESTION_WORDS = frozenset(
    tokenize(
        "amount amounts usd figure give response question details shown show relying rely "
        "based using according please provide answer calculate round decimal fy "
        "much many roughly approximately able done major key primarily data information "
        "provided within need metric utilizing utilize clearly asked units place define "
        "defined definition formerly known respect reported materially important "
        "conventional meaningful reasonably profile compare comparison performed "
        "changed highest lowest largest smallest biggest worst useful explain like "
        "resposta pergunta favor aproximadamente dados informacoes"
    )
)


def expand_query_tokens(tokens: list[str]) -> list[str]:
    """`tokens` followed by the tokens of every synonym whose trigger phrase they contain."""
    expanded = list(tokens)
    for trigger, extra in _tokenized_synonyms():
        if _contains_sequence(tokens, trigger):
            expanded.extend(extra)
    return expanded


@cache
def _tokenized_synonyms() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    pairs: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for triggers, printed in (*SYNONYMS, *REPORTED_UNDER, *COMPUTED_FROM):
        extra = tuple(token for phrase in printed for token in tokenize(phrase))
        pairs.extend((tuple(tokenize(trigger)), extra) for trigger in triggers)
    return tuple(pair for pair in pairs if pair[0])


def contains_phrase(tokens: list[str], phrase: str) -> bool:
    """Whether `tokens` hold `phrase`'s tokens in a row; a phrase of no token holds nowhere."""
    sequence = tuple(tokenize(phrase))
    return bool(sequence) and _contains_sequence(tokens, sequence)


def _contains_sequence(tokens: list[str], sequence: tuple[str, ...]) -> bool:
    width = len(sequence)
    return any(tuple(tokens[i : i + width]) == sequence for i in range(len(tokens) - width + 1))


def expansions_for(question: str) -> list[tuple[str, str]]:
    """(phrase asked, phrase printed) for every synonym whose trigger the question contains."""
    tokens = tokenize(question)
    return [
        (trigger, phrase)
        for triggers, printed in SYNONYMS
        for trigger in triggers
        if tokenize(trigger) and _contains_sequence(tokens, tuple(tokenize(trigger)))
        for phrase in printed
        if tokenize(phrase)  # a phrase of stopwords only would match any sentence
    ]
