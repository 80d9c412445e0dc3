"""Before research: a brief from what the user typed, report templates, the plan of a
question nobody split, and the wording of criteria and gaps (with its inverse, so a follow-up
recovers the question a gap asks)."""

from engine.planning.briefs import MAX_QUESTION_CHARS, Brief, make_brief, single_question_plan
from engine.planning.gaps import (
    criterion_for,
    cut_by_budget,
    cut_by_user,
    declared_gaps,
    gap_question,
    gap_targets,
)
from engine.planning.templates import (
    TEMPLATES,
    Template,
    UnknownTemplate,
    find_template,
    topic_of,
)

__all__ = [
    "MAX_QUESTION_CHARS",
    "TEMPLATES",
    "Brief",
    "Template",
    "UnknownTemplate",
    "criterion_for",
    "cut_by_budget",
    "cut_by_user",
    "declared_gaps",
    "find_template",
    "gap_question",
    "gap_targets",
    "make_brief",
    "single_question_plan",
    "topic_of",
]
