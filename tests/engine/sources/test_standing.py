"""A source's standing from its domain and document, and its own date."""

import json
from pathlib import Path

import pytest

from engine.settings import BadInput
from engine.snapshots import Snapshot
from engine.sources.standing import (
    DEFAULT_RULES,
    evidence_of,
    load_rules,
    rules_from_environment,
    source_date,
)


@pytest.mark.parametrize(
    ("url", "standing"),
    [
        ("https://www.planalto.gov.br/ccivil_03/leis/l14300.htm", "primary"),
        ("https://www.gov.br/aneel/pt-br/assuntos/geracao-distribuida", "primary"),
        ("https://www.sec.gov/Archives/edgar/data/66740/10k.htm", "primary"),
        ("https://www.energy.gov/eere/solar", "primary"),
        ("https://valor.globo.com/empresas/noticia/2024/solar.ghtml", "secondary"),
        ("https://www.absolar.org.br/mercado/", "secondary"),
        ("https://solarblog.wordpress.com/2024/resumo-da-lei", "other"),
        ("https://forum.example.net/t/solar", "other"),
        ("https://notgov.br.example.com/page", "other"),  # a suffix, not a substring
        ("https://evilsec.gov.attacker.com/x", "other"),
    ],
)
def test_a_web_page_stands_as_its_domain(url: str, standing: str) -> None:
    assert DEFAULT_RULES.standing_of(url, document=False) == standing


def test_a_web_page_on_an_unknown_domain_is_not_raised_by_its_own_words() -> None:
    blog = "https://acme-fans.example/post"
    assert DEFAULT_RULES.standing_of(blog, "Acme Form 10-K explained", document=False) == "other"
    assert DEFAULT_RULES.standing_of(blog, "Acme Form 10-K explained", document=True) == "primary"


@pytest.mark.parametrize(
    ("url", "title", "first_page", "standing"),
    [
        ("file:///lib/3M_2018_10K.pdf", "3M_2018_10K", "", "primary"),
        (
            "file:///lib/report.pdf",
            "",
            "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
            "primary",
        ),
        ("file:///lib/dou.pdf", "DOU", "DIÁRIO OFICIAL DA UNIÃO, seção 1", "primary"),
        ("file:///lib/lei.md", "Lei nº 14.300, de 6 de janeiro de 2022", "", "primary"),
        ("file:///lib/notes.md", "Notas da reunião", "Conversamos sobre o mercado.", "other"),
        ("file:///lib/10kinds.md", "10kinds of panels", "", "other"),  # not "10-K" as a word
    ],
)
def test_a_document_stands_by_what_it_reads_as(
    url: str, title: str, first_page: str, standing: str
) -> None:
    assert DEFAULT_RULES.standing_of(url, title, first_page) == standing


def test_a_deployments_file_overrides_and_adds_rules(tmp_path: Path) -> None:
    rules_file = tmp_path / "standing.json"
    rules_file.write_text(
        json.dumps(
            {
                "domains": {"www.absolar.org.br": "primary", "acme.com": "primary"},
                "documents": {"Relatório de Sustentabilidade": "primary"},
            }
        ),
        encoding="utf-8",
    )
    rules = rules_from_environment({"FONTE_STANDING_FILE": str(rules_file)})
    assert rules.standing_of("https://www.absolar.org.br/mercado/") == "primary"
    assert rules.standing_of("https://ir.acme.com/annual") == "primary"
    assert rules.standing_of("https://g1.globo.com/x") == "secondary"  # defaults still hold
    assert rules.standing_of("file:///l/r.pdf", "relatório  de sustentabilidade 2023") == "primary"
    assert rules_from_environment({}) == DEFAULT_RULES


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"domains": {"aneel.gov.br": "official"}}),
        json.dumps({"domains": ["aneel.gov.br"]}),
        json.dumps({"sites": {}}),
    ],
)
def test_a_bad_rules_file_is_one_line_of_bad_input(tmp_path: Path, content: str) -> None:
    rules_file = tmp_path / "standing.json"
    rules_file.write_text(content, encoding="utf-8")
    with pytest.raises(BadInput, match="FONTE_STANDING_FILE=") as raised:
        load_rules(rules_file)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("published", "title", "url", "first_page", "date"),
    [
        ("2024-03-05T10:00:00+00:00", "", "https://x/a", "Published May 1, 2020", "2024-03-05"),
        (
            "",
            "10-K",
            "file:///3M_2018_10K.pdf",
            "For the fiscal year ended December 31, 2018",
            "2018-12-31",
        ),
        ("", "", "file:///q.pdf", "For the quarterly period ended June 30, 2023 ...", "2023-06-30"),
        ("", "Acme FY2022 results", "file:///acme.pdf", "Revenue grew.", "2022"),
        ("", "", "file:///dou.pdf", "Brasília, 6 de janeiro de 2022. Lei nº 14.300", "2022-01-06"),
        ("", "", "file:///r.pdf", "Relatório mensal — março de 2024", "2024-03"),
        ("", "", "file:///n.pdf", "Emitido em 31/12/2019", "2019-12-31"),
        ("", "", "file:///n.pdf", "Issued 12/31/2019", "2019-12-31"),
        ("", "", "file:///3M_2018_10K.pdf", "Nothing dated here.", "2018"),
        ("", "Notas", "file:///notes.md", "Sem data nenhuma.", ""),
    ],
)
def test_a_sources_own_date(
    published: str, title: str, url: str, first_page: str, date: str
) -> None:
    assert source_date(published=published, title=title, url=url, first_page=first_page) == date


def test_a_date_deep_in_the_first_page_is_not_its_cover_date() -> None:
    body = "Sem data na capa. " + "texto " * 1000 + "Em 6 de janeiro de 2022 algo ocorreu."
    assert source_date(published="", title="", url="file:///a.pdf", first_page=body) == ""


def test_evidence_of_a_snapshot_reads_its_first_page_and_its_metadata() -> None:
    filing = Snapshot.from_pages(
        "file:///lib/acme_10K.pdf",
        ["ACME CORP FORM 10-K For the fiscal year ended December 31, 2023", "Revenue 5"],
        title="acme_10K",
    )
    assert evidence_of(filing, DEFAULT_RULES) == ("2023-12-31", "primary")
    page = Snapshot(
        url="https://www.reuters.com/a", text="Acme hires.", title="Acme", published="2024-05-02"
    )
    assert evidence_of(page, DEFAULT_RULES) == ("2024-05-02", "secondary")
