"""The answer first: the report's summary, 3-6 cited points composed from nothing a source
does not say.

A comparison question gets each side's verified figures and the change computed in code
(`comparison`); the points left are filled, for any question, with each subquestion's best
verified statements, one subquestion after another, whole sentences only.

Time-aware: a question about the state now ("today", "hoje", "atualmente") leads with the
newest figure of what it asks, with its period, and puts the newer statements first; a
question about change over time ("evolução", "over time", "since") states every dated figure
of what it asks in date order (the summary's figures table shows them, and its chart), and
its statements follow in date order. A statement's date is the latest year it (or what it
quotes) names, else its source's own date (`Claim.published`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.contracts import Calculation, Claim, Figure, Language, Plan, Sentence
from engine.text.comparisons import compared_sides
from engine.text.normalise import collapse_whitespace, excerpt_key
from engine.text.periods import year_of, years_in
from engine.text.questions import asks_current, asks_over_time
from engine.text.sentences import capitalised, is_fragment
from engine.text.tokens import term_set
from engine.words import words_for
from engine.writing.asked import asked_points
from engine.writing.calculator import Calculator
from engine.writing.comparison import asked_measures, comparison_points
from engine.writing.figures import stated_figure

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
    calculator = Calculator(language)
    # The measure the question asks, computed from its inputs, is said first.
    asked = asked_points(question, figures, calculator, language)
    points: list[Sentence] = list(asked.sentences)
    calculations: list[Calculation] = list(asked.calculations)
    stated: list[Figure] = list(asked.figures)
    if sides:
        compared = comparison_points(question, sides, figures, verified, calculator, language)
        # A growth the comparison states already (both sides, the change) is said once, there.
        said = [set(sentence.claim_ids) for sentence in compared.sentences]
        points = [p for p in points if not any(set(p.claim_ids) <= ids for ids in said)]
        kept = {kid for point in points for kid in point.calculation_ids}
        calculations = [c for c in calculations if c.id in kept]
        stated = [f for f in stated if any(c for c in calculations if f in c.inputs)]
        points += compared.sentences
        calculations += compared.calculations
        stated += [f for f in compared.figures if f not in stated]
    elif asks_current(question) or asks_over_time(question):
        dated, dated_figures = _dated_points(question, figures, language)
        points += dated
        stated += [f for f in dated_figures if f not in stated]
    cited = {cid for point in points for cid in point.claim_ids}
    candidates = _in_time_order(
        question, [c for c in verified if c.id not in cited and not is_fragment(c.statement)]
    )
    # A compared side that no figure answered may still be answered in words.
    unanswered = [side for side in sides if not any(side in p.text for p in points)]
    # Beside a comparison's figures, one statement per subquestion says the rest; without
    # them, the best of each subquestion (and of one subquestion, its best three).
    parts = len(plan.subquestions)
    most = min(MAX_POINTS, len(points) + parts if points else max(MIN_POINTS, parts))
    pools = (
        (
            _about_sides(unanswered, candidates)
            + _in_time_order(question, _best_first(question, plan, candidates)),
            most,
        ),
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


def _dated_points(
    question: str, figures: Sequence[Figure], language: Language
) -> tuple[list[Sentence], list[Figure]]:
    """For the state now, the newest figure of the first measure asked, with its period; for
    change over time, each dated figure of that measure, oldest first. Periods are as the
    excerpts print them, so the post-check finds every number said."""
    asked = asked_measures(question, figures)
    dated = sorted(
        (f for f in (asked[0] if asked else []) if year_of(f.period) is not None),
        key=lambda f: (year_of(f.period) or 0, f.period),
    )
    if not dated:
        return [], []
    writer = words_for(language).writer
    if not asks_over_time(question):
        newest = dated[-1]
        text = writer.latest.format(
            measure=capitalised(collapse_whitespace(newest.measure)),
            value=stated_figure(newest, language),
            period=newest.period,
        )
        return [Sentence(text=f"{text}.", claim_ids=list(newest.claim_ids))], [newest]
    by_period = list({f.period: f for f in reversed(dated)}.values())[::-1][:MAX_POINTS]
    if len(by_period) < 2:
        return [], []  # one dated figure is no series: the statements say it
    points = [
        Sentence(
            text=writer.one.format(
                measure=capitalised(collapse_whitespace(f.measure)),
                value=stated_figure(f, language),
                period=f.period,
            )
            + ".",
            claim_ids=list(f.claim_ids),
        )
        for f in by_period
    ]
    return points, by_period


def _in_time_order(question: str, claims: Sequence[Claim]) -> list[Claim]:
    """Newest first for the state now, oldest first over time; else as they are."""
    if asks_current(question):
        return sorted(claims, key=_when, reverse=True)
    if asks_over_time(question):
        return sorted(claims, key=_when)
    return list(claims)


def _when(claim: Claim) -> tuple[int, str]:
    """The latest year a statement (or what it quotes) names, else its source's date's."""
    years = years_in(f"{claim.statement} {claim.quoted}")
    return max(years, default=int(claim.published[:4] or 0)), claim.published


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
