"""Renderers: a Report as Markdown, self-contained HTML, PDF and JSON files."""

from engine.render.citations import CitationIndex
from engine.render.files import FORMATS, write_report
from engine.render.html import render_html
from engine.render.labels import Labels, labels_for
from engine.render.markdown import render_markdown
from engine.render.pdf import render_pdf

__all__ = [
    "FORMATS",
    "CitationIndex",
    "Labels",
    "labels_for",
    "render_html",
    "render_markdown",
    "render_pdf",
    "write_report",
]
