"""An offline report (the extractive model over the in-memory library) says its notes and
gaps in the language of its question, from that language's table."""

from __future__ import annotations

import pytest

from engine.contracts import Language, Limits, Report
from engine.models.extractive import ExtractiveModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.words import words_for
from tests.support.pages_source import PagesSource

QUESTIONS: dict[Language, str] = {
    "pt": "Quais são os limites de potência instalada da microgeração distribuída?",
    "en": "What were ACME's purchases of property, plant and equipment in 2018?",
}
OTHER: dict[Language, Language] = {"pt": "en", "en": "pt"}


async def offline_report(source: PagesSource, language: Language, limits: Limits) -> Report:
    orchestrator = Orchestrator(ExtractiveModel(), source, source, limits=limits)
    report = await orchestrator.run(make_brief(QUESTIONS[language]))
    assert report.language == language
    return report


@pytest.mark.parametrize("language", ["pt", "en"])
async def test_a_finished_offline_report_notes_the_judge_in_its_language(
    source: PagesSource, language: Language
) -> None:
    report = await offline_report(source, language, Limits())
    notes = words_for(language).notes
    assert not report.partial
    assert report.verified_claims()  # so the judge had claims to judge
    assert report.notes == [notes.judge_skipped.format(model="offline")]
    assert words_for(OTHER[language]).notes.judge_skipped.format(model="offline") not in (
        report.notes
    )


@pytest.mark.parametrize(
    ("language", "note", "gap"),
    [
        (
            "pt",
            "orçamento atingido: passos (3 of 3 steps used)",
            "Fonte verificada que responda: {question} (interrompida pelo orçamento)",
        ),
        (
            "en",
            "budget reached: steps (3 of 3 steps used)",
            "A verified source that answers: {question} (interrupted by the budget)",
        ),
    ],
)
async def test_the_notes_and_gaps_read_in_the_reports_language(
    source: PagesSource, language: Language, note: str, gap: str
) -> None:
    report = await offline_report(source, language, Limits(steps=3))
    assert report.partial
    assert report.notes == [note]
    assert report.gaps == [gap.format(question=QUESTIONS[language])]
