"""The answer first: the report's summary, 3-6 cited points composed from nothing a source
does not say.

A comparison question gets each side's verified figures and the change computed in code
(`comparison`); the points left are filled, for any question, with each subquestion's best
verified statements, one subquestion after another, whole sentences only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.contracts import Calculation, Claim, Figure, Language, Plan, Sentence
from engine.text.comparisons import compared_sides
from engine.text.normalise import excerpt_key
from engine.text.sentences import is_fragment
from engine.text.tokens import term_set
from engine.writing.calculator import Calculator
from engine.writing.comparison import comparison_points

MIN_POINTS = 3
MAX_POINTS = 6


@dataclass(frozen=True)
class Summary:
    points: list[Sentence]
    calculations: list[Calculation]
    figures: list[Figure]
    """The figures a comparison's points state ([] for other questions)."""


def summary_for(
    question: str,
    plan: Plan,
    verified: Sequence[Claim],
    figures: Sequence[Figure],
    language: Language,
) -> Summary:
    sides = compared_sides(question)
    points: list[Sentence] = []
    calculations: list[Calculation] = []
    stated: list[Figure] = []
    if sides:
        compared = comparison_points(
            question, sides, figures, verified, Calculator(language), language
        )
        points, calculations, stated = compared.sentences, compared.calculations, compared.figures
    cited = {cid for point in points for cid in point.claim_ids}
    candidates = [c for c in verified if c.id not in cited and not is_fragment(c.statement)]
    # A compared side that no figure answered may still be answered in words.
    unanswered = [side for side in sides if not any(side in p.text for p in points)]
    # Beside a comparison's figures, one statement per subquestion says the rest; without
    # them, the best of each subquestion (and of one subquestion, its best three).
    parts = len(plan.subquestions)
    most = min(MAX_POINTS, len(points) + parts if points else max(MIN_POINTS, parts))
    pools = (
        (_about_sides(unanswered, candidates) + _best_first(question, plan, candidates), most),
        (candidates, MIN_POINTS),  # too few covering statements: any verified one
    )
    keys = [excerpt_key(point.text) for point in points]
    for pool, limit in pools:
        for claim in pool:
            if len(points) >= limit:
                break
            key = excerpt_key(claim.statement)
            if claim.id in cited or any(key in known or known in key for known in keys):
                continue
            points.append(Sentence(text=claim.statement, claim_ids=[claim.id]))
            cited.add(claim.id)
            keys.append(key)
    return Summary(points, calculations, stated)


def _about_sides(sides: Sequence[str], claims: Sequence[Claim]) -> list[Claim]:
    """For each side, the first statement that names it."""
    found: list[Claim] = []
    for side in sides:
        wanted = term_set(side)
        claim = next((c for c in claims if wanted and wanted <= term_set(c.statement)), None)
        if claim is not None:
            found.append(claim)
    return found


def _best_first(question: str, plan: Plan, claims: Sequence[Claim]) -> list[Claim]:
    """Statements in turn from each subquestion, each subquestion's best first: the order
    its research posted them in, which ranks them by how they cover it. A statement sharing
    no term with its subquestion (or the question) answers nothing and is left out."""
    asked = term_set(question)
    queues: list[list[Claim]] = []
    for subquestion in plan.subquestions:
        wanted = term_set(subquestion.text) | asked
        own = [c for c in claims if c.subquestion == subquestion.id]
        queues.append([c for c in own if wanted & term_set(c.statement)])
    ordered: list[Claim] = []
    while any(queues):
        for queue in queues:
            if queue:
                ordered.append(queue.pop(0))
    return ordered
