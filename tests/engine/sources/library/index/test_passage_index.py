import random

import bm25s
import numpy as np
import pytest

from engine.sources.library.index import passage_index as passage_index_module
from engine.sources.library.index.passage_index import BM25_PARAMETERS, PassageRef
from engine.sources.library.ranking import TitleField, rank_passages, titled_documents
from tests.support.passage_store import StoredLibrary, stored_library

TEXTS = [
    ("Solar panels on roofs. Solar again.", "Solar tariffs in 2023."),
    ("Wind turbines offshore, wind farms.",),
    ("Battery storage and solar roofs.",),
    ("Hydrogen costs and battery prices.",),
]
QUERIES = [["solar"], ["battery", "roof"], ["wind", "solar", "hydrogen"], ["unknown"]]


def _reference_scores(library: StoredLibrary, documents: list[int], query: list[str]) -> np.ndarray:
    """bm25s over every passage of `documents`, from the tokens they were stored with."""
    passages = [p.tokens.split(" ") for n in documents for p in library.passages[n]]
    retriever = bm25s.BM25(**BM25_PARAMETERS)
    retriever.index(passages, show_progress=False)
    ids = [retriever.vocab_dict[t] for t in dict.fromkeys(query) if t in retriever.vocab_dict]
    if not ids:
        return np.zeros(len(passages), dtype=np.float32)
    scores: np.ndarray = retriever.get_scores_from_ids(ids)
    return scores


def _refs(library: StoredLibrary, documents: list[int]) -> list[PassageRef]:
    return [
        PassageRef(number, p.page, p.start, p.end)
        for number, document in enumerate(documents)
        for p in library.passages[document]
    ]


def _scores_by_ref(
    library: StoredLibrary, documents: list[int], query: list[str]
) -> dict[PassageRef, float]:
    matches = library.index(documents).matches(query)
    return dict(zip(matches.refs, matches.scores.tolist(), strict=True))


@pytest.mark.parametrize("query", QUERIES)
def test_scores_equal_bm25s_over_all_passages(query: list[str]) -> None:
    library = stored_library(TEXTS)
    everything = list(range(len(TEXTS)))
    assert len(library.index()) == 5
    expected = _reference_scores(library, everything, query)
    scored = _scores_by_ref(library, everything, query)
    for ref, score in zip(_refs(library, everything), expected.tolist(), strict=True):
        assert scored.get(ref, 0.0) == pytest.approx(score, abs=1e-5), (query, ref)


def test_a_removed_document_neither_scores_nor_counts_in_the_statistics() -> None:
    library = stored_library(TEXTS)
    with library.store.writing() as writer:
        writer.remove([library.entries[1].key])
        writer.commit()
    kept = [0, 2, 3]
    index = library.index(kept)
    assert len(index) == 4
    for query in QUERIES:
        expected = _reference_scores(library, kept, query)
        scored = _scores_by_ref(library, kept, query)
        assert {ref.document for ref in scored} <= {0, 1, 2}
        for ref, score in zip(_refs(library, kept), expected.tolist(), strict=True):
            assert scored.get(ref, 0.0) == pytest.approx(score, abs=1e-5), (query, ref)


def test_passages_of_a_document_the_catalog_does_not_name_are_left_out() -> None:
    library = stored_library(TEXTS)
    matches = library.index([0, 2, 3]).matches(["wind"])  # only the wind document has it
    assert matches.refs == []


def test_refs_follow_the_catalog_numbering() -> None:
    library = stored_library(TEXTS)
    matches = library.index([3, 2, 1, 0]).matches(["solar"])
    assert matches.refs == [
        PassageRef(1, 0, 0, len(TEXTS[2][0])),
        PassageRef(3, 0, 0, len(TEXTS[0][0])),
        PassageRef(3, 1, 0, len(TEXTS[0][1])),
    ]
    assert matches.documents.tolist() == [1, 3, 3]


def test_an_empty_index_scores_nothing() -> None:
    library = stored_library([])
    index = library.index()
    assert len(index) == 0
    assert index.matches(["solar"]).refs == []


_WORDS = (
    "revenue capital expenditure cash flow dividend segment margin tax lease debt equity "
    "energia tarifa geracao consumo credito potencia rede solar eolica contrato"
).split()


def _random_library(seed: int) -> tuple[list[tuple[str, ...]], list[str]]:
    chance = random.Random(seed)
    documents = []
    for _ in range(40):
        pages = tuple(
            " ".join(chance.choices(_WORDS, k=chance.randint(5, 60))) + "."
            for _ in range(chance.randint(1, 12))
        )
        documents.append(pages)
    titles = [f"{chance.choice(['3M', 'Acme', 'Boeing', 'Lei'])} {2015 + n % 9}" for n in range(40)]
    return documents, titles


def _reference_top(
    library: StoredLibrary, titles: TitleField, query: list[str], limit: int
) -> list[tuple[PassageRef, float]]:
    everything = list(range(len(library.entries)))
    scores = _reference_scores(library, everything, query).astype(np.float32)
    refs = _refs(library, everything)
    documents = np.array([ref.document for ref in refs], dtype=np.int64)
    ranked = rank_passages(scores, documents, titles.scores(query), limit)
    return [(refs[r.passage], r.score) for r in ranked]


@pytest.mark.parametrize("candidates", [2_000, 40])
def test_the_top_passages_with_title_bonus_are_those_of_exact_bm25_over_every_passage(
    candidates: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store offers its own best candidates (40: far fewer than the library's
    passages); the top ten are still exactly those of BM25 over every passage."""
    monkeypatch.setattr(passage_index_module, "CANDIDATE_PASSAGES", candidates)
    monkeypatch.setattr(passage_index_module, "FAVOURED_PASSAGES", candidates)
    monkeypatch.setattr(passage_index_module, "CANDIDATES_PER_HIT", 0)
    documents, titles = _random_library(7)
    library = stored_library(documents, titles)
    index = library.index()
    assert len(index) > 5 * candidates or candidates > len(index)
    field = TitleField(titles)
    for query in (["capital", "expenditure", "3m", "2018"], ["tarifa", "lei", "2020"], ["tax"]):
        title_scores = field.scores(query)
        matches = index.matches(query, titled_documents(title_scores), limit=10)
        ranked = rank_passages(matches.scores, matches.documents, title_scores, 10)
        found = [(matches.refs[r.passage], r.score) for r in ranked]
        expected = _reference_top(library, field, query, 10)
        assert [ref for ref, _ in found] == [ref for ref, _ in expected], query
        assert [s for _, s in found] == pytest.approx([s for _, s in expected], abs=1e-4)
