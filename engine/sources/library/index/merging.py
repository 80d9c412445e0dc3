"""When segments are merged: few enough that a query stays fast, rarely enough that adding a
file stays cheap.

Tiered, as log-structured indexes do: a segment's tier is the order of magnitude (base 8)
of its live passages; eight segments in one tier merge into one of the next tier, so each
passage is rewritten about once per tier. Segments of `FULL_SEGMENT_PASSAGES` or more (what
a cold build writes) take part in no tier merge, so a merge never rewrites the bulk of a
large library. A segment more than half dead (its files changed or removed) is rewritten
with the next merge of its tier, or alone, dropping the dead passages.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from engine.sources.library.index.segment import Segment

SEGMENTS_PER_TIER = 8
# Eight segments just under this merge into one of at most about 100,000 passages.
FULL_SEGMENT_PASSAGES = 12_500
_TIER_BASE = 8
_MOSTLY_DEAD = 0.5
_FULL = -1


def plan_merges(
    segments: list[Segment], live_documents: list[npt.NDArray[np.bool_]]
) -> list[list[int]]:
    """Groups of segment positions to merge (each group becomes one segment)."""
    tiers: dict[int, list[int]] = {}
    dead_heavy: set[int] = set()
    for position, (segment, keep) in enumerate(zip(segments, live_documents, strict=True)):
        live = int(keep[np.asarray(segment.passages[:, 0])].sum()) if len(segment) else 0
        if live == 0 or live < len(segment) * (1 - _MOSTLY_DEAD):
            dead_heavy.add(position)
        tier = _FULL if live >= FULL_SEGMENT_PASSAGES else _tier(live)
        tiers.setdefault(tier, []).append(position)
    groups: list[list[int]] = []
    for tier, members in tiers.items():
        if tier != _FULL and len(members) >= SEGMENTS_PER_TIER:
            groups.append(members)
        else:
            groups.extend([position] for position in members if position in dead_heavy)
    return groups


def _tier(live_passages: int) -> int:
    return int(math.log(max(live_passages, 1), _TIER_BASE))
