from engine.render.changes import change_lines, changes_part
from engine.render.charts import ChartData, chart_data
from engine.render.citations import (
    CitationIndex,
    claim_origin,
    origin_text,
    shown_url,
    source_location,
    source_title,
)
from engine.render.docx import render_docx
from engine.render.evidence import PageEvidence
from engine.render.files import FORMATS, RenderProblems, render_format, write_report
from engine.render.html import render_html
from engine.render.labels import Labels, accessed_text, labels_for, page_label
from engine.render.markdown import render_markdown
from engine.render.pdf import render_pdf
from engine.render.pptx import render_pptx
from engine.render.text import ProseSpan, plain_prose, prose_spans, report_title

__all__ = [
    "FORMATS",
    "ChartData",
    "CitationIndex",
    "Labels",
    "PageEvidence",
    "ProseSpan",
    "RenderProblems",
    "accessed_text",
    "change_lines",
    "changes_part",
    "chart_data",
    "claim_origin",
    "labels_for",
    "origin_text",
    "page_label",
    "plain_prose",
    "prose_spans",
    "render_docx",
    "render_format",
    "render_html",
    "render_markdown",
    "render_pdf",
    "render_pptx",
    "report_title",
    "shown_url",
    "source_location",
    "source_title",
    "write_report",
]
