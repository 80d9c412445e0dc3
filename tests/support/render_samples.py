"""Builders for small, valid claims and reports used by the renderer tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from engine.contracts import (
    Calculation,
    Claim,
    ClaimStatus,
    Figure,
    Plan,
    Report,
    Section,
    Sentence,
    Subquestion,
    TableCell,
    TableRow,
)
from engine.snapshots import sha256_text

ACCESSED = datetime(2025, 5, 1, 14, 3, 27, tzinfo=UTC)
PDF_URL = "https://www.aneel.gov.br/relatorio-gd-2024.pdf#page=60"
PDF_EXCERPT = "Tabela 12 — Geração distribuída por região\nO Nordeste concentra 30% da potência"


def build_claim(claim_id: str, **fields: Any) -> Claim:
    values: dict[str, Any] = {
        "id": claim_id,
        "statement": f"Afirmação {claim_id}",
        "url": f"https://example.org/{claim_id}",
        "title": f"Página {claim_id}",
        "excerpt": f"Trecho verificado da afirmação {claim_id} com texto suficiente.",
        "accessed_at": ACCESSED,
        "source_sha256": sha256_text(claim_id),
        "subagent": "sa-1",
        "subquestion": "q1",
        "status": ClaimStatus.verified,
    }
    values.update(fields)
    return Claim(**values)


def build_report(claims: list[Claim], sections: list[Section], **fields: Any) -> Report:
    question = fields.pop("question", "Como está o mercado de energia solar no Nordeste?")
    plan = Plan(question=question, subquestions=[Subquestion(id="q1", text=question)])
    return Report(question=question, plan=plan, claims=claims, sections=sections, **fields)


def cite(text: str, *claim_ids: str) -> Sentence:
    return Sentence(text=text, claim_ids=list(claim_ids))


def section(title: str, *sentences: Sentence) -> Section:
    return Section(title=title, sentences=list(sentences))


FY19_URL = "https://example.org/bestbuy-2019-10k.pdf#page=53"
FY23_URL = "https://example.org/bestbuy-2023-10k.pdf#page=40"
FY19_HEADER = "Fiscal Years Ended February 2, 2019 February 3, 2018 January 28, 2017"
FY23_HEADER = "Fiscal Years Ended January 28, 2023 January 29, 2022 January 30, 2021"


def _filing_row(claim_id: str, year: int, statement: str, excerpt: str) -> Claim:
    """A row of Best Buy's fiscal `year` 10-K (2019 or 2023) as a subagent quotes it, under
    the columns' header as its context."""
    url, header = (FY19_URL, FY19_HEADER) if year == 2019 else (FY23_URL, FY23_HEADER)
    return build_claim(
        claim_id,
        statement=statement,
        url=url,
        title=f"BESTBUY_{year}_10K",
        excerpt=excerpt,
        context=header,
    )


# Best Buy's revenue and operating income rows as a subagent quotes them from the two 10-Ks.
R19 = _filing_row(
    "r19", 2019, "Revenue — February 2, 2019: $ 42,879", "Revenue $ 42,879 $ 42,151 $ 39,403"
)
O19 = _filing_row(
    "o19", 2019, "Operating income — February 2, 2019: 1,900", "Operating income 1,900 1,843 1,854"
)
R23 = _filing_row(
    "r23", 2023, "Revenue — January 28, 2023: $ 46,298", "Revenue $ 46,298 $ 51,761 $ 47,262"
)
REVENUES = ["$ 39,403", "$ 42,151", "$ 42,879", "$ 47,262", "$ 51,761", "$ 46,298"]
"""The six revenue figures R19 and R23 print, in the order of their years (fiscal 2017 to 2023)."""


def _percent_change(
    calculation_id: str, first: Figure, last: Figure, value: float, text: str, formula: str
) -> Calculation:
    """The change in percent from `first` to `last`, fiscal 2019 to fiscal 2023."""
    return Calculation(
        id=calculation_id,
        kind="percent_change",
        measure=first.measure,
        period="2019 to 2023",
        value=value,
        unit="%",
        text=text,
        formula=formula,
        inputs=[first, last],
    )


def _change_row(label: str, change: Calculation) -> TableRow:
    """A row of the figures table: the change's two inputs, then the change itself."""
    first, last = change.inputs
    return TableRow(
        label=label,
        cells=[
            TableCell(text=first.text, claim_ids=first.claim_ids),
            TableCell(text=last.text, claim_ids=last.claim_ids),
            TableCell(text=change.text, claim_ids=change.claim_ids, calculation_id=change.id),
        ],
    )


def figures_report(**fields: Any) -> Report:
    """A report with everything an analyst's report holds: a summary answering first, three
    sections, a figures table with five values, calculations (a change and a growth rate)
    and sources, two of them one document cited twice. Built from the shapes the offline
    writer produces for "How did Best Buy's revenue and operating income change between
    fiscal 2019 and fiscal 2023?"."""
    from engine.contracts import FiguresTable

    claims = [
        R19,
        O19,
        R23,
        _filing_row(
            "o23",
            2023,
            "Operating income — January 28, 2023: 2,795",
            "Operating income 2,795 3,039 2,391",
        ),
        build_claim(
            "d23",
            statement=(
                "Our operating income rate decreased in fiscal 2023, primarily driven by the "
                "unfavorable gross profit rate."
            ),
            url="https://example.org/bestbuy-2023-10k.pdf#page=27",
            title="BESTBUY_2023_10K",
            excerpt=(
                "Our operating income rate decreased in fiscal 2023, primarily driven by the "
                "unfavorable gross profit rate."
            ),
        ),
    ]
    r19 = Figure(
        measure="Revenue", period="2019", value=42879, unit="$", text="$ 42,879", claim_ids=["r19"]
    )
    r23 = Figure(
        measure="Revenue", period="2023", value=46298, unit="$", text="$ 46,298", claim_ids=["r23"]
    )
    o19 = Figure(
        measure="Operating income", period="2019", value=1900, text="1,900", claim_ids=["o19"]
    )
    o23 = Figure(
        measure="Operating income", period="2023", value=2795, text="2,795", claim_ids=["o23"]
    )
    revenue = _percent_change(
        "k1", r19, r23, 7.97, "+8.0%", "($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%"
    )
    operating = _percent_change("k2", o19, o23, 47.1, "+47.1%", "(2,795 − 1,900) ÷ 1,900 = +47.1%")
    calculations = [revenue, operating]
    table = FiguresTable(
        id="t1",
        title="Revenue and operating income",
        columns=["February 2, 2019", "January 28, 2023", "Change"],
        rows=[_change_row("Revenue", revenue), _change_row("Operating income", operating)],
    )
    summary = [
        Sentence(
            text="Revenue grew from $ 42,879 in fiscal 2019 to $ 46,298 in fiscal 2023, "
            "+8.0% (calculated).",
            claim_ids=["r19", "r23"],
            calculation_ids=["k1"],
        ),
        Sentence(
            text="Operating income grew from 1,900 to 2,795, +47.1% (calculated).",
            claim_ids=["o19", "o23"],
            calculation_ids=["k2"],
        ),
        cite(
            "Our operating income rate decreased in fiscal 2023, primarily driven by the "
            "unfavorable gross profit rate.",
            "d23",
        ),
    ]
    sections = [
        section(
            "Fiscal 2019",
            cite("Revenue — February 2, 2019: $ 42,879", "r19"),
            cite("Operating income — February 2, 2019: 1,900", "o19"),
        ),
        section(
            "Fiscal 2023",
            cite("Revenue — January 28, 2023: $ 46,298", "r23"),
            cite("Operating income — January 28, 2023: 2,795", "o23"),
        ),
        section(
            "Why it changed",
            cite(
                "Our operating income rate decreased in fiscal 2023, primarily driven by the "
                "unfavorable gross profit rate.",
                "d23",
            ),
        ),
    ]
    values: dict[str, Any] = {
        "question": "How did Best Buy's revenue and operating income change between fiscal "
        "2019 and fiscal 2023?",
        "language": "en",
        "summary": summary,
        "tables": [table],
        "calculations": calculations,
        "notes": ["support judge skipped: the offline model does not judge"],
    }
    values.update(fields)
    return build_report(claims, sections, **values)


NBSP_EXCERPT = "\u00a0".join(
    (
        "Net earnings attributable to Best Buy Co., Inc. shareholders were $ 1,464 million in "
        "fiscal 2019, compared with $ 1,000 million in fiscal 2018, and diluted earnings per "
        "share attributable to Best Buy Co., Inc. shareholders were $ 5.20, compared with "
        "$ 3.26 in fiscal 2018, an increase driven by the lower effective income tax rate."
    ).split(" ")
).replace("\u00a0$\u00a0", "\u00a0$\u202f")
"""One long excerpt whose words are joined by no-break spaces (U+00A0, and U+202F after the
dollar signs), as some 10-K filings print them: nothing in it is a normal space."""


def nbsp_figures_report(**fields: Any) -> Report:
    """`figures_report()` with one more section citing the long no-break-space excerpt."""
    report = figures_report(**fields)
    claim = build_claim(
        "nbsp",
        statement="Net earnings attributable to Best Buy shareholders were $ 1,464 million.",
        url="https://example.org/bestbuy-2019-10k.pdf#page=24",
        title="BESTBUY_2019_10K",
        excerpt=NBSP_EXCERPT,
    )
    section = Section(
        title="Earnings",
        sentences=[cite("Net earnings attributable to shareholders were $ 1,464 million.", "nbsp")],
    )
    return report.model_copy(
        update={"claims": [*report.claims, claim], "sections": [*report.sections, section]}
    )


_COMPANIES = (
    ("Petróleo Brasileiro S.A. – Petrobras", "petrobras"),
    ("Vale S.A.", "vale"),
    ("Itaú Unibanco Holding S.A.", "itau"),
    ("Centrais Elétricas Brasileiras S.A. – Eletrobras", "eletrobras"),
    ("Companhia de Saneamento Básico do Estado de São Paulo – Sabesp", "sabesp"),
    ("Ambev S.A.", "ambev"),
)
WIDE_YEARS = ("2019", "2020", "2021", "2022", "2023", "2024")


def _revenue_text(company: int, year: int) -> str:
    """A big figure as a Brazilian filing prints it: "R$ 1.234.567,8 milhões"."""
    value = 187_654_321.5 + company * 7_919_371.3 + year * 3_141_592.7
    whole, tenth = divmod(round(value * 10), 10)
    return f"R$ {whole:,}".replace(",", ".") + f",{tenth} milhões"


def wide_report(**fields: Any) -> Report:
    """A report as a phone shows it at its narrowest, and a deck or a PDF at its fullest, in
    Portuguese: six companies' revenue over six years, each figure "R$ 123.456.789,0
    milhões" cited from its own filing (36 sources, with long titles and long URLs), a wide
    table of them, sections whose sentences state the figures, and a short last section."""
    from engine.contracts import FiguresTable

    claims: list[Claim] = []
    rows: list[TableRow] = []
    sections: list[Section] = []
    for c, (company, slug) in enumerate(_COMPANIES):
        cells: list[TableCell | None] = []
        sentences: list[Sentence] = []
        for y, year in enumerate(WIDE_YEARS):
            text = _revenue_text(c, y)
            claim_id = f"{slug}{year}"
            url = (
                f"https://ri.{slug}.com.br/central-de-resultados/demonstracoes-financeiras-"
                f"padronizadas/{year}/formulario-de-referencia-e-dfp-consolidada-{slug}-"
                f"{year}-versao-final-revisada.pdf#page={40 + y}"
            )
            claims.append(
                build_claim(
                    claim_id,
                    statement=f"A receita líquida da {company} em {year} foi de {text}.",
                    url=url,
                    title=f"{company} — Demonstrações Financeiras Padronizadas (DFP) e "
                    f"Formulário de Referência do exercício social de {year}, versão revisada",
                    excerpt=f"Receita líquida de vendas e serviços consolidada {text} no "
                    f"exercício encerrado em 31 de dezembro de {year}",
                )
            )
            cells.append(TableCell(text=text, claim_ids=[claim_id]))
            sentences.append(
                cite(f"Em {year}, a receita líquida da {company} foi de {text}.", claim_id)
            )
        rows.append(TableRow(label=company, cells=cells))
        sections.append(Section(title=f"Receita da {company}", sentences=sentences))
    sections.append(section("Conclusão", cite("A Ambev fechou a série.", claims[-1].id)))
    table = FiguresTable(
        id="t1",
        title="Receita líquida consolidada das seis companhias",
        unit="R$ milhões",
        columns=list(WIDE_YEARS),
        rows=rows,
    )
    values: dict[str, Any] = {
        "question": "Como evoluiu a receita líquida das maiores companhias abertas do Brasil "
        "entre 2019 e 2024?",
        "language": "pt",
        "summary": [cite(s.text, *s.claim_ids) for s in sections[0].sentences[:2]],
        "tables": [table],
    }
    values.update(fields)
    return build_report(claims, sections, **values)
