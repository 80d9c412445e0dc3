import math
from collections import Counter

import numpy as np
import pytest

from engine.sources.library.ranking import (
    TITLE_WEIGHT,
    RankedPassage,
    TitleField,
    rank_passages,
    title_tokens,
)
from engine.text.abbreviations import abbreviated_words
from engine.text.tokens import tokenize


def test_title_field_scores_rarer_title_words_higher() -> None:
    titles = TitleField(["3M 2018 10K", "3M 2022 10K", "Amazon 2018 10K", "Boeing 2018 10K"])
    scores = titles.scores(["3m", "2018", "capex"])
    assert scores.tolist()[0] == pytest.approx(scores[1] + scores[2])
    assert scores[0] > scores[1] > scores[2] == scores[3] > 0
    assert titles.scores(["nothing"]).tolist() == [0, 0, 0, 0]


def test_rank_passages_adds_the_title_bonus_of_each_passage_document() -> None:
    passage_scores = np.array([1.0, 3.0, 2.0], dtype=np.float32)
    documents = np.array([0, 1, 0], dtype=np.int64)
    bonus = np.array([1.5, 0.0], dtype=np.float32)
    ranked = rank_passages(passage_scores, documents, bonus, limit=10)
    assert [r.passage for r in ranked] == [2, 0, 1]
    assert [r.score for r in ranked] == pytest.approx(
        [2.0 + TITLE_WEIGHT * 1.5, 1.0 + TITLE_WEIGHT * 1.5, 3.0]
    )


def test_passages_bm25_did_not_match_are_left_out_whatever_their_title() -> None:
    ranked = rank_passages(
        np.array([0.0, 0.5], dtype=np.float32),
        np.array([0, 1], dtype=np.int64),
        np.array([9.0, 0.0], dtype=np.float32),
        limit=10,
    )
    assert ranked == [RankedPassage(1, 0.5)]


def test_limit_and_ties_are_deterministic() -> None:
    scores = np.array([1.0, 2.0, 2.0, 0.5], dtype=np.float32)
    zeros = np.zeros(1, dtype=np.float32)
    documents = np.zeros(4, dtype=np.int64)
    assert [r.passage for r in rank_passages(scores, documents, zeros, limit=2)] == [1, 2]
    assert rank_passages(scores, documents, zeros, limit=0) == []


def _reference_scores(titles: list[str], query: list[str], short_names: list[str]) -> list[float]:
    """The title field as it was, a loop over every title: what the index must match."""
    ordered = [tokenize(title) for title in titles]
    sets = [frozenset(tokens) for tokens in ordered]
    frequencies = Counter(token for title in sets for token in title)
    idf = {
        token: math.log(1 + (len(titles) - frequency + 0.5) / (frequency + 0.5))
        for token, frequency in frequencies.items()
    }
    totals = []
    for title, words in zip(sets, ordered, strict=True):
        matched = set(frozenset(query) & title)
        for name in short_names:
            matched |= abbreviated_words(name, words)
        totals.append(sum(idf[token] for token in matched))
    return totals


def test_title_field_scores_as_a_loop_over_every_title_does() -> None:
    titles = [
        "JOHNSON_JOHNSON_2022_10K",
        "AMERICANEXPRESS 2022 10K",
        "American Express 2021 annual report",
        "MGMRESORTS_2018_10K",
        "",
        "Lei 14.300 de 2022: micro e minigeração distribuída",
        "Resolução Normativa ANEEL 1.000 de 2021",
        "a",
        "Johnson Controls 2019 10K Johnson",
    ]
    field = TitleField(titles)
    assert len(field) == len(titles)
    queries = [
        (["johnson", "2022", "10k"], ["jnj"]),
        (["american", "express", "revenue"], ["amex"]),
        (["mgm", "2018"], ["mgm", "x", "ab1"]),
        (["lei", "14300", "minigeracao"], []),
        (["aneel", "2021", "resolucao"], ["aneel"]),
        (["nothing"], ["zzz"]),
        ([], []),
    ]
    for query, names in queries:
        assert field.scores(query, names).tolist() == pytest.approx(
            _reference_scores(titles, query, names)
        ), (query, names)


def test_a_field_of_kept_title_tokens_scores_as_one_of_the_titles() -> None:
    titles = ["3M 2018 10K", "Amazon 2018 10K", "Lei nº 14.300"]
    kept = TitleField.of_tokens([" ".join(title_tokens(title)) for title in titles])
    query = ["3m", "2018", "14300", "lei"]
    assert kept.scores(query).tolist() == TitleField(titles).scores(query).tolist()
    assert TitleField([]).scores(["3m"]).tolist() == []
