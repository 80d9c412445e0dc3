from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.runner import RunOptions, run_suite
from evals.suites import SuiteError, library_source, load_suite

CORPUS = {
    "Lilu (mythology)": [
        "Lilu or lilu is a masculine Akkadian word for a spirit, related to Sumerian LÍL, 'wind'.",
        "Lilu is a demon in Mesopotamian mythology.",
    ],
    "Alû": [
        "Alû is a demon in Akkadian mythology.",
        "The Alû is a vengeful spirit, like the Gallu demon of the underworld.",
    ],
    "Demon Dice": ["Demon Dice is a collectible dice game created by Lester Smith."],
}
QUESTIONS = [
    {
        "_id": "h1",
        "question": "If Gallu is a demon, Lilu is what kind of Akkadian spirit?",
        "answer": "a spirit",
        "supporting_facts": [["Alû", 1], ["Lilu (mythology)", 0]],
        "context": [],
    }
]


def test_a_corpus_suite_needs_its_folder(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="needs the corpus folder") as raised:
        load_suite("br-laws", corpus=tmp_path)

    assert str(tmp_path / "br-laws") in str(raised.value)


def test_a_folder_suite_needs_cases_and_docs(tmp_path: Path) -> None:
    (tmp_path / "cases.jsonl").write_text("", encoding="utf-8")

    with pytest.raises(SuiteError, match="docs is missing"):
        load_suite(str(tmp_path))


def test_financebench_suites_split_questions_and_companies(corpus: Path) -> None:
    both = load_suite("financebench", corpus=corpus)
    questions = load_suite("financebench-questions", corpus=corpus)
    companies = load_suite("financebench-companies", corpus=corpus)

    assert len(both.cases) == len(questions.cases) + len(companies.cases)
    assert {c.group for c in companies.cases} == {"company"}
    with pytest.raises(SuiteError, match="unknown suite"):
        load_suite("financebench-nope", corpus=corpus)


async def test_hotpotqa_runs_on_the_offline_web(tmp_path: Path) -> None:
    folder = tmp_path / "hotpotqa"
    folder.mkdir()
    (folder / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    (folder / "questions.json").write_text(json.dumps(QUESTIONS), encoding="utf-8")
    suite = load_suite("hotpotqa", corpus=tmp_path)

    rows = await run_suite(suite, RunOptions(), progress=lambda _: None)

    final, v1 = rows
    assert final.error is None
    assert v1.error is None
    assert final.published_claims > 0
    assert final.verified_claims == final.published_claims
    assert final.required_found >= 1


async def test_a_library_suite_says_how_far_its_index_got_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An eval's first index build takes minutes: stderr hears of it, terminal or not."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("Receita de 2023: R$ 1.204 milhões.", encoding="utf-8")
    async with library_source(folder, tmp_path / "cache") as source:
        assert source.labels
    # Paced: the first message said, the next ones at most every few seconds.
    assert capsys.readouterr().err.splitlines() == [f"library: reading {folder}"]
