"""`WebFetcher`: one http(s) page into a Snapshot, within limits of time, size and manners
(and, for a PDF, its bytes: `fetch_with_pdf`).

Every hop (the first request and each redirect) is checked for scheme and robots.txt here and
for its address in the network backend (`ssrf.py`), and waits its turn at the host.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from types import TracebackType

import httpcore
import httpx

from engine.contracts import utc_now
from engine.documents.parse import INLINE_BYTES
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import DocumentGone, FetchError
from engine.sources.web.address_policy import refusal
from engine.sources.web.body import ACCEPT_ENCODING, content_decoder, megabytes, read_capped
from engine.sources.web.charset import decode_body
from engine.sources.web.config import FetchConfig
from engine.sources.web.extract import HTML_TYPES, PDF_TYPES, ContentType, extract, type_refusal
from engine.sources.web.isolation import ChildDied, run_killable
from engine.sources.web.kept_pdfs import Fetched
from engine.sources.web.kept_sheets import with_sheets
from engine.sources.web.page import check_page
from engine.sources.web.politeness import HostGate
from engine.sources.web.robots import ROBOTS_MAX_BYTES, RobotsCache, RobotsRules
from engine.sources.web.ssrf import AddressRefused, GuardedTransport, resolve

ACCEPT = (
    "text/html,application/xhtml+xml,application/pdf;q=0.9,"
    "text/plain;q=0.8,text/markdown;q=0.8,*/*;q=0.1"
)
_SCHEMES = frozenset({"http", "https"})
_GONE = frozenset({404, 410})
"""What a server answers for a page it does not have: Not Found, and Gone for good
(https://www.rfc-editor.org/rfc/rfc9110#section-15.5.5, #section-15.5.11)."""


class WebFetcher:
    """Reads web pages; close it with `aclose()` or use it as `async with WebFetcher(…)`.

    `clock` and `sleep` time the delay between requests to one host (politeness.HostGate):
    the real ones unless a test passes its own."""

    def __init__(
        self,
        config: FetchConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.config = config if config is not None else FetchConfig()
        self._client = httpx.AsyncClient(
            transport=GuardedTransport(self.config.allowlist),
            timeout=httpx.Timeout(self.config.read_timeout, connect=self.config.connect_timeout),
            headers={
                "User-Agent": self.config.user_agent,
                "Accept": ACCEPT,
                "Accept-Encoding": ACCEPT_ENCODING,
            },
            follow_redirects=False,
            max_redirects=self.config.max_redirects,
            trust_env=False,
        )
        self._gate = HostGate(self.config.per_host, self.config.delay, clock, sleep)
        self._robots = RobotsCache(self._load_robots)

    async def __aenter__(self) -> WebFetcher:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._client.aclose()

    async def admit(self, snapshot: Snapshot) -> None:
        """FetchError when the address policy now would refuse a page read earlier: its
        host, or the host it was finally read from, resolves to an address the allowlist no
        longer opens. A host that cannot be resolved now is let through: nothing can be
        reached there, so a stored page leaks nothing the policy still guards."""
        for url in dict.fromkeys((snapshot.url, snapshot.final_url or snapshot.url)):
            host = httpx.URL(url).host
            try:
                addresses = await resolve(host, 443, self.config.connect_timeout)
            except (httpcore.ConnectError, httpcore.ConnectTimeout):
                continue
            reason = refusal(host, addresses, self.config.allowlist)
            if reason is not None:
                raise FetchError(f"stored page no longer allowed: {reason}")

    async def fetch(self, url: str) -> Snapshot:
        """The text of `url` as it is now. A `#page=N` fragment is accepted and must name a
        page of a PDF; the snapshot's url is `url` without it."""
        return (await self.fetch_with_pdf(url)).snapshot

    async def fetch_with_pdf(self, url: str) -> Fetched:
        """`fetch`, with the body as it came when it is a PDF (for the pages a report shows)."""
        requested, page = split_page(url.strip())
        target = _http_url(requested)
        try:
            async with asyncio.timeout(self.config.timeout):
                final_url, status, content_type, body = await self._follow(target)
        except TimeoutError:
            raise FetchError(
                f"timed out: no complete answer within {self.config.timeout:g} s"
            ) from None
        except AddressRefused as error:
            raise FetchError(str(error)) from None
        except httpx.HTTPError as error:
            raise FetchError(self._describe(error)) from None
        fetched_at = utc_now()
        if len(body) > INLINE_BYTES:  # seconds of CPU: in a child a cancel can kill
            try:
                extracted = await run_killable(extract, body, content_type, final_url)
            except ChildDied as error:
                raise FetchError(f"could not extract text ({error})") from None
            except MemoryError:  # past the child's memory cap (`limits.cap_memory`)
                raise FetchError("could not extract text (out of memory)") from None
        else:
            extracted = await asyncio.to_thread(extract, body, content_type, final_url)
        snapshot = Snapshot(
            url=requested,
            text=extracted.text,
            title=extracted.title,
            final_url=final_url,
            fetched_at=fetched_at,
            status=status,
            content_type=extracted.content_type,
            pages=extracted.pages,
            published=extracted.published,
            ocr_pages=extracted.ocr_pages,
        )
        check_page(snapshot, page)
        pdf = body if extracted.content_type in PDF_TYPES else None
        html = None
        if extracted.content_type in HTML_TYPES:  # kept for the seen check to render
            html = (await self._kept_html(body, content_type, final_url)).encode("utf-8")
        return Fetched(snapshot, pdf, html)

    async def _kept_html(self, body: bytes, content_type: ContentType, url: str) -> str:
        """The page as decoded, with the style sheets it links inlined (`kept_sheets`): one
        that cannot be read in time stays a link, and the seen check fails it closed."""
        markup = decode_body(body, content_type.charset, html=True)
        try:
            async with asyncio.timeout(self.config.timeout):
                return await with_sheets(markup, url, self._read_sheet)
        except TimeoutError:
            return markup

    async def _read_sheet(self, url: str) -> str | None:
        """A style sheet through the same guards as a page (allowlist, robots, politeness,
        size), or None."""
        try:
            _, _, content_type, body = await self._follow(_http_url(url), refuse=_sheet_refusal)
        except (FetchError, AddressRefused, httpx.HTTPError):
            return None
        return decode_body(body, content_type.charset, html=False)

    async def _follow(
        self, url: httpx.URL, refuse: Callable[[ContentType], str | None] = type_refusal
    ) -> tuple[str, int, ContentType, bytes]:
        for _ in range(self.config.max_redirects + 1):
            await self._check_robots(url)
            async with self._gate.turn(url.host), self._client.stream("GET", url) as response:
                if response.is_redirect:
                    url = _redirect_target(url, response.headers["location"])
                    continue
                content_type, body = await self._read(response, refuse)
                return str(url), response.status_code, content_type, body
        raise FetchError(f"too many redirects (more than {self.config.max_redirects})")

    async def _read(
        self, response: httpx.Response, refuse: Callable[[ContentType], str | None]
    ) -> tuple[ContentType, bytes]:
        status = response.status_code
        if status in _GONE:
            raise DocumentGone(f"HTTP {status} {response.reason_phrase}".rstrip())
        if status >= 400:
            raise FetchError(f"HTTP {status} {response.reason_phrase}".rstrip())
        if not 200 <= status < 300:
            raise FetchError(f"HTTP {status}: no page to read")
        content_type = ContentType.parse(response.headers.get("content-type"))
        refusal = refuse(content_type)
        if refusal is not None:
            raise FetchError(refusal)
        limit = self.config.max_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise FetchError(f"body over {megabytes(limit)} (Content-Length {declared})")
        decoder = content_decoder(response.headers.get("content-encoding"))
        return content_type, await read_capped(response.aiter_raw(), decoder, limit)

    async def _check_robots(self, url: httpx.URL) -> None:
        if not self.config.robots or url.path == "/robots.txt":
            return
        rules = await self._robots.rules_for(str(url))
        agent = self.config.user_agent
        delay = rules.crawl_delay(agent)
        if delay is not None:
            self._gate.ask_for_delay(url.host, delay)
        refusal = rules.refusal(str(url), agent)
        if refusal is not None:
            raise FetchError(refusal)

    async def _load_robots(self, origin: str) -> RobotsRules:
        url = httpx.URL(origin).copy_with(path="/robots.txt")
        try:
            async with (
                self._gate.turn(url.host),
                self._client.stream("GET", url, follow_redirects=True) as response,
            ):
                if not 200 <= response.status_code < 300:
                    return RobotsRules.from_status(response.status_code)
                decoder = content_decoder(response.headers.get("content-encoding"))
                body = await read_capped(response.aiter_raw(), decoder, ROBOTS_MAX_BYTES, cut=True)
                return RobotsRules.from_status(
                    response.status_code, body.decode("utf-8", "replace")
                )
        except httpx.HTTPError as error:
            return RobotsRules(unreachable=self._describe(error))
        except FetchError as error:
            return RobotsRules(unreachable=str(error))

    def _describe(self, error: httpx.HTTPError) -> str:
        if isinstance(error, httpx.ConnectTimeout):
            return f"connect timeout: no connection within {self.config.connect_timeout:g} s"
        if isinstance(error, httpx.ReadTimeout):
            return f"read timeout: no data for {self.config.read_timeout:g} s"
        if isinstance(error, httpx.TimeoutException):
            return f"timeout ({type(error).__name__})"
        if isinstance(error, httpx.TooManyRedirects):
            return f"too many redirects (more than {self.config.max_redirects})"
        detail = str(error) or type(error).__name__
        if isinstance(error, httpx.ConnectError):
            return f"cannot connect: {detail}"
        return f"network error: {detail}"


def _sheet_refusal(content_type: ContentType) -> str | None:
    return None if content_type.mime == "text/css" else f"not a style sheet: {content_type.mime}"


def _http_url(url: str) -> httpx.URL:
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as error:
        raise FetchError(f"bad URL {url!r}: {error}") from None
    fetched = _http_only(parsed, f"refused: only http and https URLs are fetched, not {url!r}")
    if not fetched.host:
        raise FetchError(f"bad URL {url!r}: no host")
    return fetched


def _redirect_target(current: httpx.URL, location: str) -> httpx.URL:
    try:
        target = current.join(location)
    except httpx.InvalidURL as error:
        raise FetchError(f"bad redirect to {location!r}: {error}") from None
    return _http_only(target, f"refused: redirect to a non-http(s) URL {location!r}")


def _http_only(url: httpx.URL, refusal: str) -> httpx.URL:
    """`url` as it is fetched (its fragment stays with the reader); FetchError(`refusal`)
    unless it is http or https, the only schemes fetched, a redirect's target included."""
    if url.scheme not in _SCHEMES:
        raise FetchError(refusal)
    return url.copy_with(fragment=None)
