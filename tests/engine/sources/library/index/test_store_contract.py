"""The store contract (`backend`) as every store keeps it: the tantivy store on this machine
(on disk, or in memory when the cache cannot be written) and the PostgreSQL store a fleet
shares, given the same calls, answer the same. What only one store does (tantivy's damaged
files) is tested beside that store."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.documents.parse import DocumentKind
from engine.sources.library.deadline import Deadline
from engine.sources.library.index.backend import DamagedIndex, IndexBackend, PassageTokens
from engine.sources.library.index.catalog import Catalog, CatalogEntry
from engine.sources.library.index.tantivy_store import TantivyStore
from tests.support.clock import FakeClock
from tests.support.library_files import Recorder


def _passages(*texts: str) -> list[PassageTokens]:
    return [PassageTokens(page, 0, len(text), text) for page, text in enumerate(texts)]


def _open(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> IndexBackend:
    if kind == "tantivy":
        return TantivyStore(tmp_path / "index")
    if kind == "tantivy-memory":  # a cache that cannot be written: the index in memory
        return TantivyStore(None)
    from engine.sources.library.index.postgres_store import PostgresStore

    return PostgresStore(request.getfixturevalue("postgres_url"), "/docs")


@pytest.fixture(params=["tantivy", "postgresql"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[IndexBackend, ...]:
    """Two handles on one folder's index in the store (as two processes hold it)."""
    kind = str(request.param)
    return _open(kind, request, tmp_path), _open(kind, request, tmp_path)


@pytest.fixture(params=["tantivy", "tantivy-memory", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> IndexBackend:
    """One handle on a folder's index, in every store (the in-memory one included)."""
    return _open(str(request.param), request, tmp_path)


def test_added_passages_are_found_with_their_term_counts_once_committed(
    store: IndexBackend,
) -> None:
    with store.writing() as writer:
        writer.add("a", _passages("solar solar roof", "wind farm"))
        writer.add("b", _passages("solar tariff"))
        writer.commit()
    reader = store.reader()
    found = sorted(reader.candidates(["solar", "roof", "absent"], 10))
    assert [(c.key, c.page, c.length, c.counts) for c in found] == [
        ("a", 0, 3, {"solar": 2, "roof": 1}),
        ("b", 0, 2, {"solar": 1}),
    ]
    assert reader.passage_frequencies(["solar", "wind", "absent"]) == [2, 1, 0]
    assert reader.keys() == {"a", "b"}
    assert [c.key for c in reader.candidates(["solar"], 10, keys=["b"])] == ["b"]
    assert reader.candidates(["solar"], 1)[0].key == "a"  # its own ranking: two solars
    assert reader.candidates([], 10) == []


def test_tokens_are_ours_not_the_stores(store: IndexBackend) -> None:
    """A token with an apostrophe, a backslash, a colon or digits is one term, as written."""
    odd = ["d'água", "a\\b", "x:1", "2023", "ção"]
    with store.writing() as writer:
        writer.add("a", _passages(" ".join(odd)))
        writer.commit()
    reader = store.reader()
    for token in odd:
        assert [c.counts for c in reader.candidates([token], 10)] == [{token: 1}]
    assert reader.candidates(["d"], 10) == []
    assert reader.passage_frequencies(odd) == [1] * len(odd)


def test_a_reader_keeps_the_snapshot_it_opened(store: IndexBackend) -> None:
    with store.writing() as writer:
        writer.add("a", _passages("solar roof"))
        writer.add("b", _passages("solar farm"))
        writer.commit()
    before = store.reader()
    with store.writing() as writer:
        writer.remove(["a"])
        writer.add("c", _passages("solar panel"))
        writer.commit()
    assert sorted(c.key for c in before.candidates(["solar"], 10)) == ["a", "b"]
    assert before.passage_frequencies(["solar"]) == [2]
    assert before.passage_total() == 2
    after = store.reader()
    assert sorted(c.key for c in after.candidates(["solar"], 10)) == ["b", "c"]
    assert after.passage_frequencies(["solar", "roof"]) == [2, 0]
    assert after.passage_total() == 2  # a's removed passage not counted, c's counted


def test_uncommitted_passages_are_not_seen(store: IndexBackend) -> None:
    with store.writing() as writer:
        writer.add("a", _passages("solar"))
        writer.commit()
        writer.add("b", _passages("solar"))
        assert [c.key for c in store.reader().candidates(["solar"], 10)] == ["a"]
        writer.commit()
    assert sorted(c.key for c in store.reader().candidates(["solar"], 10)) == ["a", "b"]


def test_a_huge_token_is_stored_without_harm(store: IndexBackend) -> None:
    huge = "x" * 70_000  # past tantivy's longest term and PostgreSQL's longest lexeme
    with store.writing() as writer:
        writer.add("a", _passages(f"solar {huge} roof"))
        writer.commit()
    (found,) = store.reader().candidates(["roof"], 10)
    assert (found.length, found.counts) == (3, {"roof": 1})


def test_the_catalog_is_saved_with_a_new_generation_and_reset(
    stores: tuple[IndexBackend, ...],
) -> None:
    store, other = stores
    entry = CatalogEntry("a.md", DocumentKind.markdown, 1, 2, "0" * 64, "", key="k", passages=1)
    assert store.load_catalog() is None
    store.save_catalog(Catalog({"a.md": entry}))
    first = other.catalog_generation()
    assert other.load_catalog() == Catalog({"a.md": entry})
    store.save_catalog(Catalog({"a.md": entry}))
    assert other.catalog_generation() != first  # the same catalog saved again is a new one
    with store.writing() as writer:
        writer.add("k", _passages("solar"))
        writer.commit()
    store.reset()
    assert other.load_catalog() is None
    with pytest.raises(DamagedIndex):
        other.reader()


def test_nothing_stored_yet_is_no_index(store: IndexBackend) -> None:
    with pytest.raises(DamagedIndex):
        store.reader()


def test_the_refresh_lock_is_held_inside_and_a_wait_ends_at_its_deadline(
    stores: tuple[IndexBackend, ...],
) -> None:
    store, other = stores
    clock = FakeClock()
    waits = Recorder()
    with store.refreshing(Recorder(), None) as held:
        assert held
        with other.refreshing(waits, Deadline(clock.now, clock)) as waited:
            assert not waited
    assert waits.messages == ["waiting for another process refreshing this index"]
    with other.refreshing(Recorder(), Deadline(clock.now, clock)) as free:
        assert free
