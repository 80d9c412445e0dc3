import bm25s
import numpy as np

from engine.sources.library.index.passage_index import (
    BM25_PARAMETERS,
    PassageIndex,
    PassageRef,
)
from engine.sources.library.index.segment import build_segment
from engine.sources.library.index.vocabulary import Vocabulary
from engine.text.tokens import tokenize
from tests.support.index_segments import tokens_of

TEXTS = [
    ("Solar panels on roofs. Solar again.", "Solar tariffs in 2023."),
    ("Wind turbines offshore, wind farms.",),
    ("Battery storage and solar roofs.",),
    ("Hydrogen costs and battery prices.",),
]
QUERIES = [["solar"], ["battery", "roof"], ["wind", "solar", "hydrogen"], ["unknown"]]


def _bm25s_scores(passages: list[str], query: list[str]) -> np.ndarray:
    retriever = bm25s.BM25(**BM25_PARAMETERS)
    retriever.index([tokenize(p) for p in passages], show_progress=False)
    ids = [retriever.vocab_dict[t] for t in query if t in retriever.vocab_dict]
    if not ids:
        return np.zeros(len(passages), dtype=np.float32)
    scores: np.ndarray = retriever.get_scores_from_ids(ids)
    return scores


def _passage_texts(documents: list[tuple[str, ...]]) -> list[str]:
    return [text for texts in documents for text in texts]


def test_scores_over_two_segments_equal_bm25s_over_all_passages() -> None:
    vocabulary = Vocabulary()
    tokens = [tokens_of(vocabulary, texts) for texts in TEXTS]
    segments = [
        build_segment("a", tokens[:2], len(vocabulary)),
        build_segment("b", tokens[2:], len(vocabulary)),
    ]
    numbers = [np.array([0, 1]), np.array([2, 3])]
    index = PassageIndex(vocabulary.ids, segments, numbers)
    assert len(index) == 5
    for query in QUERIES:
        expected = _bm25s_scores(_passage_texts(TEXTS), query)
        assert np.allclose(index.scores(query), expected, atol=1e-5), query


def test_a_gone_document_neither_scores_nor_counts_in_the_statistics() -> None:
    vocabulary = Vocabulary()
    tokens = [tokens_of(vocabulary, texts) for texts in TEXTS]
    segment = build_segment("a", tokens, len(vocabulary))
    index = PassageIndex(vocabulary.ids, [segment], [np.array([0, -1, 1, 2])])
    assert len(index) == 4
    kept = [TEXTS[0], TEXTS[2], TEXTS[3]]
    for query in QUERIES:
        scores = index.scores(query)
        assert scores[2] == 0  # the wind document's passage
        expected = _bm25s_scores(_passage_texts(kept), query)
        assert np.allclose(np.delete(scores, 2), expected, atol=1e-5), query


def test_refs_and_documents_follow_the_library_numbering() -> None:
    vocabulary = Vocabulary()
    tokens = [tokens_of(vocabulary, texts) for texts in TEXTS]
    segments = [
        build_segment("a", tokens[:2], len(vocabulary)),
        build_segment("b", tokens[2:], len(vocabulary)),
    ]
    index = PassageIndex(vocabulary.ids, segments, [np.array([3, 2]), np.array([1, 0])])
    assert index.ref(1) == PassageRef(3, 1, 0, len(TEXTS[0][1]))
    assert index.ref(3) == PassageRef(1, 0, 0, len(TEXTS[2][0]))
    assert index.passage_documents().tolist() == [3, 3, 2, 1, 0]


def test_an_empty_index_scores_nothing() -> None:
    index = PassageIndex({}, [], [])
    assert len(index) == 0
    assert index.scores(["solar"]).tolist() == []
