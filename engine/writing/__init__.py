"""What the writer is given and falls back to: the report written from verified claims only
(`verbatim`: the summary answering first, with `summary` and `comparison` composing its points
and changes computed in code, then sections quoting the claims, figures tables and
calculations), and the conflicts among the claims that a report must declare."""

from engine.writing.calculator import NotComparable, recompute
from engine.writing.conflicts import find_conflicts, published_conflicts
from engine.writing.verbatim import MAX_SENTENCES_PER_SECTION, title_for, verbatim_draft

__all__ = [
    "MAX_SENTENCES_PER_SECTION",
    "NotComparable",
    "find_conflicts",
    "published_conflicts",
    "recompute",
    "title_for",
    "verbatim_draft",
]
