from engine.contracts import Report, Section, Sentence
from engine.verify.digest import _hexdigest, digest_problem, published_digest, sealed
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


def test_notes_and_spend_are_not_part_of_what_is_published() -> None:
    original = sealed(report())
    annotated = original.model_copy(update={"notes": ["search: ddgs failed; used searxng"]})
    assert published_digest(annotated) == original.digest


def test_a_report_without_a_digest_says_edits_go_unseen() -> None:
    assert "no digest" in (digest_problem(report()) or "")


def test_an_edited_context_breaks_the_digest() -> None:
    original = sealed(report())
    recontexted = original.model_copy(deep=True)
    recontexted.claims[0] = recontexted.claims[0].model_copy(update={"context": "2019 2018"})
    assert digest_problem(recontexted) is not None


def test_a_report_sealed_before_contexts_were_covered_still_checks() -> None:
    legacy = report().model_copy(
        update={"digest": "sha256:" + _hexdigest(report(), with_contexts=False)}
    )
    assert digest_problem(legacy) is None
    edited = legacy.model_copy(update={"title": "Outro título"})
    assert digest_problem(edited) is not None
