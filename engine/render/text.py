"""Plain-text helpers shared by the renderers."""

from __future__ import annotations

import re

from engine.contracts import Report

# What Markdown (CommonMark and GFM) would read as markup: emphasis, code, links and images,
# strikethrough, table cells, and the escape character itself.
_MARKDOWN_MARKUP = re.compile(r"([\\`*_\[\]~|])")
_BARE_URL = re.compile(r"(?i)(?<=[a-z0-9])://")
_WWW = re.compile(r"(?i)\bwww\.")


def one_line(text: str) -> str:
    """Collapse runs of whitespace (newlines included) into single spaces."""
    return " ".join(text.split())


def report_title(report: Report) -> str:
    """The report's title, or its question when the writer gave none."""
    return one_line(report.title) or one_line(report.question)


def inert_markdown(text: str, *, url: bool = False) -> str:
    """`text` on one line, as Markdown that shows it literally: page text, titles, notes and
    file names can make no HTML, link, image or emphasis. Raw HTML and autolinks are
    entity-escaped; markup characters are backslash-escaped; bare URLs and `www.` names are
    broken up so GFM does not turn them into links, unless `url` (the cited source itself,
    which a reader should be able to open)."""
    line = one_line(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    line = _MARKDOWN_MARKUP.sub(r"\\\1", line)
    if not url:
        line = _WWW.sub(lambda match: match.group(0)[:-1] + "\\.", _BARE_URL.sub(r":\\/\\/", line))
    if line.startswith(("#", "=", "+", "-")):
        line = "\\" + line  # not a heading, rule or list item of its own
    return line
