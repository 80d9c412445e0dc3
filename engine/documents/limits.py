"""How much memory a file may make a reader hold: every limit a reader checks before it
inflates, decodes or renders anything, written here once.

A hostile file is small on disk and huge once read: a DOCX whose XML inflates to a
gigabyte, a workbook whose two cells span the whole grid, a PDF page 200 inches wide that
takes gigabytes to render at OCR resolution, a compressed HTTP body. Each reader asks this
module first, and a file past a limit is refused (`OverLimit`, one of `REFUSALS` as its
one-line reason) before the memory is taken, so memory is bounded by design, not by how much the
machine happens to have.

- Zip packages (DOCX, PPTX, XLSX): `check_package` counts the members, reads each member's
  declared size, then inflates every member as a stream with a counter (a declared size
  may lie), stopping at the first byte over `MAX_MEMBER_BYTES` or `MAX_PACKAGE_BYTES`.
- Spreadsheet grids: `MAX_SHEET_CELLS`, the cells a workbook holds and its merged ranges
  cover (a reader makes an object per cell, a merged one included), and `MAX_TEXT_CHARS`,
  the text a reader may build from a file (a row padded to column XFD a million times).
- Rendered pages: `render_scale` lowers a render's scale so that the page box's area at
  that scale stays under `MAX_RENDER_PIXELS`; `render_fits` says whether a fixed-scale
  render does.
- A child that parses untrusted files: `cap_memory` gives it an address space of what it
  maps at start plus `PARSE_MEMORY_BYTES` (RLIMIT_AS), so that a file which still needs more
  fails there (MemoryError, an allocation error in a C parser) and ends that file, not the
  worker beside it or the machine's other processes.
- Compressed HTTP bodies are counted as decoded against the fetcher's `max_bytes`
  (`engine.sources.web.body`), the same rule as the members of a package.
"""

from __future__ import annotations

import io
import math
import os
import sys
import zipfile
from pathlib import Path

from engine.errors import SourceError

MAX_PACKAGE_MEMBERS = 10_000
"""Parts of an Office package: a 500-slide deck with its media has a few thousand."""
MAX_MEMBER_BYTES = 200_000_000
"""One part inflated: a sheet of a million rows is about this much XML."""
MAX_PACKAGE_BYTES = 400_000_000
"""All parts inflated together: what the Office readers may be given to parse."""
MAX_SHEET_CELLS = 2_000_000
"""Cells of a workbook, those its merged ranges cover included: a spreadsheet reader makes
an object of a few hundred bytes for each."""
MAX_TEXT_CHARS = 100_000_000
"""Characters of text one file may read into (a 50,000-page law is a tenth of it)."""
MAX_RENDER_PIXELS = 64_000_000
"""Pixels of one rendered page (64 MB in grey, 192 MB in colour): an A1 poster at 300 DPI;
a larger page is rendered at a lower resolution."""
PARSE_MEMORY_BYTES = 1_500_000_000
"""Address space a parsing child may add to what it maps when it starts (the library's
`FONTE_PARSE_MEMORY_MB`): a 400 MB package's parse fits, several workers of a 3 GB
container too."""
_CHUNK = 1 << 20


UNPACKS_TOO_LARGE = "refused: it unpacks to far more than its size (a zip bomb?)"
TOO_MANY_PARTS = "refused: too many parts for an Office file"
TOO_MANY_CELLS = "refused: too many cells for a workbook"
TOO_MUCH_TEXT = "refused: more text than a document holds"
REFUSALS = (UNPACKS_TOO_LARGE, TOO_MANY_PARTS, TOO_MANY_CELLS, TOO_MUCH_TEXT)
"""Every reason a file is refused for, as the library notes it: `engine.words` words each
in the report's language (`skip_reasons`)."""


class OverLimit(SourceError):
    """A file past one of the limits above: the message is one of `REFUSALS`, `detail`
    says which part and which limit (for a log)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason)
        self.detail = detail


def check_package(source: bytes | Path) -> None:
    """Raise `OverLimit` when the zip package `source` has too many members, or when a
    member declares or inflates to more than the limits; a package that is not a zip is
    left to its reader to refuse. Inflating streams through a 1 MB buffer."""
    try:
        package = zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source)
    except (zipfile.BadZipFile, OSError, ValueError):
        return
    with package:
        members = package.infolist()
        if len(members) > MAX_PACKAGE_MEMBERS:
            detail = f"{len(members):,} parts, limit {MAX_PACKAGE_MEMBERS:,}"
            raise OverLimit(TOO_MANY_PARTS, detail)
        for member in members:
            _check_size(member.filename, member.file_size, 0)
        total = 0
        for member in members:
            total = _inflated(package, member, total)


def _inflated(package: zipfile.ZipFile, member: zipfile.ZipInfo, total: int) -> int:
    """`total` plus what `member` inflates to, counted chunk by chunk; `OverLimit` at the
    first chunk past a limit."""
    size = 0
    try:
        with package.open(member) as stream:
            while chunk := stream.read(_CHUNK):
                size += len(chunk)
                _check_size(member.filename, size, total)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return total + size  # a broken part: its reader says so
    return total + size


def _check_size(name: str, size: int, before: int) -> None:
    if size > MAX_MEMBER_BYTES:
        detail = f"part {name!r} unpacks to over {_megabytes(MAX_MEMBER_BYTES)}"
        raise OverLimit(UNPACKS_TOO_LARGE, detail)
    if before + size > MAX_PACKAGE_BYTES:
        detail = f"parts unpack to over {_megabytes(MAX_PACKAGE_BYTES)}"
        raise OverLimit(UNPACKS_TOO_LARGE, detail)


def check_cells(cells: int, merged: int) -> None:
    """`OverLimit` when a workbook's `cells` and the cells its merged ranges cover
    (`merged`) are more than `MAX_SHEET_CELLS`."""
    if cells + merged > MAX_SHEET_CELLS:
        detail = f"{cells:,} cells, {merged:,} merged (limit {MAX_SHEET_CELLS:,})"
        raise OverLimit(TOO_MANY_CELLS, detail)


def check_text(chars: int) -> None:
    """`OverLimit` when a reader's text has grown past `MAX_TEXT_CHARS`."""
    if chars > MAX_TEXT_CHARS:
        raise OverLimit(TOO_MUCH_TEXT, f"text over {MAX_TEXT_CHARS:,} characters")


def render_scale(width: float, height: float, scale: float) -> float:
    """`scale` (pixels per point), lowered so that a page box of `width` × `height` points
    rendered at it holds at most `MAX_RENDER_PIXELS`."""
    area = max(width, 1.0) * max(height, 1.0)
    return min(scale, math.sqrt(MAX_RENDER_PIXELS / area))


def render_fits(width: float, height: float, scale: float) -> bool:
    """Whether a box of `width` × `height` points rendered at `scale` stays under
    `MAX_RENDER_PIXELS`."""
    return render_scale(width, height, scale) >= scale


def cap_memory(budget: int = PARSE_MEMORY_BYTES) -> None:
    """Limit this process's address space to what it maps now plus `budget` (Linux's
    RLIMIT_AS, inherited by what it starts: Tesseract), never above a limit already set.
    Nothing elsewhere: other systems keep their own limits."""
    if sys.platform != "linux":
        return
    import resource

    try:
        with open("/proc/self/statm") as statm:
            mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + budget
    for already in (soft, hard):
        if already != resource.RLIM_INFINITY:
            limit = min(limit, already)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:,.0f} MB"
