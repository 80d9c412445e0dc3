"""Ranking passages: BM25 on the passage, plus a bonus for words of the document's title.

Title words (the company and year of a filing, the number of a law) are prepended to every
passage of their document, so passage-level IDF makes them weak. Scored again as a field of
their own, over the set of titles (as BM25F does), they pick out the document a question
names: on FinanceBench this lifted the gold page into the top 10 for 53 questions of 88
instead of 39 (evals/bench_library).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.text.abbreviations import abbreviated_words
from engine.text.tokens import tokenize

TITLE_WEIGHT = 2.0


class RankedPassage(NamedTuple):
    passage: int
    score: float


def title_tokens(title: str) -> list[str]:
    """The tokens of `title`, in order, as the title field scores them (underscores split
    words, as any other separator): what a catalog keeps, so an opening tokenizes none."""
    return tokenize(title)


class TitleField:
    """Scores documents by the query words their title holds, each weighted by its IDF.

    The titles' tokens are kept as one string (each title's space-separated, between
    spaces, one title a line), searched per query word: building it is a join, with no
    work per title in Python, and a query looks up only its own words."""

    def __init__(self, titles: Sequence[str]) -> None:
        self._build([" ".join(title_tokens(title)) for title in titles])

    @classmethod
    def of_tokens(cls, joined_tokens: Sequence[str]) -> TitleField:
        """The field of titles given as their `title_tokens`, space-joined."""
        field = cls.__new__(cls)
        field._build(joined_tokens)
        return field

    def _build(self, joined_tokens: Sequence[str]) -> None:
        self._count = len(joined_tokens)
        self._text = " " + " \n ".join(joined_tokens) + " "
        lengths = np.fromiter(map(len, joined_tokens), dtype=np.int64, count=self._count)
        # Title n spans [starts[n], starts[n + 1]) of the text, its spaces included.
        self._starts = (
            np.concatenate(([0], np.cumsum(lengths + 3)[:-1])) if self._count else lengths
        )
        self._holders: dict[str, npt.NDArray[np.int64]] = {}

    def __len__(self) -> int:
        return self._count

    def _titles_holding(self, token: str) -> npt.NDArray[np.int64]:
        """The titles holding `token`, in order, each once."""
        found = self._holders.get(token)
        if found is None:
            needle = f" {token} "
            positions = [match.start() for match in re.finditer(re.escape(needle), self._text)]
            at = np.searchsorted(self._starts, np.array(positions, dtype=np.int64), "right")
            found = np.unique(at - 1)
            self._holders[token] = found
        return found

    def _idf(self, token: str) -> float:
        frequency = len(self._titles_holding(token))
        return math.log(1 + (self._count - frequency + 0.5) / (frequency + 0.5))

    def _ordered(self, number: int) -> list[str]:
        start = int(self._starts[number])
        end = self._text.index("\n", start) if number + 1 < self._count else len(self._text)
        return self._text[start:end].split()

    def scores(
        self,
        query_tokens: list[str],
        short_names: list[str] = (),  # type: ignore[assignment]
    ) -> npt.NDArray[np.float32]:
        """Per title, the IDF of the query words it holds; a short name ("JnJ") counts for
        the title words it abbreviates (`abbreviates`)."""
        words = frozenset(query_tokens)
        totals = np.zeros(self._count, dtype=np.float64)
        for token in sorted(words):
            holders = self._titles_holding(token)
            if len(holders):
                totals[holders] += self._idf(token)
        for number, extra in self._abbreviated(words, short_names).items():
            totals[number] += sum(self._idf(token) for token in extra)
        return totals.astype(np.float32)

    def _abbreviated(
        self, words: frozenset[str], short_names: Sequence[str]
    ) -> dict[int, set[str]]:
        """Per title, the words short names abbreviate in it that the query lacks."""
        extra: dict[int, set[str]] = {}
        for name in short_names:
            if len(name) < 3 or not name.isalpha():
                continue  # abbreviates nothing (`abbreviated_words`)
            # Only a title with a word starting with the name's first letter can hold one.
            starting = re.finditer(f" {re.escape(name[0])}", self._text)
            at = np.searchsorted(self._starts, [m.start() for m in starting], "right")
            for number in np.unique(at - 1).tolist():
                found = abbreviated_words(name, self._ordered(number)) - words
                if found:
                    extra.setdefault(number, set()).update(found)
        return extra


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
