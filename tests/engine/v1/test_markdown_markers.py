import pytest

from engine.v1.markdown_markers import (
    MarkedSentence,
    line_sentences,
    marker_numbers,
    parse_markdown,
)


@pytest.mark.parametrize(
    ("markers", "numbers"),
    [
        ("[1]", (1,)),
        ("[1][2]", (1, 2)),
        ("[1] [2]", (1, 2)),
        ("[1, 2]", (1, 2)),
        ("[2; 1]", (2, 1)),
        ("[1][1]", (1,)),
    ],
)
def test_marker_groups_give_their_source_numbers_once_in_order(
    markers: str, numbers: tuple[int, ...]
) -> None:
    assert marker_numbers(markers) == numbers
    assert line_sentences(f"Solar capacity reached 20 GW in 2023. {markers}") == [
        MarkedSentence("Solar capacity reached 20 GW in 2023.", numbers)
    ]


def test_markers_before_the_full_stop_leave_the_stop_on_the_sentence() -> None:
    assert line_sentences("Solar capacity reached 20 GW in 2023 [3].") == [
        MarkedSentence("Solar capacity reached 20 GW in 2023.", (3,))
    ]


def test_several_sentences_on_one_line_each_keep_their_own_markers() -> None:
    line = "Solar capacity reached 20 GW in 2023. [1] Credits expire after 60 months [2]. And more to come here."
    assert line_sentences(line) == [
        MarkedSentence("Solar capacity reached 20 GW in 2023.", (1,)),
        MarkedSentence("Credits expire after 60 months.", (2,)),
        MarkedSentence("And more to come here.", ()),
    ]


def test_markers_close_only_the_last_sentence_before_them() -> None:
    assert line_sentences(
        "The market is large and growing. Credits expire after 60 months. [2]"
    ) == [
        MarkedSentence("The market is large and growing.", ()),
        MarkedSentence("Credits expire after 60 months.", (2,)),
    ]


def test_a_marker_inside_a_sentence_counts_for_that_sentence() -> None:
    assert line_sentences("Prices fell [1], and installers passed the cut on [2].") == [
        MarkedSentence("Prices fell, and installers passed the cut on.", (1, 2))
    ]


def test_markers_that_follow_markers_join_the_sentence_before() -> None:
    assert line_sentences("Credits expire after 60 months [1]. [2]") == [
        MarkedSentence("Credits expire after 60 months.", (1, 2))
    ]


def test_markdown_gives_title_sections_and_list_items() -> None:
    marked = parse_markdown(
        "# Report: solar\n\nOpening sentence without a heading. [1]\n\n"
        "## Market\n\n- Capacity reached 20 GW in 2023. [1]\n- **Prices** fell 30% in 2023 [2].\n\n"
        "## Rules ##\n1. Credits expire after 60 months. [3]\n"
    )
    assert marked.title == "Report: solar"
    assert [s.title for s in marked.sections] == ["", "Market", "Rules"]
    assert marked.sections[1].sentences == [
        MarkedSentence("Capacity reached 20 GW in 2023.", (1,)),
        MarkedSentence("Prices fell 30% in 2023.", (2,)),
    ]
    assert marked.sections[2].sentences == [MarkedSentence("Credits expire after 60 months.", (3,))]


def test_a_later_level_one_heading_is_a_section() -> None:
    marked = parse_markdown("## Market\nCapacity grew a lot. [1]\n# Appendix\nMore text here. [2]")
    assert marked.title is None
    assert [s.title for s in marked.sections] == ["Market", "Appendix"]
