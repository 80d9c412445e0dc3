from engine.models.extractive.reading import (
    DOCUMENT_HITS,
    MAX_READS,
    PageToRead,
    distinct_hits,
    documents_to_open,
    pages_to_read,
)
from engine.snapshots import Snapshot
from engine.sources.protocols import SearchHit

BALANCE_SHEET = "Consolidated Balance Sheets\nMerchandise inventories 5,409 5,209\n"


def hits(*urls: str) -> list[SearchHit]:
    return [SearchHit(url, "t", "", rank, "test") for rank, url in enumerate(urls, start=1)]


def test_repeats_and_avoided_urls_are_dropped() -> None:
    found = hits("a#page=1", "a#page=1", "b#page=2", "c#page=3")
    assert [h.url for h in distinct_hits(found, ["b#page=2"])] == ["a#page=1", "c#page=3"]


def test_each_document_is_opened_once_at_its_first_hit() -> None:
    found = hits("a#page=4", "b#page=1", "a#page=9", "c#page=2")
    assert documents_to_open(found) == ["a#page=4", "b#page=1", "c#page=2"]


def test_documents_are_chosen_from_the_first_hits_only_and_capped() -> None:
    found = hits(*(f"doc{n}" for n in range(DOCUMENT_HITS + 5)))
    assert documents_to_open(found) == [f"doc{n}" for n in range(MAX_READS)]
    deep = hits(*(["a#page=1"] * DOCUMENT_HITS), "late#page=1")
    assert documents_to_open(deep) == ["a#page=1"]


def test_every_hit_page_of_an_open_document_is_read_not_those_of_others() -> None:
    found = hits("a#page=1", "b#page=1", "a#page=7")
    opened = {"a": Snapshot.from_pages("a", ["x"] * 9)}
    pages = pages_to_read(found, opened, "who founded it?")
    assert pages == [PageToRead("a#page=1", 1), PageToRead("a#page=7", 3)]


def test_the_statement_printing_the_figure_asked_is_read_after_the_hits() -> None:
    found = hits("a#page=1")
    opened = {"a": Snapshot.from_pages("a", ["cover", "discussion", BALANCE_SHEET])}
    pages = pages_to_read(found, opened, "What were the inventories in FY2019?")
    assert pages == [PageToRead("a#page=1", 1), PageToRead("a#page=3", 2)]
    assert pages_to_read(found, opened, "Who is the CEO?") == [PageToRead("a#page=1", 1)]
    avoided = pages_to_read(found, opened, "What were the inventories?", avoid=["a#page=3"])
    assert avoided == [PageToRead("a#page=1", 1)]
