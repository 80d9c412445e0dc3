from engine.models.extractive.ranking import Quote, candidates_of, choose_quotes
from engine.snapshots import Snapshot
from engine.text.sentences import is_fragment
from engine.verify.contexts import belongs

CASH_FLOWS_2018 = """Consolidated Statement of Cash Flows
3M Company and Subsidiaries
(Millions) 2018 2017 2016
Cash Flows from Investing Activities
Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)
Proceeds from sale of PP&E and other assets 262 49 58
"""
DISCUSSION_2018 = """Cash Flows from Investing Activities
(Millions) 2018 2017 2016
Purchases of property, plant and equipment (PP&E) $ (1,577) $ (1,373) $ (1,420)
Investments in 3M's businesses to drive organic growth remain the first priority.
"""
CASH_FLOWS_2022 = """Consolidated Statement of Cash Flows
3M Company and Subsidiaries
(Millions) 2022 2021 2020
Purchases of property, plant and equipment (PP&E) (1,749) (1,603) (1,501)
"""


def _quotes(question: str) -> list[Quote]:
    filing_2018 = Snapshot.from_pages(
        "file:///3m-2018.pdf", [DISCUSSION_2018, CASH_FLOWS_2018], title="3M_2018_10K"
    )
    filing_2022 = Snapshot.from_pages("file:///3m-2022.pdf", [CASH_FLOWS_2022], title="3M_2022_10K")
    candidates = [
        *candidates_of("file:///3m-2018.pdf#page=2", filing_2018, hit_rank=1),
        *candidates_of("file:///3m-2022.pdf#page=1", filing_2022, hit_rank=2),
        *candidates_of("file:///3m-2018.pdf#page=1", filing_2018, hit_rank=3),
    ]
    return choose_quotes(candidates, question)


def test_a_row_of_other_periods_does_not_answer_a_year_asked() -> None:
    quotes = _quotes("What is the FY2018 capital expenditure amount for 3M? (cash flow statement)")
    assert quotes, "the FY2018 row is quoted"
    assert not any("1,749" in quote.excerpt for quote in quotes)
    # With no year asked, the 2022 filing's row is an answer like any other.
    assert any("1,749" in q.excerpt for q in _quotes("What is 3M's capital expenditure?"))


def test_the_same_row_on_two_pages_of_a_filing_is_stated_in_the_same_words() -> None:
    quotes = _quotes("What is the FY2018 capital expenditure amount for 3M? (cash flow statement)")
    rows = [q for q in quotes if "1,577" in q.excerpt]
    assert {q.url for q in rows} == {"file:///3m-2018.pdf#page=1", "file:///3m-2018.pdf#page=2"}
    assert len({q.statement for q in rows}) == 1  # the writer cites the figure once
    assert rows[0].statement == (
        "Purchases of property, plant and equipment (PP&E) — 2018: (1,577); 2017: (1,373); "
        "2016: (1,420) (Millions)"  # the scale its header declares
    )


WRAPPED = """Cash flows from operating activities
In 2018, cash flows provided by operating activities increased $199 million compared to the
same period last year. The combination of accounts receivable, inventories and accounts
payable increased working capital by
$406 million in 2018, compared to the working capital increases of $608 million in 2017.
Accumulated depreciation of property and equipment increased as of December 31, 2018,
primarily because of new equipment placed in service during the year, and working capital
"""


def test_no_quote_starts_or_ends_mid_sentence() -> None:
    page = Snapshot.from_pages("file:///3m.pdf", [WRAPPED], title="3M_2018_10K")
    candidates = candidates_of("file:///3m.pdf#page=1", page, hit_rank=1)
    quotes = choose_quotes(candidates, "How did working capital and depreciation change in 2018?")
    assert quotes
    assert not any(is_fragment(quote.statement) for quote in quotes)
    assert not any(quote.excerpt.startswith("$406") for quote in quotes)
    whole = [q for q in quotes if "$406 million" in q.excerpt]
    assert whole
    assert whole[0].statement.startswith("The combination of accounts receivable")
    # The page ends inside a sentence: it is quoted to its last clause and closed there.
    cut = [q for q in quotes if q.excerpt.startswith("Accumulated depreciation")]
    assert cut
    assert cut[0].statement.endswith("during the year.")
    assert all(quote.excerpt in WRAPPED for quote in quotes)


LAW = (
    "Art. 1º Para os fins desta Lei, são adotadas as seguintes definições:\n"
    "XIII - minigeração distribuída: central geradora de energia elétrica renovável ou de "
    "cogeração qualificada que, conectada na rede de distribuição de energia elétrica por "
    "meio de instalações de unidades consumidoras, possua potência instalada em corrente "
    "alternada maior que 75 kW (setenta e cinco quilowatts), menor ou igual a 5 MW (cinco "
    "megawatts) para as fontes despacháveis e menor ou igual a 3 MW (três megawatts) para as "
    "fontes não despacháveis, conforme regulamentação da Agência Nacional de Energia "
    "Elétrica (Aneel), ou menor ou igual a 5 MW (cinco megawatts) para unidades consumidoras "
    "já conectadas em data anterior à publicação desta Lei;\n"
)


def test_a_long_legal_item_is_quoted_in_whole_clauses_and_stated_under_its_label() -> None:
    page = Snapshot.from_pages("file:///lei.md", [LAW], title="Lei 14.300")
    candidates = candidates_of("file:///lei.md", page, hit_rank=1)
    quotes = choose_quotes(
        candidates, "Qual o limite de potência da minigeração para fontes não despacháveis?"
    )
    item = next(q for q in quotes if "3 MW" in q.excerpt)
    assert item.excerpt in LAW
    assert len(item.excerpt) <= 400
    assert "3 MW (três megawatts) para as fontes não despacháveis" in item.excerpt
    assert not is_fragment(item.statement)
    # The clause sits deep in the item: it is quoted under the item's label, as its context.
    assert item.context == "XIII - minigeração distribuída:"
    assert item.statement.startswith("XIII - minigeração distribuída: … conectada na rede")
    assert item.statement.endswith("para as fontes não despacháveis.")
    start = LAW.index(item.excerpt)
    assert belongs(LAW, item.context, (start, start + len(item.excerpt)))


AUDITED = """Report of Independent Registered Public Accounting Firm
We have audited the accompanying consolidated statements of income of 3M Company for the
years ended December 31, 2018, 2017 and 2016, including its operating income.
Operating income was $7,207 million in 2018, compared with $7,692 million in 2017.
"""


def test_an_audit_opinion_is_not_quoted_unless_the_question_is_about_the_audit() -> None:
    page = Snapshot.from_pages("file:///3m.pdf", [AUDITED], title="3M_2018_10K")
    candidates = candidates_of("file:///3m.pdf#page=1", page, hit_rank=1)
    asked = choose_quotes(candidates, "What was 3M's operating income in 2018?")
    assert asked
    assert not any("We have audited" in quote.excerpt for quote in asked)
    about = choose_quotes(candidates, "Which statements of income of 3M did the auditor audit?")
    assert any("We have audited" in quote.excerpt for quote in about)


def test_a_long_lead_in_is_quoted_from_a_clause_not_from_after_an_articles_abbreviation() -> None:
    page = (
        "Art. 8º O faturamento dos pedágios das rodovias federais concedidas ou administradas "
        "diretamente pela União nas praças de cobrança eletrônica sem cancela instaladas até a "
        "data de publicação desta Lei para os veículos das categorias comerciais e de passeio "
        "não abrangidos pelo art. 26 desta Lei deve considerar a incidência sobre toda a tarifa "
        "básica de pedágio eletrônico de referência dos seguintes percentuais das componentes "
        "relativas à remuneração dos ativos e ao custo de operação e manutenção do serviço "
        "rodoviário aprovado pela agência reguladora federal:\n\n"
        "I - 50% (cinquenta por cento) a partir de 2032;\n\n"
        "II - 75% (setenta e cinco por cento) a partir de 2033.\n"
    )
    url = "https://example.org/lei-99003"
    candidates = candidates_of(url, Snapshot(url=url, text=page, title="LEI 99.003"), 1)
    quotes = choose_quotes(
        candidates, "percentuais da tarifa de pedágio eletrônico a partir de 2032"
    )
    contexts = [q.context for q in quotes if q.context]
    assert contexts, quotes
    for context in contexts:
        assert not context.startswith("26 desta Lei"), context
        assert belongs(page, context, (page.index("I - 50%"), page.index("I - 50%") + 10))


def test_an_aspect_is_answered_by_a_document_about_the_topic_without_naming_it_again() -> None:
    tolls = (
        "Art. 1º Esta Lei institui a cobrança eletrônica de pedágio nas rodovias federais.\n\n"
        "Art. 2º A cobrança eletrônica de pedágio será feita por pórticos de leitura.\n\n"
        "Art. 3º Os dados de passagem serão guardados pelo prazo de 5 (cinco) anos.\n"
    )
    fishing = (
        "Art. 1º Esta Lei regula a pesca amadora em rios federais.\n\n"
        "Art. 2º A licença de pesca vale pelo prazo de 1 (um) ano.\n"
    )
    candidates = [
        *candidates_of(
            "https://example.org/tolls",
            Snapshot(url="https://example.org/tolls", text=tolls, title="LEI 99.004"),
            1,
        ),
        *candidates_of(
            "https://example.org/fish",
            Snapshot(url="https://example.org/fish", text=fishing, title="LEI 99.005"),
            2,
        ),
    ]
    quotes = choose_quotes(
        candidates, "Prazos e validade: cobrança eletrônica de pedágio", "Prazos e validade"
    )
    quoted = " ".join(q.excerpt for q in quotes)
    assert "guardados pelo prazo de 5 (cinco) anos" in quoted  # the toll law's time limit
    assert "licença de pesca" not in quoted  # another law's is no answer
