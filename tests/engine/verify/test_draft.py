from engine.contracts import Section, Sentence
from engine.verify.draft import check_sections
from tests.support.render_samples import build_claim

ROW = build_claim("crow", excerpt="Operating Profit 11,512 11,162", context="2022 2021")
PLAIN = build_claim("cplain", excerpt="Net Revenue 86,392 79,474")


def kept_and_dropped(*sentences: Sentence) -> tuple[list[str], list[str]]:
    sections, dropped = check_sections(
        [Section(title="A", sentences=list(sentences))], [ROW, PLAIN]
    )
    kept = [s.text for section in sections for s in section.sentences]
    return kept, [d.reason for d in dropped]


def test_a_sentence_may_state_the_period_its_claim_quotes_as_context() -> None:
    kept, dropped = kept_and_dropped(
        Sentence(text="Operating Profit — 2022: 11,512; 2021: 11,162", claim_ids=["crow"])
    )
    assert kept == ["Operating Profit — 2022: 11,512; 2021: 11,162"]
    assert dropped == []


def test_a_context_backs_only_the_sentences_that_cite_its_claim() -> None:
    kept, dropped = kept_and_dropped(
        Sentence(text="Net Revenue — 2022: 86,392", claim_ids=["cplain"])
    )
    assert kept == []
    assert dropped == ["numbers in no cited excerpt: 2022"]
