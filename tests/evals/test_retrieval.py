"""Recall@k and MRR from ranked units: 1-based ranks, a unit counted once, every required
item of a query counted, reciprocal rank fusion."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from evals.retrieval import (
    distinct,
    fuse_ranks,
    item_ranks,
    markdown_table,
    mean_reciprocal_rank,
    recall_at,
    reciprocal_rank,
    score,
    scores_row,
)


def _is(unit: str) -> Callable[[str], bool]:
    return lambda found: found == unit


def test_ranks_are_one_based() -> None:
    assert item_ranks(["p1", "p2", "p3"], [_is("p1"), _is("p3")]) == (1, 3)


def test_a_unit_repeated_down_the_list_keeps_its_first_rank_and_takes_no_other() -> None:
    # Three passages of page 10, then page 60: page 60 is the second page, not the fourth.
    assert item_ranks(["p10", "p10", "p10", "p60"], [_is("p60"), _is("p10")]) == (2, 1)
    assert distinct(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]


def test_an_item_not_in_the_list_has_no_rank() -> None:
    assert item_ranks(["p1"], [_is("p9")]) == (None,)
    assert item_ranks([], [_is("p9")]) == (None,)


def test_an_item_two_units_hold_is_found_once_at_the_better_rank() -> None:
    ranks = item_ranks(["p1", "p2", "p3", "p4"], [lambda unit: unit in {"p4", "p2"}])

    assert ranks == (2,)
    assert recall_at([ranks], 5) == 1.0


def test_recall_at_k_counts_rank_k_and_not_rank_k_plus_one() -> None:
    assert recall_at([(5,)], 5) == 1.0
    assert recall_at([(6,)], 5) == 0.0
    assert recall_at([(1,)], 1) == 1.0


def test_recall_counts_every_required_item_of_a_question_with_several_gold_pages() -> None:
    # One question, three gold pages at ranks 1, 7 and not found; another with one at 3.
    queries = [(1, 7, None), (3,)]

    assert recall_at(queries, 5) == 2 / 4
    assert recall_at(queries, 10) == 3 / 4
    assert score(queries).found == {5: 2, 10: 3, 50: 3}
    assert score(queries).items == 4
    assert score(queries).queries == 2


def test_mrr_takes_each_querys_best_ranked_item_within_the_cutoff() -> None:
    assert reciprocal_rank((7, 2, None)) == 0.5
    assert reciprocal_rank((None,)) == 0.0
    assert reciprocal_rank((50,), cutoff=50) == 1 / 50
    assert reciprocal_rank((51,), cutoff=50) == 0.0
    # Averaged over queries, not over items.
    assert mean_reciprocal_rank([(1, 4), (2,), (None,)]) == pytest.approx((1 + 0.5 + 0) / 3)
    assert mean_reciprocal_rank([]) == 0.0


def test_recall_needs_a_positive_k() -> None:
    with pytest.raises(ValueError, match="k >= 1"):
        recall_at([(1,)], 0)


def test_no_item_at_all_scores_zero_rather_than_dividing_by_zero() -> None:
    scores = score([])

    assert scores.recall == {5: 0.0, 10: 0.0, 50: 0.0}
    assert scores.mrr == 0.0


def test_rrf_sums_reciprocal_ranks_over_the_rankings() -> None:
    # b is second in both (2/62) and beats a, first in one only (1/61).
    fused = fuse_ranks([["a", "b", "c"], ["d", "b", "e"]], k=60)

    assert fused[0] == "b"
    assert set(fused) == {"a", "b", "c", "d", "e"}
    # a and d tie: the one met first comes first.
    assert fused[1:3] == ["a", "d"]


def test_rrf_weights_and_a_rankings_own_duplicates() -> None:
    assert fuse_ranks([["a"], ["d"]], k=60, weights=(1.0, 2.0)) == ["d", "a"]
    # A ranking repeating "a" counts it once, at its first rank.
    assert fuse_ranks([["a", "a", "b"], ["b"]], k=60)[0] == "b"
    with pytest.raises(ValueError, match="one weight per ranking"):
        fuse_ranks([["a"]], weights=(1.0, 2.0))


def test_a_row_shows_counts_shares_and_the_mrr() -> None:
    row = scores_row("keyword", score([(1, None), (12,)]))

    assert row == ["keyword", "1/3 (33%)", "1/3 (33%)", "2/3 (67%)", "0.542"]
    assert markdown_table(["a", "b"], [["1", "2"]]).splitlines() == [
        "| a | b |",
        "| --- | --- |",
        "| 1 | 2 |",
    ]
