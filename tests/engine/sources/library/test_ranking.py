import numpy as np
import pytest

from engine.sources.library.ranking import TITLE_WEIGHT, RankedPassage, TitleField, rank_passages


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
