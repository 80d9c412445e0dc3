"""The v7 seal covers how each claim was seen (`Claim.seen_by`): a claim relabelled as read
back from a render, or stripped of it, breaks the seal."""

import pytest

from engine.contracts import Report, Section
from engine.verify.digest import EDITED, _hexdigest, digest_problem, sealed
from tests.support.render_samples import build_claim, build_report, cite


def report() -> Report:
    claims = [build_claim("c1", seen_by="pdf-ocr"), build_claim("c2", seen_by="text")]
    return build_report(claims, [Section(title="Mercado", sentences=[cite("Afirmação c1", "c1")])])


def test_a_report_sealed_as_v7_still_checks() -> None:
    v7 = report().model_copy(update={"digest": "sha256-v7:" + _hexdigest(report(), version=7)})
    assert digest_problem(v7) is None
    edited = v7.model_copy(update={"claims": [v7.claims[0].model_copy(update={"seen_by": ""})]})
    assert digest_problem(edited) == EDITED


def test_how_a_claim_was_seen_is_sealed() -> None:
    original = sealed(report())
    for seen_by in ("", "text", "browser"):
        claims = [original.claims[0].model_copy(update={"seen_by": seen_by}), original.claims[1]]
        assert digest_problem(original.model_copy(update={"claims": claims})) == EDITED, seen_by


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
