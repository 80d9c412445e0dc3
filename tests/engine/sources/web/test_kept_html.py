"""The HTML the web source fetched is kept beside its snapshot (engine/sources/web/kept_html.py),
decoded as it was read, so the seen check renders the page the subagent read."""

from __future__ import annotations

from pathlib import Path

from engine.snapshots import InMemorySnapshotStore
from engine.sources.web.fetcher import WebFetcher
from engine.sources.web.kept_html import InMemoryHtmlStore
from engine.sources.web.snapshot_cache import CachingFetcher, DiskSnapshotStore
from tests.support.page_server import PageServer, page

PAGE = (
    "<html><body><p>Potência instalada até 75 kW, conforme a Lei 14.300 de 2022.</p></body></html>"
)


async def test_an_html_page_is_kept_as_decoded_beside_its_snapshot(
    tmp_path: Path, page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    page_server.routes["/lei"] = page(PAGE.encode("iso-8859-1"), "text/html; charset=iso-8859-1")
    store = DiskSnapshotStore(tmp_path)
    url = page_server.url("/lei")
    await CachingFetcher(web_fetcher, store).fetch(url)

    assert store.html(url) == PAGE.encode("utf-8")
    again = CachingFetcher(web_fetcher, DiskSnapshotStore(tmp_path))  # a later `fonte verify`
    original = again.original(url)
    assert original is not None
    assert original.suffix == ".html"
    assert original.read_text(encoding="utf-8") == PAGE


async def test_a_page_no_longer_html_forgets_its_kept_html(
    page_server: PageServer, web_fetcher: WebFetcher
) -> None:
    fetcher = CachingFetcher(web_fetcher, InMemorySnapshotStore())
    url = page_server.url("/lei")
    page_server.routes["/lei"] = page(PAGE)
    await fetcher.fetch(url)
    assert isinstance(fetcher.htmls, InMemoryHtmlStore)
    assert fetcher.htmls.html(url) is not None
    page_server.routes["/lei"] = page("Potência instalada até 75 kW, em texto.", "text/plain")
    await fetcher.fetch(url, fresh=True)
    assert fetcher.htmls.html(url) is None
    assert fetcher.original(url) is None


def test_a_page_over_the_limit_is_not_kept() -> None:
    store = InMemoryHtmlStore(max_bytes=10)
    store.keep_html("http://127.0.0.2/a", b"<p>" + b"x" * 20 + b"</p>")
    assert store.html("http://127.0.0.2/a") is None
