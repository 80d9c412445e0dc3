"""The style sheets a page links, kept inside its HTML (engine/sources/web/kept_sheets.py)."""

from __future__ import annotations

import pytest

from engine.sources.web.kept_sheets import with_sheets

SHEETS = {
    "http://127.0.0.2/css/a.css": "@import 'b.css' screen;\np{color:red}",
    "http://127.0.0.2/css/b.css": ".t{opacity:0}",
    "http://127.0.0.2/x.css": "@import url(/css/b.css);",
}


async def _read(url: str) -> str | None:
    return SHEETS.get(url)


async def test_linked_sheets_and_their_imports_are_inlined_in_order() -> None:
    html = "<head><link rel=stylesheet href='css/a.css' media=screen></head><p class=t>x</p>"
    kept = await with_sheets(html, "http://127.0.0.2/page", _read)
    assert kept == (
        '<head><style media="screen">@media screen {.t{opacity:0}}\np{color:red}</style></head>'
        "<p class=t>x</p>"
    )


async def test_an_import_in_a_style_element_is_inlined() -> None:
    html = "<style>@import '/x.css'; p{}</style>"
    assert (
        await with_sheets(html, "http://127.0.0.2/a/page", _read)
        == "<style>.t{opacity:0} p{}</style>"
    )


async def test_what_cannot_be_read_stays_a_link_for_the_seen_check_to_refuse() -> None:
    html = (
        "<link rel=stylesheet href='/missing.css'><link rel='alternate stylesheet' href='/x.css'>"
        "<style>@import '/x.css' layer(base);</style>"
    )
    assert await with_sheets(html, "http://127.0.0.2/page", _read) == html


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
