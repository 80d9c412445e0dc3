"""BM25 over the passages of every segment, and where each passage sits.

Scores follow Lucene's BM25 (as bm25s's default method does), computed at query time from
the live passages of all segments: a passage of a removed or replaced document is dead and
counts neither in the scores nor in the statistics (passage count, mean length, document
frequency), so an index grown file by file ranks exactly as one built at once.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.sources.library.index.segment import Segment

# Anserini's passage-retrieval setting: a lower k1 and b than bm25s's defaults (1.5, 0.75)
# ranked FinanceBench gold pages better and the br-laws cases no worse (evals/bench_library).
BM25_PARAMETERS = {"k1": 0.9, "b": 0.4}


class PassageRef(NamedTuple):
    """Passage `text[start:end]` of page `page` (0-based; 0 for unpaged) of `document`."""

    document: int
    page: int
    start: int
    end: int


class PassageIndex:
    """The passages of `segments`; `document_numbers[i][d]` is the library's number for
    document `d` of segment `i`, or -1 when that document is gone (its passages are dead)."""

    def __init__(
        self,
        vocabulary: dict[str, int],
        segments: list[Segment],
        document_numbers: list[npt.NDArray[np.int64]],
    ) -> None:
        self._vocabulary = vocabulary
        self._segments = segments
        sizes = [len(segment) for segment in segments]
        self._starts = np.concatenate(([0], np.cumsum(sizes, dtype=np.int64)))
        owners = [
            numbers[np.asarray(segment.passages[:, 0])]
            for segment, numbers in zip(segments, document_numbers, strict=True)
        ]
        documents = np.concatenate(owners) if owners else np.zeros(0, dtype=np.int64)
        self._live = documents >= 0
        self._documents = np.where(self._live, documents, 0).astype(np.int64)
        lengths = [np.asarray(segment.lengths, dtype=np.float32) for segment in segments]
        self._lengths = np.concatenate(lengths) if lengths else np.zeros(0, np.float32)
        self._live_count = int(self._live.sum())
        live_lengths = self._lengths[self._live]
        self._mean_length = float(live_lengths.mean()) if self._live_count else 1.0

    def __len__(self) -> int:
        """Live passages."""
        return self._live_count

    def ref(self, passage: int) -> PassageRef:
        segment = int(np.searchsorted(self._starts, passage, side="right")) - 1
        _, page, start, end = (
            int(v) for v in self._segments[segment].passages[passage - self._starts[segment]]
        )
        return PassageRef(int(self._documents[passage]), page, start, end)

    def passage_documents(self) -> npt.NDArray[np.int64]:
        """The document number of each passage (dead passages: 0, and they never score)."""
        return self._documents

    def scores(self, query_tokens: list[str]) -> npt.NDArray[np.float32]:
        """The BM25 score of every passage (each distinct token counted once)."""
        scores = np.zeros(len(self._lengths), dtype=np.float32)
        k1, b = BM25_PARAMETERS["k1"], BM25_PARAMETERS["b"]
        for token in dict.fromkeys(query_tokens):
            term = self._vocabulary.get(token)
            if term is None:
                continue
            passages, counts = self._postings(term)
            if len(passages) == 0:
                continue
            idf = math.log(1 + (self._live_count - len(passages) + 0.5) / (len(passages) + 0.5))
            norm = k1 * ((1 - b) + b * self._lengths[passages] / self._mean_length)
            frequencies = counts.astype(np.float32)
            scores[passages] += np.float32(idf) * frequencies / (norm + frequencies)
        return scores

    def _postings(self, term: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
        """The live passages holding `term` (global numbers) and its count in each."""
        found: list[npt.NDArray[np.int64]] = []
        counts: list[npt.NDArray[np.uint16]] = []
        for segment, start in zip(self._segments, self._starts.tolist(), strict=False):
            passages, frequencies = segment.term_postings(term)
            if len(passages):
                found.append(passages.astype(np.int64) + start)
                counts.append(np.asarray(frequencies))
        if not found:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint16)
        everywhere = np.concatenate(found)
        live = self._live[everywhere]
        return everywhere[live], np.concatenate(counts)[live]
