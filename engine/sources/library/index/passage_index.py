"""BM25 over the passages of a library's documents, whatever store keeps them.

The store finds candidates (`backend.PassageReader.candidates`): the passages its own
relevance ranks first for the query's terms, and the best of the documents the caller
favours (those whose titles match the query: their title bonus may lift a passage of
modest BM25 into the top). Each candidate is then scored here exactly by BM25 (Lucene's
formula, as bm25s's default method computes it) from its term counts, with the statistics
of the live passages: their count and mean length from the catalog, each term's passage
frequency from the store. A candidate of a document the catalog does not name (a newer
version a refresh is writing) is left out, so an index grown file by file ranks as one
built at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.sources.library.index.backend import CandidatePassage, PassageReader
from engine.sources.library.index.catalog import CatalogColumns

# Anserini's passage-retrieval setting: a lower k1 and b than bm25s's defaults (1.5, 0.75)
# ranked FinanceBench gold pages better and the br-laws cases no worse (evals/bench_library).
BM25_PARAMETERS = {"k1": 0.9, "b": 0.4}
CANDIDATE_PASSAGES = 500
"""Passages the store's own ranking offers, scored again here: enough that BM25 with our
parameters finds its best among them (on FinanceBench and br-laws, 300 with 200 of the
titled documents already ranked as 2,000 did; each costs a stored document read)."""
FAVOURED_PASSAGES = 300
"""Passages of the favoured documents (those whose titles match) offered besides."""
CANDIDATES_PER_HIT = 20
"""For a search of many hits, at least this many candidates per hit asked for."""


class PassageRef(NamedTuple):
    """Passage `text[start:end]` of page `page` (0-based; 0 for unpaged) of `document`."""

    document: int
    page: int
    start: int
    end: int


class Matches(NamedTuple):
    """Passages matching a query, each with its document number and BM25 score."""

    refs: list[PassageRef]
    documents: npt.NDArray[np.int64]
    scores: npt.NDArray[np.float32]


class PassageIndex:
    """The passages of `documents` (the catalog's indexed entries, numbered by position)
    in the store `reader` reads; None when nothing is stored yet."""

    def __init__(self, reader: PassageReader | None, documents: CatalogColumns) -> None:
        self._reader = reader
        self._keys = documents.key
        self._numbers = dict(zip(documents.key, range(len(documents.key)), strict=True))
        self._live_count = sum(documents.passages)
        total = sum(documents.length)
        self._mean_length = total / self._live_count if self._live_count else 1.0

    def __len__(self) -> int:
        """Live passages."""
        return self._live_count

    def matches(
        self, query_tokens: list[str], favoured: Sequence[int] = (), limit: int = 10
    ) -> Matches:
        """The candidate passages holding any of `query_tokens`, scored by BM25 (each
        distinct token counted once), in document, page and position order; `favoured`
        documents' best passages among them whatever the store ranks first."""
        terms = list(dict.fromkeys(query_tokens))
        if self._reader is None or not terms or not self._live_count:
            return _no_matches()
        least = CANDIDATES_PER_HIT * limit
        found = self._reader.candidates(terms, max(CANDIDATE_PASSAGES, least))
        keys = [self._keys[number] for number in favoured]
        if keys:
            found += self._reader.candidates(terms, max(FAVOURED_PASSAGES, least), keys)
        live: dict[PassageRef, CandidatePassage] = {}
        for candidate in found:
            number = self._numbers.get(candidate.key)
            if number is not None:
                ref = PassageRef(number, candidate.page, candidate.start, candidate.end)
                live[ref] = candidate
        if not live:
            return _no_matches()
        refs = sorted(live)
        scores = self._bm25([live[ref] for ref in refs], self._idf(terms))
        documents = np.array([ref.document for ref in refs], dtype=np.int64)
        return Matches(refs, documents, scores)

    def _idf(self, terms: list[str]) -> dict[str, float]:
        assert self._reader is not None
        frequencies = self._reader.passage_frequencies(terms)
        count = self._live_count
        return {
            term: math.log(1 + (count - held + 0.5) / (held + 0.5))
            for term, held in zip(terms, (min(f, count) for f in frequencies), strict=True)
            if held > 0
        }

    def _bm25(
        self, candidates: list[CandidatePassage], idf: dict[str, float]
    ) -> npt.NDArray[np.float32]:
        k1, b = BM25_PARAMETERS["k1"], BM25_PARAMETERS["b"]
        scores = np.zeros(len(candidates), dtype=np.float32)
        for position, candidate in enumerate(candidates):
            norm = k1 * ((1 - b) + b * candidate.length / self._mean_length)
            scores[position] = sum(
                idf[term] * count / (norm + count)
                for term, count in candidate.counts.items()
                if term in idf
            )
        return scores


def _no_matches() -> Matches:
    return Matches([], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32))
