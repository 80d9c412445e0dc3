from engine.writing.asked import asked_gaps
from engine.writing.calculator import NotComparable, recompute
from engine.writing.conflicts import find_conflicts, published_conflicts
from engine.writing.units import unit_scale
from engine.writing.verbatim import MAX_SENTENCES_PER_SECTION, title_for, verbatim_draft

__all__ = [
    "MAX_SENTENCES_PER_SECTION",
    "NotComparable",
    "asked_gaps",
    "find_conflicts",
    "published_conflicts",
    "recompute",
    "title_for",
    "unit_scale",
    "verbatim_draft",
]
