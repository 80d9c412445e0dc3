from engine import Orchestrator
from engine.agents.toolbox import Toolbox
from engine.models.extractive import ExtractiveModel
from engine.models.extractive.ranking import Quote, candidates_of, choose_quotes
from engine.models.extractive.research import extractive_research
from engine.planning import make_brief
from engine.snapshots import Snapshot, split_page
from engine.sources.kinds import LIBRARY
from engine.sources.protocols import SearchHit
from tests.support.pages_source import PagesSource, subagent_toolbox

STATUTE = """#Atenção #STJ regras de transição do faturamento das componentes tarifárias: cai na prova.
Art. 27. O faturamento da energia das unidades participantes observará as seguintes regras de transição das componentes tarifárias:
I - 15% (quinze por cento) a partir de 2023;
II - 30% (trinta por cento) a partir de 2024;
Art. 28. A Aneel regulamentará esta Lei e publicará os procedimentos aplicáveis.
"""


def quotes(question: str) -> list[str]:
    snapshot = Snapshot(url="https://example.org/lei", text=STATUTE, title="Lei 14.300")
    candidates = candidates_of(snapshot.url, snapshot, hit_rank=1)
    return [q.excerpt for q in choose_quotes(candidates, question)]


def test_a_list_item_is_judged_with_its_articles_opening() -> None:
    found = quotes("Quanto é o faturamento das componentes tarifárias na regra de transição?")
    assert any(e.startswith("I - 15%") for e in found)


def statute_quotes(question: str) -> list[Quote]:
    snapshot = Snapshot(url="https://example.org/lei", text=STATUTE, title="Lei 14.300")
    return choose_quotes(candidates_of(snapshot.url, snapshot, hit_rank=1), question)


def test_study_notes_rank_below_the_statutes_words() -> None:
    best = statute_quotes("regras de transição do faturamento das componentes tarifárias")[0]
    assert (best.context or best.excerpt).startswith("Art. 27.")
    assert not best.excerpt.startswith("#")


def test_a_lead_in_is_quoted_with_the_list_it_opens() -> None:
    # "… observará as seguintes regras:" alone answers nothing: the items are the answer.
    best = statute_quotes("regras de transição do faturamento das componentes tarifárias")[0]
    assert (
        best.excerpt
        == "I - 15% (quinze por cento) a partir de 2023;\nII - 30% (trinta por cento) a partir de 2024;"
    )
    assert best.context is not None
    assert best.context.startswith("Art. 27. O faturamento")
    assert best.statement.startswith("Art. 27.")
    assert best.statement.endswith("a partir de 2024;")
    assert best.excerpt in STATUTE
    assert best.context in STATUTE


LONG_LEAD_IN = (
    "Art. 26. Ressalvado o disposto no art. 17 desta Lei e observadas as condições gerais de "
    "fornecimento, as normas de segurança das instalações, os procedimentos de rede, os prazos "
    "de conexão, as regras de medição e de faturamento, a qualidade do serviço e os demais "
    "regulamentos técnicos e comerciais aplicáveis a cada uma das distribuidoras de energia, "
    "inclusive quanto às tarifas e aos encargos setoriais de cada área de concessão do país, "
    "os créditos de energia elétrica das unidades consumidoras participantes do sistema de "
    "compensação observarão os seguintes prazos de validade:\n"
    "I - 60 (sessenta) meses para os créditos gerados a partir de 2023;\n"
    "II - 36 (trinta e seis) meses para os créditos excedentes de geração compartilhada;\n"
    "Art. 27. A Aneel regulamentará esta Lei.\n"
)


def test_a_lead_in_too_long_to_quote_is_quoted_from_the_clause_naming_the_subject() -> None:
    snapshot = Snapshot(url="https://example.org/lei", text=LONG_LEAD_IN, title="Lei 14.300")
    candidates = candidates_of(snapshot.url, snapshot, hit_rank=1)
    best = choose_quotes(candidates, "prazos de validade dos créditos de energia elétrica")[0]
    assert best.excerpt.startswith("I - 60 (sessenta) meses")
    assert best.context is not None
    assert LONG_LEAD_IN[LONG_LEAD_IN.index(best.context) - 2] in ",;:."  # from a clause's start
    assert best.context.endswith("prazos de validade:")
    assert len(best.context) <= 400


def test_nothing_is_quoted_when_nothing_covers_the_question() -> None:
    assert quotes("Qual é o preço médio do café arábica exportado?") == []


def test_every_quote_is_an_exact_substring_of_the_page() -> None:
    assert all(e in STATUTE for e in quotes("regras de transição das componentes tarifárias"))


def test_a_template_section_quotes_only_units_about_its_aspect() -> None:
    page = (
        "A energia solar residencial no Nordeste é regulada como microgeração distribuída.\n"
        "O mercado de energia solar residencial no Nordeste teve crescimento de 40% em 2023.\n"
    )
    snapshot = Snapshot(url="https://example.org/solar", text=page, title="Solar")
    candidates = candidates_of(snapshot.url, snapshot, hit_rank=1)
    aspect = "Tamanho e crescimento do mercado"
    question = f"{aspect}: mercado de energia solar residencial no Nordeste"
    found = [q.excerpt for q in choose_quotes(candidates, question, aspect)]
    assert found == [
        "O mercado de energia solar residencial no Nordeste teve crescimento de 40% em 2023."
    ]
    assert len(choose_quotes(candidates, question)) == 2  # without the aspect rule, both


# -- filings: table rows, statements, pages of an opened document --------------------------

BALANCE_SHEET = """Table of Contents
Consolidated Balance Sheets
$ in millions
February 2, 2019 February 3, 2018
Cash and cash equivalents $ 1,980 $ 1,101
Merchandise inventories 5,409 5,209
Total current assets 8,870 9,829
"""
AUDIT_REPORT = """Report of Independent Registered Public Accounting Firm
We have audited the accompanying consolidated balance sheets of Best Buy as of February 2, 2019.
Inventories are stated at the lower of cost or net realizable value in the company's books.
"""


def filing(*pages: str, title: str = "BESTBUY_2019_10K") -> Snapshot:
    return Snapshot.from_pages("file:///filings/bestbuy-2019.pdf", list(pages), title=title)


def test_a_statement_row_answers_with_its_caption_and_its_columns() -> None:
    snapshot = filing(AUDIT_REPORT, BALANCE_SHEET)
    candidates = [
        *candidates_of(f"{snapshot.url}#page=1", snapshot, hit_rank=1),
        *candidates_of(f"{snapshot.url}#page=2", snapshot, hit_rank=2),
    ]
    question = (
        "What is the year end FY2019 total amount of inventories for Best Buy? (balance sheet)"
    )
    found = {quote.excerpt: quote.url for quote in choose_quotes(candidates, question)}
    ranked = list(found)
    row, audit = "Merchandise inventories 5,409 5,209", AUDIT_REPORT.splitlines()[1]
    assert found[row].endswith("#page=2")
    assert audit not in ranked or ranked.index(row) < ranked.index(audit)


def test_a_row_outside_any_statement_gets_no_statement() -> None:
    snapshot = filing("Segment results\n2019 2018\nMerchandise inventories 5,409 5,209\n")
    row = candidates_of(f"{snapshot.url}#page=1", snapshot, hit_rank=1)[0]
    assert {"2019", "2018", "inventory"} <= row.terms
    assert not any(term.startswith("statement:") for term in row.terms)


def test_a_long_question_is_still_answered_by_the_units_near_the_best() -> None:
    snapshot = filing(BALANCE_SHEET)
    candidates = candidates_of(f"{snapshot.url}#page=1", snapshot, hit_rank=1)
    question = (
        "What is FY2019 days payable outstanding for Best Buy? DPO is 365 * (average accounts "
        "payable between FY2018 and FY2019) / (FY2019 COGS + change in inventories between "
        "FY2018 and FY2019), using the balance sheet"
    )
    found = [quote.excerpt for quote in choose_quotes(candidates, question)]
    assert "Merchandise inventories 5,409 5,209" in found
    assert "Cash and cash equivalents $ 1,980 $ 1,101" not in found


class Filings:
    """A library of paged filings whose search returns the pages it is told to, in order."""

    name = "filings"
    kind = LIBRARY

    def __init__(self, documents: dict[str, list[str]], hits: list[str]) -> None:
        self.documents = documents
        self.hits = hits
        self.fetched: list[str] = []

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        return [
            SearchHit(url=url, title=split_page(url)[0], snippet="", rank=rank, provider=self.name)
            for rank, url in enumerate(self.hits[:limit], start=1)
        ]

    async def fetch(self, url: str) -> Snapshot:
        document = split_page(url)[0]
        self.fetched.append(document)
        return Snapshot.from_pages(document, self.documents[document], title=document)


def research_toolbox(source: Filings, question: str) -> Toolbox:
    return subagent_toolbox(source, question, title="Answer", language="en")


FILLER = "Item 1. Business\nWe sell consumer electronics in stores and online.\n"


async def test_the_filing_is_opened_once_and_read_at_the_statement_asked_for() -> None:
    pages = [FILLER, AUDIT_REPORT, FILLER, BALANCE_SHEET]
    source = Filings(
        {"file:///bby.pdf": pages, "file:///other.pdf": [FILLER]},
        hits=["file:///bby.pdf#page=2", "file:///bby.pdf#page=1", "file:///other.pdf#page=1"],
    )
    tools = research_toolbox(source, "What is the FY2019 amount of inventories for Best Buy?")
    await extractive_research(tools.assignment, tools)
    # One search and one read per document: the other pages of an opened filing are free.
    assert tools.steps_used == 3
    assert sorted(source.fetched) == ["file:///bby.pdf", "file:///other.pdf"]
    # Inventories are printed on the balance sheet: page 4 is read though no hit named it.
    cited = {claim.excerpt: claim.url for claim in tools.posted}
    assert cited["Merchandise inventories 5,409 5,209"] == "file:///bby.pdf#page=4"


async def test_no_page_gives_more_than_two_claims() -> None:
    rows = "\n".join(f"Inventories of region {n} rose to {n},000 units in 2019" for n in range(6))
    source = Filings({"file:///bby.pdf": [rows]}, hits=["file:///bby.pdf#page=1"])
    tools = research_toolbox(source, "How many inventories units by region in 2019?")
    await extractive_research(tools.assignment, tools)
    assert [claim.url for claim in tools.posted] == ["file:///bby.pdf#page=1"] * 2


def test_a_list_item_is_quoted_with_the_lead_in_it_completes() -> None:
    snapshot = Snapshot(url="https://example.org/lei", text=STATUTE, title="Lei 14.300")
    candidates = candidates_of(snapshot.url, snapshot, hit_rank=1)
    question = "Quanto é o faturamento das componentes tarifárias na regra de transição?"
    item = next(q for q in choose_quotes(candidates, question) if q.excerpt.startswith("I - 15%"))
    assert item.context is not None
    assert item.context.endswith("regras de transição das componentes tarifárias:")
    assert item.context in STATUTE  # a second quote of the same page, verbatim


def test_a_statement_row_is_quoted_with_its_column_header() -> None:
    snapshot = filing(AUDIT_REPORT, BALANCE_SHEET)
    candidates = candidates_of(f"{snapshot.url}#page=2", snapshot, hit_rank=1)
    question = (
        "What is the year end FY2019 total amount of inventories for Best Buy? (balance sheet)"
    )
    row = next(
        q
        for q in choose_quotes(candidates, question)
        if q.excerpt == "Merchandise inventories 5,409 5,209"
    )
    assert row.context is not None
    assert row.context in BALANCE_SHEET
    assert "2019" in row.context
    # The statement says which period each figure is for and the scale the statement
    # declares; its numbers are all quoted.
    assert row.statement == (
        "Merchandise inventories — February 2, 2019: 5,409; February 3, 2018: 5,209 ($ in millions)"
    )


def wiki(*pages: tuple[str, str, str]) -> PagesSource:
    """A loopback-free web of pages: (slug, title, text) each."""
    source = PagesSource()
    for slug, title, text in pages:
        source.add(f"https://example.org/wiki/{slug}", text, title=title)
    return source


async def published_excerpts(source: PagesSource, question: str) -> list[str]:
    report = await Orchestrator(ExtractiveModel(), source, source).run(make_brief(question))
    return [report.claim(cid).excerpt for cid in report.cited_claim_ids()]


LELAND = (
    "Leland",
    "Leland, North Carolina",
    "Leland is a town in Brunswick County, North Carolina. A number of movies, such as "
    '"Maximum Overdrive" (1986) and "Domestic Disturbance" (2001), have been shot in or '
    "around Leland.",
)
OVERDRIVE = (
    "Maximum_Overdrive",
    "Maximum Overdrive",
    "Maximum Overdrive is a 1986 American science fiction horror film written and directed "
    "by Stephen King.",
)
KING = (
    "Stephen_King",
    "Stephen King",
    "Stephen King is an American author. His spouse is the novelist Tabitha King, whom he "
    "married in 1971.",
)
TABITHA = (
    "Tabitha_King",
    "Tabitha King",
    "Tabitha King is an American writer. Tabitha King was born in Old Town, Maine, in 1949.",
)


async def test_a_bridge_question_takes_its_second_hop_to_the_page_that_answers() -> None:
    source = wiki(LELAND, OVERDRIVE)
    question = "Who directed the film that was shot in or around Leland, North Carolina in 1986?"
    found = await published_excerpts(source, question)
    assert any("directed by Stephen King" in excerpt for excerpt in found)
    assert "Maximum Overdrive" in source.searches  # the hop searched the name it found


async def test_a_third_page_is_reached_when_the_second_names_the_next_link() -> None:
    source = wiki(LELAND, OVERDRIVE, KING)
    question = "Who is the spouse of the man who directed the film shot in Leland, North Carolina?"
    found = await published_excerpts(source, question)
    # Leland names the film, the film names its director, the director's page the spouse.
    assert {"Maximum Overdrive", "Stephen King"} <= set(source.searches)
    assert any("Tabitha King" in excerpt for excerpt in found)


async def test_a_four_page_chain_is_followed_to_its_end() -> None:
    source = wiki(
        ("Leland", "Leland", 'Leland is a page. The film "Maximum Overdrive" was shot in Leland.'),
        ("Overdrive", "Maximum Overdrive", "Maximum Overdrive was directed by Stephen King."),
        ("King", "Stephen King", "Stephen King married the novelist Tabitha King."),
        ("Tabitha", "Tabitha King", "Tabitha King was born in Old Town, Maine, in 1949."),
    )
    question = "Where was the wife of the man who directed the film shot in Leland born?"
    found = await published_excerpts(source, question)
    # Leland -> the film -> its director -> his wife: three hops after the first page.
    assert source.searches[1:] == ["Maximum Overdrive", "Stephen King", "Tabitha King"]
    assert any("born in Old Town" in excerpt for excerpt in found)
