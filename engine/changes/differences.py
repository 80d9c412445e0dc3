"""What changed between the previous report of a brief and a new run of it. Pure functions.

Both reports are read as they publish: the verified claims each one cites, and the figures
those claims print (`engine.writing.figures`: a measure, an entity, a period, a value).

- A figure of one measure, entity, period and unit family whose values on the two sides
  have nothing in common has *changed*: the old figure with its claims, the new one with
  its claims.
- A document only the new report cites is a *new* source, one only the previous report
  cites a source *gone*: one change each, carrying all the claims it was cited by.
- On a document both cite, a claim quoting the same excerpt on both sides is unchanged; a
  claim of the new side that is neither unchanged nor part of a figure of both sides is a
  new figure (a figure of a quantity the previous report had no value of) or a new finding
  (one without a figure), and the same on the old side is gone.

Nothing here reads a source: why a figure or a source is gone (the file removed, its page
changed, the excerpt no longer on it) is told by `engine.changes.absences`, which re-reads
the current sources.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.contracts import (
    ChangeKind,
    Claim,
    ClaimStatus,
    Figure,
    PreviousReport,
    Report,
    ReportChange,
)
from engine.snapshots import split_page
from engine.text.normalise import excerpt_key, folded
from engine.verify.digest import sealed
from engine.writing.figures import gather_figures, unit_family

__all__ = ["changes_between", "figure_quantity", "with_changes"]

_Key = tuple[str, str, str, str]
"""What a figure measures: its measure, entity, period and unit family, folded."""


def figure_quantity(figure: Figure) -> _Key:
    return folded(figure.measure), folded(figure.entity), figure.period, unit_family(figure.unit)


def _document(claim: Claim) -> str:
    return split_page(claim.url)[0]


def _quote(claim: Claim) -> tuple[str, str]:
    return _document(claim), excerpt_key(claim.excerpt)


@dataclass(frozen=True)
class _Side:
    """One report as the comparison reads it: its cited verified claims and their figures,
    grouped by quantity, in reading order."""

    claims: tuple[Claim, ...]
    figures: dict[_Key, list[Figure]]

    @classmethod
    def of(cls, report: Report) -> _Side:
        cited = (report.claim(cid) for cid in report.cited_claim_ids())
        claims = tuple(c for c in cited if c.status is ClaimStatus.verified)
        figures: dict[_Key, list[Figure]] = {}
        for figure in gather_figures(claims):
            figures.setdefault(figure_quantity(figure), []).append(figure)
        return cls(claims, figures)

    def documents(self) -> dict[str, list[Claim]]:
        found: dict[str, list[Claim]] = {}
        for claim in self.claims:
            found.setdefault(_document(claim), []).append(claim)
        return found

    def quantities_of(self, claim: Claim) -> list[_Key]:
        return [q for q, figures in self.figures.items() if _cites(figures, claim.id)]


def _cites(figures: Iterable[Figure], claim_id: str) -> bool:
    return any(claim_id in figure.claim_ids for figure in figures)


def _claim_ids(figures: Iterable[Figure]) -> list[str]:
    return list(dict.fromkeys(cid for figure in figures for cid in figure.claim_ids))


def changes_between(previous: Report, current: Report) -> list[ReportChange]:
    """The changes from `previous` to `current`, figures changed first, then what is new,
    then what is gone, each in its report's reading order; an empty list when nothing
    changed. A gone change's `why` is left untold (None)."""
    old, new = _Side.of(previous), _Side.of(current)
    old_documents, new_documents = old.documents(), new.documents()
    changed: list[ReportChange] = []
    for quantity, after in new.figures.items():
        before = old.figures.get(quantity)
        if before is None or {f.value for f in before} & {f.value for f in after}:
            continue
        changed.append(
            ReportChange(
                kind=ChangeKind.changed,
                subject="figure",
                before=before[0],
                after=after[0],
                old_claim_ids=_claim_ids(before),
                new_claim_ids=_claim_ids(after),
            )
        )
    both = old.figures.keys() & new.figures.keys()
    added = _one_side(new, old, both, old_documents, ChangeKind.new)
    removed = _one_side(old, new, both, new_documents, ChangeKind.gone)
    return [*changed, *added, *removed]


def _one_side(
    side: _Side,
    other: _Side,
    both: set[_Key],
    other_documents: dict[str, list[Claim]],
    kind: ChangeKind,
) -> list[ReportChange]:
    """What `side` cites and `other` does not: whole documents first met here, then, on the
    documents both cite, figures of a quantity only `side` has a value of and findings."""
    quotes = {_quote(claim) for claim in other.claims}
    sources: list[ReportChange] = []
    figures: dict[_Key, ReportChange] = {}
    findings: list[ReportChange] = []
    for document, cited in side.documents().items():
        claims = [
            claim
            for claim in cited
            if _quote(claim) not in quotes and not any(q in both for q in side.quantities_of(claim))
        ]
        if claims and document not in other_documents:
            sources.append(_change(kind, "source", claims, url=document, title=claims[0].title))
            continue
        for claim in claims:
            quantities = side.quantities_of(claim)
            if not quantities:
                findings.append(_change(kind, "finding", [claim], url=document, title=claim.title))
            for quantity in quantities:
                if quantity not in figures:
                    figure = side.figures[quantity][0]
                    cited = [c for c in side.claims if _cites(side.figures[quantity], c.id)]
                    figures[quantity] = _change(kind, "figure", cited, figure=figure)
    return [*sources, *figures.values(), *findings]


def _change(
    kind: ChangeKind,
    subject: str,
    claims: list[Claim],
    *,
    url: str = "",
    title: str = "",
    figure: Figure | None = None,
) -> ReportChange:
    ids = [claim.id for claim in claims]
    new = kind is ChangeKind.new
    return ReportChange.model_validate(
        {
            "kind": kind,
            "subject": subject,
            "url": url,
            "title": title,
            "before": None if new else figure,
            "after": figure if new else None,
            "old_claim_ids": [] if new else ids,
            "new_claim_ids": ids if new else [],
        }
    )


def with_changes(current: Report, previous: Report) -> Report:
    """`current` carrying its changes since `previous` and the claims of `previous` they
    cite, as `previous` sealed them; sealed again."""
    changes = changes_between(previous, current)
    cited = {cid for change in changes for cid in change.old_claim_ids}
    baseline = PreviousReport(
        created_at=previous.created_at,
        digest=previous.digest,
        question=previous.question,
        claims=[claim for claim in previous.claims if claim.id in cited],
    )
    update = {"previous": baseline, "changes": changes, "digest": None}
    return sealed(Report.model_validate(current.model_dump() | update))
