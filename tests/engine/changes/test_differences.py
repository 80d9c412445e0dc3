"""What changed between two reports of one brief (engine/changes/differences.py): exactly
the figures whose value changed, what is new and what is gone, each cited on its side."""

import pytest
from pydantic import ValidationError

from engine.changes import changes_between, with_changes
from engine.contracts import ChangeKind, Report, ReportChange
from engine.verify.digest import digest_problem
from tests.support.report_changes import (
    AFTER,
    ALPHA_NOTE,
    ALPHA_OLD,
    BEFORE,
    claim,
    current_report,
    previous_report,
    report_citing,
)


def test_a_changed_figure_a_new_source_and_a_gone_source_are_exactly_three_changes() -> None:
    changed, new, gone = changes_between(previous_report(), current_report())
    assert (changed.kind, changed.subject) == (ChangeKind.changed, "figure")
    assert changed.before is not None
    assert changed.after is not None
    assert (changed.before.text, changed.after.text) == ("$12.4 million", "$13.1 million")
    assert (changed.after.measure, changed.after.period) == ("Alpha revenue", "2025")
    assert (changed.old_claim_ids, changed.new_claim_ids) == (["a1"], ["a2"])
    assert (new.kind, new.subject, new.new_claim_ids) == (ChangeKind.new, "source", ["g1"])
    assert new.url == "https://example.org/gamma.html"
    assert (gone.kind, gone.subject, gone.old_claim_ids) == (ChangeKind.gone, "source", ["b1"])
    assert gone.why is None  # told by re-reading the source, not by the comparison


def test_the_same_report_again_has_no_change() -> None:
    again = previous_report().model_copy(update={"created_at": AFTER})
    assert changes_between(previous_report(), again) == []


def test_the_same_value_quoted_in_other_words_is_no_change() -> None:
    reworded = "In 2025 Alpha revenue was $12.4 million, as the annual report says."
    previous = report_citing([claim("a1", "alpha", ALPHA_OLD)], BEFORE)
    current = report_citing([claim("a3", "alpha", reworded)], AFTER)
    assert changes_between(previous, current) == []


def test_on_a_document_both_cite_a_new_figure_and_a_gone_finding_are_told_apart() -> None:
    solar = "Alpha revenue from solar panels was $3.0 million in 2025."
    previous = report_citing(
        [claim("a1", "alpha", ALPHA_OLD), claim("n1", "alpha", ALPHA_NOTE)], BEFORE
    )
    current = report_citing([claim("a1", "alpha", ALPHA_OLD), claim("s1", "alpha", solar)], AFTER)
    new, gone = changes_between(previous, current)
    assert (new.kind, new.subject, new.new_claim_ids) == (ChangeKind.new, "figure", ["s1"])
    assert new.after is not None
    assert new.after.text == "$3.0 million"
    assert (gone.kind, gone.subject, gone.old_claim_ids) == (ChangeKind.gone, "finding", ["n1"])
    assert gone.title == "Alpha Solar annual report"


def test_a_claim_the_report_holds_but_does_not_cite_is_not_compared() -> None:
    previous = previous_report()
    uncited = previous.model_copy(update={"sections": [], "digest": None})
    compared = changes_between(uncited, current_report())
    assert [(c.kind, c.subject, c.url) for c in compared] == [
        (ChangeKind.new, "source", "https://example.org/alpha.html"),
        (ChangeKind.new, "source", "https://example.org/gamma.html"),
    ]
    assert compared[0].new_claim_ids == ["a2", "n1"]


def test_the_report_with_its_changes_carries_the_old_claims_they_cite_sealed() -> None:
    previous = previous_report()
    compared = with_changes(current_report(), previous)
    assert compared.changes == changes_between(previous, current_report())
    assert compared.previous is not None
    assert (compared.previous.created_at, compared.previous.digest) == (BEFORE, previous.digest)
    assert [c.id for c in compared.previous.claims] == ["a1", "b1"]  # n1 is in no change
    assert compared.previous.claims[1] == previous.claim("b1")
    assert digest_problem(compared) is None
    edited = compared.changes[0].model_copy(update={"old_claim_ids": ["b1"]})
    assert digest_problem(compared.model_copy(update={"changes": [edited]})) is not None


def test_with_no_change_the_report_still_says_since_when() -> None:
    compared = with_changes(
        previous_report().model_copy(update={"created_at": AFTER}), previous_report()
    )
    assert compared.changes == []
    assert compared.previous is not None
    assert compared.previous.created_at == BEFORE
    assert compared.previous.claims == []


def test_a_change_must_cite_claims_its_reports_hold() -> None:
    compared = with_changes(current_report(), previous_report())
    unknown = compared.changes[2].model_copy(update={"old_claim_ids": ["zz"]})
    with pytest.raises(ValidationError, match="unknown claim ids"):
        Report.model_validate(compared.model_dump() | {"changes": [unknown]})
    with pytest.raises(ValidationError, match="previous report"):
        Report.model_validate(compared.model_dump() | {"previous": None})


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "changed", "subject": "figure", "new_claim_ids": ["a2"]}, "sides"),
        ({"kind": "new", "subject": "source", "old_claim_ids": ["b1"]}, "sides"),
        ({"kind": "new", "subject": "source", "new_claim_ids": ["g1"], "why": "removed"}, "why"),
        ({"kind": "gone", "subject": "figure", "old_claim_ids": ["b1"]}, "figure"),
    ],
)
def test_a_change_carries_the_sides_its_kind_needs(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ReportChange.model_validate(fields)
