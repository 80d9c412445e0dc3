"""Plain-text helpers shared by the renderers."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

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
    """Page text as shown on screen or paper: stripped, its character references shown as
    their characters ("SG&amp;A" is "SG&A", as the page showed it), its non-breaking spaces
    (U+00A0, U+2007, U+202F) as ordinary spaces so a long excerpt wraps like any text. For
    display only: the excerpt in report.json stays verbatim."""
    return unescaped_entities(text.strip()).translate(_NO_BREAK_SPACES)


# A character reference as HTML writes one, with its semicolon: "&amp;", "&#233;", "&#xE9;".
# Without one ("AT&T", "R&D", "&copy") the text is left as it is.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def unescaped_entities(text: str) -> str:
    """`text` with each HTML character reference shown as its character ("SG&amp;A" →
    "SG&A", "&#8220;" → "“"); a name HTML does not define stays as written."""
    return _ENTITY.sub(lambda match: html.unescape(match.group(0)), text)


@dataclass(frozen=True)
class ProseSpan:
    """A piece of prose and how it is set: bold, italic or as code."""

    text: str
    strong: bool = False
    emphasis: bool = False
    code: bool = False


# Markdown's inline marks as a writer uses them: **bold** or __bold__, *italic* or _italic_
# (the mark against a word, not inside one: "file_name" and "2 * 3" are no emphasis), `code`.
_INLINE = re.compile(
    r"\*\*(?=[^\s*])(?P<strong>.+?)(?<=[^\s*])\*\*"
    r"|(?<![\w_])__(?=[^\s_])(?P<strong2>.+?)(?<=[^\s_])__(?![\w_])"
    r"|(?<![\w*])\*(?=[^\s*])(?P<em>.+?)(?<=[^\s*])\*(?![\w*])"
    r"|(?<![\w_])_(?=[^\s_])(?P<em2>.+?)(?<=[^\s_])_(?![\w_])"
    r"|`(?P<code>[^`]+)`"
)


def prose_spans(text: str) -> list[ProseSpan]:
    """The writer's prose on one line, as a reader should see it: its Markdown inline marks
    set as bold, italic or code rather than shown ("o **caput** do artigo"), its character
    references as their characters ("SG&amp;A" → "SG&A")."""
    return _spans(unescaped_entities(collapse_whitespace(text)), ProseSpan(""))


def plain_prose(text: str) -> str:
    """`prose_spans` without the setting: for a title, a cell or a sheet, which show no bold."""
    return "".join(span.text for span in prose_spans(text))


def _spans(line: str, outer: ProseSpan) -> list[ProseSpan]:
    spans: list[ProseSpan] = []
    at = 0
    for match in _INLINE.finditer(line):
        if match.start() > at:
            spans.append(ProseSpan(line[at : match.start()], outer.strong, outer.emphasis))
        if (code := match.group("code")) is not None:
            spans.append(ProseSpan(code, outer.strong, outer.emphasis, code=True))
        elif (strong := match.group("strong") or match.group("strong2")) is not None:
            spans += _spans(strong, ProseSpan("", True, outer.emphasis))
        else:
            emphasis = match.group("em") or match.group("em2") or ""
            spans += _spans(emphasis, ProseSpan("", outer.strong, True))
        at = match.end()
    if at < len(line):
        spans.append(ProseSpan(line[at:], outer.strong, outer.emphasis))
    return spans


def inert_markdown(text: str, *, url: bool = False, inline: bool = False) -> str:
    """`text` on one line, as Markdown that shows it literally (its character references as
    their characters): page text, titles, notes and
    file names can make no HTML, link, image or emphasis. Raw HTML and autolinks are
    entity-escaped; markup characters are backslash-escaped; bare URLs and `www.` names are
    broken up so GFM does not turn them into links, unless `url` (the cited source itself,
    which a reader should be able to open). `inline` text (a table cell) never starts a line,
    so its first character needs no escape."""
    line = unescaped_entities(collapse_whitespace(text))  # "SG&amp;A" shows as "SG&A"
    line = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    line = _MARKDOWN_MARKUP.sub(r"\\\1", line)
    if not url:
        line = _WWW.sub(lambda match: match.group(0)[:-1] + "\\.", _BARE_URL.sub(r":\\/\\/", line))
    if not inline and line.startswith(("#", "=", "+", "-")):
        line = "\\" + line  # not a heading, rule or list item of its own
    return line


def prose_markdown(text: str) -> str:
    """The writer's prose as Markdown (`prose_spans`): its bold, italic and code set with
    marks of ours, every piece of its text made inert."""
    pieces = []
    for position, span in enumerate(prose_spans(text)):
        if span.code:
            body = "`" + span.text.replace("`", "'").strip() + "`"
        else:
            body = inert_markdown(span.text, inline=position > 0)
        mark = ("**" if span.strong else "") + ("*" if span.emphasis else "")
        lead = " " if span.text[:1].isspace() and position else ""
        trail = " " if span.text[-1:].isspace() else ""
        pieces.append(f"{lead}{mark}{body}{mark[::-1]}{trail}" if body else lead + trail)
    return "".join(pieces).strip()
