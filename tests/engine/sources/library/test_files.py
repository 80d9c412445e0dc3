import os
from pathlib import Path

from engine.documents.parse import DocumentKind
from engine.sources.library.files import find_library_files, scan_folder
from tests.support.library_files import write_text


def test_finds_supported_files_recursively_in_path_order(library_folder: Path) -> None:
    write_text(library_folder / ".hidden" / "secret.md", "x")
    write_text(library_folder / ".draft.md", "x")
    found = [
        (p.relative_to(library_folder).as_posix(), k) for p, k in find_library_files(library_folder)
    ]
    assert found == [
        ("battery.html", DocumentKind.html),
        ("hydrogen.txt", DocumentKind.text),
        ("lei_gd.md", DocumentKind.markdown),
        ("solar_report.pdf", DocumentKind.pdf),
        ("wind/wind_review.pdf", DocumentKind.pdf),
    ]


def test_each_file_comes_with_its_size_and_modification_time(tmp_path: Path) -> None:
    path = write_text(tmp_path / "docs" / "a.md", "twelve bytes")
    os.utime(path, ns=(5, 1_700_000_000_123_456_789))
    (scanned,) = scan_folder(tmp_path / "docs")
    assert (scanned.relative, scanned.path, scanned.kind) == ("a.md", path, DocumentKind.markdown)
    assert (scanned.size, scanned.mtime_ns) == (12, 1_700_000_000_123_456_789)


def test_a_folder_named_like_a_document_is_not_a_file(tmp_path: Path) -> None:
    (tmp_path / "docs" / "folder.md").mkdir(parents=True)
    write_text(tmp_path / "docs" / "folder.md" / "inner.txt", "x")
    assert [f.relative for f in scan_folder(tmp_path / "docs")] == ["folder.md/inner.txt"]


def test_a_link_to_a_file_outside_the_library_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "passwd.txt"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n" * 3)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lei.md").write_text("# Lei\n\nArt. 1º Texto da lei com conteúdo suficiente.\n")
    (folder / "inside.md").symlink_to(folder / "lei.md")
    (folder / "passwd.txt").symlink_to(secret)
    (folder / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    refused: list[str] = []
    found = scan_folder(folder, lambda relative, reason: refused.append(f"{relative}: {reason}"))
    assert [f.relative for f in found] == ["inside.md", "lei.md"]  # a link inside is a file
    assert sorted(refused) == [
        "dangling.md: a link to a file outside the library, not read",
        "passwd.txt: a link to a file outside the library, not read",
    ]


def test_a_scanned_file_makes_its_path_when_asked(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.md").write_text("# A\n", encoding="utf-8")
    (scanned,) = scan_folder(tmp_path)
    assert scanned.location == str(tmp_path / "sub" / "a.md")
    assert scanned.path == tmp_path / "sub" / "a.md"
    assert scanned.relative == "sub/a.md"


def test_a_scanned_file_s_stem_is_its_path_s(tmp_path: Path) -> None:
    for name in ("a.md", "a.b.pdf", "x.y/z.TXT", "n.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("text\n", encoding="utf-8")
    for scanned in scan_folder(tmp_path):
        assert scanned.stem == scanned.path.stem


HOSTILE_NAMES = [
    "a b.pdf",
    "ação #1.md",
    "50% off?.txt",
    "x.PDF",
    "no_suffix",
    "trailing.",
    "dots..md",
    "e\u0301.html",
    "sub dir/ç#?%.md",
    "sub dir/.hidden.md",
    "sub dir/deeper/z.md",
    "a.b/c.txt",
]


def _scanned_plainly(folder: Path) -> list[tuple[str, str, DocumentKind, int, int]]:
    """What `scan_folder` finds, the straightforward way (no links, all readable)."""
    from engine.documents.parse import KIND_BY_SUFFIX

    found = []
    for root, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in names:
            kind = KIND_BY_SUFFIX.get(os.path.splitext(name)[1].lower())
            if name.startswith(".") or kind is None:
                continue
            path = Path(root) / name
            status = path.stat()
            relative = path.relative_to(folder).as_posix()
            found.append((str(path), relative, kind, status.st_size, status.st_mtime_ns))
    return sorted(found, key=lambda row: row[1])


def test_the_scan_finds_what_a_plain_walk_finds_on_hostile_names(tmp_path: Path) -> None:
    for name in HOSTILE_NAMES:
        write_text(tmp_path / "docs" / name, name)
    scanned = scan_folder(tmp_path / "docs")
    assert [tuple(file) for file in scanned] == _scanned_plainly(tmp_path / "docs")
    assert [file.relative for file in scanned][:3] == ["50% off?.txt", "a b.pdf", "a.b/c.txt"]
    for file in scanned:
        assert file.path == Path(file.location)
        assert file.stem == file.path.stem
