"""What OCR read agrees with an excerpt: its words within OCR noise, its numbers exactly."""

from __future__ import annotations

import pytest

from engine.verify.seen.agreement import Word, disagreement, windows


def read(text: str, edges: bool = False) -> list[Word]:
    words = text.split()
    return [Word(w, edge=edges and i in (0, len(words) - 1)) for i, w in enumerate(words)]


@pytest.mark.parametrize(
    ("excerpt", "shown"),
    [
        ("Revenue was 1,204 million", "Revenue was 1,204 million"),
        ("Investment income rose", "lnvestment incorne rose"),  # letters misread
        ("Inv estment income rose", "Investment income rose"),  # a word the text layer split
        ("of the year", "ofthe year"),  # words OCR joined
        ("Cash and cash equivalents $ 3,655 $ 4,564", "Cash and cash equivalents $ 3,655 $ 4 564"),
        ("Total equity 19,285 27,709", "l Total equity 19,285 27,709 ,"),  # fragments at edges
        ("REVENUE – net", "Revenue - net"),  # case and dashes fold as the matcher folds them
        ("Item 414(l) of Regulation S-K", "Item 414(1) of Regulation S-K"),  # a letter as a digit
        ("under clause (i) above", "under clause (1) above"),
    ],
)
def test_what_a_reader_sees_agrees(excerpt: str, shown: str) -> None:
    assert disagreement(excerpt, read(shown, edges=True)) is None


@pytest.mark.parametrize(
    ("excerpt", "shown", "why"),
    [
        ("Revenue was 1,294 million", "Revenue was 1,204 million", "1,204"),
        ("Revenue was 1,204 million", "Revenue was 1.204 million", "1.204"),  # another separator
        ("Revenue was 1,204 million", "Revenue was 1204 million", "1204"),  # no separator seen
        ("Revenue was 75 million", "Revenue was 750 million", "750"),
        ("Revenue was 1l4 million", "Revenue was 104 million", "104"),  # not a look-alike
        ("Revenue did not fall", "Revenue did fall", "not"),
        ("Revenue didnotfall in 2023", "Revenue did fall in 2023", "didnotfall"),
        ("Revenue fell", "Revenue rose sharply fell", "rose"),  # words the excerpt lacks
        ("Revenue was 12 million", "Revenue was 12 3 million", "3"),  # a number it lacks
        ("Profit was 5 million", "Loss was 5 million", "loss"),
        ("Acme revenue was 5,000", "", "nothing"),
    ],
)
def test_other_words_or_numbers_disagree(excerpt: str, shown: str, why: str) -> None:
    reason = disagreement(excerpt, read(shown))
    assert reason is not None
    assert why in reason.casefold()
    assert "\n" not in reason


def test_an_excerpt_is_found_among_the_words_of_a_whole_page() -> None:
    page = read("Annual report 2023 Chapter one Revenue was 1,204 million in 2023 More text")
    found = windows("Revenue was 1,204 million in 2023", page)
    assert any(disagreement("Revenue was 1,204 million in 2023", w) is None for w in found)
    assert all(disagreement("Revenue was 1,294 million in 2023", w) for w in found)


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
