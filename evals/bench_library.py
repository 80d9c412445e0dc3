"""Benchmark of the library source: open and search speed, memory, and retrieval checks.

    python -m evals.bench_library [--folder DIR] [--backend STORE ...] [--cache DIR]
    python -m evals.bench_library --retrieval-only [--backend STORE ...] [--cache DIR]
    python -m evals.bench_library --scale N [--backend STORE ...]

Uses a fresh temporary cache (unless `--cache` names one), so the first open is cold (parse +
index) and the second warm. Then the retrieval benchmark: recall@5/10/50 and MRR@50 of the
FinanceBench development half's gold pages and of the br-laws cases' required passages, as
`Library.search` ranks them, one table per `--backend` (a store URL; today only `embedded`,
the index the engine uses; see `open_backend`).
`--scale N` times whole `fonte ask` runs (process start to report.json) over a synthetic library
of N distinct documents (see `evals.bench_scale`), once per `--backend` (`embedded`, the
index in the cache, by default; a `postgresql://` URL: the shared store, in schemas of its
own made and dropped there). Prints figures; it asserts nothing (speed is
measured here, not in tests).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TypedDict

from engine import ExtractiveModel, Orchestrator, split_page
from engine.planning import make_brief
from engine.sources import Search, SearchHit
from engine.sources.library import Library, LibraryDocument, is_store_url
from engine.text import collapse_whitespace
from evals.bench_scale import EMBEDDED
from evals.cases import RequiredItem, load_financebench_cases, load_folder_cases
from evals.defaults import CORPUS
from evals.metrics import cites, has_terms
from evals.retrieval import (
    Rank,
    Scores,
    item_ranks,
    markdown_table,
    score,
    scores_headers,
    scores_row,
)

FINANCEBENCH = CORPUS / "financebench"
BR_LAWS = CORPUS / "br-laws"
TIMED_QUESTIONS = 10
RETRIEVAL_POOL = 200
"""Passages asked of the backend per question; FinanceBench ranks the distinct pages they
cite, so its recall@50 is of the first 50 pages within these."""

LAW_QUERY = (
    "Quais são os limites de potência instalada que separam microgeração e minigeração "
    "distribuída no Brasil?"
)
LAW_FILE = "marco_legal_da_micro_e_minigeracao_de_energia_lei_14300.md"
CAPEX_QUERY = "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"


class Evidence(TypedDict):
    evidence_page_num: int  # 0-based


class Question(TypedDict):
    question: str
    doc_name: str
    evidence: list[Evidence]


@dataclass(frozen=True)
class Gold:
    """A hit counts when it cites `document` (at `page`, ±`page_slack`, if given) and its
    passage holds every one of `terms`."""

    document: str
    page: int | None = None
    page_slack: int = 0
    terms: tuple[str, ...] = ()


@dataclass(frozen=True)
class RetrievalSuite:
    """Queries and the required items each must retrieve, and how a hit (its URL and
    passage) is reduced to the unit the items are judged on."""

    name: str
    folder: Path
    queries: tuple[tuple[str, tuple[RequiredItem, ...]], ...]
    unit: Callable[[str, str], Hashable]
    holds: Callable[[RequiredItem, Hashable], bool]
    unit_name: str

    def ranks(
        self, hits: Sequence[tuple[str, str]], items: Sequence[RequiredItem]
    ) -> tuple[Rank, ...]:
        units = [self.unit(url, passage) for url, passage in hits]
        return item_ranks(units, [partial(self.holds, item) for item in items])


def financebench_dev(page_slack: int = 0, folder: Path = FINANCEBENCH) -> RetrievalSuite:
    """The development half of FinanceBench (odd lines of questions.jsonl, docs/evals.md):
    each gold page (the gold document at 0-based `evidence_page_num`, cited 1-based) is an
    item, ranked among the distinct pages the hits cite; `page_slack` 1 is the suites' ±1."""
    cases = load_financebench_cases(folder)[DEV_LINES]
    queries = tuple(
        (case.question, tuple(replace(item, page_slack=page_slack) for item in case.required))
        for case in cases
    )
    slack = f" ±{page_slack}" if page_slack else ""
    return RetrievalSuite(
        f"financebench dev, gold page{slack}",
        folder / "pdfs",
        queries,
        unit=_page_unit,
        holds=_cites_page,
        unit_name="page",
    )


def br_laws_cases(folder: Path = BR_LAWS) -> RetrievalSuite:
    """The br-laws cases: each required item (its document, and every one of its terms in
    the passage, as the suite counts it) ranked among the passages."""
    cases = load_folder_cases(folder)
    return RetrievalSuite(
        "br-laws required passages",
        folder / "docs",
        tuple((case.question, case.required) for case in cases),
        unit=_passage_unit,
        holds=_holds_passage,
        unit_name="passage",
    )


DEV_LINES = slice(0, None, 2)
"""Odd lines (1-based) of FinanceBench's questions.jsonl: its development half."""


def _page_unit(url: str, passage: str) -> Hashable:
    return url


def _passage_unit(url: str, passage: str) -> Hashable:
    return (url, passage)


def _cites_page(item: RequiredItem, unit: Hashable) -> bool:
    return isinstance(unit, str) and cites(item, unit)


def _holds_passage(item: RequiredItem, unit: Hashable) -> bool:
    if not isinstance(unit, tuple):
        return False
    url, passage = unit
    return cites(item, url) and has_terms(passage, item.terms)


class PhaseClock:
    """Notes when `Library.open` moves from reading files to indexing them."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.indexing = self.started

    def __call__(self, message: str) -> None:
        if message.startswith("indexing 1/"):
            self.indexing = time.perf_counter()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Benchmark of the library source.")
    parser.add_argument("--folder", type=Path, default=FINANCEBENCH / "pdfs")
    parser.add_argument("--scale", type=int, help="time fonte ask on N synthetic documents")
    parser.add_argument(
        "--backend",
        action="append",
        metavar="STORE",
        help=f"{EMBEDDED!r} (the cache's index, the default) or a postgresql:// store URL: "
        "what retrieval and --scale are measured through (repeatable)",
    )
    parser.add_argument("--cache", type=Path, help="cache folder to use (default: a fresh one)")
    parser.add_argument(
        "--retrieval-only", action="store_true", help="only the retrieval benchmark"
    )
    arguments = parser.parse_args(argv)
    if arguments.scale is not None:
        from evals.bench_scale import run_scale

        for store in arguments.backend or [EMBEDDED]:
            run_scale(arguments.scale, BR_LAWS / "docs", LAW_QUERY, store)
        return
    folder: Path = arguments.folder
    backends: list[str] = arguments.backend or [EMBEDDED]
    for store in backends:
        check_backend(store)
    with tempfile.TemporaryDirectory(prefix="fonte-bench-") as temporary:
        cache: Path = arguments.cache or Path(temporary)
        if not arguments.retrieval_only:
            run_benchmark(folder.resolve(), cache)
        for store in backends:
            print_retrieval(store, cache)


def check_backend(store: str) -> None:
    """Refuses, before anything is timed, a store no backend is written for."""
    if store != EMBEDDED and not is_store_url(store):
        raise SystemExit(f"backend {store!r}: give {EMBEDDED!r} or a postgresql:// store URL")


def open_backend(store: str, folder: Path, cache: Path) -> Search:
    """The search of `folder` through the store `store` names: `embedded` is the library's
    own index in `cache`, as the engine opens it; a `postgresql://` URL the shared store
    (filled from `folder` first, incrementally, as `fonte library index --store` does)."""
    check_backend(store)
    shared = None if store == EMBEDDED else store
    return Library.open(folder, cache_dir=cache, on_warning=_ignore, store=shared)


def retrieval_scores(searcher: Search, suite: RetrievalSuite, pool: int = RETRIEVAL_POOL) -> Scores:
    ranks = []
    for question, items in suite.queries:
        hits = asyncio.run(searcher.search(question, pool))
        ranks.append(suite.ranks([(hit.url, hit.passage) for hit in hits], items))
    return score(ranks)


def print_retrieval(store: str, cache: Path) -> None:
    suites = [financebench_dev(), financebench_dev(page_slack=1), br_laws_cases()]
    rows: list[list[str]] = []
    scores: Scores | None = None
    searchers: dict[Path, Search] = {}
    for suite in suites:
        if not suite.folder.is_dir():
            print(f"  skipped {suite.name}: {suite.folder} not found")
            continue
        if suite.folder not in searchers:
            searchers[suite.folder] = open_backend(store, suite.folder, cache)
        scores = retrieval_scores(searchers[suite.folder], suite)
        name = f"{suite.name} ({scores.items} in {scores.queries} queries, by {suite.unit_name})"
        rows.append(scores_row(name, scores))
    if scores is not None:
        print(f"\nretrieval, backend {store} (top {RETRIEVAL_POOL} passages asked per query)\n")
        print(markdown_table(scores_headers(scores, "required items"), rows))


def run_benchmark(folder: Path, cache: Path) -> None:
    print(f"library benchmark: {folder}")
    clock = PhaseClock()
    library = Library.open(folder, cache_dir=cache, on_warning=_print_warning, on_progress=clock)
    cold = time.perf_counter() - clock.started
    parse = clock.indexing - clock.started
    started = time.perf_counter()
    library = Library.open(folder, cache_dir=cache, on_warning=_print_warning)
    warm = time.perf_counter() - started
    documents = library.documents()
    pages = sum(document.page_count or 1 for document in documents)
    print(f"documents {len(documents)}, pages {pages}, passages {library.passage_count()}")
    print(
        f"cold open   {cold:6.2f} s  (fresh cache: read {parse:.2f} s, index {cold - parse:.2f} s)"
    )
    print(f"warm open   {warm:6.2f} s  (index loaded from cache: {library.index_from_cache})")
    questions = _financebench_questions()[:TIMED_QUESTIONS]
    if questions:
        started = time.perf_counter()
        for question in questions:
            asyncio.run(library.search(question["question"]))
        per_question = (time.perf_counter() - started) / len(questions)
        print(f"search      {per_question * 1000:6.1f} ms per question ({len(questions)}, warm)")
        _time_research(folder, cache, questions)
    print(
        f"peak RSS    {_peak_rss_mb(resource.RUSAGE_SELF):6.0f} MB this process, "
        f"{_peak_rss_mb(resource.RUSAGE_CHILDREN):.0f} MB largest parse worker"
    )
    print("retrieval checks")
    _check_law_limits(cache)
    _check_capex(cache)
    _financebench_summary(cache)
    _br_laws_summary(cache)


def _time_research(folder: Path, cache: Path, questions: list[Question]) -> None:
    """A whole offline research per question, as `fonte ask` runs it on a warm cache: open the
    library, plan, subagents, verification, writing (report files not rendered)."""
    seconds: list[float] = []
    verified = 0
    for question in questions:
        started = time.perf_counter()
        library = Library.open(folder, cache_dir=cache, on_warning=_ignore)
        orchestrator = Orchestrator(ExtractiveModel(), library, library)
        report = asyncio.run(orchestrator.run(make_brief(question["question"])))
        seconds.append(time.perf_counter() - started)
        verified += len(report.verified_claims())
    print(
        f"research    {sum(seconds) / len(seconds):6.2f} s per question, warm "
        f"(max {max(seconds):.2f} s; {len(seconds)} questions, {verified} verified claims)"
    )


def _check_law_limits(cache: Path) -> None:
    library = _open_corpus(BR_LAWS / "docs", cache)
    if library is not None:
        rank = _first_rank(library, LAW_QUERY, Gold(LAW_FILE, terms=("75 kW",)), limit=50)
        print(f"  br-laws 75 kW (Lei 14.300) for {LAW_QUERY!r}: {_rank_text(rank)}")


def _check_capex(cache: Path) -> None:
    library = _open_corpus(FINANCEBENCH / "pdfs", cache)
    if library is not None:
        rank = _first_rank(library, CAPEX_QUERY, Gold("3M_2018_10K.pdf", page=60), limit=50)
        print(f"  financebench 3M_2018_10K page 60 for {CAPEX_QUERY!r}: {_rank_text(rank)}")


def _financebench_summary(cache: Path) -> None:
    library = _open_corpus(FINANCEBENCH / "pdfs", cache)
    questions = _financebench_questions()
    if library is None or not questions:
        return
    ranks: list[int | None] = []
    for question in questions:
        golds = [
            Gold(
                f"{question['doc_name']}.pdf", page=evidence["evidence_page_num"] + 1, page_slack=1
            )
            for evidence in question["evidence"]
        ]
        found = [_first_rank(library, question["question"], gold, limit=10) for gold in golds]
        ranks.append(min((rank for rank in found if rank is not None), default=None))
    print(f"  financebench, all {len(ranks)} questions, gold page ±1: {_summary(ranks)}")


def _br_laws_summary(cache: Path) -> None:
    library = _open_corpus(BR_LAWS / "docs", cache)
    cases_path = BR_LAWS / "cases.jsonl"
    if library is None or not cases_path.is_file():
        return
    ranks: list[int | None] = []
    for line in cases_path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        for item in case["obrigatorias"]:
            gold = Gold(Path(item["documento"]).name, terms=tuple(item["termos"]))
            ranks.append(_first_rank(library, case["pergunta"], gold, limit=10))
    print(f"  br-laws cases, required passages (document + terms): {_summary(ranks)}")


def _first_rank(library: Library, query: str, gold: Gold, limit: int) -> int | None:
    documents = {document.url: document for document in library.documents()}
    for hit in asyncio.run(library.search(query, limit)):
        if _matches(hit, documents, gold):
            return hit.rank
    return None


def _matches(hit: SearchHit, documents: dict[str, LibraryDocument], gold: Gold) -> bool:
    url, page = split_page(hit.url)
    document = documents.get(url)
    if document is None or document.path.name != gold.document:
        return False
    if gold.page is not None and (page is None or abs(page - gold.page) > gold.page_slack):
        return False
    passage = _loose(hit.passage)
    return all(_loose(term) in passage for term in gold.terms)


def _loose(text: str) -> str:
    """Case, whitespace and markdown emphasis ignored, as the corpus README counts terms."""
    return collapse_whitespace(text.replace("*", "").replace("_", "").casefold())


def _summary(ranks: list[int | None]) -> str:
    total = len(ranks)
    top5 = sum(1 for rank in ranks if rank is not None and rank <= 5)
    top10 = sum(1 for rank in ranks if rank is not None and rank <= 10)
    mrr = sum(1 / rank for rank in ranks if rank is not None) / max(total, 1)
    return f"top 5 {top5}/{total}, top 10 {top10}/{total}, MRR@10 {mrr:.3f}"


def _rank_text(rank: int | None) -> str:
    return "not found in the top 50" if rank is None else f"rank {rank}"


def _open_corpus(folder: Path, cache: Path) -> Library | None:
    if not folder.is_dir():
        print(f"  skipped: {folder} not found")
        return None
    return Library.open(folder, cache_dir=cache, on_warning=_ignore)


def _financebench_questions() -> list[Question]:
    path = FINANCEBENCH / "questions.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _peak_rss_mb(who: int) -> float:
    # ru_maxrss is in kilobytes on Linux (bytes on macOS).
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(who).ru_maxrss * scale / 1024 / 1024


def _print_warning(message: str) -> None:
    print(f"warning: {message}")


def _ignore(message: str) -> None:
    return None


if __name__ == "__main__":
    main()
