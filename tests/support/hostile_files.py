"""Files a hostile colleague shares: small on disk, gigabytes once read, built in the test.

- `zip_bomb_docx`, `zip_bomb_pptx`: a real package whose main part is a deflate stream of
  repetitive XML inflating to `inflated` bytes (about 2 MB on disk per GB): one megabyte
  compressed once after a full flush, whose bytes then repeat (a full flush resets the
  compressor, so the same input gives the same output), and the CRC computed as zip wants.
- `grid_xlsx`: a workbook of two cells at A1 and XFD1048576 (a reader iterating the grid
  makes 17 billion cells), or with a merged range spanning them (openpyxl makes a cell
  object per merged cell while loading).
- `huge_page_pdf`: a PDF of one 200-inch page with a path drawn and no text, so OCR renders
  it: 60,000² pixels at 300 DPI.
- `compressed_zeros`: an HTTP body of zeros, gzip or brotli, kilobytes that inflate to
  `size` bytes.
- `package_with`: a package rebuilt with parts replaced or added, to tell other lies (a
  part's declared size, thousands of parts, a picture declaring 60,000² pixels).
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass

import brotli  # type: ignore[import-untyped]

from engine.documents.limits import TOO_MANY_CELLS, UNPACKS_TOO_LARGE
from tests.support.office_files import docx_bytes, pptx_bytes

GIGABYTE = 1_000_000_000
_CHUNK = 1 << 20
_FILLER = b"<!-- fonte -->"


def zip_bomb_docx(inflated: int = GIGABYTE) -> bytes:
    """A DOCX whose document.xml inflates to about `inflated` bytes of XML comments."""
    return _bombed(docx_bytes(), "word/document.xml", inflated)


def zip_bomb_pptx(inflated: int = GIGABYTE) -> bytes:
    """A PPTX whose first slide inflates to about `inflated` bytes of XML comments."""
    return _bombed(pptx_bytes(), "ppt/slides/slide1.xml", inflated)


def _bombed(package: bytes, part: str, inflated: int) -> bytes:
    with zipfile.ZipFile(io.BytesIO(package)) as source:
        original = source.read(part)
    root_end = original.index(b">", original.index(b"<", original.index(b"?>") + 2)) + 1
    prefix, suffix = original[:root_end], original[root_end:]
    chunk = _FILLER * (_CHUNK // len(_FILLER))
    repeats = max(1, inflated // len(chunk))
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    head = deflate.compress(prefix) + deflate.flush(zlib.Z_FULL_FLUSH)
    body = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)
    again = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)
    assert body == again  # the repeat is what the compressor would have written
    tail = deflate.compress(suffix) + deflate.flush(zlib.Z_FINISH)
    crc = zlib.crc32(prefix)
    for _ in range(repeats):
        crc = zlib.crc32(chunk, crc)
    crc = zlib.crc32(suffix, crc)
    size = len(prefix) + repeats * len(chunk) + len(suffix)
    raw = _Raw(head + body * repeats + tail, crc, size)
    return package_with(package, {part: raw})


def compressed_zeros(encoding: str, size: int) -> bytes:
    """`size` zero bytes compressed ("gzip" or "br"), built a megabyte at a time."""
    zeros = bytes(_CHUNK)
    if encoding == "gzip":
        deflate = zlib.compressobj(9, wbits=16 + zlib.MAX_WBITS)
        return b"".join(deflate.compress(zeros) for _ in range(size // _CHUNK)) + deflate.flush()
    compressor = brotli.Compressor(quality=5)
    parts = [compressor.process(zeros) for _ in range(size // _CHUNK)]
    return bytes(b"".join(parts) + compressor.finish())


async def streamed(body: bytes, size: int = 65_536) -> AsyncIterator[bytes]:
    """`body` in pieces, as a server streams it (an answer whose bytes httpx has not read)."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


class _Raw:
    """A part given as its deflate stream, CRC and inflated size (what a header declares)."""

    def __init__(self, deflated: bytes, crc: int, size: int) -> None:
        self.deflated, self.crc, self.size = deflated, crc, size


def understated(content: bytes, declared: int) -> _Raw:
    """`content` deflated, its header declaring `declared` bytes inflated (a lie)."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return _Raw(deflate.compress(content) + deflate.flush(), zlib.crc32(content), declared)


def package_with(package: bytes, parts: Mapping[str, bytes | _Raw]) -> bytes:
    """`package` with `parts` replaced or added, written member by member by hand (zipfile
    cannot write a deflate stream it did not make, nor a size that lies)."""
    with zipfile.ZipFile(io.BytesIO(package)) as source:
        members: dict[str, bytes | _Raw] = {name: source.read(name) for name in source.namelist()}
    members.update(parts)
    out = io.BytesIO()
    directory = []
    for name, content in members.items():
        raw = content if isinstance(content, _Raw) else understated(content, len(content))
        encoded = name.encode()
        offset = out.tell()
        sizes = (raw.crc, len(raw.deflated), raw.size, len(encoded), 0)
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, *sizes))
        out.write(encoded + raw.deflated)
        directory.append(
            struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, *sizes, 0, 0, 0, 0,
                        offset) + encoded
        )  # fmt: skip
    start = out.tell()
    for entry in directory:
        out.write(entry)
    length = out.tell() - start
    count = len(directory)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, length, start, 0))
    return out.getvalue()


def grid_xlsx(*, merged: bool) -> bytes:
    """A workbook of two cells, A1 and XFD1048576 (with `merged`, one range spanning both)."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet["A1"] = "corner"
    sheet["XFD1048576"] = "far corner"
    out = io.BytesIO()
    book.save(out)
    if not merged:
        return out.getvalue()
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as source:
        xml = source.read("xl/worksheets/sheet1.xml")
    spanned = xml.replace(
        b"</sheetData>",
        b'</sheetData><mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>',
    )
    return package_with(out.getvalue(), {"xl/worksheets/sheet1.xml": spanned})


def huge_page_pdf(inches: int = 200) -> bytes:
    """One page `inches` on each side, a rectangle drawn on it and no text: a page OCR
    wants to read (a scan is an image; this is the smallest thing that is not text)."""
    side = inches * 72
    content = b"0 0 0 RG 10 w 100 100 1000 1000 re S"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R >>" % (side, side),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    """A PNG header that declares `width` × `height` pixels, with one row of data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 1024))
        + chunk(b"IEND", b"")
    )


@dataclass(frozen=True)
class Hostile:
    """One attack: the file's name, how it is built, what reading it says, and whether
    that is a refusal (a file read as it is, the grid's two cells, is not refused)."""

    name: str
    build: Callable[[], bytes]
    said: str
    refused: bool = True


HOSTILE_FILES = {
    "zip bomb DOCX": Hostile("bomb.docx", zip_bomb_docx, UNPACKS_TOO_LARGE),
    "zip bomb PPTX": Hostile("bomb.pptx", zip_bomb_pptx, UNPACKS_TOO_LARGE),
    "two cells span the grid": Hostile(
        "grid.xlsx", lambda: grid_xlsx(merged=False), "read 1 pages", refused=False
    ),
    "a merge spans the grid": Hostile(
        "merged.xlsx", lambda: grid_xlsx(merged=True), TOO_MANY_CELLS
    ),
    "a 200-inch page": Hostile("poster.pdf", huge_page_pdf, "no text in file (scanned PDF?)"),
}
"""The hostile files a library may hold, by the attack each makes."""
