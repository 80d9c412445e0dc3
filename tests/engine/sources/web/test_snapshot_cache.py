from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.snapshots import InMemorySnapshotStore, Snapshot
from engine.sources.protocols import FetchError
from engine.sources.web.address_policy import Allowlist
from engine.sources.web.config import FetchConfig
from engine.sources.web.fetcher import WebFetcher
from engine.sources.web.kept_pdfs import InMemoryPdfStore
from engine.sources.web.snapshot_cache import (
    CachingFetcher,
    DiskSnapshotStore,
    default_snapshot_dir,
)
from tests.support.page_server import PageServer, page, web_config
from tests.support.pdfs import pdf_bytes

ACCESSED = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)


def file_names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def web_snapshot(
    url: str = "https://example.org/a", text: str = "Texto da página, versão 1."
) -> Snapshot:
    return Snapshot(
        url=url,
        text=text,
        title="Página",
        final_url="https://example.org/a/",
        fetched_at=ACCESSED,
        status=200,
        content_type="text/html",
        published="2024-03-05",
    )


async def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    snapshots = [
        web_snapshot(),
        Snapshot.from_pages(
            "https://example.org/r.pdf", ["um", "dois"], title="R", fetched_at=ACCESSED
        ),
        Snapshot(
            url="https://example.org/t.txt", text="plain", sha256="f" * 64, fetched_at=ACCESSED
        ),
    ]
    for snapshot in snapshots:
        await store.put(snapshot)
    for snapshot in snapshots:
        assert await store.get(snapshot.url) == snapshot
    restored = await store.get("https://example.org/a")
    assert restored.published == "2024-03-05"


async def test_keys_ignore_the_page_fragment(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    await store.put(Snapshot.from_pages("https://example.org/r.pdf", ["um", "dois"]))
    assert await store.get("https://example.org/r.pdf#page=2") is not None
    assert store.path_for("https://example.org/r.pdf#page=2") == store.path_for(
        "https://example.org/r.pdf"
    )
    assert await store.get("https://example.org/other") is None


async def test_a_snapshot_with_a_page_fragment_in_its_url_is_stored_without_it(
    tmp_path: Path,
) -> None:
    store = DiskSnapshotStore(tmp_path)
    await store.put(web_snapshot(url="https://example.org/a#page=3"))
    assert await store.get("https://example.org/a") is not None


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"[]", b'{"format": 99}', b'{"format": 1, "url": 3}', b"\xff\xfe"],
)
async def test_unreadable_files_are_misses(tmp_path: Path, content: bytes) -> None:
    store = DiskSnapshotStore(tmp_path)
    store.path_for("https://example.org/a").write_bytes(content)
    assert await store.get("https://example.org/a") is None


async def test_a_file_for_another_url_is_a_miss(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    await store.put(web_snapshot(url="https://example.org/b"))
    os.replace(store.path_for("https://example.org/b"), store.path_for("https://example.org/a"))
    assert await store.get("https://example.org/a") is None


async def test_an_interrupted_write_leaves_the_old_snapshot_and_no_debris(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = DiskSnapshotStore(tmp_path)
    await store.put(web_snapshot(text="versão 1"))

    def crash(source: object, target: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        await store.put(web_snapshot(text="versão 2"))
    monkeypatch.undo()
    stored = await store.get("https://example.org/a")
    assert stored is not None
    assert stored.text == "versão 1"
    assert file_names(tmp_path) == [store.path_for("https://example.org/a").name]


async def test_readers_never_see_half_a_snapshot(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    versions = {f"versão {n} " + "x" * 200_000 for n in range(8)}

    async def write_all() -> None:
        await asyncio.gather(*(store.put(web_snapshot(text=text)) for text in versions))

    async def read_many() -> list[Snapshot | None]:
        return [await store.get("https://example.org/a") for _ in range(30)]

    _, seen = await asyncio.gather(write_all(), read_many())
    assert all(s is None or s.text in versions for s in seen)
    final = await store.get("https://example.org/a")
    assert final is not None
    assert final.text in versions
    assert len(file_names(tmp_path)) == 1


def test_default_folder_follows_fonte_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FONTE_CACHE_DIR", str(tmp_path))
    assert default_snapshot_dir() == tmp_path / "snapshots"
    assert DiskSnapshotStore().folder == tmp_path / "snapshots"
    monkeypatch.delenv("FONTE_CACHE_DIR")
    assert default_snapshot_dir() == Path.home() / ".cache" / "fonte" / "snapshots"


def test_files_are_json_named_by_the_sha256_of_the_url(tmp_path: Path) -> None:
    path = DiskSnapshotStore(tmp_path).path_for("https://example.org/a")
    assert path.parent == tmp_path
    assert path.suffix == ".json"
    assert len(path.stem) == 64


@dataclass
class CountingFetcher:
    text: str = "Texto ao vivo."
    urls: list[str] = field(default_factory=list)

    async def fetch(self, url: str) -> Snapshot:
        self.urls.append(url)
        return web_snapshot(url=url.split("#")[0], text=f"{self.text} ({len(self.urls)})")


async def test_caching_fetcher_answers_from_the_store(tmp_path: Path) -> None:
    live = CountingFetcher()
    fetcher = CachingFetcher(live, DiskSnapshotStore(tmp_path))
    first = await fetcher.fetch("https://example.org/a")
    again = await fetcher.fetch("https://example.org/a#page=1")
    assert first == again
    assert live.urls == ["https://example.org/a"]
    fresh = await fetcher.fetch("https://example.org/a", fresh=True)
    assert fresh.text.endswith("(2)")
    assert (await fetcher.fetch("https://example.org/a")).text.endswith("(2)")


async def test_caching_fetcher_refetches_snapshots_older_than_max_age(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    await store.put(web_snapshot())
    live = CountingFetcher()
    assert await CachingFetcher(live, store).fetch("https://example.org/a") == web_snapshot()
    assert live.urls == []
    await CachingFetcher(live, store, max_age=timedelta(days=1)).fetch("https://example.org/a")
    assert live.urls == ["https://example.org/a"]


async def test_caching_fetcher_checks_the_page_of_a_stored_pdf(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    await store.put(Snapshot.from_pages("https://example.org/r.pdf", ["um", "dois"]))
    fetcher = CachingFetcher(CountingFetcher(), store)
    assert (await fetcher.fetch("https://example.org/r.pdf#page=2")).pages == ("um", "dois")
    with pytest.raises(FetchError, match="page 3 out of range"):
        await fetcher.fetch("https://example.org/r.pdf#page=3")


def test_records_are_plain_json(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    asyncio.run(store.put(web_snapshot()))
    record = json.loads(store.path_for("https://example.org/a").read_text("utf-8"))
    assert record["fetched_at"] == "2024-05-01T12:30:00+00:00"
    assert record["text"] == "Texto da página, versão 1."
    assert record["pages"] is None


async def test_a_stored_page_is_served_only_while_the_address_policy_still_allows_it(
    tmp_path: Path, page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    page_server.routes["/intranet"] = page("<p>Plano interno de expansão, versão 3.</p>")
    url = page_server.url("/intranet")
    store = DiskSnapshotStore(tmp_path)
    allowed = CachingFetcher(web_fetcher, store, admit=web_fetcher.admit)
    await allowed.fetch(url)
    asked = len(page_server.paths())
    assert (await allowed.fetch(url)).url == url  # still allowed: served from the store
    assert len(page_server.paths()) == asked

    async with WebFetcher(web_config(allowlist=Allowlist())) as closed:
        refused = CachingFetcher(closed, store, admit=closed.admit)
        with pytest.raises(
            FetchError, match=r"stored page no longer allowed: refused: 127\.0\.0\.2"
        ):
            await refused.fetch(url)
    assert len(page_server.paths()) == asked  # refused without a request


PDF_PAGES = ["Overview of the market.", "Installed capacity: 37 GW in 2023."]


async def test_a_pdf_read_live_is_kept_beside_its_snapshot(
    tmp_path: Path, page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    body = pdf_bytes(PDF_PAGES)
    page_server.routes["/r.pdf"] = page(body, "application/pdf")
    page_server.routes["/artigo"] = page("<p>Um artigo com texto suficiente para ser lido.</p>")
    store = DiskSnapshotStore(tmp_path)
    fetcher = CachingFetcher(web_fetcher, store, admit=web_fetcher.admit)
    url = page_server.url("/r.pdf")

    await fetcher.fetch(f"{url}#page=2")
    await fetcher.fetch(page_server.url("/artigo"))

    assert fetcher.pdfs is store
    assert store.pdf(f"{url}#page=1") == store.pdf(url) == body
    assert store.pdf_path_for(url) == store.path_for(url).with_suffix(".pdf")
    assert store.pdf(page_server.url("/artigo")) is None
    suffixes = sorted(Path(name).suffix for name in file_names(tmp_path))
    assert suffixes == [".html", ".json", ".json", ".pdf"]  # the page's HTML: kept_html


async def test_a_stored_pdf_keeps_its_bytes_without_a_request(
    tmp_path: Path, page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    body = pdf_bytes(PDF_PAGES)
    page_server.routes["/r.pdf"] = page(body, "application/pdf")
    store = DiskSnapshotStore(tmp_path)
    url = page_server.url("/r.pdf")
    await CachingFetcher(web_fetcher, store).fetch(url)
    asked = len(page_server.paths())

    again = await CachingFetcher(web_fetcher, DiskSnapshotStore(tmp_path)).fetch(f"{url}#page=2")

    assert again.pages is not None
    assert len(page_server.paths()) == asked
    assert DiskSnapshotStore(tmp_path).pdf(url) == body


async def test_a_url_that_is_no_longer_a_pdf_drops_the_pdf_kept_for_it(
    tmp_path: Path, page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    page_server.routes["/doc"] = page(pdf_bytes(PDF_PAGES), "application/pdf")
    store = DiskSnapshotStore(tmp_path)
    fetcher = CachingFetcher(web_fetcher, store)
    await fetcher.fetch(page_server.url("/doc"))
    assert store.pdf(page_server.url("/doc")) is not None

    page_server.routes["/doc"] = page("<p>O documento agora é uma página com texto.</p>")
    await fetcher.fetch(page_server.url("/doc"), fresh=True)

    assert store.pdf(page_server.url("/doc")) is None
    assert not store.pdf_path_for(page_server.url("/doc")).exists()


async def test_a_pdf_over_the_size_cap_is_not_kept(
    tmp_path: Path, page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    body = pdf_bytes(PDF_PAGES)
    page_server.routes["/r.pdf"] = page(body, "application/pdf")
    store = DiskSnapshotStore(tmp_path, max_pdf_bytes=len(body) - 1)

    snapshot = await CachingFetcher(web_fetcher, store).fetch(page_server.url("/r.pdf"))

    assert snapshot.pages is not None  # the text is read and kept all the same
    assert await store.get(page_server.url("/r.pdf")) == snapshot
    assert store.pdf(page_server.url("/r.pdf")) is None
    assert file_names(tmp_path) == [store.path_for(page_server.url("/r.pdf")).name]


def test_the_default_pdf_cap_is_the_fetchers_body_cap(tmp_path: Path) -> None:
    assert DiskSnapshotStore(tmp_path).max_pdf_bytes == FetchConfig().max_bytes


def test_a_pdf_that_cannot_be_written_costs_the_fetch_nothing_and_leaves_no_debris(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = DiskSnapshotStore(tmp_path)
    url = "https://example.org/r.pdf"
    store.keep_pdf(url, pdf_bytes(["versão 1"]))

    def crash(source: object, target: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    store.keep_pdf(url, pdf_bytes(["versão 2"]))
    monkeypatch.undo()

    assert store.pdf(url) is None  # not the old version under the new snapshot
    assert file_names(tmp_path) == []


async def test_without_a_disk_store_the_pdfs_are_kept_in_memory(
    page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    body = pdf_bytes(PDF_PAGES)
    page_server.routes["/r.pdf"] = page(body, "application/pdf")
    fetcher = CachingFetcher(web_fetcher, InMemorySnapshotStore())

    await fetcher.fetch(page_server.url("/r.pdf"))

    assert isinstance(fetcher.pdfs, InMemoryPdfStore)
    assert fetcher.pdfs.pdf(page_server.url("/r.pdf") + "#page=2") == body


async def test_a_fetcher_without_pdf_bytes_keeps_none(tmp_path: Path) -> None:
    store = DiskSnapshotStore(tmp_path)
    store.keep_pdf("https://example.org/a", pdf_bytes(["antes"]))
    await CachingFetcher(CountingFetcher(), store).fetch("https://example.org/a")
    assert store.pdf("https://example.org/a") is None
