"""Gaps: which subquestions a gap subagent should retry, and what the report declares."""

from __future__ import annotations

from engine.contracts import Language, Plan, Subquestion
from engine.terms import term_set


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


def declared_gaps(plan: Plan, unmet: list[str], stopped: set[str], language: Language) -> list[str]:
    """Unmet criteria, then subquestions the budget interrupted; each said once."""
    interrupted = "interrompida pelo orçamento" if language == "pt" else "interrupted by the budget"
    gaps: list[str] = []
    reported: set[str] = set()
    for criterion in unmet:
        subquestion = subquestion_for(plan, criterion)
        suffix = f" ({interrupted})" if subquestion.id in stopped else ""
        gaps.append(f"{criterion}{suffix}")
        reported.add(subquestion.id)
    label = "Subquestão incompleta" if language == "pt" else "Unfinished subquestion"
    for subquestion in plan.subquestions:
        if subquestion.id in stopped and subquestion.id not in reported:
            gaps.append(f"{label} ({interrupted}): {subquestion.text}")
    return gaps
