"""What `fonte verify` checks of a report's changes, beside what it checks of every claim
(each new claim on today's source) and the seal (which covers the changes and the old
claims as they were copied):

- each change cites, on its new side, verified claims of this report, and its figures are
  printed by the claims they name (the old ones among the claims it copied from the
  previous report): a figure changed is the same quantity with another value;
- with the previous report (`--since`): that report's own seal holds, its date and digest
  are the ones recorded, every old claim is in it as copied, and the changes are exactly
  those between the two reports (`changes_between`);
- without it, the old claims are checked as this report sealed them, and a line says so;
- each gone change's reason is told again by re-reading its current source
  (`engine.changes.absences`): a reason that no longer holds fails; a source that cannot be
  read to tell is said, not failed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.changes.absences import explain_gone
from engine.changes.differences import changes_between, figure_quantity
from engine.contracts import ChangeKind, Claim, ClaimStatus, Figure, GoneReason, Report
from engine.sources.protocols import Fetcher
from engine.verify.digest import digest_problem
from engine.writing.figures import figures_in

__all__ = ["ChangesCheck", "change_problems", "check_changes"]

WITHOUT_PREVIOUS = (
    "the previous report was not given (--since): its claims are checked as this report sealed them"
)


@dataclass(frozen=True)
class ChangesCheck:
    failures: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def _prints(claim: Claim, figure: Figure) -> bool:
    return any(
        (f.measure, f.entity, f.period, f.value, f.text)
        == (figure.measure, figure.entity, figure.period, figure.value, figure.text)
        for f in figures_in(claim)
    )


def change_problems(report: Report, previous: Report | None = None) -> list[str]:
    """Pure: why the report's changes do not hold as recorded (empty when they do)."""
    if report.previous is None:
        return []
    problems: list[str] = []
    new = {claim.id: claim for claim in report.claims}
    old = {claim.id: claim for claim in report.previous.claims}
    for number, change in enumerate(report.changes, start=1):
        where = f"change {number}"
        for cid in change.new_claim_ids:
            if new[cid].status is not ClaimStatus.verified:
                problems.append(f"{where} cites {cid}, which is not verified")
        for figure, claims in ((change.before, old), (change.after, new)):
            if figure is None:
                continue
            unprinted = [
                cid
                for cid in figure.claim_ids
                if cid not in claims or not _prints(claims[cid], figure)
            ]
            if unprinted:
                problems.append(f"{where}: {figure.text!r} is not what {unprinted} print")
        before, after = change.before, change.after
        if (
            change.kind is ChangeKind.changed
            and before is not None
            and after is not None
            and (figure_quantity(before) != figure_quantity(after) or before.value == after.value)
        ):
            problems.append(f"{where}: {before.text!r} to {after.text!r} is no change")
    if previous is not None:
        problems += _against_previous(report, previous)
    return problems


def _against_previous(report: Report, previous: Report) -> list[str]:
    assert report.previous is not None
    problems = []
    sealed = digest_problem(previous)
    if sealed is not None:
        problems.append(f"the previous report: {sealed}")
    recorded = (report.previous.created_at, report.previous.digest)
    if recorded != (previous.created_at, previous.digest):
        problems.append("the previous report given is not the one this report was compared with")
    known = {claim.id: claim for claim in previous.claims}
    for claim in report.previous.claims:
        if known.get(claim.id) != claim:
            problems.append(f"old claim {claim.id} is not in the previous report as copied")
    untold = [change.model_copy(update={"why": None}) for change in report.changes]
    if untold != changes_between(previous, report):
        problems.append("the changes are not those between the previous report and this one")
    return problems


async def check_changes(
    report: Report, fetcher: Fetcher, previous: Report | None = None
) -> ChangesCheck:
    """The report's changes checked (`change_problems`), and each gone change's reason told
    again through `fetcher`, which reads the sources as they are now."""
    if report.previous is None:
        return ChangesCheck()
    failures = change_problems(report, previous)
    warnings = [WITHOUT_PREVIOUS] if previous is None and report.changes else []
    retold = await explain_gone(report, fetcher)
    for number, (change, again) in enumerate(zip(report.changes, retold.changes, strict=True), 1):
        if change.kind is not ChangeKind.gone or change.why == again.why:
            continue
        said = f"change {number} says {change.why}, its source now says {again.why}"
        if again.why is GoneReason.unreachable:
            warnings.append(f"{said}: not checked")
        else:
            failures.append(said)
    if not failures:
        warnings.append(_held(report, previous is not None))
    return ChangesCheck(tuple(failures), tuple(warnings))


def _held(report: Report, against_previous: bool) -> str:
    """The line that says what was checked of the changes, when they hold."""
    assert report.previous is not None
    since = f"{report.previous.created_at:%Y-%m-%d %H:%M} UTC"
    if not report.changes:
        return f"no change since {since}: checked as sealed"
    old = "checked against the previous report" if against_previous else "as sealed here"
    return (
        f"{len(report.changes)} changes since {since} hold: their new claims above, their "
        f"old claims {old}, each figure printed by its claims, each gone reason told again "
        "from its source"
    )
