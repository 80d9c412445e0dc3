import json
from pathlib import Path

from engine import Orchestrator
from engine.contracts import Report
from engine.models.extractive import ExtractiveModel
from engine.planning import make_brief
from engine.sources.library import Library
from tests.support.figure_pdfs import chart_pdf


async def ask(folder: Path, question: str, cache: Path) -> Report:
    library = Library.open(folder, cache_dir=cache)
    report = await Orchestrator(ExtractiveModel(), library, library).run(make_brief(question))
    assert not [n for n in report.notes if "falhou" in n or "Error" in n], report.notes
    return report


async def test_a_chart_the_search_lands_on_is_a_declared_gap(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    chart_pdf(folder / "relatorio.pdf")
    question = "Qual a capacidade instalada solar por estado em 2023?"
    report = await ask(folder, question, tmp_path / "cache")
    figure_gaps = [gap for gap in report.gaps if "figura da página 2 de relatorio" in gap]
    assert len(figure_gaps) == 1, report.gaps


async def test_a_question_the_text_answers_declares_no_figure_gap(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    chart_pdf(folder / "relatorio.pdf")
    report = await ask(folder, "Quantas novas usinas a Bahia concluiu em 2023?", tmp_path)
    assert any("12 novas usinas" in c.excerpt for c in report.verified_claims())
    assert not any("figura" in gap for gap in report.gaps), report.gaps


async def test_a_chart_in_a_library_cited_by_its_web_url_is_a_declared_gap(tmp_path: Path) -> None:
    """A library whose manifest cites its files by their web URLs (as the sample library cites
    Planalto) still knows the file behind each URL: its figures are found the same way."""
    folder = tmp_path / "library"
    folder.mkdir()
    chart_pdf(folder / "relatorio.pdf")
    url = "https://example.org/publicacoes/relatorio.pdf"
    entry = {"file": "relatorio.pdf", "url": url, "title": "relatorio"}
    (folder / "index.jsonl").write_text(json.dumps(entry) + "\n")
    library = Library.open(folder, cache_dir=tmp_path / "cache")
    assert library.pdf_path(f"{url}#page=2") == folder / "relatorio.pdf"
    assert library.pdf_path("https://example.org/elsewhere.pdf") is None
    question = "Qual a capacidade instalada solar por estado em 2023?"
    report = await ask(folder, question, tmp_path / "cache")
    figure_gaps = [gap for gap in report.gaps if "figura da página 2 de relatorio" in gap]
    assert len(figure_gaps) == 1, report.gaps
