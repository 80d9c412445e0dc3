from datetime import UTC, datetime

from engine.board import dedup_key
from engine.contracts import EXCERPT_MAX_CHARS, ClaimStatus, Plan, Report, Subquestion
from engine.snapshots import Snapshot, sha256_text
from engine.v1.extract import NO_MARKER, extract_report, trimmed
from engine.v1.notes import V1_RESEARCHER, SourceEntry

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
READ_AT = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
MARKET = "https://example.org/market"
FILING = "https://example.org/filing.pdf#page=2"
UNREAD = "https://example.org/unread"

PLAN = Plan(
    question="q",
    subquestions=[
        Subquestion(id="size", text="How large is the market?", title="Market size"),
        Subquestion(id="rules", text="Which rules apply?", title="Regras e créditos"),
    ],
)
SOURCES = [
    SourceEntry(1, MARKET, "Market report", "The market grew."),
    SourceEntry(2, FILING, "Filing", "Cash flows."),
    SourceEntry(3, UNREAD, "Unread page", ""),
]
SNAPSHOTS = {
    MARKET: Snapshot(url=MARKET, text="The market grew 35% in 2023.", fetched_at=READ_AT),
    "https://example.org/filing.pdf": Snapshot.from_pages(
        "https://example.org/filing.pdf", ["p1", "Capex was 1,577."], fetched_at=READ_AT
    ),
}


def extract(markdown: str):  # type: ignore[no-untyped-def]
    return extract_report(markdown, PLAN, SOURCES, SNAPSHOTS, NOW)


def test_each_marker_becomes_a_claim_on_the_numbered_source() -> None:
    result = extract("# Title\n## Market size\nThe market grew 35% in 2023. [1][2]\n")
    assert result.title == "Title"
    [section] = result.sections
    assert section.title == "Market size"
    [sentence] = section.sentences
    assert sentence.text == "The market grew 35% in 2023."
    market, filing = result.claims
    assert sentence.claim_ids == [market.id, filing.id]
    assert market.id == dedup_key(MARKET, "The market grew 35% in 2023.")
    assert (market.url, market.title) == (MARKET, "Market report")
    assert filing.url == FILING
    assert market.statement == market.excerpt == "The market grew 35% in 2023."
    assert market.subagent == V1_RESEARCHER
    assert market.subquestion == "size"
    assert market.status is ClaimStatus.pending


def test_access_time_and_hash_are_those_of_the_snapshot_read() -> None:
    result = extract("## Market size\nThe market grew 35% in 2023. [1, 2, 3]\n")
    market, filing, unread = result.claims
    assert (market.accessed_at, market.source_sha256) == (READ_AT, SNAPSHOTS[MARKET].sha256)
    paged = SNAPSHOTS["https://example.org/filing.pdf"]
    assert (filing.accessed_at, filing.source_sha256) == (READ_AT, paged.sha256)
    assert (unread.accessed_at, unread.source_sha256) == (NOW, sha256_text(""))


def test_sentences_without_a_usable_marker_are_kept_as_dropped_sentences() -> None:
    result = extract(
        "## Market size\nThe market grew a lot this year.\nA sentence citing nothing known. [9]\n"
        "The market grew 35% in 2023. [1][7]\n"
    )
    assert [(d.text, d.reason, d.claim_ids) for d in result.uncited] == [
        ("The market grew a lot this year.", NO_MARKER, []),
        ("A sentence citing nothing known.", "cites unknown sources [9]", []),
    ]
    [sentence] = result.sections[0].sentences
    assert len(sentence.claim_ids) == 1
    assert result.claims[0].url == MARKET
    assert result.notes == [
        "sentence cites unknown sources [9]: A sentence citing nothing known.",
        "sentence cites unknown sources [7]: The market grew 35% in 2023.",
    ]


def test_a_section_with_no_cited_sentence_is_left_out() -> None:
    result = extract(
        "## Market size\nNothing here is cited at all.\n## Regras e créditos\nOk then [1]."
    )
    assert [s.title for s in result.sections] == ["Regras e créditos"]


def test_long_sentences_are_trimmed_at_a_word_for_the_excerpt_only() -> None:
    sentence = " ".join(["residential"] * 60) + "."
    result = extract(f"## Market size\n{sentence} [1]")
    [claim] = result.claims
    assert claim.statement == sentence
    assert len(claim.excerpt) <= EXCERPT_MAX_CHARS
    assert sentence.startswith(claim.excerpt)
    assert claim.excerpt.endswith("residential")
    assert trimmed("x" * 500, 400) == "x" * 400


def test_sections_map_to_subquestions_by_heading_else_the_first() -> None:
    result = extract(
        "## regras e creditos:\nCredits expire after 60 months. [1]\n"
        "## Something else\nThe market grew 35% in 2023. [1]\n"
        "## Which rules apply?\nCredits expire in five years. [1]\n"
    )
    assert [c.subquestion for c in result.claims] == ["rules", "size", "rules"]


def test_text_before_any_heading_goes_under_the_first_subquestion() -> None:
    result = extract("The market grew 35% in 2023. [1]")
    assert [s.title for s in result.sections] == ["Market size"]
    assert result.title is None


def test_the_writers_own_source_list_is_not_read_as_prose() -> None:
    result = extract(
        "## Market size\nThe market grew 35% in 2023. [1]\n## Sources\n[1] Market report, https://example.org/market\n"
    )
    assert [s.title for s in result.sections] == ["Market size"]
    assert result.uncited == []


def test_the_same_sentence_on_the_same_source_is_one_claim() -> None:
    result = extract(
        "## Market size\nThe market grew 35% in 2023. [1]\n## Regras e créditos\nThe market grew 35% in 2023. [1]"
    )
    assert len(result.claims) == 1
    assert len(result.sections) == 2


def test_extracted_parts_make_a_valid_report() -> None:
    result = extract("## Market size\nThe market grew 35% in 2023. [1][2]\nUncited words here now.")
    report = Report(
        question="q",
        plan=PLAN,
        sections=result.sections,
        claims=result.claims,
        dropped_sentences=result.uncited,
        architecture="v1",
    )
    assert Report.model_validate_json(report.model_dump_json()) == report
