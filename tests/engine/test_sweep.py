"""A sweep of one long document: a question that names a document of the library reads it by
parts (chapters, else page ranges) in parallel subagents within the budget, its claims
merged on the board without duplicates, its report one answer under part headings."""

import json
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from engine import Orchestrator
from engine.contracts import Limits, Plan, Report
from engine.documents.outline import pdf_chapters
from engine.executor import waves
from engine.models.claude.planner import parse_plan, sweep_of
from engine.models.claude.prompts import plan_prompt
from engine.models.claude.structured import InvalidJson
from engine.models.extractive import ExtractiveModel
from engine.models.scripted import Post, ScriptedModel
from engine.planning import Brief, make_brief
from engine.planning.sweeps import (
    MIN_PART_PAGES,
    PART_STEPS,
    Part,
    even_parts,
    named_document,
    parts_allowed,
    sweep_parts,
    sweep_subquestions,
)
from engine.snapshots import split_page
from engine.sources.kinds import LIBRARY
from engine.sources.library import Library
from tests.support.pages_source import PagesSource
from tests.support.pdfs import long_pdf, pdf_bytes

TITLE = "Plano Decenal de Energia"
SOLAR_2023 = "A capacidade solar instalada chegou a 37 GW em 2023 no sistema interligado."
SOLAR_2034 = "A capacidade solar instalada deve alcançar 90 GW em 2034 no cenário de referência."
QUESTION = "O que o Plano Decenal de Energia diz sobre a capacidade solar instalada?"


def plan_pages(count: int) -> list[str]:
    pages = [f"Seção {n} trata do planejamento da transmissão e do consumo." for n in range(count)]
    pages[5], pages[18] = SOLAR_2023, SOLAR_2034
    return pages


@dataclass(frozen=True)
class Doc:
    url: str
    title: str
    path: Path
    page_count: int | None

    @property
    def file_name(self) -> str:
        return self.path.name


def library(tmp_path: Path, chapters: dict[int, str] | None = None) -> Library:
    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "plano-decenal-de-energia.pdf").write_bytes(long_pdf(plan_pages(24), TITLE, chapters))
    (folder / "outro.pdf").write_bytes(pdf_bytes([f"Outro estudo: {SOLAR_2023}"]))
    return Library.open(folder, cache_dir=tmp_path / "cache")


async def ask(lib: Library, question: str, steps: int = 40) -> Report:
    orchestrator = Orchestrator(ExtractiveModel(), lib, lib, limits=Limits(steps=steps))
    return await orchestrator.run(make_brief(question))


def test_a_document_is_named_by_its_title_or_its_file_name_and_only_one_long_one() -> None:
    long = Doc("file:///l/pde.pdf", TITLE, Path("/l/pde-2034.pdf"), 200)
    short = Doc("file:///l/nota.pdf", "Nota Técnica Solar", Path("/l/nota.pdf"), 3)
    other = Doc("file:///l/x.pdf", "Relatório Anual", Path("/l/x.pdf"), 80)
    assert named_document("o que diz o plano decenal de energia?", [long, short]) == long
    assert named_document("resuma pde-2034.pdf", [long, short]) == long
    assert named_document("O que diz a Nota Técnica Solar?", [long, short]) is None  # short
    assert named_document("Qual a capacidade solar?", [long, other]) is None
    both = f"Compare o {TITLE} e o Relatório Anual"
    assert named_document(both, [long, other]) is None  # two documents: no sweep
    with_short = f"Compare o {TITLE} e a Nota Técnica Solar"
    assert named_document(with_short, [long, short]) is None  # a short one counts as named
    ten_k = Doc("file:///l/k.pdf", "10-K", Path("/l/10-K.pdf"), 90)
    assert named_document("What does the 10-K say?", [ten_k]) is None


def test_parts_fit_the_budget_and_cover_every_page_once() -> None:
    assert parts_allowed(40) == 40 // PART_STEPS
    assert parts_allowed(2) == 1
    for count, most in [(24, 6), (24, 3), (200, 8), (13, 8)]:
        parts = even_parts(count, most)
        assert len(parts) <= most
        pages = [p for part in parts for p in range(part.first, part.last + 1)]
        assert pages == list(range(1, count + 1))
        assert all(part.last - part.first + 1 >= MIN_PART_PAGES for part in parts)


def test_chapters_from_the_outline_are_the_parts_grouped_to_the_budget(tmp_path: Path) -> None:
    path = tmp_path / "pde.pdf"
    path.write_bytes(long_pdf(plan_pages(24), TITLE, {2: "Demanda", 9: "Solar", 17: "Eólica"}))
    chapters = pdf_chapters(path)
    assert chapters == [("Demanda", 2), ("Solar", 9), ("Eólica", 17)]
    assert sweep_parts(24, chapters, 8) == [
        Part(1, 8, ("Demanda",)),
        Part(9, 16, ("Solar",)),
        Part(17, 24, ("Eólica",)),
    ]
    assert sweep_parts(24, chapters, 2) == [
        Part(1, 16, ("Demanda", "Solar")),
        Part(17, 24, ("Eólica",)),
    ]
    assert sweep_parts(24, [("Só um", 3)], 4) == even_parts(24, 4)
    assert pdf_chapters(tmp_path / "absent.pdf") == []


async def test_a_question_naming_a_long_document_sweeps_it_in_parallel_parts(
    tmp_path: Path,
) -> None:
    lib = library(tmp_path)
    report = await ask(lib, QUESTION)
    parts = report.plan.subquestions
    document = next(d for d in lib.documents() if d.path.name.startswith("plano"))
    assert 2 <= len(parts) <= parts_allowed(40)
    assert len(waves(parts)) == 1  # no part waits for another: they run at once
    assert all(s.document == document.url and s.steps == PART_STEPS for s in parts)
    ranges = [s.pages for s in parts if s.pages is not None]
    pages = [p for first, last in ranges for p in range(first, last + 1)]
    assert pages == list(range(1, 25))  # every page in exactly one part
    verified = report.verified_claims()
    for claim in verified:
        base, page = split_page(claim.url)
        own = next(s for s in parts if s.id == claim.subquestion)
        assert base == document.url
        assert own.pages is not None
        assert page is not None
        assert own.pages[0] <= page <= own.pages[1]  # each part on its own range
    assert {split_page(c.url)[1] for c in verified} == {6, 19}
    assert len({c.id for c in report.claims}) == len(report.claims)
    assert len(parts) == parts_allowed(40) == 6  # as many as the budget runs at once
    headed = [section.title for section in report.sections if section.sentences]
    assert headed == ["Páginas 5–8", "Páginas 17–20"]  # one answer, by page range
    assert report.gaps == []


async def test_chapters_head_the_sections_of_the_swept_report(tmp_path: Path) -> None:
    lib = library(tmp_path, {1: "Demanda", 5: "Geração solar", 13: "Transmissão", 17: "Expansão"})
    report = await ask(lib, QUESTION)
    assert [s.title for s in report.plan.subquestions] == [
        "Demanda",
        "Geração solar",
        "Transmissão",
        "Expansão",
    ]
    headed = {section.title for section in report.sections if section.sentences}
    assert headed == {"Geração solar", "Expansão"}


async def test_a_small_budget_sweeps_in_fewer_parts(tmp_path: Path) -> None:
    report = await ask(library(tmp_path), QUESTION, steps=15)
    assert len(report.plan.subquestions) <= parts_allowed(15) < parts_allowed(40)


async def test_a_question_naming_no_document_is_planned_as_before(tmp_path: Path) -> None:
    report = await ask(library(tmp_path), "Qual a capacidade solar instalada em 2023?")
    assert not any(s.document or s.pages for s in report.plan.subquestions)


async def test_parts_are_copied_into_assignments_and_their_claims_merged_once() -> None:
    url = "file:///lib/pde.pdf"
    source = PagesSource(name="library", kind=LIBRARY)
    source.add(url, "", title=TITLE, pages=plan_pages(24))
    document = Doc(url, TITLE, Path("/lib/pde.pdf"), 24)
    parts = sweep_subquestions(QUESTION, document, even_parts(24, 3), "pt")
    plan = Plan(question=QUESTION, sufficient_when=["c"], subquestions=parts)
    # Every part posts the same excerpt of page 6 (as overlapping readers would): one claim.
    model = ScriptedModel(posts=[Post("Chegou a 37 GW em 2023.", f"{url}#page=6", SOLAR_2023)])
    report = await Orchestrator(model, source, source).run(make_brief(QUESTION), plan=plan)
    assert [(a.document, a.pages) for a in model.assignments] == [
        (url, (1, 8)),
        (url, (9, 16)),
        (url, (17, 24)),
    ]
    assert len(report.claims) == 1  # three parts posted it; the board kept one
    assert report.claims[0].status.value == "verified"


def claude_brief() -> Brief:
    document = Doc("file:///l/plano-decenal-de-energia.pdf", TITLE, Path("/l/p.pdf"), 24)
    return replace(make_brief(QUESTION), documents=(document,))


async def test_the_claude_planner_is_told_the_parts_and_must_keep_to_them() -> None:
    brief = claude_brief()
    sweep = await sweep_of(brief, 40)  # no outline at hand: even ranges
    assert [s.pages for s in sweep] == [(1, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 24)]
    assert '"pages": [5, 8]' in plan_prompt(brief, [], 40, sweep)
    url = brief.documents[0].url
    parts = [
        {"id": f"s{n}", "text": "q", "document": url, "pages": [n * 12 - 11, n * 12]}
        for n in (1, 2)
    ]
    plan = parse_plan(json.dumps({"sufficient_when": ["one"], "subquestions": parts}), brief)
    assert [s.pages for s in plan.subquestions] == [(1, 12), (13, 24)]
    parts[1]["pages"] = [13, 30]
    with pytest.raises(InvalidJson, match="not within pages 1 to 24"):
        parse_plan(json.dumps({"sufficient_when": ["one"], "subquestions": parts}), brief)
    parts[1].update(document="https://elsewhere.example/doc.pdf", pages=[13, 24])
    with pytest.raises(InvalidJson, match="the document to sweep is"):
        parse_plan(json.dumps({"sufficient_when": ["a", "b"], "subquestions": parts}), brief)


def test_naming_matches_every_name_as_whole_words_of_the_question() -> None:
    """The pattern over every name at once finds what splitting each name does."""
    names = [
        ("Plano Decenal de Energia", "pde.pdf"),
        ("Plano Decenal", "x1.pdf"),
        ("Relatório Técnico\nSolar", "rts.pdf"),
        ("Lei_14.300", "lei.md"),
        ("", "nota_tecnica_solar.pdf"),
        ("Plano", "plano.pdf"),
        ("energia decenal", "y.pdf"),
        ("Planos Decenais de Energia", "z.pdf"),
    ]
    shelf = [Doc(f"file:///l/{name}", title, Path(f"/l/{name}"), 100) for title, name in names]
    expected = {
        "o que diz o plano decenal de energia?": None,  # two: a comparison
        "o plano decenal de energia 2034": None,
        "resuma o relatório técnico solar": shelf[2],
        "o que diz a lei 14.300?": shelf[3],
        "e a nota técnica solar.pdf?": shelf[4],
        "Planos decenais de energia!": shelf[7],
        "plano": None,
        "": None,
    }
    for question, document in expected.items():
        assert named_document(question, shelf) == document, question
    assert named_document("resuma o relatório técnico solar", []) is None
