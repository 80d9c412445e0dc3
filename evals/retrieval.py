"""Retrieval scores from ranked hit lists: recall@k of required items and MRR.

Pure: a query is its hit list, each hit already reduced to its *unit* (the page it cites for
page-level gold such as FinanceBench's, the passage itself for passage-level gold such as
br-laws' required terms), and its required items, each a predicate over units. A unit that
comes again further down the list is the same unit: it keeps the rank of its first
occurrence and takes no rank of its own, so the hits `p3, p3, p7` rank p7 second. Ranks are
1-based.

recall@k is micro-averaged over required items (a question with three gold pages counts
three items, as the suites count required evidence); MRR is averaged over queries, each
scoring 1/rank of its best-ranked required item within the cutoff (0 past it or not found).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

U = TypeVar("U", bound=Hashable)

RECALL_CUTOFFS = (5, 10, 50)
MRR_CUTOFF = 50

Rank = int | None
"""1-based rank of a required item's first matching unit; None when no unit matches."""


def distinct(units: Sequence[U]) -> list[U]:
    """`units` in order, each once (at its first occurrence)."""
    return list(dict.fromkeys(units))


def item_ranks(units: Sequence[U], items: Sequence[Callable[[U], bool]]) -> tuple[Rank, ...]:
    """For each required item (a predicate saying which units hold it), the rank among the
    distinct `units` of the first that does."""
    ranked = distinct(units)
    return tuple(
        next((rank for rank, unit in enumerate(ranked, 1) if holds(unit)), None) for holds in items
    )


def recall_at(queries: Sequence[Sequence[Rank]], k: int) -> float:
    """Share of all required items (of all queries) ranked within the top `k`."""
    if k < 1:
        raise ValueError(f"recall@k needs k >= 1, not {k}")
    total = sum(len(ranks) for ranks in queries)
    return _found(queries, k) / total if total else 0.0


def _found(queries: Sequence[Sequence[Rank]], k: int) -> int:
    return sum(1 for ranks in queries for rank in ranks if rank is not None and rank <= k)


def reciprocal_rank(ranks: Sequence[Rank], cutoff: int = MRR_CUTOFF) -> float:
    """1/rank of the best-ranked item within `cutoff`; 0 when none is."""
    within = [rank for rank in ranks if rank is not None and rank <= cutoff]
    return 1 / min(within) if within else 0.0


def mean_reciprocal_rank(queries: Sequence[Sequence[Rank]], cutoff: int = MRR_CUTOFF) -> float:
    if not queries:
        return 0.0
    return sum(reciprocal_rank(ranks, cutoff) for ranks in queries) / len(queries)


@dataclass(frozen=True)
class Scores:
    queries: int
    items: int
    found: dict[int, int]
    """Required items within the top k, by k."""
    mrr: float
    mrr_cutoff: int

    @property
    def recall(self) -> dict[int, float]:
        """recall@k by k."""
        return {k: found / self.items if self.items else 0.0 for k, found in self.found.items()}


def score(
    queries: Sequence[Sequence[Rank]],
    cutoffs: Sequence[int] = RECALL_CUTOFFS,
    mrr_cutoff: int = MRR_CUTOFF,
) -> Scores:
    return Scores(
        queries=len(queries),
        items=sum(len(ranks) for ranks in queries),
        found={k: _found(queries, k) for k in cutoffs},
        mrr=mean_reciprocal_rank(queries, mrr_cutoff),
        mrr_cutoff=mrr_cutoff,
    )


def fuse_ranks(
    rankings: Sequence[Sequence[U]], k: float = 60.0, weights: Sequence[float] | None = None
) -> list[U]:
    """Reciprocal rank fusion: each unit scores sum(weight / (k + rank)) over the rankings
    that hold it (rank 1-based, a ranking's duplicates ignored); best first, ties in the
    order units first appear in the rankings."""
    weights = [1.0] * len(rankings) if weights is None else list(weights)
    if len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    fused: dict[U, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, unit in enumerate(distinct(ranking), 1):
            fused[unit] = fused.get(unit, 0.0) + weight / (k + rank)
    order = {unit: number for number, unit in enumerate(fused)}
    return sorted(fused, key=lambda unit: (-fused[unit], order[unit]))


def scores_row(name: str, scores: Scores) -> list[str]:
    """A table row: the name, each recall@k as `found/items (share)`, and the MRR."""
    recall = scores.recall
    return [
        name,
        *(f"{found}/{scores.items} ({recall[k]:.0%})" for k, found in scores.found.items()),
        f"{scores.mrr:.3f}",
    ]


def scores_headers(scores: Scores, first: str = "ranking") -> list[str]:
    return [first, *(f"recall@{k}" for k in scores.found), f"MRR@{scores.mrr_cutoff}"]


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = [headers, ["---"] * len(headers), *rows]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines)
