"""A question for a law's rules as a whole is planned by the aspects such a law answers (its
time limits, its obligations, its transition rules): each a criterion that a verified
provision meets, cited with its article, or that the report declares a gap. The laws of these
tests are written here (a drone registry, asked in Portuguese and in English); the last
test asks the issue's question of Lei 14.300 in ../shared/corpus, skipped without it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.cli import EXIT_OK, main
from engine.models.extractive.planner import extractive_plan
from engine.planning.briefs import make_brief
from tests.support.corpus import corpus_folder

DRONES = """\
LEI Nº 99.001, DE 3 DE MARÇO DE 2031

Dispõe sobre o cadastro nacional de drones.

CAPÍTULO I

DISPOSIÇÕES PRELIMINARES

**Art. 1º** . **Para os fins desta Lei, drone é a aeronave não tripulada com massa superior a 250 g.** **(MPF-2017)**

Art. 2º O cadastro de drones será mantido pela Anac.

CAPÍTULO II

DO CADASTRO

Art. 3º O cadastro do drone expira em 24 (vinte e quatro) meses contados da sua emissão, prazo após o qual o drone não poderá voar.

§ 1º O operador deve renovar o cadastro do drone antes do fim do prazo de validade.

Art. 4º É vedado ao operador voar com drone sem cadastro válido sobre áreas urbanas.

CAPÍTULO III

DISPOSIÇÕES TRANSITÓRIAS

Art. 5º Os drones em operação na data de publicação desta Lei seguem as regras de transição deste artigo até 31 de dezembro de 2035.

Art. 6º Esta Lei entra em vigor na data de sua publicação.
"""


def _library(folder: Path, law: str = DRONES) -> Path:
    folder.mkdir()
    (folder / "lei_99001.md").write_text(law, encoding="utf-8")
    row = {"file": "lei_99001.md", "url": "https://example.org/lei-99001", "title": "LEI 99.001"}
    (folder / "index.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    return folder


def _ask(question: str, library: Path, out: Path) -> dict[str, Any]:
    code = main(["ask", question, "--library", str(library), "--out", str(out), "--format", "json"])
    assert code == EXIT_OK
    report: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return report


def _sentences(report: dict[str, Any]) -> list[str]:
    return [s["text"] for section in report["sections"] for s in section["sentences"]]


def test_a_question_for_a_laws_rules_is_planned_by_its_aspects_in_its_language() -> None:
    plan = extractive_plan(make_brief("Quais são as regras do cadastro de drones?"))
    titles = [s.title for s in plan.subquestions]
    assert titles == [
        "Resposta",
        "Prazos e validade",
        "Obrigações e vedações",
        "Regras de transição",
    ]
    assert len(plan.sufficient_when) == len(plan.subquestions)
    english = extractive_plan(make_brief("What are the rules of Brazil's drone registry law?"))
    assert [s.title for s in english.subquestions][1:] == [
        "Time limits and validity",
        "Obligations and prohibitions",
        "Transition rules",
    ]
    # A question for one provision is not a question for the whole law.
    one = extractive_plan(make_brief("Por quanto tempo vale o cadastro de um drone?"))
    assert len(one.subquestions) == 1


def test_the_rules_of_a_law_are_cited_by_article_and_each_aspect_is_met_or_a_gap(
    tmp_path: Path,
) -> None:
    library = _library(tmp_path / "library")
    report = _ask(
        "Quais são as regras do cadastro de drones da Lei 99.001?", library, tmp_path / "o"
    )
    said = _sentences(report)
    assert said, report["gaps"]
    for sentence in said:  # every sentence from an article names it (the ementa is none)
        article = sentence.startswith(("Art.", "§")) or "cadastro do drone" in sentence
        assert not article or re.match(r"^Art\. \d+º?(?:, [^:]+)?: ", sentence), sentence
    cited = " ".join(said)
    assert "Art. 3º: O cadastro do drone expira em 24 (vinte e quatro) meses" in cited
    assert "Art. 4º: É vedado ao operador voar" in cited
    assert "Art. 5º: Os drones em operação" in cited
    # Each aspect is stated by a provision (in its own section, or in another one when the
    # same provision answered that first), so none is declared a gap.
    assert report["gaps"] == []


def test_an_english_question_about_a_brazilian_law_cites_its_articles_in_english(
    tmp_path: Path,
) -> None:
    library = _library(tmp_path / "library")
    report = _ask("What are the rules for drones in Brazil's Lei 99.001?", library, tmp_path / "o")
    cited = " ".join(_sentences(report))
    assert "Art. 3º, § 1º: O operador deve renovar o cadastro" in cited
    assert "Art. 4º: É vedado ao operador voar" in cited
    assert "Art. 5º: Os drones em operação" in cited
    assert report["gaps"] == []  # each aspect, asked in English, met by a Portuguese provision


def test_an_aspect_no_provision_states_is_a_declared_gap(tmp_path: Path) -> None:
    library = _library(tmp_path / "library", DRONES.split("CAPÍTULO III")[0])
    report = _ask(
        "Quais são as regras do cadastro de drones da Lei 99.001?", library, tmp_path / "o"
    )
    titles = {section["title"] for section in report["sections"]}
    assert "Regras de transição" not in titles
    assert [gap for gap in report["gaps"] if "Regras de transição" in gap], report["gaps"]
    assert not [gap for gap in report["gaps"] if "Prazos e validade" in gap], report["gaps"]


def test_the_issues_micro_and_minigeneration_question_cites_or_declares_credits_and_transition(
    tmp_path: Path,
) -> None:
    laws = corpus_folder(
        "br-laws", "docs/marco_legal_da_micro_e_minigeracao_de_energia_lei_14300.md"
    )
    library = tmp_path / "library"
    library.mkdir()
    name = "marco_legal_da_micro_e_minigeracao_de_energia_lei_14300.md"
    (library / name).write_text((laws / "docs" / name).read_text(encoding="utf-8"), "utf-8")
    row = {"file": name, "url": "https://example.org/l14300", "title": "LEI Nº 14.300"}
    (library / "index.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    question = "Quais são as regras da micro e minigeração distribuída na Lei 14.300?"
    report = _ask(question, library, tmp_path / "o")
    said = _sentences(report)
    assert all(re.match(r"^Art\. \d+", s) for s in said), said
    by_title = {s["title"]: [x["text"] for x in s["sentences"]] for s in report["sections"]}
    cited = " ".join(text for texts in by_title.values() for text in texts)
    gaps = " ".join(report["gaps"])
    # Under whichever section posted it first (the subagents run at once, and an excerpt is
    # filed once): the transition rules, art. 17 (the rules after the transition of arts. 26
    # and 27), are cited, or their aspect is a declared gap.
    assert "Art. 17" in cited or "Regras de transição" in gaps, (by_title, gaps)
    # The credits' 60 months (art. 13) are cited, or their aspect is a declared gap.
    assert "60 (sessenta) meses" in cited or "Prazos e validade" in gaps, (by_title, gaps)


TOLLS = """\
LEI Nº 99.002, DE 9 DE JUNHO DE 2031

Art. 1º Esta Lei institui a cobrança eletrônica de pedágio nas rodovias federais.

Art. 2º Após o período de transição de que tratam os arts. 5º e 6º desta Lei, a cobrança eletrônica de pedágio será feita pela tarifa integral.

Art. 3º As concessionárias deverão instalar pórticos de leitura em todas as praças no prazo de 2 (dois) anos.

Art. 4º Os dados de passagem serão guardados por 5 (cinco) anos.

Art. 5º Os veículos cadastrados até a publicação desta Lei pagarão os seguintes percentuais da tarifa de pedágio:

I - 50% (cinquenta por cento) a partir de 2032;

II - 75% (setenta e cinco por cento) a partir de 2033.

Art. 6º A multa por evasão de pedágio não será aplicada até 31 de dezembro de 2032.
"""


def test_a_provision_quoted_leads_to_the_articles_of_the_same_law_it_refers_to(
    tmp_path: Path,
) -> None:
    library = _library(tmp_path / "library", TOLLS)
    report = _ask(
        "Como funciona a transição da cobrança eletrônica de pedágio?", library, tmp_path / "o"
    )
    claims = [c for c in report["claims"] if c["status"] == "verified"]
    quoted = " ".join(f"{c.get('context') or ''} {c['excerpt']}" for c in claims)
    assert "Após o período de transição de que tratam os arts. 5º e 6º desta Lei" in quoted
    # The transition art. 2 names is where its rules are: art. 5's rates and art. 6's date.
    assert "50% (cinquenta por cento) a partir de 2032" in quoted
    assert "não será aplicada até 31 de dezembro de 2032" in quoted
    assert {c["provision"] for c in claims} >= {"Art. 2º", "Art. 5º", "Art. 6º"}
    assert "guardados por 5 (cinco) anos" not in quoted  # art. 4 is named by none
