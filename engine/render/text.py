"""Plain-text helpers shared by the renderers."""

from __future__ import annotations

import re

from engine.contracts import Report
from engine.text.normalise import collapse_whitespace

# What Markdown (CommonMark and GFM) would read as markup: emphasis, code, links and images,
# strikethrough, table cells, and the escape character itself.
_MARKDOWN_MARKUP = re.compile(r"([\\`*_\[\]~|])")
_BARE_URL = re.compile(r"(?i)(?<=[a-z0-9])://")
_WWW = re.compile(r"(?i)\bwww\.")
_TITLE_PREFIXES = ("Report", "Relatório", "Relatorio")
_NO_BREAK_SPACES = str.maketrans({"\u00a0": " ", "\u2007": " ", "\u202f": " "})


def report_title(report: Report) -> str:
    """The report's title; its question when the writer gave none or gave only the question
    again ("Report: <question>", "Relatório: <question>")."""
    title, question = collapse_whitespace(report.title), collapse_whitespace(report.question)
    if not title or _folded(title) in {
        _folded(f"{prefix}: {question}") for prefix in ("", *_TITLE_PREFIXES)
    }:
        return question
    return title


def report_question(report: Report) -> str | None:
    """The question, to show once under the title; None when the title already states it."""
    question = collapse_whitespace(report.question)
    if not question or _folded(report_title(report)) == _folded(question):
        return None
    return question


def _folded(text: str) -> str:
    return collapse_whitespace(text).removeprefix(": ").casefold().rstrip("?.! ")


def display_text(text: str) -> str:
    """Page text as shown on screen or paper: stripped, its non-breaking spaces (U+00A0,
    U+2007, U+202F) shown as ordinary spaces so a long excerpt wraps like any text. For
    display only: the excerpt in report.json stays verbatim."""
    return text.strip().translate(_NO_BREAK_SPACES)


def inert_markdown(text: str, *, url: bool = False, inline: bool = False) -> str:
    """`text` on one line, as Markdown that shows it literally: page text, titles, notes and
    file names can make no HTML, link, image or emphasis. Raw HTML and autolinks are
    entity-escaped; markup characters are backslash-escaped; bare URLs and `www.` names are
    broken up so GFM does not turn them into links, unless `url` (the cited source itself,
    which a reader should be able to open). `inline` text (a table cell) never starts a line,
    so its first character needs no escape."""
    line = collapse_whitespace(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    line = _MARKDOWN_MARKUP.sub(r"\\\1", line)
    if not url:
        line = _WWW.sub(lambda match: match.group(0)[:-1] + "\\.", _BARE_URL.sub(r":\\/\\/", line))
    if not inline and line.startswith(("#", "=", "+", "-")):
        line = "\\" + line  # not a heading, rule or list item of its own
    return line
