from pathlib import Path

import numpy as np
import pytest

from engine.sources.library.index.segment import Segment, build_segment, merge_segments
from engine.sources.library.index.segment_file import DamagedFile, write_arrays
from engine.sources.library.index.vocabulary import Vocabulary
from tests.support.index_segments import tokens_of


def _documents(vocabulary: Vocabulary) -> list[tuple[str, ...]]:
    return [
        ("Solar panels on roofs.", "Solar tariffs rose."),
        ("Wind turbines offshore.",),
        ("Battery storage and solar.",),
    ]


def _segment(name: str = "s.seg") -> tuple[Segment, Vocabulary]:
    vocabulary = Vocabulary()
    documents = [tokens_of(vocabulary, texts) for texts in _documents(vocabulary)]
    return build_segment(name, documents, len(vocabulary)), vocabulary


def test_postings_by_term_with_each_passage_and_its_document() -> None:
    segment, vocabulary = _segment()
    assert segment.document_count == 3
    assert len(segment) == 4
    assert segment.passages[:, 0].tolist() == [0, 0, 1, 2]
    assert segment.passages[1].tolist() == [0, 1, 0, len("Solar tariffs rose.")]
    passages, counts = segment.term_postings(vocabulary.ids["solar"])
    assert passages.tolist() == [0, 1, 3]
    assert counts.tolist() == [1, 1, 1]
    assert segment.lengths.tolist() == [3, 3, 3, 3]


def test_a_term_newer_than_the_segment_has_no_postings() -> None:
    segment, vocabulary = _segment()
    later = vocabulary.id_of("hydrogen")
    assert segment.term_postings(later)[0].tolist() == []
    assert segment.term_postings(later + 100)[0].tolist() == []


def test_saved_segment_opens_mapped_and_equal(tmp_path: Path) -> None:
    segment, vocabulary = _segment()
    segment.save(tmp_path / "s.seg")
    opened = Segment.open(tmp_path / "s.seg")
    assert opened.name == "s.seg"
    assert opened.document_count == 3
    for term in vocabulary.ids.values():
        assert opened.term_postings(term)[0].tolist() == segment.term_postings(term)[0].tolist()
    assert np.array_equal(opened.passages, segment.passages)


def test_arrays_that_do_not_fit_together_are_a_damaged_segment(tmp_path: Path) -> None:
    segment, _ = _segment()
    arrays = {
        "indptr": np.asarray(segment.indptr),
        "postings": np.asarray(segment.postings),
        "counts": np.asarray(segment.counts)[:-1],
        "passages": np.asarray(segment.passages),
        "lengths": np.asarray(segment.lengths),
        "documents": np.array([3], dtype=np.int64),
    }
    write_arrays(tmp_path / "bad.seg", arrays, {})
    with pytest.raises(DamagedFile, match="do not fit"):
        Segment.open(tmp_path / "bad.seg")


def test_merging_keeps_the_chosen_documents_as_if_built_from_them() -> None:
    vocabulary = Vocabulary()
    texts = _documents(vocabulary)
    tokens = [tokens_of(vocabulary, t) for t in texts]
    first = build_segment("a", tokens[:2], len(vocabulary))
    extra = tokens_of(vocabulary, ("Hydrogen electrolysers.",))
    second = build_segment("b", [tokens[2], extra], len(vocabulary))
    keep_first = np.array([False, True])
    keep_second = np.array([True, True])
    merged, numbering = merge_segments(
        "m", [(first, keep_first), (second, keep_second)], len(vocabulary)
    )
    assert [n.tolist() for n in numbering] == [[-1, 0], [1, 2]]
    expected = build_segment("e", [tokens[1], tokens[2], extra], len(vocabulary))
    assert merged.document_count == 3
    assert np.array_equal(merged.passages, expected.passages)
    assert np.array_equal(merged.lengths, expected.lengths)
    assert np.array_equal(merged.indptr, expected.indptr)
    assert np.array_equal(merged.postings, expected.postings)
    assert np.array_equal(merged.counts, expected.counts)
