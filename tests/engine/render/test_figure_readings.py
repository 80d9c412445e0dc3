from datetime import UTC, datetime

from engine.contracts import Claim, ClaimStatus, Locator
from engine.render.citations import CitedExcerpt
from engine.render.labels import labels_for
from engine.render.markdown import excerpt_entry

READING = "rótulos das barras: Bahia 655 MW"


def claim(read_by: str) -> Claim:
    return Claim(
        id="c1",
        statement="A Bahia tinha 655 MW.",
        url="file:///lib/r.pdf#page=2",
        excerpt=READING,
        locator=Locator(page=2, char_start=0, char_end=0),
        accessed_at=datetime(2025, 1, 1, tzinfo=UTC),
        source_sha256="0" * 64,
        subagent="s1",
        subquestion="s1",
        status=ClaimStatus.verified,
        read_by=read_by,  # type: ignore[arg-type]
    )


def test_a_figure_reading_is_shown_as_read_from_the_figure_never_as_a_quote() -> None:
    for language, said in (("pt", "lido da figura da página 2"), ("en", "read from the figure")):
        shown = excerpt_entry(CitedExcerpt(1, claim("figure"), 2, None), labels_for(language))
        assert said in shown
        assert "> " not in shown  # no blockquote: a reading is not page text
    quoted = excerpt_entry(CitedExcerpt(1, claim("text"), 2, None), labels_for("en"))
    assert f"> {READING}" in quoted
    assert "figure" not in quoted
