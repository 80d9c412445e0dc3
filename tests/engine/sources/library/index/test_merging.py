import numpy as np
import pytest

from engine.sources.library.index import merging
from engine.sources.library.index.merging import SEGMENTS_PER_TIER, plan_merges
from engine.sources.library.index.segment import Segment, build_segment
from engine.sources.library.index.vocabulary import Vocabulary
from tests.support.index_segments import tokens_of


def _segments(count: int, documents: int = 1) -> list[Segment]:
    vocabulary = Vocabulary()
    return [
        build_segment(
            f"s{n}",
            [tokens_of(vocabulary, (f"Document {n}.{d} text.",)) for d in range(documents)],
            len(vocabulary),
        )
        for n in range(count)
    ]


def _all_live(segments: list[Segment]) -> list[np.ndarray]:
    return [np.ones(s.document_count, dtype=bool) for s in segments]


def test_a_full_tier_merges_into_one() -> None:
    segments = _segments(SEGMENTS_PER_TIER)
    assert plan_merges(segments, _all_live(segments)) == [list(range(SEGMENTS_PER_TIER))]


def test_a_tier_not_yet_full_stays() -> None:
    segments = _segments(SEGMENTS_PER_TIER - 1)
    assert plan_merges(segments, _all_live(segments)) == []


def test_a_mostly_dead_segment_is_rewritten_alone() -> None:
    segments = _segments(3, documents=4)
    live = _all_live(segments)
    live[1][:3] = False  # three of its four documents gone
    live[2][:] = False
    assert plan_merges(segments, live) == [[1], [2]]


def test_full_segments_take_part_in_no_tier_merge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(merging, "FULL_SEGMENT_PASSAGES", 2)
    full = _segments(SEGMENTS_PER_TIER, documents=2)
    small = _segments(SEGMENTS_PER_TIER)
    segments = full + small
    assert plan_merges(segments, _all_live(segments)) == [
        list(range(SEGMENTS_PER_TIER, 2 * SEGMENTS_PER_TIER))
    ]
    live = _all_live(full)
    live[0][:] = [True, False]  # half dead, not more: kept as it is
    live[1][:] = False  # all dead: rewritten (to nothing)
    assert plan_merges(full, live) == [[1]]
