"""The summary's points for a question that compares: each side's verified figure of each
measure the question asks about, and for periods the change between them computed in code.

A side with no verified figure gets no sentence here (the orchestrator declares its gap from
the plan's criteria). Two values of one measure and period (a filing and its restatement)
are a conflict declared in the point, each value with its source and both cited; no change
is computed from either. Every number a point states is a figure's own `text`, as the cited
excerpts print it (with the scale and currency its statement declares: `stated_figure`), or
a calculation's `text`, which the sentence cites by id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations

from engine.contracts import Calculation, Claim, Figure, Language, Sentence
from engine.snapshots import split_page
from engine.text.normalise import collapse_whitespace, folded
from engine.text.sentences import capitalised
from engine.text.tokens import term_set
from engine.words import words_for
from engine.writing.calculator import Calculator, NotComparable
from engine.writing.figures import stated_figure, unit_family

MAX_MEASURES = 4
"""Measures a comparison states in the summary; more go to the figures tables."""

_YEAR = re.compile(r"^\d{4}$")
_GROWTH = re.compile(
    r"\b(?:grow\w*|grew|growth|cagr|compound annual|cresc\w*|taxa composta)\b", re.IGNORECASE
)
_PERIOD_WORDS = (
    r"(?:fiscal years?|fiscal|FY|exerc[ií]cios? (?:fiscal )?(?:de )?|ano fiscal (?:de )?)"
)


@dataclass(frozen=True)
class ComparisonPoints:
    sentences: list[Sentence]
    calculations: list[Calculation]
    figures: list[Figure]
    """The figures the points state: what the summary's figures table shows."""


def comparison_points(
    question: str,
    sides: Sequence[str],
    figures: Sequence[Figure],
    claims: Sequence[Claim],
    calculator: Calculator,
    language: Language,
) -> ComparisonPoints:
    """One point per asked measure that has a verified figure for at least one side."""
    if len(sides) >= 2 and all(_YEAR.match(side) for side in sides):
        documents = {c.id: (index, split_page(c.url)[0]) for index, c in enumerate(claims)}
        return _periods(question, sorted(sides), figures, calculator, language, documents)
    return _entities(question, sides, figures, claims, language)


def asked_measures(question: str, figures: Sequence[Figure]) -> list[list[Figure]]:
    """The figures of each measure the question names, grouped by measure, in the order the
    question names them (a measure named by more of its words first on a tie)."""
    asked = term_set(question)
    groups: dict[str, list[Figure]] = {}
    for figure in figures:
        groups.setdefault(folded(figure.measure), []).append(figure)
    scored: list[tuple[float, int, list[Figure]]] = []
    for measure, group in groups.items():
        terms = term_set(measure)
        shared = terms & asked
        if not terms or len(shared) * 2 < len(terms):
            continue
        position = min(_position(question, term) for term in shared)
        scored.append((-len(shared) / len(terms), position, group))
    scored.sort(key=lambda item: (item[1], item[0]))
    return [group for _, _, group in scored]


def _position(question: str, term: str) -> int:
    found = question.casefold().find(term)
    return found if found >= 0 else len(question)


def _periods(
    question: str,
    sides: list[str],
    figures: Sequence[Figure],
    calculator: Calculator,
    language: Language,
    documents: dict[str, tuple[int, str]],
) -> ComparisonPoints:
    first, last = sides[0], sides[-1]
    words = _words(language)
    sentences: list[Sentence] = []
    calculations: list[Calculation] = []
    stated: list[Figure] = []
    for group in asked_measures(question, figures)[:MAX_MEASURES]:
        disputes = {side: _disputed(group, side, documents) for side in (first, last)}
        if any(disputes.values()):  # two sources, two values: declared, never grown from
            for side in (first, last):
                shown = disputes[side]
                point = (
                    _disagreement(question, shown, side, language)
                    if shown
                    else _one(question, group, side, language)
                )
                if point is not None:
                    sentences.append(point[0])
                    stated += point[1]
            continue
        old, new = _of_period(group, first), _of_period(group, last)
        if old is None and new is None:
            continue
        if old is None or new is None:
            figure, side = (old, first) if old is not None else (new, last)
            assert figure is not None
            text = words["one"].format(
                measure=capitalised(collapse_whitespace(figure.measure)),
                value=stated_figure(figure, language),
                period=_period_label(question, side),
            )
            sentences.append(Sentence(text=f"{text}.", claim_ids=list(figure.claim_ids)))
            stated.append(figure)
            continue
        growth = _GROWTH.search(question) is not None
        change = _change(calculator, old, new, int(last) - int(first), growth)
        shape = "rose" if new.value > old.value else "fell" if new.value < old.value else "flat"
        text = words[shape].format(
            measure=capitalised(collapse_whitespace(old.measure)),
            old=stated_figure(old, language),
            new=stated_figure(new, language),
            first=_period_label(question, first),
            last=_period_label(question, last),
        )
        text += _change_words(change, words)
        sentences.append(
            Sentence(
                text=f"{text}.",
                claim_ids=list(dict.fromkeys([*old.claim_ids, *new.claim_ids])),
                calculation_ids=[c.id for c in change],
            )
        )
        calculations += change
        stated += [old, new]
    return ComparisonPoints(sentences, calculations, stated)


def _disputed(
    group: Sequence[Figure], year: str, documents: dict[str, tuple[int, str]]
) -> list[Figure]:
    """The values two documents give for the group's measure in `year` (one figure each, in
    the order their claims came), of the entity and unit family of its first figure; [] when
    they agree, or when only one document gives them (a note's table beside the statement
    are two scopes of one label, not a disagreement: the first is stated, as before)."""
    chosen = _of_period(group, year)
    if chosen is None:
        return []
    pattern = re.compile(rf"(?<!\d){year}(?!\d)")
    values: dict[Decimal, list[Figure]] = {}
    for figure in group:
        if (
            pattern.search(figure.period)
            and folded(figure.entity) == folded(chosen.entity)
            and unit_family(figure.unit) == unit_family(chosen.unit)
        ):
            values.setdefault(Decimal(repr(figure.value)), []).append(figure)
    where = {
        value: {documents.get(cid, (0, cid))[1] for f in figures for cid in f.claim_ids}
        for value, figures in values.items()
    }
    if not any(a.isdisjoint(b) for a, b in combinations(where.values(), 2)):
        return []
    shown = [figures[0] for figures in values.values()]
    first = len(documents)
    shown.sort(key=lambda f: min(documents.get(cid, (first, ""))[0] for cid in f.claim_ids))
    return shown


def _disagreement(
    question: str, shown: list[Figure], year: str, language: Language
) -> tuple[Sentence, list[Figure]]:
    """The values two sources give for one measure and period: a conflict declared where
    the figure is stated, each cited (a source's title is not said: its numbers are no
    figure, and the citations name it)."""
    words = words_for(language).writer
    parts = [stated_figure(figure, language) for figure in shown]
    text = words.disagree.format(
        measure=collapse_whitespace(shown[0].measure).casefold(),
        period=_period_label(question, year),
        parts=words.list_and.join(parts) if len(parts) == 2 else "; ".join(parts),
    )
    cited = [cid for figure in shown for cid in figure.claim_ids]
    return Sentence(text=f"{text}.", claim_ids=list(dict.fromkeys(cited))), shown


def _one(
    question: str, group: Sequence[Figure], year: str, language: Language
) -> tuple[Sentence, list[Figure]] | None:
    figure = _of_period(group, year)
    if figure is None:
        return None
    text = words_for(language).writer.one.format(
        measure=capitalised(collapse_whitespace(figure.measure)),
        value=stated_figure(figure, language),
        period=_period_label(question, year),
    )
    return Sentence(text=f"{text}.", claim_ids=list(figure.claim_ids)), [figure]


def _change(
    calculator: Calculator, old: Figure, new: Figure, years: int, growth: bool
) -> list[Calculation]:
    """Difference and percentage change (and the CAGR when growth over more than a year is
    asked), each computed in code; none when the figures are not comparable."""
    change: list[Calculation] = []
    try:
        change.append(calculator.difference(old, new))
    except NotComparable:
        return []
    try:
        change.append(calculator.percent_change(old, new))
        if growth and years > 1:
            change.append(calculator.cagr(old, new, years))
    except (NotComparable, ZeroDivisionError, ValueError):
        pass  # a change from zero or across signs has no percentage: the difference stands
    return change


def _change_words(change: list[Calculation], words: dict[str, str]) -> str:
    by_kind = {c.kind: c.text for c in change}
    if "difference" not in by_kind:
        return ""
    text = words["change"].format(difference=by_kind["difference"])
    if "percent_change" in by_kind:
        text += words["percent"].format(percent=by_kind["percent_change"])
    if "cagr" in by_kind:
        text += words["growth"].format(cagr=by_kind["cagr"])
    return text


def _of_period(group: Sequence[Figure], year: str) -> Figure | None:
    """The first figure of the group that is of `year` (its period names the year)."""
    pattern = re.compile(rf"(?<!\d){year}(?!\d)")
    return next((f for f in group if pattern.search(f.period)), None)


def _period_label(question: str, year: str) -> str:
    """The year as the question says it: "fiscal 2019", "FY2019", or the year alone."""
    said = re.search(rf"\b{_PERIOD_WORDS}\s?{year}\b", question, re.IGNORECASE)
    return collapse_whitespace(said.group(0)) if said else year


def _entities(
    question: str,
    sides: Sequence[str],
    figures: Sequence[Figure],
    claims: Sequence[Claim],
    language: Language,
) -> ComparisonPoints:
    """Entities or options compared: each side's figure of each asked measure, in one
    sentence per measure; no calculation across entities (the calculator refuses it)."""
    words = _words(language)
    titles = {c.id: _squashed(f"{c.title} {c.url}") for c in claims}
    sentences: list[Sentence] = []
    stated: list[Figure] = []
    for group in asked_measures(question, figures)[:MAX_MEASURES]:
        found = [(side, _of_side(group, side, titles)) for side in sides]
        present = [(side, figure) for side, figure in found if figure is not None]
        if not present:
            continue
        parts = [
            (words["side_in"] if figure.period else words["side"]).format(
                value=stated_figure(figure, language), side=_name_of(side), period=figure.period
            )
            for side, figure in present
        ]
        measure = capitalised(collapse_whitespace(present[0][1].measure))
        text = words["sides"].format(measure=measure, parts=words["list_and"].join(parts))
        cited = [cid for _, figure in present for cid in figure.claim_ids]
        sentences.append(Sentence(text=f"{text}.", claim_ids=list(dict.fromkeys(cited))))
        stated += [figure for _, figure in present]
    return ComparisonPoints(sentences, [], stated)


def _of_side(group: Sequence[Figure], side: str, titles: dict[str, str]) -> Figure | None:
    """The first figure of the group whose entity is the side, or whose claims' source is
    named after it ("3M" in "3M_2018_10K")."""
    wanted = _squashed(_name_of(side))
    if not wanted:
        return None
    for figure in group:
        if wanted in _squashed(figure.entity) or any(
            wanted in titles.get(cid, "") for cid in figure.claim_ids
        ):
            return figure
    return None


def _name_of(side: str) -> str:
    """The name a side opens with ("Amazon" of "Amazon revenue"), else the side itself."""
    words = side.split()
    name = []
    for word in words:
        if not (word[:1].isupper() or word[:1].isdigit()):
            break
        name.append(word)
    return " ".join(name) or side


def _squashed(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _words(language: Language) -> dict[str, str]:
    """The comparison's sentence shapes in `language` (engine/words)."""
    writer = words_for(language).writer
    names = ("rose", "fell", "flat", "change", "percent", "growth", "one", "sides", "side")
    return {name: getattr(writer, name) for name in (*names, "side_in", "list_and")}
