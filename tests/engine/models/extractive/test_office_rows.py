"""A row of a table of cells (a Word or Excel table read as " | " lines, a markdown table) is
a quotable unit like a PDF table's row: quoted whole under its own table's header, what the
header and the caption say counted as what the row says, so that the row naming what is asked
outranks the header line. A header of another table is never given as its context."""

from __future__ import annotations

from engine.contracts import Claim, ClaimStatus
from engine.models.extractive.ranking import Quote, candidates_of, choose_quotes
from engine.models.extractive.statements import row_by_columns
from engine.snapshots import Snapshot
from engine.verify.contexts import cell_table_header
from engine.verify.excerpts import verify_on_page
from tests.support.page_claims import claim_on

URL = "file:///library/indicadores.docx"


def quotes_for(page: str, question: str) -> tuple[list[Quote], Snapshot]:
    snapshot = Snapshot(url=URL, text=page, title="Indicadores das distribuidoras")
    return choose_quotes(candidates_of(URL, snapshot, hit_rank=1), question), snapshot


def verified(quote: Quote, snapshot: Snapshot) -> Claim:
    claim = claim_on(snapshot, quote.statement, quote.excerpt, quote.context, url=quote.url)
    return verify_on_page(claim, snapshot)


def answer(page: str, question: str) -> Quote:
    """The first quote for `question`, checked to verify as the verifier would."""
    quotes, snapshot = quotes_for(page, question)
    assert quotes, "nothing quoted"
    for quote in quotes:
        checked = verified(quote, snapshot)
        assert checked.status is ClaimStatus.verified, (quote, checked.reason)
    return quotes[0]


STACKED = (
    "Indicadores de 2024\n\n"
    "Distribuidora | Índice de satisfação\nCoelba | 0,712\nCelpe | 0,789\nCosern | 0,745\n"
    "Distribuidora | Perdas (%)\nCoelba | 13,1\nCelpe | 15,6\nCosern | 8,9\n\n"
    "As perdas incluem as técnicas e as não técnicas, medidas sobre a energia injetada."
)


def test_a_row_of_the_lower_of_two_stacked_tables_is_read_under_its_own_header() -> None:
    losses = answer(STACKED, "Quais as perdas da Celpe?")
    assert (losses.excerpt, losses.context) == ("Celpe | 15,6", "Distribuidora | Perdas (%)")
    assert losses.statement == "Celpe — Perdas (%): 15,6"
    index = answer(STACKED, "What is Celpe's índice de satisfação?")
    assert (index.excerpt, index.context) == (
        "Celpe | 0,789",
        "Distribuidora | Índice de satisfação",
    )


APART = (
    "Distribuidora | Índice de satisfação\nCoelba | 0,712\nCelpe | 0,789\n\n"
    "Cosern | 0,745\nSulgipe | 0,721\n"
)


def test_rows_past_a_break_are_not_given_the_header_of_the_table_before() -> None:
    celpe = answer(APART, "Qual o índice de satisfação da Celpe?")
    assert (celpe.excerpt, celpe.context) == (
        "Celpe | 0,789",
        "Distribuidora | Índice de satisfação",
    )
    quotes, _ = quotes_for(APART, "Qual o índice de satisfação da Cosern?")
    assert not any("Cosern" in q.excerpt and q.context for q in quotes), quotes


def test_a_row_printing_a_nil_mark_is_a_row_not_a_header() -> None:
    page = "Estado | Capacidade (MW)\nBahia | n/d\nCeará | 240\nPiauí | 512\n"
    row = answer(page, "Qual a capacidade do Ceará?")
    assert (row.excerpt, row.context) == ("Ceará | 240", "Estado | Capacidade (MW)")


def test_a_row_whose_last_cell_is_a_word_is_quoted_under_its_header() -> None:
    page = (
        "Usinas solares por estado\n\nEstado | Usinas | Situação\n"
        "Bahia | 22 | ativa\nPiauí | 30 | ativa\nCeará | 16 | em obras\n"
    )
    row = answer(page, "How many solar plants (usinas) does Piauí have?")
    assert (row.excerpt, row.context) == ("Piauí | 30 | ativa", "Estado | Usinas | Situação")
    assert row.statement == "Piauí — Usinas: 30; Situação: ativa"


def test_a_markdown_row_is_read_under_its_header_not_its_rule() -> None:
    page = (
        "# Capacidade\n\n| Estado | Capacidade (MW) |\n|---|---|\n| Bahia | 385 |\n"
        "| Ceará | 240 |\n"
    )
    row = answer(page, "Qual a capacidade da Bahia?")
    assert (row.excerpt, row.context) == ("Bahia | 385", "| Estado | Capacidade (MW) |")


def test_a_markdown_row_under_a_row_of_words_keeps_the_header_over_the_rule() -> None:
    page = (
        "Taxa por faixa de faturamento\n\n| Faixa | Alíquota (%) |\n|---|---|\n"
        "| Até R$ 81 mil | isento |\n| Microempresa | 4,5 |\n| Pequena empresa | 9,25 |\n"
    )
    row = answer(page, "Qual a alíquota da pequena empresa?")
    assert (row.excerpt, row.context) == ("Pequena empresa | 9,25", "| Faixa | Alíquota (%) |")


def test_the_header_of_a_row_is_the_nearest_above_it_in_its_run_of_cells() -> None:
    at = STACKED.index("Cosern | 8,9")
    header = cell_table_header(STACKED, (at, at + len("Cosern | 8,9")))
    assert header is not None
    assert STACKED[header[0] : header[1]] == "Distribuidora | Perdas (%)"
    own = STACKED.index("Distribuidora | Perdas (%)")
    assert cell_table_header(STACKED, (own, own + 5)) is None  # a header has none
    after = APART.index("Sulgipe")
    assert cell_table_header(APART, (after, after + 7)) is None


def test_a_row_is_paired_with_its_columns_only_when_they_match() -> None:
    assert (
        row_by_columns("Bahia | 385 | 22", "Estado | MW | Usinas") == "Bahia — MW: 385; Usinas: 22"
    )
    assert row_by_columns("Bahia | 385", "Estado | MW | Usinas") is None
    assert row_by_columns("Bahia | 385", " | MW") is None  # a column without a name
