"""The browser's seen check of HTML (engine/verify/seen/browser_seer.py): every attack class, several
variants each, is not what the page shows; benign look-alikes are."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.verify.seen.browser_seer import CHROMIUM, BrowserSeer
from tests.support.page_server import PageServer, page
from tests.support.seen_html_pages import (
    ATTACKS,
    BENIGN,
    SHOWN,
    TARGET,
    attack_cases,
    page_markup,
    write_page,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium")

SEER = BrowserSeer()  # one browser for the module, as for a run; closed when the process exits


@pytest.mark.parametrize(("kind", "name"), attack_cases())
async def test_an_attack_is_not_what_the_page_shows(kind: str, name: str, tmp_path: Path) -> None:
    document = write_page(tmp_path, ATTACKS[kind][name])
    sight = await SEER.sight(document, None, TARGET)
    assert not sight.seen, (kind, name)
    assert sight.method == "browser"
    assert sight.reason
    # The page's other sentence is seen all the same: the attack, not the page, fails.
    assert (await SEER.sight(document, None, SHOWN)).seen, (kind, name)


@pytest.mark.parametrize("name", sorted(BENIGN))
async def test_a_benign_look_alike_is_seen(name: str, tmp_path: Path) -> None:
    document = write_page(tmp_path, BENIGN[name])
    sight = await SEER.sight(document, None, TARGET)
    assert sight.seen, (name, sight.reason)
    assert sight.method == "browser"


async def test_generated_text_that_changes_the_sentence_is_named(tmp_path: Path) -> None:
    document = write_page(tmp_path, ATTACKS["generated-content"]["before-nao"])
    sight = await SEER.sight(document, None, TARGET)
    assert sight.reason == "the page's style adds “não” to this passage"


async def test_a_part_of_a_number_covered_is_not_seen(tmp_path: Path) -> None:
    """The reader sees "5 kW" where the text says "75 kW": one covered digit fails."""
    sentence = "O limite da microgeração distribuída é de <b>7</b>5 kW por unidade consumidora."
    markup = page_markup(
        (
            "<style>b{position:relative}b::after{content:'';position:absolute;inset:0;"
            "background:#fff}</style>",
            "<p>{t}</p>",
        ),
        target=sentence,
    )
    document = tmp_path / "lei.html"
    document.write_text(markup, encoding="utf-8")
    sight = await SEER.sight(document, None, "O limite da microgeração distribuída é de 75 kW")
    assert not sight.seen
    assert "75" in sight.reason


async def test_an_excerpt_the_browser_does_not_show_is_not_found(tmp_path: Path) -> None:
    document = write_page(tmp_path, BENIGN["plain"])
    sight = await SEER.sight(document, None, "Esta frase não está na página de modo algum.")
    assert sight.reason == "the excerpt is not in the text the browser shows"


async def test_a_style_sheet_outside_the_folder_fails_closed(tmp_path: Path) -> None:
    (tmp_path / "outside.css").write_text(".t{color:red}", encoding="utf-8")
    variant = ("<link rel=stylesheet href='../outside.css'>", "<p class=t>{t}</p>")
    document = write_page(tmp_path / "library", variant)
    sight = await SEER.sight(document, None, TARGET)
    assert not sight.seen
    assert "style sheet Fonte cannot read" in sight.reason


async def test_a_missing_style_sheet_renders_as_a_reader_gets_it(tmp_path: Path) -> None:
    variant = ("<link rel=stylesheet href='missing.css'>", "<p class=t>{t}</p>")
    document = write_page(tmp_path, variant)
    assert (await SEER.sight(document, None, TARGET)).seen


async def test_the_browser_sends_no_request_of_its_own(tmp_path: Path) -> None:
    """Style sheets, images, frames, fonts, prefetches and a refresh on another host: the
    server never hears from the browser, and the sheet it could not read fails closed."""
    server = PageServer()
    await server.start()
    try:
        for path in ("/x.css", "/i.png", "/f.html", "/font.woff2", "/next.html", "/bg.png"):
            server.routes[path] = page("nothing")
        url = server.url
        head = (
            f"<link rel=stylesheet href='{url('/x.css')}'><link rel=preconnect href='{url('/')}'>"
            f"<link rel=prefetch href='{url('/next.html')}'>"
            f"<style>@font-face{{font-family:F;src:url('{url('/font.woff2')}')}}"
            f"p{{font-family:F;background:url('{url('/bg.png')}')}}</style>"
        )
        body = f"<p>{{t}}</p><img src='{url('/i.png')}'><iframe src='{url('/f.html')}'></iframe>"
        document = write_page(tmp_path, (head, body))
        sight = await SEER.sight(document, None, TARGET)
        assert server.requests == []
        assert not sight.seen
        assert "style sheet Fonte cannot read" in sight.reason
        refresh = f'<meta http-equiv=refresh content="0;url={url("/next.html")}">'
        document = write_page(tmp_path / "refresh", (refresh, "<p>{t}</p>"))
        assert not (await SEER.sight(document, None, TARGET)).seen  # the reader is sent away
        assert server.requests == []
    finally:
        await server.stop()


async def test_a_page_is_rendered_again_when_its_bytes_change(tmp_path: Path) -> None:
    document = write_page(tmp_path, BENIGN["plain"])
    assert (await SEER.sight(document, None, TARGET)).seen
    write_page(tmp_path, ATTACKS["cover"]["absolute-box"])
    assert not (await SEER.sight(document, None, TARGET)).seen


async def test_without_a_browser_nothing_is_seen(tmp_path: Path) -> None:
    seer = BrowserSeer(executable=tmp_path / "no-chromium")
    sight = await seer.sight(write_page(tmp_path, BENIGN["plain"]), None, TARGET)
    assert not sight.seen
    assert "no browser" in sight.reason


async def test_claims_on_more_pages_than_stay_open_are_all_seen(tmp_path: Path) -> None:
    """Pages beyond `open_pages` are closed, never one a claim is reading."""
    seer = BrowserSeer(open_pages=2)
    try:
        documents = [write_page(tmp_path / str(n), BENIGN["plain"]) for n in range(5)]
        sights = await asyncio.gather(
            *(seer.sight(d, None, quote) for d in documents for quote in (TARGET, SHOWN))
        )
        assert all(s.seen for s in sights), [s.reason for s in sights if not s.seen]
    finally:
        await seer.aclose()


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
