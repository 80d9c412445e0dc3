from pathlib import Path

from engine.sources.library.index.catalog import Catalog
from engine.sources.library.index.segment import build_segment
from engine.sources.library.index.store import IndexStore
from engine.sources.library.index.vocabulary import Vocabulary
from tests.support.index_segments import tokens_of


def test_commit_saves_the_index_and_drops_what_it_no_longer_names(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "index", tmp_path / "docs")
    vocabulary = Vocabulary()
    kept = build_segment("kept.seg", [tokens_of(vocabulary, ("Solar.",))], len(vocabulary))
    old = build_segment("old.seg", [tokens_of(vocabulary, ("Wind.",))], len(vocabulary))
    store.save_segment(kept)
    store.save_segment(old)
    (store.directory / "0123abcd").mkdir()  # an index of an older format
    (store.directory / "vocabulary-old.txt").write_text("x")
    catalog = Catalog(segments=["kept.seg"])
    store.commit(catalog, vocabulary)
    assert sorted(p.name for p in store.segments_dir.iterdir()) == ["kept.seg"]
    assert sorted(p.name for p in store.directory.iterdir()) == sorted(
        ["catalog.json", "segments", catalog.vocabulary]
    )
    loaded = store.load_catalog()
    assert loaded is not None
    assert loaded.segments == ["kept.seg"]
    loaded_vocabulary = store.load_vocabulary(loaded)
    assert loaded_vocabulary is not None
    assert loaded_vocabulary.tokens == ["solar", "wind"]


def test_a_saved_segment_is_mapped_from_its_file(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "index", tmp_path / "docs")
    vocabulary = Vocabulary()
    segment = build_segment("s.seg", [tokens_of(vocabulary, ("Solar.",))], len(vocabulary))
    saved = store.save_segment(segment)
    assert not saved.postings.flags.owndata
    assert saved.postings.tolist() == segment.postings.tolist()


def test_a_missing_or_damaged_segment_is_left_out(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "index", tmp_path / "docs")
    vocabulary = Vocabulary()
    store.save_segment(build_segment("a.seg", [tokens_of(vocabulary, ("A.",))], len(vocabulary)))
    store.segments_dir.joinpath("b.seg").write_bytes(b"junk")
    assert list(store.open_segments(["a.seg", "b.seg", "c.seg"])) == ["a.seg"]


def test_each_folder_has_its_own_directory(tmp_path: Path) -> None:
    one = IndexStore(tmp_path, tmp_path / "one")
    other = IndexStore(tmp_path, tmp_path / "other")
    assert one.directory != other.directory
    assert one.directory.parent == tmp_path
