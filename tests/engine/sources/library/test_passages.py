import itertools

import pytest

from engine.sources.library.passages import split_passages
from engine.text.spans import Span


def _texts(text: str, spans: list[Span]) -> list[str]:
    return [text[span.start : span.end] for span in spans]


def _paragraphs(count: int, length: int) -> str:
    return "\n\n".join(f"Paragraph {n} " + "x" * (length - 12) for n in range(count))


def test_short_text_is_one_trimmed_passage() -> None:
    text = "\n  First line.\nSecond line.  \n\n"
    spans = split_passages(text)
    assert _texts(text, spans) == ["First line.\nSecond line."]
    assert spans == [Span(3, 27)]


def test_blank_text_has_no_passage() -> None:
    assert split_passages("") == []
    assert split_passages(" \n\n \t\n") == []


def test_passages_are_verbatim_slices_in_order_covering_every_line() -> None:
    text = _paragraphs(12, 300)
    spans = split_passages(text)
    assert len(spans) > 1
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    for line in text.split("\n"):
        if line:
            assert sum(line in passage for passage in _texts(text, spans)) == 1


def test_passages_end_at_paragraph_breaks_within_the_size_range() -> None:
    text = _paragraphs(12, 300)
    spans = split_passages(text, min_chars=600, max_chars=1200)
    for span in spans[:-1]:
        assert 600 <= span.end - span.start <= 1200
        assert text[span.end : span.end + 2] == "\n\n"


def test_lines_are_not_split_when_no_paragraph_break_comes() -> None:
    text = "\n".join(f"line {n:03d} " + "y" * 70 for n in range(60))
    spans = split_passages(text, min_chars=600, max_chars=1200)
    lines = text.split("\n")
    for passage in _texts(text, spans):
        assert all(line in lines for line in passage.split("\n"))
        assert len(passage) <= 1200


def test_a_line_longer_than_the_maximum_is_cut_at_spaces() -> None:
    words = " ".join(f"word{n}" for n in range(600))
    spans = split_passages(words, min_chars=600, max_chars=1200)
    passages = _texts(words, spans)
    assert len(passages) > 1
    assert all(len(p) <= 1200 for p in passages)
    assert " ".join(passages) == words


def test_a_long_line_without_spaces_is_cut_hard() -> None:
    text = "z" * 2500
    assert [s.end - s.start for s in split_passages(text, 600, 1200)] == [1200, 1200, 100]


def test_a_short_tail_joins_the_previous_passage() -> None:
    text = _paragraphs(2, 700) + "\n\nEnd."
    spans = split_passages(text, min_chars=600, max_chars=1200)
    assert _texts(text, spans)[-1].endswith("End.")
    assert len(spans) == 2


@pytest.mark.parametrize("newline", ["\n", "\n\n"])
def test_offsets_point_into_the_original_text(newline: str) -> None:
    text = newline.join(["Alpha " * 50, "Beta " * 150, "Gamma " * 30])
    for span in split_passages(text):
        assert text[span.start] != " "
        assert text[span.end - 1] != " "
