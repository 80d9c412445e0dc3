from engine.sources.library.running_lines import (
    line_key,
    running_lines,
    without_running_lines,
)

PAGES = [
    f"Table of Contents\n3M Company and Subsidiaries\n{body}\nPage {n} of 120"
    for n, body in enumerate(
        [
            "Net sales rose 3% in 2018.",
            "Consolidated Statement of Cash Flows\nPurchases of PP&E (1,577) (1,373)",
            "Legal proceedings are described in Note 16.",
            "The company has 93,000 employees.",
            "Research and development spending was 1,821 million.",
        ],
        start=1,
    )
]


def test_lines_repeated_on_many_pages_are_running_lines_whatever_their_page_number() -> None:
    running = running_lines(PAGES)
    assert running == {
        line_key("Table of Contents"),
        line_key("3M Company and Subsidiaries"),
        line_key("Page 1 of 120"),
    }
    assert line_key("Page 7 of 120") in running


def test_only_the_running_lines_leave_the_indexed_text() -> None:
    text = without_running_lines(PAGES[1], running_lines(PAGES))
    assert text == "Consolidated Statement of Cash Flows\nPurchases of PP&E (1,577) (1,373)"


def test_a_short_document_has_no_running_lines() -> None:
    assert running_lines(PAGES[:3]) == frozenset()
    assert without_running_lines("Table of Contents", frozenset()) == "Table of Contents"
