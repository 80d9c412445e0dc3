from pathlib import Path

import pytest
import tantivy

from engine.sources.library.index.backend import DamagedIndex, PassageTokens
from engine.sources.library.index.tantivy_store import TantivyStore


def _passages(*texts: str) -> list[PassageTokens]:
    return [PassageTokens(page, 0, len(text), text) for page, text in enumerate(texts)]


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
