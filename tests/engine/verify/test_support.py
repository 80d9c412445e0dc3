from engine.contracts import ClaimStatus, Section, Support
from engine.verify.support import pair_id, sentence_pairs, unsupported_sentences
from tests.support.render_samples import build_claim, build_report, cite


def report():  # type: ignore[no-untyped-def]
    claims = [
        build_claim("c1"),
        build_claim("c2", excerpt="Outro trecho com texto suficiente para o teste."),
        build_claim("c3", status=ClaimStatus.rejected),
    ]
    sections = [
        Section(title="A", sentences=[cite("Primeira frase.", "c1", "c2")]),
        Section(title="B", sentences=[cite("Segunda frase.", "c2", "c3")]),
    ]
    return build_report(claims, sections)


def test_each_sentence_is_paired_with_each_verified_claim_it_cites() -> None:
    pairs = sentence_pairs(report())
    assert [(p.id, p.statement) for p in pairs] == [
        (pair_id(0, 0, "c1"), "Primeira frase."),
        (pair_id(0, 0, "c2"), "Primeira frase."),
        (pair_id(1, 0, "c2"), "Segunda frase."),
    ]
    assert pairs[1].excerpt.startswith("Outro trecho")


def test_a_sentence_holds_when_one_cited_excerpt_entails_it() -> None:
    pairs = sentence_pairs(report())
    verdicts = [Support.neutral, Support.entails, Support.contradicts]
    judged = [p.model_copy(update={"support": v}) for p, v in zip(pairs, verdicts, strict=True)]
    assert unsupported_sentences(report(), judged) == [
        "'Segunda frase.': no cited excerpt entails it (contradicts)"
    ]


def test_a_sentence_the_judge_skipped_does_not_pass() -> None:
    assert len(unsupported_sentences(report(), [])) == 2
