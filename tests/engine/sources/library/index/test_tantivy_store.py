from pathlib import Path

import pytest
import tantivy

from engine.documents.parse import DocumentKind
from engine.sources.library.deadline import Deadline
from engine.sources.library.index.backend import DamagedIndex, PassageTokens
from engine.sources.library.index.catalog import Catalog, CatalogEntry
from engine.sources.library.index.tantivy_store import TantivyStore, folder_directory
from tests.support.clock import FakeClock
from tests.support.library_files import Recorder


def _passages(*texts: str) -> list[PassageTokens]:
    return [PassageTokens(page, 0, len(text), text) for page, text in enumerate(texts)]


@pytest.fixture(params=["disk", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> TantivyStore:
    return TantivyStore(tmp_path / "index" if request.param == "disk" else None)


def test_added_passages_are_found_with_their_term_counts_once_committed(
    store: TantivyStore,
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


def test_a_reader_keeps_the_snapshot_it_opened(store: TantivyStore) -> None:
    """A file removed (its passages too) while another reader searches: that reader goes
    on with the passages it opened; a reader opened afterwards no longer has them."""
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
    after = store.reader()
    assert sorted(c.key for c in after.candidates(["solar"], 10)) == ["b", "c"]
    assert after.passage_frequencies(["solar", "roof"]) == [2, 0]  # removed ones not counted


def test_uncommitted_passages_are_not_seen(store: TantivyStore) -> None:
    with store.writing() as writer:
        writer.add("a", _passages("solar"))
        writer.commit()
        writer.add("b", _passages("solar"))
        assert [c.key for c in store.reader().candidates(["solar"], 10)] == ["a"]
        writer.commit()


def test_a_huge_token_is_stored_without_harm(store: TantivyStore) -> None:
    huge = "x" * 70_000  # past tantivy's longest term
    with store.writing() as writer:
        writer.add("a", _passages(f"solar {huge} roof"))
        writer.commit()
    (found,) = store.reader().candidates(["roof"], 10)
    assert (found.length, found.counts) == (3, {"roof": 1})


def test_the_catalog_is_saved_and_reset(store: TantivyStore) -> None:
    entry = CatalogEntry("a.md", DocumentKind.markdown, 1, 2, "0" * 64, "", key="k", passages=1)
    assert store.load_catalog() is None
    store.save_catalog(Catalog({"a.md": entry}))
    assert store.load_catalog() == Catalog({"a.md": entry})
    with store.writing() as writer:
        writer.add("k", _passages("solar"))
        writer.commit()
    store.reset()
    assert store.load_catalog() is None
    with pytest.raises(DamagedIndex):
        store.reader()


def test_nothing_stored_yet_is_no_index(store: TantivyStore) -> None:
    with pytest.raises(DamagedIndex):
        store.reader()


def _written(tmp_path: Path) -> TantivyStore:
    store = TantivyStore(tmp_path / "index")
    with store.writing() as writer:
        writer.add("a", _passages(*(f"solar word{n}" for n in range(500))))
        writer.commit()
    return store


@pytest.mark.parametrize("damage", ["meta", "truncated", "missing", "emptied"])
def test_a_damaged_or_partly_written_index_does_not_open(tmp_path: Path, damage: str) -> None:
    store = _written(tmp_path)
    assert store.passages_dir is not None
    files = [p for p in store.passages_dir.iterdir() if not p.name.startswith(".")]
    for path in files:
        if damage == "meta" and path.name == "meta.json":
            path.write_text("{junk")
        elif damage == "truncated" and path.suffix == ".term":
            path.write_bytes(path.read_bytes()[:-40])
        elif damage == "missing" and path.suffix == ".store":
            path.unlink()
        elif damage == "emptied" and path.name != "meta.json":
            path.write_bytes(b"")
    with pytest.raises(DamagedIndex):
        store.reader()


def test_an_index_of_another_schema_does_not_open(tmp_path: Path) -> None:
    store = TantivyStore(tmp_path / "index")
    assert store.passages_dir is not None
    store.passages_dir.mkdir(parents=True)
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", stored=True)
    other = tantivy.Index(builder.build(), path=str(store.passages_dir))
    with other.writer(15_000_000, 1) as writer:
        writer.add_document(tantivy.Document(body="solar"))
    with pytest.raises(DamagedIndex):
        store.reader()
    with pytest.raises(DamagedIndex), store.writing():
        pass


def test_the_refresh_lock_is_held_inside(tmp_path: Path) -> None:
    store = TantivyStore(folder_directory(tmp_path, Path("/docs")))
    other = TantivyStore(folder_directory(tmp_path, Path("/docs")))
    clock = FakeClock()
    with store.refreshing(Recorder(), None) as held:
        assert held
        with other.refreshing(Recorder(), Deadline(clock.now, clock)) as waited:
            assert not waited
    with other.refreshing(Recorder(), Deadline(clock.now, clock)) as free:
        assert free
