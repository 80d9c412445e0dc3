"""Quantities end to end (issue 30, class 4): `fonte ask` on a library whose pages print
signs in parentheses and dashes, basis points, other currencies, areas, ranges, law numbers
and numbers in words publishes each as the page prints it; a model that restates them
wrongly gets its claims rejected, naming the number; and `fonte verify` fails a report whose
claims and sentences were edited to the attacks (then re-sealed), while the benign
restatements still verify."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.cli import EXIT_FAILED, EXIT_OK, main
from engine.contracts import Report
from engine.verify.digest import sealed
from tests.support.quantity_pages import ATTACKS, BENIGN, PAGES, QUESTIONS, Restatement


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("quantities") / "docs"
    folder.mkdir()
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def reports(library: Path) -> list[Path]:
    """One `fonte ask` per question, as JSON, each in a folder of its own."""
    paths = []
    for number, question in enumerate(QUESTIONS):
        out = library.parent / f"out{number}"
        argv = ["ask", question, "--library", str(library), "--out", str(out), "--format", "json"]
        assert main([*argv, "--cache-dir", str(library.parent / "cache")]) == EXIT_OK
        paths.append(out / "report.json")
    return paths


def verify(path: Path, library: Path) -> int:
    cache = ["--cache-dir", str(library.parent / "cache")]
    return main(["verify", str(path), "--library", str(library), *cache])


def restated(reports: list[Path], restatement: Restatement, into: Path) -> Path:
    """The report holding the claim `restatement` names, that claim's statement and the
    sentences citing it rewritten to it, sealed again as if the run had written them."""
    for path in reports:
        report = Report.model_validate_json(path.read_text())
        hits = [c for c in report.verified_claims() if restatement.marker in c.excerpt]
        if hits:
            break
    else:
        raise AssertionError(f"no verified claim quotes {restatement.marker!r}")
    claim = hits[0].model_copy(update={"statement": restatement.statement})
    claims = [claim if c.id == claim.id else c for c in report.claims]
    sections = [
        section.model_copy(
            update={
                "sentences": [
                    s.model_copy(update={"text": restatement.statement})
                    if claim.id in s.claim_ids
                    else s
                    for s in section.sentences
                ]
            }
        )
        for section in report.sections
    ]
    edited = sealed(report.model_copy(update={"claims": claims, "sections": sections}))
    into.write_text(edited.model_dump_json())
    return into


def test_ask_publishes_each_quantity_as_the_page_prints_it_and_verify_passes(
    library: Path, reports: list[Path]
) -> None:
    published: list[str] = []
    for path in reports:
        report = json.loads(path.read_text())
        verified = [c for c in report["claims"] if c["status"] == "verified"]
        assert all(c["statement"].rstrip(".") in c["excerpt"] + "." for c in verified)
        published += [s["text"] for section in report["sections"] for s in section["sentences"]]
        assert verify(path, library) == EXIT_OK
    for printed in ("R$ (1.577)", "−3,2%", "25 bps", "A$ 5", "500 m²", "entre 5 kW e 10 MW"):
        assert any(printed in text for text in published), printed
    for printed in ("Lei 14.300", "três usinas", "$(1,577)", "–4.5%", "C$ 8", "US$ 5 per"):
        assert any(printed in text for text in published), printed


VerifyRestated = Callable[[Restatement], tuple[int, str]]


@pytest.fixture
def verify_restated(
    library: Path, reports: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> VerifyRestated:
    """`fonte verify` on the report restated to a `Restatement`: its exit code and output."""

    def run(restatement: Restatement) -> tuple[int, str]:
        path = restated(reports, restatement, tmp_path / "report.json")
        capsys.readouterr()
        code = verify(path, library)
        return code, capsys.readouterr().out

    return run


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.statement)
def test_verify_fails_a_report_restated_to_an_attack_naming_the_number(
    attack: Restatement, verify_restated: VerifyRestated
) -> None:
    code, out = verify_restated(attack)
    assert code == EXIT_FAILED
    assert f"numbers not in the excerpt: {attack.number}" in out
    assert f"FAIL    sentence: {attack.statement[:80]!r}" in out
    assert "report: the report was edited" not in out  # sealed again: only the numbers fail


@pytest.mark.parametrize("benign", BENIGN, ids=lambda b: b.statement)
def test_verify_passes_a_report_restated_benignly(
    benign: Restatement, verify_restated: VerifyRestated
) -> None:
    code, out = verify_restated(benign)
    assert code == EXIT_OK, out


def test_a_model_restating_the_quantities_wrongly_gets_each_claim_rejected(
    library: Path, tmp_path: Path
) -> None:
    """Whatever a model posts, the verifier stands between the page and the report: the
    attacks as claims of one run, each on the sentence it restates."""
    from engine import Orchestrator
    from engine.agents.toolbox import Assignment, Toolbox
    from engine.models.extractive import ExtractiveModel
    from engine.planning import make_brief
    from engine.sources.library import Library

    source = Library.open(library, cache_dir=tmp_path / "cache")
    # the board keeps one claim per excerpt: the first attack on each sentence
    attacks = list({attack.marker: attack for attack in reversed(ATTACKS)}.values())

    class Careless(ExtractiveModel):
        """Quotes each sentence whole and states it as the attack restates it."""

        async def research(self, assignment: Assignment, tools: Toolbox) -> None:
            if assignment.subquestion.id != "s1":
                return
            for attack in attacks:
                hits = await tools.search(attack.marker)
                for hit in hits:
                    page = await tools.read(hit.url)
                    if attack.marker in page.text:
                        break
                start = page.text.rindex("\n", 0, page.text.index(attack.marker)) + 1
                excerpt = page.text[start : page.text.index("\n", start)]
                await tools.record_claim(attack.statement, hit.url, excerpt)

    brief = make_brief(QUESTIONS[0])
    report = asyncio.run(Orchestrator(Careless(), source, source).run(brief))
    by_statement = {c.statement: c for c in report.claims}
    assert len(attacks) >= 12
    for attack in attacks:
        claim = by_statement[attack.statement]
        assert claim.status.value == "rejected", attack.statement
        assert claim.reason == f"numbers not in the excerpt: {attack.number}", claim.reason
    published = [s.text for section in report.sections for s in section.sentences]
    assert not any(attack.statement in published for attack in attacks)
