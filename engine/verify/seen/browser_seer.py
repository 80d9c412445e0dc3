"""The seen check of an HTML page: the page laid out in headless Chromium, and the excerpt read
back from what the browser renders (docs/design.md, "The seen check of HTML").

A reader's screen is a desktop browser window 1280 CSS pixels wide (800 high, the page
scrolled as far as it goes), light colour scheme, screen media, no zoom. The browser runs
with JavaScript disabled and reaches nothing by itself: every request is answered by
Fonte or aborted, style sheets and what they `@import` come from `Resources` (a library
file's own folder, or the bytes its source kept), and its host resolver and proxy lead
nowhere. One browser serves a verifier's whole run: launched at the first HTML page,
closed by `aclose`. Each page is loaded once per (bytes, file) and kept open for the claims
that cite it.

An excerpt is seen when it is in the browser's rendered text (shadow DOM and generated
content included; `browser.reading`), no generated text changes its passage, each of its
characters has a legible box inside the document in reading order, and each is painted
there: two screenshots of its region, as shown and with the excerpt's glyphs made
transparent by a CSS highlight, differ in every character's box (`browser.ink`). What hides text
without removing it from the DOM (a box drawn over it, clip-path, a mask, zero opacity
reached through an animation, the colour of what is painted beneath, scale(0), zoom, a
negative text-indent, a media query, content-visibility) leaves its box unchanged.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import mimetypes
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import (
    Browser,
    BrowserContext,
    CDPSession,
    Page,
    Playwright,
    Route,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError

from engine.documents.parse import decode_text
from engine.verify.seen.browser.ink import region_of, unpainted
from engine.verify.seen.browser.reading import (
    RenderedText,
    covered,
    drawn,
    generated_problem,
    geometry_problem,
    rendered_text,
    spans_of,
    word_at,
)
from engine.verify.seen.browser.resources import FolderResources, Resources, document_url
from engine.verify.seen.browser.script import BOXES, MARK, SETTLE, STYLE, UNMARK, WALK
from engine.verify.seen.browser.thread import LoopThread
from engine.verify.seen.protocol import Sight

CHROMIUM = Path("/usr/bin/chromium")
VIEWPORT = {"width": 1280, "height": 800}
BROWSER_METHOD = "browser"
LAUNCH_SECONDS = 120.0
"""For the browser to start, once per process (seconds on a loaded machine)."""
# Nothing the browser starts by itself reaches a network: names resolve nowhere and every
# connection goes to a discard port on loopback. Page requests never get that far (`_route`).
_ARGS = [
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-domain-reliability",
    "--disable-sync",
    "--no-first-run",
    "--no-pings",
]
_CLOSED_SHADOW = re.compile(r"(<template\b[^>]*?\bshadowrootmode\s*=\s*[\"']?)closed", re.I)
_TYPES = {"stylesheet": "text/css", "font": "font/woff2", "image": "image/png"}
_CANDIDATES = 5


@dataclass
class _Loaded:
    page: Page
    devtools: CDPSession
    key: str
    highlight: str
    rendered: RenderedText
    problem: str | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class BrowserSeer:
    """A `Seer` for HTML documents, over one headless Chromium launched when first needed."""

    def __init__(
        self,
        resources: Resources | None = None,
        *,
        executable: Path = CHROMIUM,
        timeout: float = 20.0,
        open_pages: int = 8,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._resources: Resources = FolderResources() if resources is None else resources
        self._executable = executable
        self._timeout = timeout
        self._open_pages = open_pages
        self._clock = clock
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._pages: OrderedDict[tuple[str, str], _Loaded] = OrderedDict()
        self._starting = asyncio.Lock()  # bound to the browser's loop at first use
        self._loading: dict[tuple[str, str], asyncio.Lock] = {}
        self._closing: set[asyncio.Future[None]] = set()
        self._thread = LoopThread("fonte-browser", self._close_here)

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        return await self._thread.run(self._sight_here(document, excerpt))

    async def aclose(self) -> None:
        """Close every page, then the browser (a later sight launches another)."""
        await self._thread.run(self._close_here())

    async def __aenter__(self) -> BrowserSeer:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def _sight_here(self, document: Path, excerpt: str) -> Sight:
        started = self._clock()
        try:
            if self._executable.exists():  # the launch, once, is not the page's time
                async with asyncio.timeout(LAUNCH_SECONDS):
                    await self._started()
            async with asyncio.timeout(self._timeout):
                seen, reason = await self._sight(document, excerpt)
        except TimeoutError:
            seen, reason = False, "the browser did not start or render the page in time"
        except PlaywrightError as error:
            first = (str(error).strip().splitlines() or ["no reason given"])[0]
            seen, reason = False, f"the browser could not render the page: {first[:160]}"
        except OSError as error:
            seen, reason = False, f"the page could not be read: {error.strerror or error}"
        return Sight(seen, reason, BROWSER_METHOD, self._clock() - started)

    async def _close_here(self) -> None:
        pages, self._pages = list(self._pages.values()), OrderedDict()
        for loaded in pages:
            await _quietly(loaded.page.close())
        if self._context is not None:
            await _quietly(self._context.close())
        if self._browser is not None:
            await _quietly(self._browser.close())
        if self._playwright is not None:
            await _quietly(self._playwright.stop())
        self._playwright, self._browser, self._context = None, None, None

    async def _sight(self, document: Path, excerpt: str) -> tuple[bool, str]:
        if not self._executable.exists():
            return False, f"no browser to render the page ({self._executable} is not installed)"
        loaded = await self._load(document)
        # Taken before any await: a page in use (or awaited) is never closed under its user.
        async with loaded.lock:
            if loaded.problem:
                return False, loaded.problem
            spans = spans_of(excerpt, loaded.rendered)
            if not spans:
                return False, "the excerpt is not in the text the browser shows"
            reason = ""
            for start, end in spans[:_CANDIDATES]:
                reason = await self._problem(loaded, start, end) or ""
                if not reason:
                    return True, ""
        return False, reason

    async def _problem(self, loaded: _Loaded, start: int, end: int) -> str | None:
        """Why the excerpt's span [start, end) of the rendered text is not what a reader
        sees, or None."""
        problem = generated_problem(loaded.rendered, start, end)
        if problem:
            return problem
        span = covered(loaded.rendered, start, end)
        segments = [list(segment) for segment in span.segments]
        measured: dict[str, Any] = await loaded.page.evaluate(BOXES, [loaded.key, segments])
        width, height = float(measured["width"]), float(measured["height"])
        boxes = [(float(x), float(y), float(w), float(h)) for x, y, w, h in measured["boxes"]]
        problem = geometry_problem(span.chars, boxes, width, height)
        if problem:
            return problem
        shown = [i for i, char in enumerate(span.chars) if drawn(char)]
        region = region_of([boxes[i] for i in shown], width, height)
        if region is None:
            return "the excerpt is drawn nowhere on the page"
        clip = dict(zip(("x", "y", "width", "height"), map(float, region), strict=True))
        before = await _screenshot(loaded.devtools, clip)
        await loaded.page.evaluate(MARK, [loaded.key, loaded.highlight, segments])
        try:
            after = await _screenshot(loaded.devtools, clip)
        finally:
            await loaded.page.evaluate(UNMARK, [loaded.key, loaded.highlight])
        missing = unpainted(before, after, region, [boxes[i] for i in shown])
        if missing:
            word = word_at(span.chars, shown[missing[0]])
            return f"“{word}” is not painted where the page sets it (hidden, covered or clipped)"
        return None

    async def _load(self, document: Path) -> _Loaded:
        body = await asyncio.to_thread(document.read_bytes)
        cache_key = (hashlib.sha256(body).hexdigest(), str(document))
        async with self._loading.setdefault(cache_key, asyncio.Lock()):  # one render per page
            loaded = self._pages.get(cache_key)
            if loaded is None:
                loaded = await self._opened(document, body)
                self._pages[cache_key] = loaded
                self._evict(cache_key)
        self._loading.pop(cache_key, None)
        self._pages.move_to_end(cache_key)
        return loaded

    async def _opened(self, document: Path, body: bytes) -> _Loaded:
        context = await self._started()
        page = await context.new_page()
        try:
            return await self._render(page, document, body)
        except BaseException:
            await _quietly(page.close())
            raise

    def _evict(self, kept: tuple[str, str]) -> None:
        """Drop the pages used longest ago beyond `open_pages`, none in use nor `kept`, and
        close them in the background: nothing awaits here, so no other claim runs between
        a page's choice and its use."""
        idle = [k for k, loaded in self._pages.items() if not loaded.lock.locked() and k != kept]
        for key in idle[: max(0, len(self._pages) - self._open_pages)]:
            closing = asyncio.ensure_future(_quietly(self._pages.pop(key).page.close()))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    async def _render(self, page: Page, document: Path, body: bytes) -> _Loaded:
        # Closed and open shadow roots render alike; only an open one can be walked.
        markup = _CLOSED_SHADOW.sub(r"\1open", decode_text(body)).encode("utf-8")
        url = document_url(document, self._resources)
        problems: list[str] = []

        async def answer(route: Route) -> None:
            await self._route(route, document, url, markup, problems)

        await page.route("**/*", answer)
        await page.goto(url, wait_until="load")
        await page.evaluate(SETTLE)
        token = secrets.token_hex(8)
        key, highlight = f"__fonte_{token}", f"fonte-seen-{token}"
        await page.evaluate(STYLE, [highlight])
        raw = await page.evaluate(WALK, key)
        problem = problems[0] if problems else None
        devtools = await page.context.new_cdp_session(page)
        return _Loaded(page, devtools, key, highlight, rendered_text(raw), problem)

    async def _route(
        self, route: Route, document: Path, url: str, markup: bytes, problems: list[str]
    ) -> None:
        request = route.request
        kind = request.resource_type
        try:
            if kind == "document" and request.url == url:
                headers = {"content-type": "text/html; charset=utf-8"}
                await route.fulfill(status=200, body=markup, headers=headers)
                return
            if kind in _TYPES:
                body = await self._resources.resource(document, request.url)
                if body is not None:
                    guessed = mimetypes.guess_type(request.url)[0] or _TYPES[kind]
                    content_type = "text/css" if kind == "stylesheet" else guessed
                    await route.fulfill(
                        status=200 if body else 404, body=body, content_type=content_type
                    )
                    return
                if kind == "stylesheet":
                    problems.append(
                        f"the page links a style sheet Fonte cannot read ({request.url[:100]})"
                    )
            await route.abort()
        except PlaywrightError:
            return  # the page closed under the request

    async def _started(self) -> BrowserContext:
        async with self._starting:
            if self._context is None:
                self._playwright = await async_playwright().start()
                self._browser = await self._playwright.chromium.launch(
                    executable_path=str(self._executable), args=_ARGS, timeout=LAUNCH_SECONDS * 1000
                )
                self._context = await self._browser.new_context(
                    java_script_enabled=False,
                    viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]},
                    device_scale_factor=1,
                    color_scheme="light",
                    reduced_motion="no-preference",
                    service_workers="block",
                    accept_downloads=False,
                )
            return self._context


async def _screenshot(devtools: CDPSession, clip: dict[str, float]) -> bytes:
    """A PNG of `clip` (document pixels), wherever it lies on the page: the DevTools call
    itself, which skips what Playwright's screenshot adds around it (a fifth of the time)."""
    shot = await devtools.send(
        "Page.captureScreenshot",
        {
            "format": "png",
            "clip": {**clip, "scale": 1},
            "captureBeyondViewport": True,
            "optimizeForSpeed": True,  # lossless all the same: only the compression is lighter
        },
    )
    return base64.b64decode(shot["data"])


async def _quietly(closing: Any) -> None:
    try:
        await closing
    except PlaywrightError:
        return
