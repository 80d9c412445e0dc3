"""The v5 seal covers each claim's source date, standing and how its page was read; reports
sealed as v4 still check."""

import pytest

from engine.contracts import Report, Section
from engine.verify.digest import EDITED, _hexdigest, digest_problem, sealed
from tests.support.render_samples import build_claim, build_report, cite


def report() -> Report:
    claims = [
        build_claim("c1").model_copy(update={"published": "2024-03-01", "standing": "primary"}),
        build_claim("c2", excerpt="Outro trecho com texto suficiente."),
    ]
    return build_report(claims, [Section(title="Mercado", sentences=[cite("Afirmação c1", "c1")])])


def test_a_report_sealed_as_v5_still_checks() -> None:
    v5 = report().model_copy(update={"digest": "sha256-v5:" + _hexdigest(report(), version=5)})
    assert digest_problem(v5) is None


@pytest.mark.parametrize(
    "edit",
    [
        {"published": "2019-01-01"},
        {"published": ""},
        {"standing": "other"},
        {"read_by": "figure"},  # a figure reading is not searched in the page: never by an edit
        {"read_by": "ocr"},
    ],
)
def test_an_edited_source_date_or_standing_breaks_the_v5_digest(edit: dict[str, object]) -> None:
    original = sealed(report())
    edited = original.model_copy(deep=True)
    edited.claims[0] = edited.claims[0].model_copy(update=edit)
    assert digest_problem(original) is None
    assert digest_problem(edited) == EDITED


def test_a_report_sealed_with_the_v4_digest_still_checks() -> None:
    v4 = report().model_copy(update={"digest": "sha256-v4:" + _hexdigest(report(), version=4)})
    assert digest_problem(v4) is None
    assert digest_problem(v4.model_copy(update={"title": "Outro título"})) == EDITED
    # v4 did not seal dates: a v4 digest read as v5 would not match
    assert v4.digest != "sha256-v4:" + _hexdigest(report(), version=5)
