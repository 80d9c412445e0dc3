"""What `fonte verify` checks of a report's changes (engine/changes/checks.py): each side's
figures printed by its claims, the previous report as it sealed them, and each gone
reason told again by the source as it is now."""

import asyncio

from engine.changes import change_problems, check_changes, explain_gone, with_changes
from engine.changes.checks import WITHOUT_PREVIOUS
from engine.contracts import ClaimStatus, Report
from engine.snapshots import Snapshot
from engine.sources.protocols import FetchError
from engine.verify.digest import sealed
from tests.support.pages_source import PagesSource
from tests.support.report_changes import BETA, current_report, previous_report

BETA_URL = "https://example.org/beta.html"


def compared() -> Report:
    return asyncio.run(
        explain_gone(with_changes(current_report(), previous_report()), PagesSource())
    )


def test_the_changes_of_a_compared_report_hold() -> None:
    assert change_problems(compared()) == []
    assert change_problems(compared(), previous_report()) == []


def test_a_figure_its_claims_do_not_print_fails() -> None:
    report = compared()
    changed = report.changes[0]
    assert changed.before is not None
    edited = changed.before.model_copy(update={"text": "$11.0 million", "value": 11e6})
    changes = [changed.model_copy(update={"before": edited}), *report.changes[1:]]
    assert change_problems(report.model_copy(update={"changes": changes})) == [
        "change 1: '$11.0 million' is not what ['a1'] print"
    ]


def test_a_changed_figure_with_one_value_on_both_sides_is_no_change() -> None:
    report = compared()
    changed = report.changes[0]
    assert changed.after is not None
    changes = [changed.model_copy(update={"before": changed.after}), *report.changes[1:]]
    problems = change_problems(report.model_copy(update={"changes": changes}))
    assert "change 1: '$13.1 million' to '$13.1 million' is no change" in problems


def test_a_change_citing_a_claim_no_longer_verified_fails() -> None:
    report = compared()
    claims = [
        c.model_copy(update={"status": ClaimStatus.rejected}) if c.id == "g1" else c
        for c in report.claims
    ]
    problems = change_problems(report.model_copy(update={"claims": claims}))
    assert problems == ["change 2 cites g1, which is not verified"]


def test_against_the_previous_report_its_seal_claims_and_changes_are_checked() -> None:
    report, previous = compared(), previous_report()
    other = sealed(previous.model_copy(update={"created_at": report.created_at}))
    assert "the previous report given is not the one this report was compared with" in (
        change_problems(report, other)
    )
    edited = previous.model_copy(update={"title": "Edited"})
    assert change_problems(report, edited)[0].startswith("the previous report: the report was")
    assert report.previous is not None
    copied = [c.model_copy(update={"statement": "Reworded."}) for c in report.previous.claims]
    reworded = report.model_copy(
        update={"previous": report.previous.model_copy(update={"claims": copied})}
    )
    assert "old claim a1 is not in the previous report as copied" in change_problems(
        reworded, previous
    )
    dropped = report.model_copy(update={"changes": report.changes[:2]})
    assert change_problems(dropped, previous) == [
        "the changes are not those between the previous report and this one"
    ]


def test_a_gone_reason_the_source_no_longer_gives_fails() -> None:
    back = PagesSource()
    back.add(BETA_URL, BETA)  # the file is there again, as it was
    check = asyncio.run(check_changes(compared(), back, previous_report()))
    assert check.failures == ("change 3 says removed, its source now says not_cited",)


class Unreachable:
    async def fetch(self, url: str) -> Snapshot:
        raise FetchError("timed out after 20 s")


def test_a_source_that_cannot_be_read_is_said_not_failed() -> None:
    check = asyncio.run(check_changes(compared(), Unreachable()))
    assert check.failures == ()
    assert check.warnings[:2] == (
        WITHOUT_PREVIOUS,
        "change 3 says removed, its source now says unreachable: not checked",
    )


def test_a_report_compared_with_none_has_nothing_to_check() -> None:
    check = asyncio.run(check_changes(current_report(), Unreachable()))
    assert (check.failures, check.warnings) == ((), ())
