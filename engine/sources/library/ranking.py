"""Ranking passages: BM25 on the passage, plus a bonus for words of the document's title.

Title words (the company and year of a filing, the number of a law) are prepended to every
passage of their document, so passage-level IDF makes them weak. Scored again as a field of
their own, over the set of titles (as BM25F does), they pick out the document a question
names: on FinanceBench this lifted the gold page into the top 10 for 53 questions of 88
instead of 39 (evals/bench_library).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.text.abbreviations import abbreviated_words
from engine.text.tokens import tokenize

TITLE_WEIGHT = 2.0


class RankedPassage(NamedTuple):
    passage: int
    score: float


class TitleField:
    """Scores documents by the query words their title holds, each weighted by its IDF."""

    def __init__(self, titles: list[str]) -> None:
        self._ordered = [tokenize(title.replace("_", " ")) for title in titles]
        self._titles = [
            frozenset(tokenize(title)) | frozenset(o)
            for title, o in zip(titles, self._ordered, strict=True)
        ]
        frequencies = Counter(token for title in self._titles for token in title)
        count = len(titles)
        self._idf = {
            token: math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))
            for token, frequency in frequencies.items()
        }

    def scores(
        self,
        query_tokens: list[str],
        short_names: list[str] = (),  # type: ignore[assignment]
    ) -> npt.NDArray[np.float32]:
        """Per title, the IDF of the query words it holds; a short name ("JnJ") counts for
        the title words it abbreviates (`abbreviates`)."""
        words = frozenset(query_tokens)
        totals = []
        for title, ordered in zip(self._titles, self._ordered, strict=True):
            matched = set(words & title)
            for name in short_names:
                matched |= abbreviated_words(name, ordered)
            totals.append(sum(self._idf[token] for token in matched))
        return np.array(totals, dtype=np.float32)


TITLED_DOCUMENTS = 20
"""Documents whose titles match a query best: their passages are looked for besides the
best passages overall, since their title bonus may lift one into the top."""


def titled_documents(document_bonus: npt.NDArray[np.float32]) -> list[int]:
    """The `TITLED_DOCUMENTS` documents of highest title bonus (above 0), best first."""
    matched = np.flatnonzero(document_bonus > 0)
    best = sorted(matched.tolist(), key=lambda d: (-float(document_bonus[d]), d))
    return best[:TITLED_DOCUMENTS]


def rank_passages(
    passage_scores: npt.NDArray[np.float32],
    passage_documents: npt.NDArray[np.int64],
    document_bonus: npt.NDArray[np.float32],
    limit: int,
) -> list[RankedPassage]:
    """The best `limit` passages, best first; passages BM25 did not match are left out."""
    if limit < 1 or len(passage_scores) == 0:
        return []
    bonus = TITLE_WEIGHT * document_bonus[passage_documents]
    combined = np.where(passage_scores > 0, passage_scores + bonus, 0.0)
    count = min(limit, len(combined))
    best = np.argpartition(-combined, count - 1)[:count]
    ranked = sorted(best.tolist(), key=lambda i: (-float(combined[i]), i))
    return [RankedPassage(i, float(combined[i])) for i in ranked if combined[i] > 0]
