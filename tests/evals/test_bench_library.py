"""The retrieval benchmark's suites: FinanceBench's development half judged on gold pages
(0-based in the data, 1-based in a hit's URL, each page once), br-laws judged on required
passages, through any backend's search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.sources import SearchHit
from engine.sources.kinds import LIBRARY, SourceKind
from evals.bench_library import (
    RetrievalSuite,
    br_laws_cases,
    check_backend,
    financebench_dev,
    retrieval_scores,
)
from tests.support.eval_suites import write_suite

FILING = "https://acme.test/10k.pdf"
OTHER = "https://acme.test/19.pdf"


def _financebench(folder: Path) -> Path:
    folder.mkdir()
    documents = [
        {"doc_name": "ACME_2018_10K", "company": "ACME", "doc_link": FILING},
        {"doc_name": "ACME_2019_10K", "company": "ACME", "doc_link": OTHER},
    ]
    questions = [
        {  # line 1: development
            "financebench_id": "fb1",
            "doc_name": "ACME_2018_10K",
            "question": "What was ACME's FY2018 capex?",
            "evidence": [{"evidence_page_num": 59}],
        },
        {  # line 2: held out
            "financebench_id": "fb2",
            "doc_name": "ACME_2018_10K",
            "question": "Held-out question?",
            "evidence": [{"evidence_page_num": 3}],
        },
        {  # line 3: development, two gold pages in two filings
            "financebench_id": "fb3",
            "doc_name": "ACME_2019_10K",
            "question": "How did ACME's revenue change from 2018 to 2019?",
            "evidence": [
                {"doc_name": "ACME_2019_10K", "evidence_page_num": 9},
                {"doc_name": "ACME_2018_10K", "evidence_page_num": 59},
            ],
        },
    ]
    for name, rows in (("documents.jsonl", documents), ("questions.jsonl", questions)):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


def _ranks(suite: RetrievalSuite, query: int, urls: list[str]) -> tuple[int | None, ...]:
    return suite.ranks(
        [(url, f"passage {n}") for n, url in enumerate(urls)], suite.queries[query][1]
    )


def test_the_development_half_is_the_odd_lines(tmp_path: Path) -> None:
    suite = financebench_dev(folder=_financebench(tmp_path / "fb"))

    assert [question for question, _ in suite.queries] == [
        "What was ACME's FY2018 capex?",
        "How did ACME's revenue change from 2018 to 2019?",
    ]
    assert suite.folder == tmp_path / "fb" / "pdfs"


def test_a_zero_based_gold_page_is_found_at_its_one_based_page_url(tmp_path: Path) -> None:
    suite = financebench_dev(folder=_financebench(tmp_path / "fb"))

    # evidence_page_num 59 is the 60th page: #page=60.
    assert _ranks(suite, 0, [f"{FILING}#page=59", f"{FILING}#page=60"]) == (2,)
    assert _ranks(suite, 0, [f"{FILING}#page=59", f"{FILING}#page=61"]) == (None,)
    # The same page of another filing is not the gold page.
    assert _ranks(suite, 0, [f"{OTHER}#page=60"]) == (None,)


def test_the_suites_one_page_slack_takes_the_neighbours(tmp_path: Path) -> None:
    suite = financebench_dev(page_slack=1, folder=_financebench(tmp_path / "fb"))

    assert _ranks(suite, 0, [f"{FILING}#page=59"]) == (1,)
    assert _ranks(suite, 0, [f"{FILING}#page=61"]) == (1,)
    assert _ranks(suite, 0, [f"{FILING}#page=58", f"{FILING}#page=62"]) == (None,)


def test_gold_pages_rank_among_distinct_pages_each_counted_once(tmp_path: Path) -> None:
    suite = financebench_dev(folder=_financebench(tmp_path / "fb"))
    hits = [
        f"{FILING}#page=3",
        f"{FILING}#page=3",  # a second passage of page 3 takes no rank
        f"{FILING}#page=60",
        f"{FILING}#page=60",
        f"{OTHER}#page=10",
    ]

    # fb3 has two gold pages: each is an item of its own.
    assert _ranks(suite, 1, hits) == (3, 2)


def test_a_required_passage_is_in_its_document_and_holds_every_term(tmp_path: Path) -> None:
    suite = br_laws_cases(write_suite(tmp_path / "suite"))
    items = suite.queries[0][1]
    (url,) = items[0].urls
    hits = [
        (url, "Art. 26. Os créditos de energia elétrica expiram em 60 (sessenta) meses"),
        ("file:///elsewhere.md", "potência instalada menor ou igual a 75 kW"),
        (url, "XI - microgeração distribuída: potência instalada até **75   KW**"),
    ]

    assert suite.unit_name == "passage"
    assert suite.ranks(hits, items) == (3,)


class _Search:
    name = "fake"
    kind: SourceKind = LIBRARY

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
        self.limits: list[int] = []

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        self.limits.append(limit)
        return [
            SearchHit(url=url, title="t", snippet="s", rank=n, provider="fake", passage="p")
            for n, url in enumerate(self.urls[:limit], 1)
        ]


def test_retrieval_scores_asks_each_question_of_the_search(tmp_path: Path) -> None:
    suite = financebench_dev(folder=_financebench(tmp_path / "fb"))
    search = _Search([f"{OTHER}#page=10", f"{FILING}#page=60"])

    scores = retrieval_scores(search, suite, pool=7)

    assert search.limits == [7, 7]
    # fb1: page 60 second; fb3: page 10 first, page 60 second.
    assert (scores.found[5], scores.items) == (3, 3)
    assert scores.mrr == pytest.approx((0.5 + 1.0) / 2)


@pytest.mark.parametrize("store", ["opensearch://localhost:9200", "tantivy", "/var/index"])
def test_a_store_with_no_backend_is_refused_before_anything_runs(store: str) -> None:
    check_backend("embedded")
    check_backend("postgresql://localhost/fonte")
    with pytest.raises(SystemExit, match="give 'embedded' or a postgresql:// store URL"):
        check_backend(store)
