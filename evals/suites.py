"""Suites: a set of cases and the source their reports are researched in.

br-laws, FinanceBench (its questions and its company briefs) and any folder with
`cases.jsonl` + `docs/` read a local library; HotpotQA reads an offline web on loopback (the
corpus served as Wikipedia-like pages with a SearXNG endpoint, fetched by the web fetcher).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from engine import InMemorySnapshotStore
from engine.sources import Fetcher, Search
from engine.sources.library import Library, Paced
from engine.sources.web import Allowlist, CachingFetcher, FetchConfig, WebFetcher
from engine.sources.web.search import SearxngSearch
from evals.cases import (
    CASES_FILE,
    DOCS_FOLDER,
    Case,
    CaseError,
    load_financebench_cases,
    load_financebench_company_cases,
    load_folder_cases,
    load_hotpotqa_cases,
)
from evals.defaults import CORPUS, SUITE_NAMES
from evals.offline_web import OfflineWeb
from evals.web_pages import load_hotpotqa

# The offline web is one host standing in for the many a web search returns: no per-host
# politeness delay, and room for every parallel subagent at once.
OFFLINE_WEB_PER_HOST = 32


class SuiteError(CaseError):
    """An unknown suite or a missing folder; one line."""


@dataclass(frozen=True)
class Source:
    searcher: Search
    fetcher: Fetcher
    labels: tuple[str, ...] = ()


SourceOpener = Callable[[], AbstractAsyncContextManager[Source]]


@dataclass(frozen=True)
class Suite:
    name: str
    cases: tuple[Case, ...]
    open_source: SourceOpener
    """Opens the source for the whole run (a library, or the offline web) and closes it."""


def load_suite(name: str, *, corpus: Path = CORPUS, cache_dir: Path | None = None) -> Suite:
    """The suite called `name`, or the folder `name` holding cases.jsonl and docs/."""
    if name == "br-laws":
        return folder_suite(_corpus_folder(corpus, "br-laws"), cache_dir, name=name)
    if name.startswith("financebench"):
        return _financebench(name, _corpus_folder(corpus, "financebench"), cache_dir)
    if name == "hotpotqa":
        folder = _corpus_folder(corpus, "hotpotqa")
        return Suite(name, tuple(load_hotpotqa_cases(folder)), lambda: offline_web(folder))
    folder = Path(name).expanduser()
    if folder.is_dir():
        return folder_suite(folder, cache_dir)
    known = ", ".join(SUITE_NAMES)
    raise SuiteError(
        f"unknown suite {name!r}: use {known}, or a folder with {CASES_FILE} and {DOCS_FOLDER}/"
    )


def folder_suite(folder: Path, cache_dir: Path | None, *, name: str | None = None) -> Suite:
    for needed in (folder / CASES_FILE, folder / DOCS_FOLDER):
        if not needed.exists():
            raise SuiteError(f"{folder} is not a suite folder: {needed.name} is missing")
    cases = tuple(load_folder_cases(folder))
    docs = folder / DOCS_FOLDER
    return Suite(name or folder.name, cases, lambda: library_source(docs, cache_dir))


def _financebench(name: str, folder: Path, cache_dir: Path | None) -> Suite:
    loaders = {
        "financebench": (load_financebench_cases, load_financebench_company_cases),
        "financebench-questions": (load_financebench_cases,),
        "financebench-companies": (load_financebench_company_cases,),
    }
    if name not in loaders:
        raise SuiteError(f"unknown suite {name!r}: use {', '.join(SUITE_NAMES)}")
    cases = tuple(case for load in loaders[name] for case in load(folder))
    pdfs = folder / "pdfs"
    return Suite(name, cases, lambda: library_source(pdfs, cache_dir))


def _corpus_folder(corpus: Path, name: str) -> Path:
    folder = corpus / name
    if not folder.is_dir():
        raise SuiteError(f"suite {name} needs the corpus folder {folder}, which is missing")
    return folder


def _say_on_stderr(message: str) -> None:
    print(f"library: {message}", file=sys.stderr, flush=True)


@asynccontextmanager
async def library_source(
    folder: Path, cache_dir: Path | None, progress: Callable[[str], None] | None = None
) -> AsyncIterator[Source]:
    """The library of `folder`; while its index is built (minutes for a first read of 40
    PDFs), a line every few seconds on stderr says how far it got, terminal or not."""
    on_progress = progress or Paced(_say_on_stderr)
    library = await asyncio.to_thread(
        Library.open, folder, cache_dir=cache_dir, on_progress=on_progress
    )
    yield Source(library, library, (f"library:{library.folder}",))


@asynccontextmanager
async def offline_web(folder: Path) -> AsyncIterator[Source]:
    """The HotpotQA passages served on loopback, searched and fetched as the web would be."""
    pages = await asyncio.to_thread(load_hotpotqa, folder)
    with OfflineWeb(pages) as web:
        config = FetchConfig(
            allowlist=Allowlist.parse(web.bind), delay=0.0, per_host=OFFLINE_WEB_PER_HOST
        )
        async with (
            httpx.AsyncClient(trust_env=False, timeout=30.0) as client,
            WebFetcher(config) as fetcher,
        ):
            searcher = SearxngSearch(web.base_url, client=client)
            # As `fonte ask --web` reads: through a caching fetcher, which keeps each page's
            # HTML for the seen check to render (engine/sources/web/kept_html.py).
            kept = CachingFetcher(fetcher, InMemorySnapshotStore(), admit=fetcher.admit)
            yield Source(searcher, kept, (f"web:{web.base_url}",))
