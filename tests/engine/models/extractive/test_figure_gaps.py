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
    report = await ask(folder, "Qual a capacidade instalada solar por estado em 2023?", tmp_path)
    figure_gaps = [gap for gap in report.gaps if "figura da página 2 de relatorio" in gap]
    assert len(figure_gaps) == 1, report.gaps


async def test_a_question_the_text_answers_declares_no_figure_gap(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    chart_pdf(folder / "relatorio.pdf")
    report = await ask(folder, "Quantas novas usinas a Bahia concluiu em 2023?", tmp_path)
    assert any("12 novas usinas" in c.excerpt for c in report.verified_claims())
    assert not any("figura" in gap for gap in report.gaps), report.gaps
