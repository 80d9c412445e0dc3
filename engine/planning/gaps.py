"""Gaps: which subquestions a gap subagent should retry, and what the report declares.

The wording of criteria and gaps (`engine.words`, `GapWords`) is applied here with its
inverse (`gap_question`), so a follow-up ("aprofunde: <gap>") recovers the question a gap
asks, in either language, without a second copy of the phrasing. `cut_by_user` rewords a
budget's gaps as the user's.
"""

from __future__ import annotations

import re

from engine.contracts import Language, Plan, Subquestion
from engine.text.normalise import collapse_whitespace
from engine.text.tokens import term_set
from engine.words import ENGLISH, PORTUGUESE, words_for

_TABLES = (PORTUGUESE.gaps, ENGLISH.gaps)
_LEADS = "|".join(
    [re.escape(words.criterion_lead) for words in _TABLES]
    + [rf"{re.escape(words.unfinished_lead)} \([^)]*\)" for words in _TABLES]
)
_GAP_PREFIX = re.compile(rf"^(?:{_LEADS})\s*:\s*", re.IGNORECASE)
_STOPPED_BY = [words.interrupted for words in _TABLES] + [words.cancelled for words in _TABLES]
_GAP_SUFFIX = re.compile(rf"\s*\((?:{'|'.join(re.escape(words) for words in _STOPPED_BY)})\)\s*$")


def criterion_for(subquestion: Subquestion, language: Language) -> str:
    return f"{words_for(language).gaps.criterion_lead}: {subquestion.text}"


def gap_question(gap: str) -> str:
    """The question a declared gap asks, without the report's wording around it."""
    return _GAP_SUFFIX.sub("", _GAP_PREFIX.sub("", collapse_whitespace(gap))).strip() or gap


def subquestion_for(plan: Plan, criterion: str) -> Subquestion:
    """The subquestion a `sufficient_when` criterion is about: the one at the same position,
    else the one sharing most terms with it."""
    if criterion in plan.sufficient_when:
        index = plan.sufficient_when.index(criterion)
        if index < len(plan.subquestions):
            return plan.subquestions[index]
    wanted = term_set(criterion)
    return max(plan.subquestions, key=lambda s: len(wanted & term_set(s.text)))


def gap_targets(plan: Plan, unmet: list[str]) -> list[Subquestion]:
    targets: dict[str, Subquestion] = {}
    for criterion in unmet:
        subquestion = subquestion_for(plan, criterion)
        targets.setdefault(subquestion.id, subquestion)
    return list(targets.values())


def declared_gaps(
    plan: Plan,
    unmet: list[str],
    stopped: set[str],
    language: Language,
    *,
    by_user: bool = False,
) -> list[str]:
    """Unmet criteria, then subquestions the budget (or the user, `by_user`) interrupted;
    each said once."""
    words = words_for(language).gaps
    interrupted = words.cancelled if by_user else words.interrupted
    gaps: list[str] = []
    reported: set[str] = set()
    for criterion in unmet:
        subquestion = subquestion_for(plan, criterion)
        suffix = f" ({interrupted})" if subquestion.id in stopped else ""
        gaps.append(f"{criterion}{suffix}")
        reported.add(subquestion.id)
    label = words.unfinished_lead
    for subquestion in plan.subquestions:
        if subquestion.id in stopped and subquestion.id not in reported:
            gaps.append(f"{label} ({interrupted}): {subquestion.text}")
    return gaps


def cut_by_user(gap: str) -> str:
    """`gap` as the user's cancel, not the budget, cut it short (in its own language)."""
    for words in _TABLES:
        gap = gap.replace(f"({words.interrupted})", f"({words.cancelled})")
    return gap


def cut_by_budget(gap: str) -> str:
    """The inverse of `cut_by_user`: `gap` as the engine words it when the budget cut it."""
    for words in _TABLES:
        gap = gap.replace(f"({words.cancelled})", f"({words.interrupted})")
    return gap
