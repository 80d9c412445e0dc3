"""A report as PDF: the expanded HTML rendering, laid out by WeasyPrint."""

from __future__ import annotations

import importlib
import logging
import warnings
from collections.abc import Mapping
from functools import cache
from types import ModuleType

from engine.contracts import Report
from engine.render.html import render_html

NOISY_LOGGERS = ("weasyprint", "fontTools")
MISSING_HARFBUZZ_SUBSET = "HarfBuzz-Subset"


def render_pdf(report: Report, crops: Mapping[str, bytes] | None = None) -> bytes:
    """The report as PDF: the print layout of the HTML (`expanded`), where each sentence
    carries its citation numbers, each linking to its excerpt under its document in the
    sources, printed there once with its page crop (PNG bytes by claim id) when it has one."""
    weasyprint = load_weasyprint()
    # Only data: URLs (the page crops the renderer embedded) may be read: the HTML is
    # self-contained, and a URL that slipped into it must not reach the network.
    fetcher = weasyprint.URLFetcher(allowed_protocols=frozenset({"data"}))
    markup = render_html(report, expanded=True, crops=crops)
    document = weasyprint.HTML(string=markup, url_fetcher=fetcher)
    pdf: bytes = document.write_pdf()
    return pdf


@cache
def load_weasyprint() -> ModuleType:
    """Import WeasyPrint on first use, with only its real warnings and errors reaching the logs.

    Without libharfbuzz-subset WeasyPrint subsets fonts with fontTools and says so: once
    as a DeprecationWarning at import, then as a log warning per font per document. That is
    an install note, not a problem with a report, so both are dropped.
    """
    for name in NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.getLogger("weasyprint").addFilter(drop_harfbuzz_subset_notice)
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=MISSING_HARFBUZZ_SUBSET, category=DeprecationWarning
        )
        return importlib.import_module("weasyprint")


def drop_harfbuzz_subset_notice(record: logging.LogRecord) -> bool:
    return MISSING_HARFBUZZ_SUBSET not in record.getMessage()
