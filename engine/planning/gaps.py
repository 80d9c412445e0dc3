"""Gaps: which subquestions a gap subagent should retry, and what the report declares.

The wording of criteria and gaps lives here with its inverse (`gap_question`), so a follow-up
("aprofunde: <gap>") recovers the question a gap asks without a second copy of the phrasing.
"""

from __future__ import annotations

import re

from engine.contracts import Language, Plan, Subquestion
from engine.text.tokens import term_set

CRITERION_LEAD: dict[Language, str] = {
    "pt": "Fonte verificada que responda",
    "en": "A verified source that answers",
}
UNFINISHED_LEAD: dict[Language, str] = {
    "pt": "Subquestão incompleta",
    "en": "Unfinished subquestion",
}
INTERRUPTED: dict[Language, str] = {
    "pt": "interrompida pelo orçamento",
    "en": "interrupted by the budget",
}
CANCELLED: dict[Language, str] = {
    "pt": "interrompida pelo usuário",
    "en": "interrupted by the user",
}

_LEADS = "|".join(
    [re.escape(lead) for lead in CRITERION_LEAD.values()]
    + [rf"{re.escape(lead)} \([^)]*\)" for lead in UNFINISHED_LEAD.values()]
)
_GAP_PREFIX = re.compile(rf"^(?:{_LEADS})\s*:\s*", re.IGNORECASE)
_STOPPED_BY = [*INTERRUPTED.values(), *CANCELLED.values()]
_GAP_SUFFIX = re.compile(rf"\s*\((?:{'|'.join(re.escape(words) for words in _STOPPED_BY)})\)\s*$")


def criterion_for(subquestion: Subquestion, language: Language) -> str:
    return f"{CRITERION_LEAD[language]}: {subquestion.text}"


def gap_question(gap: str) -> str:
    """The question a declared gap asks, without the report's wording around it."""
    return _GAP_SUFFIX.sub("", _GAP_PREFIX.sub("", " ".join(gap.split()))).strip() or gap


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
    interrupted = (CANCELLED if by_user else INTERRUPTED)[language]
    gaps: list[str] = []
    reported: set[str] = set()
    for criterion in unmet:
        subquestion = subquestion_for(plan, criterion)
        suffix = f" ({interrupted})" if subquestion.id in stopped else ""
        gaps.append(f"{criterion}{suffix}")
        reported.add(subquestion.id)
    label = UNFINISHED_LEAD[language]
    for subquestion in plan.subquestions:
        if subquestion.id in stopped and subquestion.id not in reported:
            gaps.append(f"{label} ({interrupted}): {subquestion.text}")
    return gaps
