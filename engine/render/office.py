"""What the Word and PowerPoint renderers share: their words (the report's table), a
citation's short line, text made safe for Office XML, and pictures sized to fit a box."""

from __future__ import annotations

import io
import re

from PIL import Image

from engine.contracts import Claim
from engine.render.citations import CitationIndex, reading_text, source_location, source_title
from engine.render.evidence import PNG_SIGNATURE
from engine.render.labels import context_text
from engine.render.text import display_text
from engine.text.normalise import collapse_whitespace
from engine.words import ReportWords

# Characters XML 1.0 cannot hold (lxml refuses them): C0 controls but tab, newline and CR,
# lone surrogates and the two non-characters. Page text is kept as text, only these go.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """Page text as a run of Office XML can hold it: as it is (non-breaking spaces and all),
    without the control characters XML refuses."""
    return _NOT_XML.sub("", text)


def shown(text: str) -> str:
    """An excerpt as the page shows it, on several lines if it has them: `xml_safe`, stripped,
    its non-breaking spaces shown as ordinary ones so it wraps between words like any text
    (as in the HTML and the PDF; report.json keeps it verbatim)."""
    return xml_safe(display_text(text))


def flat(text: str) -> str:
    """`xml_safe`, on one line."""
    return collapse_whitespace(xml_safe(text))


def page_of(claim: Claim) -> int | None:
    return source_location(claim).page


def slide_source_line(number: int, claim: Claim, words: ReportWords) -> str:
    """`[1] BESTBUY_2019_10K, p. 53`: a citation as a slide's foot shows it."""
    page = page_of(claim)
    where = f", {words.page_short} {page}" if page is not None else ""
    return f"[{number}] {flat(source_title(claim))}{where}"


def markers(claim_ids: list[str], index: CitationIndex) -> str:
    """`[1][3]`: the citation numbers of `claim_ids`, each once."""
    return "".join(f"[{index.number_of(cid)}]" for cid in dict.fromkeys(claim_ids))


def excerpt_text(claim: Claim, words: ReportWords) -> str:
    """The excerpt quoted, with its context (the lead-in or the table's header) after it and
    "(read by OCR)" when it was read from a page's image; a model's reading of a figure is
    no quotation: "read from the figure on page 4 (…): <reading>", without quotation marks."""
    reading = reading_text(words, claim)
    if claim.read_by == "figure" and reading:
        return f"{reading}: {flat(claim.excerpt)}"
    quote = f"“{shown(claim.excerpt)}”"
    if context := context_text(words, claim):
        quote += f" ({flat(context)})"
    return f"{quote} ({reading})" if reading else quote


def png_size(png: bytes) -> tuple[int, int, float] | None:
    """(width px, height px, dots per inch) of a PNG; None for bytes that are not a PNG."""
    if not png.startswith(PNG_SIGNATURE):
        return None
    try:
        with Image.open(io.BytesIO(png)) as image:
            dpi = image.info.get("dpi", (96.0, 96.0))[0] or 96.0
            return image.width, image.height, float(dpi)
    except (OSError, ValueError):
        return None


def fitted_inches(png: bytes, max_width: float, max_height: float) -> tuple[float, float] | None:
    """(width, height) in inches at which to show `png`: its own size, shrunk to fit the box;
    None for bytes that are not a readable PNG."""
    size = png_size(png)
    if size is None:
        return None
    width_px, height_px, dpi = size
    width, height = width_px / dpi, height_px / dpi
    scale = min(1.0, max_width / width, max_height / height)
    return width * scale, height * scale
