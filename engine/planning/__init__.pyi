from engine.planning.briefs import MAX_QUESTION_CHARS, Brief, make_brief, single_question_plan
from engine.planning.gaps import (
    criterion_for,
    cut_by_budget,
    cut_by_user,
    declared_gaps,
    gap_question,
    gap_targets,
)
from engine.planning.pricing import LimitOverrides, PriceList, Pricing
from engine.planning.templates import (
    TEMPLATES,
    Template,
    UnknownTemplate,
    find_template,
    prices_from_env,
    topic_of,
)

__all__ = [
    "MAX_QUESTION_CHARS",
    "TEMPLATES",
    "Brief",
    "LimitOverrides",
    "PriceList",
    "Pricing",
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
    "prices_from_env",
    "single_question_plan",
    "topic_of",
]
