"""What the writer is given and falls back to: quoting verified claims as they are, and the
conflicts among them that a report must declare."""

from engine.writing.conflicts import find_conflicts, published_conflicts
from engine.writing.verbatim import MAX_SENTENCES_PER_SECTION, title_for, verbatim_draft

__all__ = [
    "MAX_SENTENCES_PER_SECTION",
    "find_conflicts",
    "published_conflicts",
    "title_for",
    "verbatim_draft",
]
