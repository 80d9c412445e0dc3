from datetime import UTC, datetime

import pytest

from engine.contracts import Report, Section, Sentence
from engine.verify.digest import (
    EDITED,
    UNSEALED,
    _hexdigest,
    digest_problem,
    published_digest,
    seal_findings,
    sealed,
)
from tests.support.render_samples import build_claim, build_report, cite


def report() -> Report:
    claims = [build_claim("c1"), build_claim("c2", excerpt="Outro trecho com texto suficiente.")]
    return build_report(claims, [Section(title="Mercado", sentences=[cite("Afirmação c1", "c1")])])


def test_a_sealed_report_matches_its_digest() -> None:
    assert digest_problem(sealed(report())) is None


def test_rewording_a_sentence_without_numbers_breaks_the_digest() -> None:
    edited = sealed(report())
    edited.sections[0].sentences[0] = Sentence(text="O mercado dobrou.", claim_ids=["c1"])
    assert digest_problem(edited) == (
        "the report was edited after it was written: its sentences or claims differ"
    )


def test_an_invented_claim_or_edited_statement_breaks_the_digest() -> None:
    original = sealed(report())
    invented = original.model_copy(
        update={"claims": [*original.claims, build_claim("c3", statement="Falso.")]}
    )
    assert digest_problem(invented) is not None
    restated = original.model_copy(deep=True)
    restated.claims[1] = restated.claims[1].model_copy(update={"statement": "Outra coisa."})
    assert digest_problem(restated) is not None


def test_spend_is_not_part_of_what_is_published() -> None:
    original = sealed(report())
    spent = original.model_copy(update={"spend": original.spend.model_copy(update={"steps": 9})})
    assert published_digest(spent) == original.digest


@pytest.mark.parametrize(
    "edit",
    [
        {"notes": ["search: ddgs failed; used searxng"]},
        {"gaps": ["uma lacuna inventada"]},
        {"title": "Outro título"},
        {"language": "en" if report().language == "pt" else "pt"},
    ],
)
def test_notes_gaps_titles_and_language_are_covered(edit: dict[str, object]) -> None:
    original = sealed(report())
    assert digest_problem(original.model_copy(update=edit)) == EDITED


@pytest.mark.parametrize(
    "edit",
    [
        {"title": "Another document"},
        {"accessed_at": datetime(2020, 1, 1, tzinfo=UTC)},
        {"reason": "excerpt found on cited page 9"},
    ],
)
def test_a_claims_title_access_date_and_reason_are_covered(edit: dict[str, object]) -> None:
    original = sealed(report())
    edited = original.model_copy(deep=True)
    edited.claims[0] = edited.claims[0].model_copy(update=edit)
    assert digest_problem(edited) == EDITED


def test_a_report_without_a_digest_is_unsealed_and_fails_unless_allowed() -> None:
    unsealed = report()
    assert digest_problem(unsealed) == UNSEALED
    assert seal_findings(unsealed) == (UNSEALED, None)
    assert seal_findings(unsealed, allow_unsealed=True) == (None, UNSEALED)
    edited = sealed(report()).model_copy(update={"gaps": ["x"]})
    assert seal_findings(edited, allow_unsealed=True) == (EDITED, None)


def test_a_report_sealed_with_the_v2_digest_still_checks() -> None:
    v2 = report().model_copy(update={"digest": "sha256-v2:" + _hexdigest(report(), version=2)})
    assert digest_problem(v2) is None
    assert digest_problem(v2.model_copy(update={"title": "Outro título"})) == EDITED


def test_an_edited_context_breaks_the_digest() -> None:
    original = sealed(report())
    recontexted = original.model_copy(deep=True)
    recontexted.claims[0] = recontexted.claims[0].model_copy(update={"context": "2019 2018"})
    assert digest_problem(recontexted) is not None


def test_a_report_sealed_before_contexts_were_covered_still_checks() -> None:
    legacy = report().model_copy(
        update={"digest": "sha256:" + _hexdigest(report(), version=1, with_contexts=False)}
    )
    assert digest_problem(legacy) is None
    edited = legacy.model_copy(update={"title": "Outro título"})
    assert digest_problem(edited) is not None
