import os
import random
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from engine.documents.parse import DocumentKind, ParsedFile
from engine.sources.library.deadline import Deadline
from engine.sources.library.files import FolderScan, ScannedFile, scan_columns, scan_folder
from engine.sources.library.index import reading as reading_module
from engine.sources.library.index import refresh as refresh_module
from engine.sources.library.index.backend import PassageTokens
from engine.sources.library.index.catalog import Catalog, CatalogEntry
from engine.sources.library.index.reading import TOO_LARGE
from engine.sources.library.index.refresh import (
    IndexState,
    RefreshSummary,
    effective_title,
    is_current,
    refresh,
)
from tests.support.clock import FakeClock
from tests.support.library_files import ReadCounter, Recorder, TimedReads, write_text


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    write_text(folder / "a.md", "# Alpha\nSolar panels on roofs.\n")
    write_text(folder / "b.md", "# Beta\nWind turbines offshore.\n")
    write_text(folder / "c.txt", "Battery storage.\n")
    return folder


class PassagesWritten:
    """A `PassageWriter` that keeps what it is given: the passages added, by key."""

    def __init__(self) -> None:
        self.added: dict[str, list[PassageTokens]] = {}

    def add(self, key: str, passages: Sequence[PassageTokens]) -> None:
        self.added.setdefault(key, []).extend(passages)

    def remove(self, keys: Iterable[str]) -> None:
        raise AssertionError("refresh removes nothing: its caller does, once saved")

    def commit(self) -> None:
        raise AssertionError("refresh commits nothing: its caller does")


def _refresh(
    state: IndexState,
    folder: Path,
    tmp_path: Path,
    titles: dict[str, str] | None = None,
    deadline: Deadline | None = None,
    writer: PassagesWritten | None = None,
) -> RefreshSummary:
    errors = Recorder()
    summary = refresh(
        state,
        scan_columns(folder),
        titles or {},
        writer=writer or PassagesWritten(),
        parsed_dir=str(tmp_path / "parsed"),
        on_progress=Recorder(),
        on_cache_error=errors,
        deadline=deadline,
    )
    assert errors.messages == []
    return summary


def _new_state() -> IndexState:
    return IndexState(Catalog())


def test_a_first_refresh_reads_every_file(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    state = _new_state()
    written = PassagesWritten()
    summary = _refresh(state, folder, tmp_path, writer=written)
    assert summary == RefreshSummary(added=["a.md", "b.md", "c.txt"])
    entries = state.catalog.entries
    assert [e.title for e in entries.values()] == ["Alpha", "Beta", "c"]
    assert {e.key: e.passages for e in entries.values()} == {
        key: len(passages) for key, passages in written.added.items()
    }
    beta = written.added[entries["b.md"].key]
    assert [p.tokens for p in beta] == ["beta beta wind turbine offshore"]  # title, heading
    assert entries["b.md"].length == 5
    assert is_current(state.catalog, scan_columns(folder), {})


def test_unchanged_size_and_mtime_are_not_hashed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    state = _new_state()
    _refresh(state, folder, tmp_path)
    write_text(folder / "d.md", "Hydrogen.\n")
    hashed: list[str] = []
    monkeypatch.setattr(refresh_module, "file_sha256", lambda p: hashed.append(p.name) or "f")
    reads = ReadCounter(monkeypatch)
    summary = _refresh(state, folder, tmp_path)
    assert hashed == ["d.md"]
    assert reads.read == ["d.md"]
    assert summary.added == ["d.md"]


def test_a_touched_file_is_hashed_but_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    state = _new_state()
    _refresh(state, folder, tmp_path)
    os.utime(folder / "a.md", ns=(1, 1))
    reads = ReadCounter(monkeypatch)
    summary = _refresh(state, folder, tmp_path)
    assert reads.read == []
    assert not summary.any_change
    assert state.catalog.entries["a.md"].mtime_ns == 1
    assert is_current(state.catalog, scan_columns(folder), {})


def test_changed_and_removed_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _folder(tmp_path)
    state = _new_state()
    _refresh(state, folder, tmp_path)
    write_text(folder / "b.md", "# Beta\nWind turbines offshore, and now onshore too.\n")
    (folder / "c.txt").unlink()
    reads = ReadCounter(monkeypatch)
    summary = _refresh(state, folder, tmp_path)
    assert reads.read == ["b.md"]
    assert (summary.changed, summary.removed) == (["b.md"], ["c.txt"])
    assert sorted(state.catalog.entries) == ["a.md", "b.md"]


def test_a_new_manifest_title_reindexes_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    state = _new_state()
    _refresh(state, folder, tmp_path)
    titles = {"a.md": "LEI 1"}
    assert not is_current(state.catalog, scan_columns(folder), titles)
    reads = ReadCounter(monkeypatch)
    _refresh(state, folder, tmp_path, titles)
    assert reads.read == ["a.md"]
    assert state.catalog.entries["a.md"].title == "LEI 1"


def test_unreadable_files_are_remembered_with_their_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    (folder / "empty.md").touch()
    state = _new_state()
    summary = _refresh(state, folder, tmp_path)
    assert summary.unreadable == [("empty.md", "empty file")]
    assert "empty.md" not in summary.added
    reads = ReadCounter(monkeypatch)
    again = _refresh(state, folder, tmp_path)
    assert reads.read == []
    assert again.unreadable == [("empty.md", "empty file")]


def test_a_changed_file_is_added_under_a_fresh_key_and_kept_files_add_nothing(
    tmp_path: Path,
) -> None:
    folder = _folder(tmp_path)
    state = _new_state()
    _refresh(state, folder, tmp_path)
    before = {e.relative: e.key for e in state.catalog.entries.values()}
    write_text(folder / "b.md", "# Beta\nWind turbines, onshore now.\n")
    written = PassagesWritten()
    _refresh(state, folder, tmp_path, writer=written)
    after = {e.relative: e.key for e in state.catalog.entries.values()}
    assert (after["a.md"], after["c.txt"]) == (before["a.md"], before["c.txt"])
    assert after["b.md"] != before["b.md"]
    assert list(written.added) == [after["b.md"]]


def test_the_effective_title(tmp_path: Path) -> None:
    (file,) = scan_folder(_folder(tmp_path))[:1]
    assert effective_title(" LEI 1 ", "Alpha", file) == "LEI 1"
    assert effective_title("", "Alpha", file) == "Alpha"
    assert effective_title("", "", file) == "a"


def test_a_file_out_of_memory_in_its_reader_is_skipped_and_the_rest_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    parse = reading_module.parse_file_or_reason

    def parse_or_exhaust(path: str) -> ParsedFile | str:
        if path.endswith("b.md"):
            raise MemoryError
        return parse(path)

    monkeypatch.setattr(reading_module, "parse_file_or_reason", parse_or_exhaust)
    state = _new_state()
    summary = _refresh(state, folder, tmp_path)
    assert summary == RefreshSummary(added=["a.md", "c.txt"], unreadable=[("b.md", TOO_LARGE)])
    assert [e.relative for e in state.catalog.entries.values() if e.indexed] == ["a.md", "c.txt"]


def test_a_file_out_of_memory_while_handed_to_the_index_is_skipped(tmp_path: Path) -> None:
    folder = _folder(tmp_path)

    class Exhausted(PassagesWritten):
        def add(self, key: str, passages: Sequence[PassageTokens]) -> None:
            if any("turbine" in passage.tokens for passage in passages):  # b.md's
                raise MemoryError
            super().add(key, passages)

    state = _new_state()
    summary = _refresh(state, folder, tmp_path, writer=Exhausted())
    assert summary == RefreshSummary(added=["a.md", "c.txt"], unreadable=[("b.md", TOO_LARGE)])
    assert state.catalog.entries["b.md"].reason == TOO_LARGE
    assert state.catalog.entries["c.txt"].indexed


def _five(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    for name in "abcde":
        write_text(folder / f"{name}.md", f"# {name.upper()}\nSolar tariffs, case {name}.\n")
    return folder


def test_a_deadline_already_passed_hashes_and_reads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _five(tmp_path)
    hashed: list[str] = []
    monkeypatch.setattr(refresh_module, "file_sha256", lambda p: hashed.append(p.name) or "f")
    reads = ReadCounter(monkeypatch)
    clock = FakeClock()
    state = _new_state()
    summary = _refresh(state, folder, tmp_path, deadline=Deadline(clock.now, clock))
    assert (hashed, reads.read) == ([], [])
    assert summary.pending == [f"{name}.md" for name in "abcde"]
    assert summary.pending_bytes == sum(p.stat().st_size for p in folder.iterdir())
    assert (summary.added, state.catalog.entries) == ([], {})
    assert not is_current(state.catalog, scan_columns(folder), {})


def test_a_refresh_stopped_by_its_deadline_keeps_what_it_read_and_the_next_reads_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _five(tmp_path)
    clock = FakeClock(0.0)
    TimedReads(monkeypatch, clock, seconds=1.0)  # each file takes a second
    state = _new_state()
    summary = _refresh(state, folder, tmp_path, deadline=Deadline(2.5, clock))
    assert summary.added == ["a.md", "b.md", "c.md"]
    assert summary.pending == ["d.md", "e.md"]
    assert sorted(state.catalog.entries) == ["a.md", "b.md", "c.md"]
    reads = ReadCounter(monkeypatch)
    rest = _refresh(state, folder, tmp_path, deadline=Deadline(clock.now + 60.0, clock))
    assert reads.read == ["d.md", "e.md"]
    assert (rest.added, rest.pending) == (["d.md", "e.md"], [])
    assert is_current(state.catalog, scan_columns(folder), {})


def test_a_changed_file_not_reached_by_the_deadline_leaves_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its old passages are not what the file says now: out until it is read again."""
    folder = _five(tmp_path)
    state = _new_state()
    _refresh(state, folder, tmp_path)
    write_text(folder / "e.md", "# E\nWind now.\n")
    clock = FakeClock()
    summary = _refresh(state, folder, tmp_path, deadline=Deadline(clock.now, clock))
    assert (summary.changed, summary.pending) == ([], ["e.md"])
    assert sorted(state.catalog.entries) == ["a.md", "b.md", "c.md", "d.md"]


def test_ctrl_c_while_reading_keeps_the_files_read_and_says_it_was_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _five(tmp_path)
    TimedReads(monkeypatch, FakeClock(), interrupt_at=3)
    state = _new_state()
    summary = _refresh(state, folder, tmp_path)
    assert summary.interrupted
    assert sorted(state.catalog.entries) == ["a.md", "b.md"]
    assert summary.pending == ["c.md", "d.md", "e.md"]


def _current_plainly(catalog: Catalog, files: list[ScannedFile], titles: dict[str, str]) -> bool:
    """`is_current` the straightforward way: each file's entry, unmoved, with its title."""
    return len(files) == len(catalog.entries) and all(
        (entry := catalog.entries.get(file.relative)) is not None
        and (entry.kind, entry.size, entry.mtime_ns) == (file.kind, file.size, file.mtime_ns)
        and (
            not entry.indexed
            or entry.title == effective_title(titles.get(file.relative, ""), entry.own_title, file)
        )
        for file in files
    )


def test_is_current_says_what_the_plain_comparison_says() -> None:
    files = [
        ScannedFile(f"/lib/{name}", name, DocumentKind.markdown, 10, 20)
        for name in ("a b.md", "ação.md", "n.md", "s/x.y.md", "u.md")
    ]
    own = {"a b.md": "Own", "ação.md": "", "n.md": "Own", "s/x.y.md": "", "u.md": ""}
    entries = {
        file.relative: CatalogEntry(
            file.relative,
            file.kind,
            10,
            20,
            "0" * 64,
            "",
            own[file.relative],
            own[file.relative] or file.stem,
        )
        for file in files
    }
    entries["u.md"] = entries["u.md"]._replace(reason="no text in file", title="")
    # Titled with other manifest titles than any variant's, so each title is checked.
    base = Catalog(entries, {"elsewhere.md": "Elsewhere"})
    variants: list[tuple[Catalog, list[ScannedFile], dict[str, str]]] = [
        (base, files, {}),
        (base, files, {"a b.md": "  "}),
        (base, files, {"a b.md": "Listed"}),
        (base, files, {"ação.md": "ação"}),
        (base, files, {"u.md": "Listed"}),
        (base, files[:-1], {}),
        (base, [*files[:-1], files[-1]._replace(relative="v.md")], {}),
        (base, [files[0]._replace(size=11), *files[1:]], {}),
        (base, [files[0]._replace(mtime_ns=21), *files[1:]], {}),
        (base, [files[0]._replace(kind=DocumentKind.text), *files[1:]], {}),
        (Catalog({**entries, "n.md": entries["n.md"]._replace(title="n")}, base.titles), files, {}),
        (
            Catalog({**entries, "s/x.y.md": entries["s/x.y.md"]._replace(title="x")}, base.titles),
            files,
            {},
        ),
    ]
    said = [is_current(c, FolderScan.of(f), t) for c, f, t in variants]
    assert said == [_current_plainly(*variant) for variant in variants]
    assert said[:5] == [True, True, False, True, True]
    assert not any(said[5:])


def test_a_catalog_titled_with_the_same_manifest_titles_checks_no_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh's catalog keeps the manifest titles it titled its entries with: with the
    same titles and files, opening makes no title; a title changed since is seen."""
    folder = _folder(tmp_path)
    titles = {"a.md": "Listed Alpha"}
    state = IndexState(Catalog())
    _refresh(state, folder, tmp_path, titles)
    assert state.catalog.titles == titles
    saved = Catalog.decode(state.catalog.encode())
    assert saved is not None

    def no_title(*_: object) -> str:
        raise AssertionError("a title made")

    monkeypatch.setattr(refresh_module, "effective_title", no_title)
    assert is_current(saved, scan_columns(folder), dict(titles))
    monkeypatch.undo()
    assert not is_current(saved, scan_columns(folder), {"a.md": "Renamed"})
    assert not is_current(saved, scan_columns(folder), {})
    assert is_current(saved, scan_columns(folder), {"a.md": "Listed Alpha", "gone.md": "G"})


def test_refreshing_after_any_edits_gives_what_a_first_refresh_gives(tmp_path: Path) -> None:
    """Rounds of random edits (files added, rewritten, touched, removed, renamed, one
    made unreadable, manifest titles changed), each refreshed from the last catalog,
    against a first refresh of the folder as it is: the same rows but for the keys, and
    every file read again exactly when it changed."""
    folder = tmp_path / "docs"
    chance = random.Random(7)
    names = [f"{d}/{n}.md" for d in ("a", "a b", "a-b", "z") for n in ("x", "y", "x.y", "ç")]
    titles: dict[str, str] = {}
    state = _new_state()
    for round_ in range(12):
        for name in chance.sample(names, 5):
            path = folder / name
            edit = chance.choice(["write", "touch", "remove", "unreadable"])
            if edit == "write" or not path.exists():
                write_text(path, f"# T {name} {round_}\nSolar {chance.random()}.\n")
            elif edit == "touch":
                os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1000))
            elif edit == "remove":
                path.unlink()
            else:
                path.write_bytes(b"\xff\xfe\x00garbage" * 3)
        if chance.random() < 0.3:
            titles = {chance.choice(names): f"Listed {round_}"}
        _refresh(state, folder, tmp_path, titles)
        fresh = _new_state()
        _refresh(fresh, folder, tmp_path / "fresh", titles)

        def without_keys(catalog: Catalog) -> list[CatalogEntry]:
            return [entry._replace(key="") for entry in catalog.entries.values()]

        assert without_keys(state.catalog) == without_keys(fresh.catalog)
        assert state.catalog.titles == titles
        decoded = Catalog.decode(state.catalog.encode())
        assert decoded == state.catalog
