"""What one report scores on one case. Pure: the caller re-checks claims and passes the ids
that held, so nothing here trusts a claim's `status` (v1 reports leave every claim pending).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any
from urllib.parse import unquote, urlparse

from engine import Calculation, Claim, ClaimStatus, DroppedSentence, Report, Sentence, split_page
from engine.text import (
    asked_about,
    boilerplate_kind,
    collapse_whitespace,
    is_fragment,
    numbers_in,
    term_set,
)
from engine.verify.seen import NOT_SEEN, RENDERED
from engine.writing import NotComparable, recompute
from evals.answers import numeric_gold, states_answer
from evals.cases import Case, RequiredItem

GAP_TERM_SHARE = 0.5
_EMPHASIS = str.maketrans("", "", "*_`")


@dataclass(frozen=True, kw_only=True)
class Tally:
    """What a report scores that a suite adds up: each a number per report, summed over a
    suite's rows by `evals.totals.totals`."""

    published_claims: int
    """Distinct claims the report's sentences cite."""
    verified_claims: int
    """Published claims that passed the independent re-check."""
    required_found: int
    """Required items found in published claims that passed the re-check."""
    required_on_board: int
    """Required items found in any claim of the board that passed the re-check (tells a
    retrieval miss from a writer that left the evidence out)."""
    required_total: int
    unsupported_numbers: int
    """Published sentences stating a number that no re-checked claim they cite holds in its
    excerpt or context (a sentence citing nothing holds none)."""
    uncited_sentences: int
    """Sentences published with no source at all (v1 has no post-check to hold them back)."""
    gaps_declared: int
    """Expected gaps that a declared gap of the report matches."""
    gaps_expected: int
    model_calls: int
    input_tokens: int
    output_tokens: int
    conflicts_declared: int
    """Pairs of claims the report declares as disagreeing on one quantity."""
    context_claims: int
    """Published claims quoted with their context (a list item's lead-in, a column header)."""
    fragments: int
    """Published sentences that start or end mid-sentence (`engine.text.sentences`)."""
    calculated_figures: int
    """Calculations the report states (derived figures computed in code)."""
    ocr_claims: int
    """Published claims whose page was read by OCR (`Claim.read_by == "ocr"`)."""
    ocr_claims_verified: int
    """Of those, the claims that passed the re-check."""
    figure_claims: int
    """Published figure readings (`Claim.read_by == "figure"`): a model's reading of a
    figure, never a quote."""
    primary_sources: int
    """Documents the published claims cite whose standing is primary (each document once;
    summed over reports, a document cited by two reports counts in each)."""
    secondary_sources: int
    other_sources: int
    unrated_sources: int
    """Cited documents no claim gives a standing (v1's pending claims, older reports)."""
    seen_rendered: int
    """Claims of the board the seen check read back from a render (`Claim.seen_by`), or
    rejected: "checked by rendering"."""
    seen_rejected: int
    """Of those, the claims it rejected ("not what the page shows")."""
    boilerplate_claims: int = 0
    """Published claims whose excerpt is boilerplate the question is not about (an audit
    opinion, a signature, a notice, a footnote, a label line: `engine.text.boilerplate`)."""
    answers_numeric: int = 0
    """Gold answers of the case that state a number (`evals.answers`)."""
    answers_stated: int = 0
    """Of those, the answers whose value the report states, with its scale, in its summary,
    a figures table or a calculation: the answer given, not only its evidence found."""


@dataclass(frozen=True, kw_only=True)
class ReportMetrics(Tally):
    """What one report scores on one case: its counts, and what is not summed."""

    numeric_sentences: int
    partial: bool
    usd: float
    missing_required: tuple[str, ...] = ()
    missing_gaps: tuple[str, ...] = ()


def measure(report: Report, case: Case, passing: Set[str]) -> ReportMetrics:
    """Score `report` on `case`; `passing` holds the ids of claims that passed a re-check."""
    by_id = {claim.id: claim for claim in report.claims}
    published = [by_id[cid] for cid in report.cited_claim_ids()]
    held = [claim for claim in published if claim.id in passing]
    on_board = [claim for claim in report.claims if claim.id in passing]
    cited = report.published_sentences()
    uncited = [s.text for s in published_uncited(report)]
    numeric_uncited = sum(1 for text in uncited if numbers_in(text))
    calculations = {c.id: c for c in report.calculations}
    missing = tuple(item.topic for item in case.required if not item_found(item, held))
    unmatched = tuple(gap for gap in case.expected_gaps if not gap_declared(gap, report.gaps))
    usage = report.spend.usage
    standings = Counter(cited_standings(published).values())
    scored = [states_answer(report, gold.question, gold.answer) for gold in case.answers]
    return ReportMetrics(
        published_claims=len(published),
        verified_claims=len(held),
        required_found=len(case.required) - len(missing),
        required_on_board=sum(1 for item in case.required if item_found(item, on_board)),
        required_total=len(case.required),
        unsupported_numbers=numeric_uncited
        + sum(1 for s in cited if unsupported_number(s, by_id, passing, calculations)),
        numeric_sentences=numeric_uncited + sum(1 for s in cited if numbers_in(s.text)),
        uncited_sentences=len(uncited),
        gaps_declared=len(case.expected_gaps) - len(unmatched),
        gaps_expected=len(case.expected_gaps),
        partial=report.partial,
        usd=report.spend.usd,
        model_calls=usage.model_calls,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        missing_required=missing,
        conflicts_declared=len(report.conflicts),
        context_claims=sum(1 for claim in published if claim.context),
        missing_gaps=unmatched,
        fragments=sum(1 for text in [*(s.text for s in cited), *uncited] if is_fragment(text)),
        calculated_figures=len(report.calculations),
        ocr_claims=sum(1 for claim in published if claim.read_by == "ocr"),
        ocr_claims_verified=sum(1 for claim in held if claim.read_by == "ocr"),
        figure_claims=sum(1 for claim in published if claim.read_by == "figure"),
        primary_sources=standings["primary"],
        secondary_sources=standings["secondary"],
        other_sources=standings["other"],
        unrated_sources=standings[None],
        seen_rendered=sum(1 for c in report.claims if c.seen_by in RENDERED or _unseen(c)),
        seen_rejected=sum(1 for claim in report.claims if _unseen(claim)),
        boilerplate_claims=sum(1 for claim in published if is_boilerplate(claim, case.question)),
        answers_numeric=sum(1 for stated in scored if stated is not None),
        answers_stated=sum(1 for stated in scored if stated),
    )


def is_boilerplate(claim: Claim, question: str) -> bool:
    """Whether the claim quotes boilerplate that `question` is not about."""
    kind = boilerplate_kind(claim.excerpt)
    return kind is not None and not asked_about(question, kind)


def _unseen(claim: Claim) -> bool:
    return claim.status is ClaimStatus.rejected and (claim.reason or "").startswith(NOT_SEEN)


def cited_standings(claims: Iterable[Claim]) -> dict[str, str | None]:
    """Each cited document (its URL without the page) once, with the standing its claims
    carry (the first claim that has one; None when none does)."""
    standing: dict[str, str | None] = {}
    for claim in claims:
        document = split_page(claim.url)[0]
        if standing.get(document) is None:
            standing[document] = claim.standing
    return standing


# -- required items ---------------------------------------------------------------------


def item_found(item: RequiredItem, claims: Iterable[Claim]) -> bool:
    # What the claim quotes: its excerpt and the context verified on the same page with it.
    return any(cites(item, claim.url) and has_terms(claim.quoted, item.terms) for claim in claims)


def cites(item: RequiredItem, url: str) -> bool:
    """Whether `url` names the item's document (and page, within the slack)."""
    document, page = split_page(url)
    if item.path is not None:
        if _wiki_form(urlparse(document).path) != _wiki_form(item.path):
            return False
    elif document not in item.urls:
        return False
    if item.page is None:
        return True
    return page is not None and abs(page - item.page) <= item.page_slack


def has_terms(excerpt: str, terms: Iterable[str]) -> bool:
    """Every term in the excerpt, case and whitespace aside, markdown emphasis ignored."""
    text = _loose(excerpt)
    return all(_loose(term) in text for term in terms)


def _loose(text: str) -> str:
    return collapse_whitespace(text.translate(_EMPHASIS).casefold())


def _wiki_form(path: str) -> str:
    return unquote(path).replace(" ", "_")


# -- numbers and gaps ------------------------------------------------------------------


def published_uncited(report: Report) -> list[DroppedSentence]:
    """Sentences a reader saw with no citation. The final architecture's post-check keeps
    what it drops out of the report; v1 had none, so its uncited prose was published."""
    return list(report.dropped_sentences) if report.architecture == "v1" else []


def unsupported_number(
    sentence: Sentence,
    claims: Mapping[str, Claim],
    passing: Set[str],
    calculations: Mapping[str, Calculation] | None = None,
) -> bool:
    """Whether the sentence states a number that neither its re-checked cited claims hold
    nor a calculation it cites computes (`calculation_holds`): a derived figure counts as
    supported only through the calculator."""
    backed: set[Decimal] = set()
    for cid in sentence.claim_ids:
        backed |= _held_numbers(cid, claims, passing)
    for kid in sentence.calculation_ids:
        calculation = (calculations or {}).get(kid)
        if calculation is not None and calculation_holds(calculation, claims, passing):
            for text in (calculation.text, *(figure.text for figure in calculation.inputs)):
                for token in numbers_in(text):
                    backed |= token.values
    return any(not token.values & backed for token in numbers_in(sentence.text))


def _held_numbers(cid: str, claims: Mapping[str, Claim], passing: Set[str]) -> set[Decimal]:
    """The numbers a re-checked claim holds in its excerpt, its verified context and the
    provision the verifier read above it ("Art. 26, § 1º", which a sentence names)."""
    claim = claims.get(cid)
    if claim is None or cid not in passing:
        return set()
    held = f"{claim.quoted} \n {claim.provision or ''}"
    return {value for token in numbers_in(held) for value in token.values}


def calculation_holds(
    calculation: Calculation, claims: Mapping[str, Claim], passing: Set[str]
) -> bool:
    """Whether a calculation is what the calculator computes from its inputs, and each input
    is printed in a claim it cites that passed the re-check."""
    try:
        value = recompute(calculation)
    except (NotComparable, ValueError, ArithmeticError):
        return False
    if not math.isclose(value, calculation.value, rel_tol=1e-6, abs_tol=1e-9):
        return False
    for figure in calculation.inputs:
        held = set().union(*(_held_numbers(cid, claims, passing) for cid in figure.claim_ids))
        printed = [token.values for token in numbers_in(figure.text)]
        if not printed or not all(values & held for values in printed):
            return False
    return True


def gap_declared(expected: str, declared: Iterable[str]) -> bool:
    """Whether some declared gap shares at least half of the expected gap's content terms."""
    wanted = term_set(expected)
    if not wanted:
        return False
    return any(
        len(wanted & term_set(gap)) / len(wanted) >= GAP_TERM_SHARE - 1e-9 for gap in declared
    )


# -- rows and totals -------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Row(ReportMetrics):
    """One case under one architecture: the line `results.json` keeps, its report's
    `ReportMetrics` and how the run went."""

    case_id: str
    arch: str
    group: str
    seconds: float
    simulated_latency: bool
    error: str | None = None
    template: str = "default"
    price_usd: float = 0.0
    """What a report of the case's template sells for (US$): the cost's share is of it."""
    seen_seconds: float = 0.0
    """Seconds the seen check spent on the report's claims (summed over claims)."""

    @classmethod
    def of(
        cls,
        case: Case,
        arch: str,
        metrics: ReportMetrics,
        seconds: float,
        simulated_latency: bool,
    ) -> Row:
        copied = {each.name: getattr(metrics, each.name) for each in fields(ReportMetrics)}
        return cls(
            case_id=case.id,
            arch=arch,
            group=case.group,
            seconds=round(seconds, 3),
            simulated_latency=simulated_latency,
            **copied,
        )

    @classmethod
    def failed(
        cls, case: Case, arch: str, error: str, seconds: float, simulated_latency: bool
    ) -> Row:
        """A run that raised instead of reporting: it scores nothing and says why."""
        nothing: dict[str, Any] = {each.name: 0 for each in fields(Tally)}
        return cls(
            **nothing
            | {
                "required_total": len(case.required),
                "gaps_expected": len(case.expected_gaps),
                "answers_numeric": sum(1 for gold in case.answers if numeric_gold(gold)),
            },
            case_id=case.id,
            arch=arch,
            group=case.group,
            numeric_sentences=0,
            partial=True,
            seconds=round(seconds, 3),
            usd=0.0,
            simulated_latency=simulated_latency,
            missing_required=tuple(item.topic for item in case.required),
            missing_gaps=case.expected_gaps,
            error=error,
        )
