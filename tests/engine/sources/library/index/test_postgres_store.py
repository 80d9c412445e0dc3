"""The PostgreSQL store under a library: refreshed file by file like the cache's index,
one namespace per folder, its lock across processes, readers keeping their snapshot, and
a worker without the folder researching from the store alone."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.sources.library import Deadline, Library, LibraryError
from engine.sources.library.index import postgres_store
from engine.sources.library.index.backend import PassageTokens
from engine.sources.library.index.postgres_connection import LibraryStoreError
from engine.sources.library.index.postgres_store import PostgresStore
from engine.sources.library.page_evidence import LibraryPageEvidence, crop_png
from engine.sources.protocols import DocumentGone
from engine.text.tokens import tokenize
from engine.words import words_for
from tests.support.clock import FakeClock
from tests.support.library_claims import report_citing, verified
from tests.support.library_files import ReadCounter, TimedReads, write_pdf, write_text
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import build_claim

ROOT = Path(__file__).resolve().parents[5]
_ITEM = "I - de 100% (cem por cento) das componentes tarifárias relativas à distribuição;"
_STATEMENT = "Incide 100% das componentes tarifárias de distribuição."


def _folder(path: Path) -> Path:
    write_text(path / "solar.md", "# Solar\n\nRooftop solar panels cut the bills of homes.\n")
    write_text(path / "wind.md", "# Wind\n\nOffshore wind farms feed the northern grid.\n")
    write_pdf(path / "tariffs.pdf", ["Feed-in tariffs for solar.", "Net metering rules."])
    return path


def _open(folder: Path, cache: Path, url: str) -> Library:
    return Library.open(folder, cache_dir=cache, store=url)


def _hits(library: Library, query: str) -> list[tuple[str, str]]:
    return [(hit.url, hit.passage) for hit in asyncio.run(library.search(query))]


def test_a_folder_is_refreshed_in_the_store_file_by_file(tmp_path: Path, postgres_url: str) -> None:
    folder = _folder(tmp_path / "docs")
    first = _open(folder, tmp_path / "cache", postgres_url)
    assert sorted(first.summary.added) == ["solar.md", "tariffs.pdf", "wind.md"]
    again = _open(folder, tmp_path / "other-cache", postgres_url)  # another host's cache
    assert again.index_from_cache
    assert not again.summary.any_change
    write_text(folder / "solar.md", "# Solar\n\nRooftop solar batteries store the noon sun.\n")
    (folder / "wind.md").unlink()
    write_text(folder / "hydro.md", "# Hydro\n\nRun-of-river hydro turbines.\n")
    changed = _open(folder, tmp_path / "cache", postgres_url)
    summary = changed.summary
    assert (summary.added, summary.changed, summary.removed) == (
        ["hydro.md"],
        ["solar.md"],
        ["wind.md"],
    )
    assert _hits(changed, "offshore wind") == []
    assert [url for url, _ in _hits(changed, "batteries")] == [(folder / "solar.md").as_uri()]
    store = PostgresStore(postgres_url, str(folder))
    reader = store.reader()
    catalog = store.load_catalog()
    assert catalog is not None
    assert reader.keys() == catalog.keys()  # the old versions' passages are gone
    assert reader.passage_frequencies(tokenize("offshore batteries")) == [0, 1]


def test_a_worker_without_the_folder_searches_and_fetches_from_the_store(
    tmp_path: Path, postgres_url: str
) -> None:
    folder = _folder(tmp_path / "docs")
    indexed = _open(folder, tmp_path / "cache", postgres_url)
    expected = _hits(indexed, "solar tariffs")
    snapshot = asyncio.run(indexed.fetch(folder.as_uri() + "/tariffs.pdf#page=2"))
    shutil.move(folder, tmp_path / "elsewhere")
    warnings: list[str] = []
    worker = Library.open(
        folder, cache_dir=tmp_path / "worker-cache", store=postgres_url, on_warning=warnings.append
    )
    assert worker.from_store
    assert warnings == []
    assert _hits(worker, "solar tariffs") == expected
    assert [url for url, _ in expected][:1] == [folder.as_uri() + "/tariffs.pdf#page=1"]
    fetched = asyncio.run(worker.fetch(folder.as_uri() + "/tariffs.pdf#page=2"))
    assert fetched.text == snapshot.text
    assert worker.pdf_path(folder.as_uri() + "/tariffs.pdf") == folder / "tariffs.pdf"
    assert not (tmp_path / "worker-cache").exists()  # nothing of the library cached here


def test_each_folder_is_a_library_of_its_own(tmp_path: Path, postgres_url: str) -> None:
    """A private channel's folder and the team's share one database; neither's documents
    are found, fetched or listed through the other's name, nor through an unknown one."""
    private = _open(
        write_text(tmp_path / "private" / "deal.md", "Merger codename Bluebird.").parent,
        tmp_path / "cache",
        postgres_url,
    )
    team = _open(
        write_text(tmp_path / "team" / "plan.md", "Bluebird is a bird.").parent,
        tmp_path / "cache",
        postgres_url,
    )
    shutil.rmtree(tmp_path / "private")
    shutil.rmtree(tmp_path / "team")
    team_worker = Library.open(tmp_path / "team", store=postgres_url, cache_dir=tmp_path / "w")
    assert [d.url for d in team_worker.documents()] == [d.url for d in team.documents()]
    assert [url for url, _ in _hits(team_worker, "merger codename bluebird")] == [
        (tmp_path / "team" / "plan.md").as_uri()
    ]
    with pytest.raises(DocumentGone):
        asyncio.run(team_worker.fetch(private.documents()[0].url))
    with pytest.raises(LibraryError, match="holds no index of it"):
        Library.open(tmp_path / "nobody", store=postgres_url, cache_dir=tmp_path / "w")


def test_a_library_keeps_its_snapshot_while_a_refresh_removes_a_file(
    tmp_path: Path, postgres_url: str
) -> None:
    folder = _folder(tmp_path / "docs")
    _open(folder, tmp_path / "cache", postgres_url)
    shutil.move(folder, tmp_path / "away")
    reading = Library.open(folder, cache_dir=tmp_path / "worker", store=postgres_url)
    shutil.move(tmp_path / "away", folder)
    (folder / "wind.md").unlink()
    refreshed = _open(folder, tmp_path / "cache", postgres_url)
    assert refreshed.summary.removed == ["wind.md"]
    wind = (folder / "wind.md").as_uri()
    assert [url for url, _ in _hits(reading, "offshore wind")] == [wind]
    assert "Offshore wind farms" in asyncio.run(reading.fetch(wind)).text
    assert _hits(refreshed, "offshore wind") == []


_REFRESH = """
import json, sys
from pathlib import Path
from engine.sources.library import Library
def say(message):
    print(message, flush=True)
library = Library.open(Path(sys.argv[1]), cache_dir=Path(sys.argv[2]), store=sys.argv[3],
                       on_progress=say)
print(json.dumps({"added": library.summary.added}), flush=True)
"""


def _refresh_process(folder: Path, cache: Path, url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _REFRESH, str(folder), str(cache), url],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        stdout=subprocess.PIPE,
        text=True,
    )


def _added(process: subprocess.Popen[str]) -> list[str]:
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    return list(json.loads(out.strip().splitlines()[-1])["added"])


def test_a_refresh_waits_for_the_process_holding_the_lock(
    tmp_path: Path, postgres_url: str
) -> None:
    folder = _folder(tmp_path / "docs")
    holder = PostgresStore(postgres_url, str(folder.resolve()))
    with holder.refreshing(lambda message: None, None) as held:
        assert held
        waiting = _refresh_process(folder, tmp_path / "cache", postgres_url)
        assert waiting.stdout is not None
        lines = iter(waiting.stdout.readline, "")
        assert "waiting for another process refreshing this index" in [
            line.strip() for line in _until_waiting(lines)
        ]
        assert holder.load_catalog() is None  # it read nothing while the lock was held
    assert sorted(_added(waiting)) == ["solar.md", "tariffs.pdf", "wind.md"]


def _until_waiting(lines: object) -> list[str]:
    seen: list[str] = []
    for line in lines:  # type: ignore[attr-defined]
        seen.append(line)
        if "waiting for another process" in line or line.startswith("{"):
            break
    return seen


def test_two_processes_refreshing_at_once_read_each_file_once(
    tmp_path: Path, postgres_url: str
) -> None:
    folder = _folder(tmp_path / "docs")
    processes = [_refresh_process(folder, tmp_path / f"cache{n}", postgres_url) for n in (1, 2)]
    added = sorted((_added(process) for process in processes), key=len)
    assert added == [[], ["solar.md", "tariffs.pdf", "wind.md"]]


def test_an_unreachable_store_says_so_in_one_line_without_its_password(tmp_path: Path) -> None:
    url = "postgresql://fonte:s3cret@127.0.0.1:1/library"
    with pytest.raises(LibraryStoreError) as raised:
        Library.open(_folder(tmp_path / "docs"), cache_dir=tmp_path / "cache", store=url)
    message = str(raised.value)
    assert "s3cret" not in message
    assert "\n" not in message
    assert message.startswith("library store postgresql://fonte:***@127.0.0.1:1/library ")


def test_a_worker_without_the_pdf_cites_its_page_and_says_why_there_is_no_crop(
    tmp_path: Path, postgres_url: str
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ren 1000.pdf").write_bytes(pdf_bytes(["Capa.", f"Art. 27.\n{_ITEM}"]))
    indexed = _open(folder, tmp_path / "cache", postgres_url)
    url = f"{indexed.documents()[0].url}#page=2"
    here = asyncio.run(
        verified(indexed, build_claim("c1", url=url, excerpt=_ITEM, statement=_STATEMENT))
    )
    assert crop_png(here, indexed) is not None
    assert LibraryPageEvidence(indexed).with_boxes(report_citing(here)).notes == []
    shutil.move(folder, tmp_path / "away")
    worker = Library.open(folder, cache_dir=tmp_path / "worker", store=postgres_url)
    claim = asyncio.run(
        verified(worker, build_claim("c1", url=url, excerpt=_ITEM, statement=_STATEMENT))
    )
    assert claim.locator == here.locator  # the same page and place, from the stored text
    report = LibraryPageEvidence(worker).with_boxes(report_citing(claim))
    assert report.notes == [words_for(report.language).report.pdfs_not_here.format(count=1)]
    assert crop_png(claim, worker) is None


def _six(path: Path) -> Path:
    for number in range(6):
        write_text(path / f"d{number}.md", f"# Doc {number}\nSolar tariffs, case {number}.\n")
    return path


def test_ctrl_c_while_filling_the_store_keeps_what_was_read(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _six(tmp_path / "docs")
    interrupted = TimedReads(monkeypatch, FakeClock(), interrupt_at=3)
    with pytest.raises(KeyboardInterrupt):
        _open(folder, tmp_path / "cache", postgres_url)
    assert interrupted.read == ["d0.md", "d1.md"]
    catalog = PostgresStore(postgres_url, str(folder)).load_catalog()
    assert catalog is not None
    assert sorted(catalog.entries) == ["d0.md", "d1.md"]
    reads = ReadCounter(monkeypatch)
    reopened = _open(folder, tmp_path / "other-cache", postgres_url)
    assert reads.read == ["d2.md", "d3.md", "d4.md", "d5.md"]
    assert len(reopened.documents()) == 6


def test_a_deadline_stops_filling_the_store_and_the_next_opening_goes_on(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _six(tmp_path / "docs")
    clock = FakeClock(0.0)
    TimedReads(monkeypatch, clock, seconds=1.0)
    first = Library.open(
        folder, cache_dir=tmp_path / "cache", store=postgres_url, deadline=Deadline(3.5, clock)
    )
    assert len(first.documents()) == 4
    assert first.summary.pending == ["d4.md", "d5.md"]
    reads = ReadCounter(monkeypatch)
    second = _open(folder, tmp_path / "cache", postgres_url)
    assert reads.read == ["d4.md", "d5.md"]
    assert len(second.documents()) == 6


def test_a_token_past_postgresqls_last_position_is_still_found_and_counted(
    postgres_url: str,
) -> None:
    store = PostgresStore(postgres_url, "/docs")
    tokens = " ".join(["w"] * 20_000 + ["z", "w"])
    with store.writing() as writer:
        writer.add("a", [PassageTokens(0, 0, 10, tokens)])
        writer.commit()
    (found,) = store.reader().candidates(["z"], 10)
    assert (found.length, found.counts) == (20_002, {"z": 1})
    assert store.reader().candidates(["w"], 10)[0].counts == {"w": 20_001}


def _stored_counts(store: PostgresStore) -> dict[str, int]:
    """Each term's passage count as the store keeps it (terms counted down to 0 left out)."""
    library = store.library_id()
    rows = store._connection.execute(
        "SELECT term, passages FROM fonte_term_counts WHERE library = %s AND passages <> 0",
        (library,),
    ).fetchall()
    return {str(term): int(str(count)) for term, count in rows}


def _counted_from_passages(store: PostgresStore) -> dict[str, int]:
    """Each term's passage count, counted over the passages the store holds now."""
    library = store.library_id()
    rows = store._connection.execute(
        "SELECT tokens FROM fonte_passages WHERE library = %s", (library,)
    ).fetchall()
    counts: dict[str, int] = {}
    for (tokens,) in rows:
        for term in set(str(tokens).split(" ")):
            counts[term] = counts.get(term, 0) + 1
    return counts


def test_the_term_counts_follow_every_refresh(tmp_path: Path, postgres_url: str) -> None:
    folder = _folder(tmp_path / "docs")
    _open(folder, tmp_path / "cache", postgres_url)
    store = PostgresStore(postgres_url, str(folder))
    assert _stored_counts(store) == _counted_from_passages(store) != {}
    before = store.reader()
    frequencies = before.passage_frequencies(["solar", "offshore", "battery", "nowhere"])
    write_text(folder / "solar.md", "# Solar\n\nRooftop solar batteries store the noon sun.\n")
    (folder / "wind.md").unlink()
    write_text(folder / "hydro.md", "# Hydro\n\nRun-of-river hydro turbines, solar too.\n")
    _open(folder, tmp_path / "cache", postgres_url)
    assert _stored_counts(store) == _counted_from_passages(store)
    after = store.reader()
    assert after.passage_frequencies(["offshore", "battery", "hydro"]) == [0, 1, 1]
    # a reader opened before keeps the counts of the passages it sees
    assert before.passage_frequencies(["solar", "offshore", "battery", "nowhere"]) == frequencies
    assert frequencies[1:] == [1, 0, 0]


def test_a_library_indexed_before_the_counts_is_counted_by_its_next_refresh(
    tmp_path: Path, postgres_url: str
) -> None:
    folder = _folder(tmp_path / "docs")
    _open(folder, tmp_path / "cache", postgres_url)
    store = PostgresStore(postgres_url, str(folder))
    library = store.library_id()
    expected = store.reader().passage_frequencies(["solar", "wind", "tariff", "nowhere"])
    store._connection.execute(  # as a store filled before the counts were kept
        "UPDATE fonte_libraries SET counted = false WHERE id = %s", (library,)
    )
    store._connection.execute("DELETE FROM fonte_term_counts WHERE library = %s", (library,))
    old = store.reader()  # counts the matching passages itself meanwhile
    assert old.passage_frequencies(["solar", "wind", "tariff", "nowhere"]) == expected
    write_text(folder / "hydro.md", "# Hydro\n\nRun-of-river hydro turbines.\n")
    _open(folder, tmp_path / "cache", postgres_url)
    assert _stored_counts(store) == _counted_from_passages(store)
    counted = store.reader()
    assert counted.passage_frequencies(["solar", "wind", "hydro"]) == [*expected[:2], 1]


def test_a_search_ranks_the_passages_of_its_rarer_terms_when_common_ones_hold_too_many(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PostgresStore(postgres_url, "/many")
    with store.writing() as writer:
        for number in range(12):  # a common word, said again and again: ts_rank's favourite
            writer.add(f"c{number}", [PassageTokens(0, 0, 9, "common common common filler")])
        for number in range(3):
            writer.add(f"r{number}", [PassageTokens(0, 0, 9, f"rare word {number} filler")])
        writer.commit()
    monkeypatch.setattr(postgres_store, "RANKED_PASSAGES", 3)
    reader = store.reader()
    ranked = reader.candidates(["common", "rare"], 2)
    assert [c.key[0] for c in ranked] == ["r", "r"]  # the 12 passages of "common" not ranked
    wider = reader.candidates(["common", "rare"], 5)  # its 3 are too few: every match ranked
    assert [c.key[0] for c in wider] == ["c"] * 5  # (and ts_rank puts the repeated word first)
    within = reader.candidates(["common", "rare"], 2, ["c1", "c2", "r0"])
    assert sorted(c.key for c in within) == ["c1", "c2"]  # within documents: as ranked always
    monkeypatch.setattr(postgres_store, "RANKED_PASSAGES", 1_000)
    assert [c.key[0] for c in reader.candidates(["common", "rare"], 2)] == ["c", "c"]
