"""The readable text and the title of an HTML file."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import trafilatura

from engine.documents.visible_html import visible_markup
from engine.text.normalise import collapse_whitespace

_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "title", "svg"})
_BLOCK_TAGS = frozenset(
    {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article"}
    | {"table", "ul", "ol", "blockquote", "pre", "header", "footer", "main", "td", "th"}
)


def html_main_text(markup: str) -> str:
    """The main text (boilerplate removed by trafilatura), else every visible text node.

    Both read the page as a browser shows it: hidden elements and text are dropped first
    (engine/documents/visible_html.py), so nothing a reader cannot see gets verified.
    """
    shown = visible_markup(markup)
    extracted = trafilatura.extract(shown, include_comments=False, include_tables=True)
    if extracted and extracted.strip():
        return str(extracted)
    return strip_tags(shown)


def html_title(markup: str) -> str:
    match = _TITLE.search(markup)
    if match is None:
        return ""
    return collapse_whitespace(html.unescape(re.sub(r"<[^>]+>", "", match.group(1))))


def strip_tags(markup: str) -> str:
    """Visible text of `markup`, one line per block element, blank lines collapsed."""
    collector = _TextCollector()
    collector.feed(markup)
    collector.close()
    lines = (collapse_whitespace(line) for line in "".join(collector.parts).split("\n"))
    return "\n".join(line for line in lines if line)


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self._skipping += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self._skipping = max(0, self._skipping - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)
