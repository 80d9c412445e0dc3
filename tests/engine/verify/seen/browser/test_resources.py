"""What a library file links, served from its own folder only
(engine/verify/seen/browser/resources.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.verify.seen.browser.resources import FolderResources, document_url

RESOURCES = FolderResources()


async def test_a_link_in_the_folder_is_served(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "a b.css").write_text("p{color:red}", encoding="utf-8")
    page = tmp_path / "lei 1.html"
    base = document_url(page, RESOURCES).rsplit("/", 1)[0]
    assert await RESOURCES.resource(page, f"{base}/css/a%20b.css") == b"p{color:red}"
    assert await RESOURCES.resource(page, f"{base}/missing.css") == b""  # as a reader gets it


async def test_a_link_out_of_the_folder_or_to_a_host_has_no_answer(tmp_path: Path) -> None:
    (tmp_path / "secret.css").write_text("p{}", encoding="utf-8")
    page = tmp_path / "library" / "lei.html"
    page.parent.mkdir()
    origin = document_url(page, RESOURCES).split("/folder/")[0]
    assert await RESOURCES.resource(page, f"{origin}/secret.css") is None
    assert await RESOURCES.resource(page, f"{origin}/folder/../secret.css") is None
    assert await RESOURCES.resource(page, "http://127.0.0.2/a.css") is None


async def test_a_page_a_source_kept_has_no_folder_to_link_into(tmp_path: Path) -> None:
    kept = tmp_path / "fonte-originals-123"
    kept.mkdir()
    (kept / "a.css").write_text("p{}", encoding="utf-8")
    page = kept / "0123.html"
    base = document_url(page, RESOURCES).rsplit("/", 1)[0]
    assert await RESOURCES.resource(page, f"{base}/a.css") is None


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
