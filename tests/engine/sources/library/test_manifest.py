import json
from pathlib import Path

from engine.sources.library.files import Note
from engine.sources.library.manifest import ManifestEntry, load_manifest
from tests.support.library_files import Recorder


def _write_jsonl(path: Path, rows: list[object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")


def test_index_manifest_in_the_parent_maps_relative_files(tmp_path: Path) -> None:
    _write_jsonl(
        tmp_path / "index.jsonl",
        [{"file": "docs/lei.md", "title": "LEI Nº 1", "url": "http://gov/lei1"}],
    )
    manifest = load_manifest(tmp_path / "docs", Recorder())
    assert manifest.entry_for(tmp_path / "docs" / "lei.md") == ManifestEntry(
        "http://gov/lei1", "LEI Nº 1"
    )
    assert manifest.entry_for(tmp_path / "docs" / "other.md") is None


def test_documents_manifest_maps_file_stems(tmp_path: Path) -> None:
    _write_jsonl(
        tmp_path / "documents.jsonl",
        [{"doc_name": "3M_2018_10K", "company": "3M", "doc_link": "https://3m/x.pdf"}],
    )
    manifest = load_manifest(tmp_path / "pdfs", Recorder())
    assert manifest.entry_for(tmp_path / "pdfs" / "3M_2018_10K.pdf") == ManifestEntry(
        "https://3m/x.pdf"
    )


def test_manifest_in_the_folder_itself_is_read_and_wins(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    _write_jsonl(folder / "index.jsonl", [{"file": "a.md", "url": "http://inner/a"}])
    _write_jsonl(tmp_path / "index.jsonl", [{"file": "docs/a.md", "url": "http://outer/a"}])
    _write_jsonl(folder / "documents.jsonl", [{"doc_name": "b", "doc_link": "http://inner/b"}])
    _write_jsonl(tmp_path / "documents.jsonl", [{"doc_name": "b", "doc_link": "http://outer/b"}])
    manifest = load_manifest(folder, Recorder())
    assert manifest.entry_for(folder / "a.md") == ManifestEntry("http://inner/a")
    assert manifest.entry_for(folder / "b.pdf") == ManifestEntry("http://inner/b")


def test_path_entries_win_over_stem_entries(tmp_path: Path) -> None:
    _write_jsonl(tmp_path / "index.jsonl", [{"file": "docs/x.md", "url": "http://by-path"}])
    _write_jsonl(tmp_path / "documents.jsonl", [{"doc_name": "x", "doc_link": "http://by-stem"}])
    manifest = load_manifest(tmp_path / "docs", Recorder())
    assert manifest.entry_for(tmp_path / "docs" / "x.md") == ManifestEntry("http://by-path")


def test_unusable_lines_are_skipped_with_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "index.jsonl"
    lines = [
        json.dumps({"file": "docs/a.md", "url": "http://a"}),
        "{not json",
        json.dumps({"file": "docs/b.md", "url": None}),
        json.dumps(["a", "list"]),
        "",
        json.dumps({"file": "docs/c.md", "url": "http://c"}),
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    warnings = Recorder()
    manifest = load_manifest(tmp_path / "docs", warnings)
    assert len(manifest) == 2
    # Named as the library sees it (the manifest is in its parent): no server path.
    assert warnings.messages == ["manifest ../index.jsonl: 3 unusable line(s) skipped (2, 3, 4)"]
    assert str(tmp_path) not in warnings.messages[0]


def test_no_manifest_is_an_empty_manifest(tmp_path: Path) -> None:
    warnings = Recorder()
    manifest = load_manifest(tmp_path / "docs", warnings)
    assert len(manifest) == 0
    assert manifest.entry_for(tmp_path / "docs" / "a.md") is None
    assert warnings.messages == []


def test_unreadable_manifest_is_ignored_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "documents.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    warnings = Recorder()
    assert len(load_manifest(tmp_path / "docs", warnings)) == 0
    assert len(warnings.messages) == 1
    assert "ignored" in warnings.messages[0]


def test_warnings_have_their_portuguese_wording_and_name_no_server_path(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "index.jsonl").write_text("{not json\n", encoding="utf-8")
    (tmp_path / "documents.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    warnings = Recorder()
    load_manifest(folder, warnings)
    unusable, unreadable = warnings.messages
    assert unusable == "manifest index.jsonl: 1 unusable line(s) skipped (1)"
    assert isinstance(unusable, Note)
    assert isinstance(unreadable, Note)
    assert unusable.in_language("pt") == (
        "manifesto index.jsonl: 1 linha(s) inutilizável(is) ignorada(s) (1)"
    )
    assert unreadable.in_language("pt").startswith("manifesto ../documents.jsonl ignorado")
    assert all(str(tmp_path) not in m for m in (unusable, unreadable, unreadable.pt))
