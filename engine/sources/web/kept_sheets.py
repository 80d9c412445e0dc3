"""The style sheets a fetched HTML page links, kept inside the HTML the web source keeps
(`kept_html`), so the seen check renders the page with its own rules and the browser never
fetches anything (engine/verify/seen/browser_seer.py).

Each `<link rel="stylesheet">` (not an alternate one) becomes a `<style>` holding the sheet,
its `media` kept; each `@import` in a sheet or a `<style>` is replaced by the imported sheet
(under `@media` when it names media), at most `MAX_DEPTH` deep and `MAX_SHEETS` in all. A
sheet that cannot be read through the guarded fetcher (refused, too large, an `@import` with
`layer()` or `supports()`) stays a link: the seen check then fails the page closed, as its
rules could hide the excerpt.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from urllib.parse import urljoin

MAX_SHEETS = 12
MAX_DEPTH = 3

ReadSheet = Callable[[str], Awaitable[str | None]]
"""The text of the sheet at an absolute URL, or None when it cannot be read."""

_LINK = re.compile(r"<link\b[^>]*>", re.I)
_STYLE = re.compile(r"(<style\b[^>]*>)(.*?)(</style\s*>)", re.I | re.S)
_ATTRIBUTE = re.compile(r"""([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?["']?([^"')\s;]+)["']?\s*\)?\s*([^;]*);""", re.I)


async def with_sheets(html: str, base_url: str, read: ReadSheet) -> str:
    """`html` with the sheets it links inlined (module docstring)."""
    budget = [MAX_SHEETS]

    async def inlined(css: str, url: str, depth: int) -> str | None:
        """`css` (from `url`) with its imports inlined; None when one cannot be."""
        out: list[str] = []
        at = 0
        for match in _IMPORT.finditer(css):
            conditions = match.group(2).strip()
            if depth >= MAX_DEPTH or "layer" in conditions or "supports(" in conditions:
                return None
            imported = await sheet(urljoin(url, match.group(1)), depth + 1)
            if imported is None:
                return None
            out.append(css[at : match.start()])
            out.append(f"@media {conditions} {{{imported}}}" if conditions else imported)
            at = match.end()
        out.append(css[at:])
        return "".join(out)

    async def sheet(url: str, depth: int) -> str | None:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        css = await read(url)
        return None if css is None else await inlined(css, url, depth)

    pieces: list[str] = []
    at = 0
    for match in _LINK.finditer(html):
        attributes = _attributes(match.group(0))
        rel = attributes.get("rel", "").lower().split()
        href = attributes.get("href", "")
        if "stylesheet" not in rel or "alternate" in rel or not href:
            continue
        css = await sheet(urljoin(base_url, href), 0)
        if css is None or "</style" in css.lower():
            continue
        media = attributes.get("media", "").replace('"', "")
        opening = f'<style media="{media}">' if media else "<style>"
        pieces += [html[at : match.start()], opening, css, "</style>"]
        at = match.end()
    pieces.append(html[at:])
    linked = "".join(pieces)
    return await _style_imports(linked, base_url, inlined)


async def _style_imports(
    html: str, base_url: str, inlined: Callable[[str, str, int], Awaitable[str | None]]
) -> str:
    pieces: list[str] = []
    at = 0
    for match in _STYLE.finditer(html):
        if "@import" not in match.group(2).lower():
            continue
        css = await inlined(match.group(2), base_url, 0)
        if css is None or "</style" in css.lower():
            continue  # the import stays: the browser asks for it, and the page fails closed
        pieces += [html[at : match.start(2)], css]
        at = match.end(2)
    pieces.append(html[at:])
    return "".join(pieces)


def _attributes(tag: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, double, single, bare in _ATTRIBUTE.findall(tag):
        found.setdefault(name.lower(), double or single or bare)
    return found
