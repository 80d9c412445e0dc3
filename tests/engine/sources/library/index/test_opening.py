import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tantivy

from engine.sources.library.deadline import Deadline
from engine.sources.library.index import opening as opening_module
from engine.sources.library.index.backend import PassageTokens
from engine.sources.library.index.lock import exclusive
from engine.sources.library.index.opening import OpenedIndex, open_index
from engine.sources.library.index.passage_index import Matches
from engine.sources.library.index.tantivy_store import TantivyReader, TantivyStore, folder_directory
from tests.support.clock import FakeClock
from tests.support.library_files import ReadCounter, Recorder, TimedReads, write_pdf, write_text


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    for number in range(6):
        write_text(folder / f"d{number}.md", f"# Doc {number}\nSolar tariffs, case {number}.\n")
    return folder


def _store(folder: Path, cache: Path) -> TantivyStore:
    return TantivyStore(folder_directory(cache / "index", folder))


def _found(opened: OpenedIndex, terms: list[str]) -> list[tuple[str, int, float]]:
    """What a search for `terms` matches: each passage's file, page and score."""
    matches: Matches = opened.passage_index().matches(terms)
    names = [entry.relative for entry in opened.documents()]
    scores = matches.scores.tolist()
    return [(names[r.document], r.page, s) for r, s in zip(matches.refs, scores, strict=True)]


def _open(folder: Path, cache: Path, **options: object) -> OpenedIndex:
    return open_index(
        folder,
        cache / "index",
        cache / "parsed",
        {},
        on_progress=Recorder(),
        on_cache_error=options.get("on_cache_error", pytest.fail),  # type: ignore[arg-type]
        deadline=options.get("deadline"),  # type: ignore[arg-type]
    )


def test_a_current_index_opens_without_refreshing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    first = _open(folder, tmp_path / "cache")
    assert not first.from_cache
    assert [e.relative for e in first.documents()] == [f"d{n}.md" for n in range(6)]

    def no_refresh(*args: object, **options: object) -> None:
        raise AssertionError("refreshed")

    monkeypatch.setattr(opening_module, "refresh", no_refresh)
    second = _open(folder, tmp_path / "cache")
    assert second.from_cache
    assert second.documents() == first.documents()
    assert _found(second, ["case"]) == _found(first, ["case"])
    assert len(_found(first, ["case"])) == 6


def test_a_damaged_catalog_is_rebuilt(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _open(folder, tmp_path / "cache")
    catalog_path = _store(folder, tmp_path / "cache").catalog_path
    assert catalog_path is not None
    catalog_path.write_text("{")
    reopened = _open(folder, tmp_path / "cache")
    assert not reopened.from_cache
    assert reopened.summary.added == [f"d{n}.md" for n in range(6)]


def test_an_unwritable_cache_indexes_in_memory(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be")
    errors: list[OSError] = []
    opened = _open(folder, blocker, on_cache_error=errors.append)
    assert errors
    assert len(opened.passage_index()) == 6
    assert opened.state.texts == {}  # Markdown is read from its file: nothing to keep


def test_an_unwritable_cache_keeps_parsed_pdf_texts_in_memory(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    write_pdf(folder / "a.pdf", ["Solar page."])
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be")
    errors: list[OSError] = []
    opened = _open(folder, blocker, on_cache_error=errors.append)
    assert errors
    assert list(opened.state.texts.values()) == [("Solar page.",)]


_REFRESH = """
import sys
from pathlib import Path
from engine.sources.library.index.opening import open_index
opened = open_index(
    Path(sys.argv[1]), Path(sys.argv[2]) / "index", Path(sys.argv[2]) / "parsed", {},
    on_progress=lambda message: print(message, flush=True),
    on_cache_error=lambda error: print("cache error", error, flush=True),
)
print("documents", len(opened.documents()), "passages", len(opened.passage_index()), flush=True)
"""


def test_two_processes_refreshing_at_once_leave_one_sound_index(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    cache = tmp_path / "cache"
    _open(folder, cache)
    for number in range(6, 40):
        write_text(folder / f"d{number}.md", f"# Doc {number}\nWind farms, case {number}.\n")
    (folder / "d0.md").unlink()
    lock = folder_directory(cache / "index", folder) / "lock"
    command = [sys.executable, "-c", _REFRESH, str(folder), str(cache)]
    # Both find the index stale and queue on the lock, so they refresh back to back on the
    # same files; the test holds the lock until both are waiting.
    with exclusive(lock, Recorder()):
        workers = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in "ab"]
        for worker in workers:
            assert worker.stdout is not None
            assert worker.stdout.readline().startswith("waiting for another process")
    outputs = []
    for worker in workers:
        with worker:
            assert worker.stdout is not None
            outputs.append(worker.stdout.read().splitlines())
            assert worker.wait() == 0
    assert [lines[-1] for lines in outputs] == ["documents 39 passages 39"] * 2
    assert not any("cache error" in line for lines in outputs for line in lines)
    # One of them refreshed; the other found the index current once it had the lock.
    assert sum("indexing 34/34 files" in lines for lines in outputs) == 1
    reopened = _open(folder, cache)
    assert reopened.from_cache
    assert len(reopened.passage_index()) == 39
    assert reopened.reader is not None
    assert reopened.reader.keys() >= reopened.state.catalog.keys()
    assert len(_found(reopened, ["case"])) == 39


def _as_built(opened: OpenedIndex) -> list[tuple[str, str, str, int | None]]:
    """The documents of an index, without the keys their passages are stored under."""
    return [(e.relative, e.sha256, e.title, e.page_count) for e in opened.documents()]


def test_an_index_the_deadline_stopped_is_saved_and_finished_by_the_next_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    clock = FakeClock(0.0)
    timed = TimedReads(monkeypatch, clock, seconds=1.0)
    first = _open(folder, tmp_path / "cache", deadline=Deadline(3.5, clock))
    assert [e.relative for e in first.documents()] == ["d0.md", "d1.md", "d2.md", "d3.md"]
    assert first.summary.pending == ["d4.md", "d5.md"]
    assert timed.read == ["d0.md", "d1.md", "d2.md", "d3.md"]
    reads = ReadCounter(monkeypatch)
    second = _open(folder, tmp_path / "cache", deadline=Deadline(clock.now + 60.0, clock))
    assert reads.read == ["d4.md", "d5.md"]  # not the four kept
    assert reads.bytes < sum(path.stat().st_size for path in folder.iterdir())
    assert second.summary.pending == []
    whole = _open(folder, tmp_path / "other-cache")  # one run, no deadline
    assert _as_built(second) == _as_built(whole)
    for terms in (["case"], ["solar", "tariff"], ["doc", "4"]):
        assert _found(second, terms) == _found(whole, terms)
    assert _open(folder, tmp_path / "cache").from_cache


def test_ctrl_c_while_indexing_saves_what_was_read_then_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    interrupted = TimedReads(monkeypatch, FakeClock(), interrupt_at=3)
    with pytest.raises(KeyboardInterrupt):
        _open(folder, tmp_path / "cache")
    assert interrupted.read == ["d0.md", "d1.md"]
    catalog = _store(folder, tmp_path / "cache").load_catalog()
    assert catalog is not None
    assert sorted(catalog.entries) == ["d0.md", "d1.md"]
    reads = ReadCounter(monkeypatch)
    reopened = _open(folder, tmp_path / "cache")
    assert reads.read == ["d2.md", "d3.md", "d4.md", "d5.md"]
    assert len(reopened.documents()) == 6


def test_a_deadline_passing_while_another_process_refreshes_opens_the_saved_index_as_far_as_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    cache = tmp_path / "cache"
    _open(folder, cache)
    write_text(folder / "d2.md", "# Doc 2\nChanged since: wind now.\n")
    write_text(folder / "d6.md", "# Doc 6\nNew.\n")
    reads = ReadCounter(monkeypatch)
    clock = FakeClock()
    lock = folder_directory(cache / "index", folder) / "lock"
    with exclusive(lock, Recorder()):  # another process's long refresh
        opened = _open(folder, cache, deadline=Deadline(clock.now, clock))
    assert reads.read == []
    assert [e.relative for e in opened.documents()] == ["d0.md", "d1.md", "d3.md", "d4.md", "d5.md"]
    assert opened.summary.pending == ["d2.md", "d6.md"]
    assert len(opened.passage_index()) == 5  # d2's old passage is not searched
    assert [name for name, _, _ in _found(opened, ["case"])] == [
        "d0.md",
        "d1.md",
        "d3.md",
        "d4.md",
        "d5.md",
    ]


@pytest.mark.parametrize("damage", ["junk meta", "segment file gone", "another schema"])
def test_a_damaged_or_foreign_passages_index_is_rebuilt(tmp_path: Path, damage: str) -> None:
    folder = _folder(tmp_path)
    _open(folder, tmp_path / "cache")
    passages = _store(folder, tmp_path / "cache").passages_dir
    assert passages is not None
    if damage == "junk meta":
        (passages / "meta.json").write_text("{junk")
    elif damage == "segment file gone":
        for path in passages.glob("*.store"):
            path.unlink()
    else:
        shutil.rmtree(passages)
        passages.mkdir()
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("body", stored=True)
        other = tantivy.Index(builder.build(), path=str(passages))
        with other.writer(15_000_000, 1) as writer:
            writer.add_document(tantivy.Document(body="solar"))
    reopened = _open(folder, tmp_path / "cache")
    assert not reopened.from_cache
    assert reopened.summary.added == [f"d{n}.md" for n in range(6)]
    assert len(_found(reopened, ["case"])) == 6
    assert _open(folder, tmp_path / "cache").from_cache


def test_an_empty_folder_opens_an_empty_index(tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    opened = _open(folder, tmp_path / "cache")
    assert (opened.documents(), len(opened.passage_index())) == ([], 0)
    assert _found(opened, ["solar"]) == []
    assert _open(folder, tmp_path / "cache").from_cache


def test_a_refresh_that_dies_before_its_catalog_leaves_the_saved_index_sound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its passages are committed under keys no catalog names: readers ignore them, and
    the next refresh removes them."""
    folder = _folder(tmp_path)
    cache = tmp_path / "cache"
    _open(folder, cache)
    write_text(folder / "d2.md", "# Doc 2\nWind now, case 2.\n")

    def crash(self: TantivyStore, catalog: object) -> None:
        raise SystemExit("killed")

    with monkeypatch.context() as patched:
        patched.setattr(TantivyStore, "save_catalog", crash)
        with pytest.raises(SystemExit):
            _open(folder, cache)
    store = _store(folder, cache)
    saved = store.load_catalog()
    assert saved is not None
    reader = store.reader()
    assert reader.keys() > saved.keys()  # the new d2's passages, named by no catalog
    index = opening_module.PassageIndex(reader, saved.indexed())
    assert index.matches(["wind"]).refs == []
    assert len(index.matches(["solar"]).refs) == 6  # the old d2 still, as its catalog says
    refreshed = _open(folder, cache)
    assert [name for name, _, _ in _found(refreshed, ["wind"])] == ["d2.md"]
    reader = store.reader()  # the orphan and the old d2 removed: only catalogued passages
    stored = {c.key for c in reader.candidates(["case", "wind"], 100)}
    assert stored == refreshed.state.catalog.keys()


_SEARCH_WHILE_REMOVED = """
import sys
from pathlib import Path
from engine.sources.library.index.opening import open_index
opened = open_index(
    Path(sys.argv[1]), Path(sys.argv[2]) / "index", Path(sys.argv[2]) / "parsed", {},
    on_progress=lambda message: None, on_cache_error=lambda error: print("cache error", error),
)
index = opened.passage_index()
print("opened", len(index.matches(["case"]).refs), flush=True)
sys.stdin.readline()  # meanwhile another process removes a file and refreshes
print("after", len(index.matches(["case"]).refs), len(index), flush=True)
"""


def test_a_file_removed_while_another_process_searches(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    cache = tmp_path / "cache"
    _open(folder, cache)
    command = [sys.executable, "-c", _SEARCH_WHILE_REMOVED, str(folder), str(cache)]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as searcher:
        assert searcher.stdin is not None
        assert searcher.stdout is not None
        assert searcher.stdout.readline() == "opened 6\n"
        (folder / "d3.md").unlink()
        refreshed = _open(folder, cache)
        assert refreshed.summary.removed == ["d3.md"]
        searcher.stdin.write("\n")
        searcher.stdin.flush()
        assert searcher.stdout.read() == "after 6 6\n"  # its own snapshot, whole
        assert searcher.wait() == 0
    assert len(_found(_open(folder, cache), ["case"])) == 5


def test_the_catalog_keeps_each_title_s_tokens(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _open(folder, tmp_path / "cache")
    reopened = _open(folder, tmp_path / "cache")
    assert reopened.from_cache
    assert [e.title_tokens for e in reopened.documents()] == [f"doc {n}" for n in range(6)]


def test_a_refresh_decodes_the_catalog_once_when_nobody_saved_another_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    _open(folder, tmp_path / "cache")
    write_text(folder / "new.md", "# New\nSolar tariffs, a new case.\n")
    loads: list[int] = []
    load = TantivyStore.load_catalog

    def counted(store: TantivyStore) -> object:
        loads.append(1)
        return load(store)

    monkeypatch.setattr(TantivyStore, "load_catalog", counted)
    opened = _open(folder, tmp_path / "cache")
    assert not opened.from_cache
    assert opened.summary.added == ["new.md"]
    assert len(loads) == 1
    assert len(_found(opened, ["case"])) == 7
    monkeypatch.undo()
    assert _open(folder, tmp_path / "cache").from_cache


def test_a_refresh_lists_the_stored_keys_only_when_passages_are_unaccounted_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With as many passages stored as the catalog names, nothing is left to sweep: a
    refresh does not list every key (at 100,000 files that listing is most of it)."""
    folder = _folder(tmp_path)
    cache = tmp_path / "cache"
    _open(folder, cache)
    listed: list[int] = []
    keys = TantivyReader.keys

    def counting(self: TantivyReader) -> set[str]:
        listed.append(1)
        return keys(self)

    monkeypatch.setattr(TantivyReader, "keys", counting)
    write_text(folder / "d9.md", "# Doc 9\nWind now, case 9.\n")
    assert [name for name, _, _ in _found(_open(folder, cache), ["wind"])] == ["d9.md"]
    assert listed == []
    with _store(folder, cache).writing() as writer:  # a passage no catalog names
        writer.add("orphan", [PassageTokens(0, 0, 5, "wind")])
        writer.commit()
    (folder / "d9.md").unlink()
    refreshed = _open(folder, cache)
    assert listed == [1]
    stored = {c.key for c in _store(folder, cache).reader().candidates(["wind", "case"], 100)}
    assert stored == refreshed.state.catalog.keys()
