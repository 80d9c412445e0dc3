"""One-page PDFs in raw PDF syntax whose text layer says what the page does not show: for the
seen check's attack tests (tests/engine/verify/seen/).

Each page shows `shown` as plain black Helvetica on white, and draws `hidden` below it in one
of the ways `ATTACKS` names: the text is in the text layer (pdfium extracts it, or would
without the parser's own filters) while a reader's screen shows nothing of it, or shows
other digits. `BENIGN` names ways that look odd in the file yet show the text to a reader.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFont

PAGE_WIDTH, PAGE_HEIGHT = 612, 792
SHOWN_Y, HIDDEN_Y = 700, 640
FONT_SIZE = 14
FONT_PATH = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

Resources = dict[str, str]
Build = Callable[[str], tuple[str, Resources, list[str | bytes]]]
"""`hidden` -> (content drawing it, extra resources by category, extra objects (annotations))."""


def _text(text: str, y: int = HIDDEN_Y, before: str = "", size: int = FONT_SIZE) -> str:
    return f"BT {before} /F1 {size} Tf 72 {y} Td ({_escaped(text)}) Tj ET"


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _alpha_zero(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q /GS0 gs {_text(hidden)} Q", {"ExtGState": "/GS0 << /ca 0 /CA 0 >>"}, []


def _alpha_faint(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q /GS0 gs {_text(hidden)} Q", {"ExtGState": "/GS0 << /ca 0.004 >>"}, []


def _soft_mask(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    # A luminosity mask drawn all black: nothing under it shows.
    group = "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency /CS /DeviceGray >> /Length 30 >>\nstream\n0 g 0 0 612 792 re f\nendstream"
    return (
        f"q /GS0 gs {_text(hidden)} Q",
        {"ExtGState": "/GS0 << /SMask << /S /Luminosity /G 7 0 R >> >>"},
        [group],
    )


def _clipped(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q 72 100 200 20 re W n {_text(hidden)} Q", {}, []


def _clipped_empty(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q 0 0 0 0 re W n {_text(hidden)} Q", {}, []


def _clip_mode(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q {_text(hidden, before='7 Tr')} n Q", {}, []


def _layer_off(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return (
        f"/OC /L0 BDC {_text(hidden)} EMC",
        {"Properties": "/L0 7 0 R"},
        ["<< /Type /OCG /Name (Draft) >>"],
    )


def _white_annotation(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    appearance = "<< /Type /XObject /Subtype /Form /BBox [0 0 468 24] /Length 26 >>\nstream\n1 g 0 0 468 24 re f\nendstream"
    annotation = "<< /Type /Annot /Subtype /Square /Rect [70 634 538 658] /F 4 /C [1 1 1] /IC [1 1 1] /AP << /N 8 0 R >> >>"
    return _text(hidden), {}, [annotation, appearance]


def _white_shape(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"{_text(hidden)} q 1 1 1 rg 70 634 468 24 re f Q", {}, []


def _shading(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    shading = "/Sh0 << /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 0 612 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [1] /C1 [1] /N 1 >> >>"
    return f"{_text(hidden)} q 70 634 468 24 re W n /Sh0 sh Q", {"Shading": shading}, []


def _image_over(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    white = (
        "<< /Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 16 >>\nstream\n"
        + "\xff" * 16
        + "\nendstream"
    )
    return f"{_text(hidden)} q 468 0 0 24 70 634 cm /Im0 Do Q", {"XObject": "/Im0 7 0 R"}, [white]


def _squeezed(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return _text(hidden, before="1 Tz"), {}, []


def _white_on_white(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q 1 1 1 rg {_text(hidden)} Q", {}, []


def _near_white(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q 0.995 g {_text(hidden)} Q", {}, []


def _black_on_black(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q 0 g 70 634 468 24 re f {_text(hidden)} Q", {}, []


ATTACKS: dict[str, Build] = {
    "alpha-zero": _alpha_zero,
    "alpha-faint": _alpha_faint,
    "soft-mask": _soft_mask,
    "clip-path": _clipped,
    "clip-empty": _clipped_empty,
    "clip-text-mode": _clip_mode,
    "layer-off": _layer_off,
    "white-annotation": _white_annotation,
    "white-shape": _white_shape,
    "white-shading": _shading,
    "white-image": _image_over,
    "scaling-1%": _squeezed,
    "white-on-white": _white_on_white,
    "near-white": _near_white,
    "black-on-black": _black_on_black,
}


def _grey(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q 0.45 g {_text(hidden)} Q", {}, []


def _white_on_dark(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q 0.12 0.3 0.47 rg 70 634 468 24 re f 1 g {_text(hidden)} Q", {}, []


def _small(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return _text(hidden, size=8), {}, []


def _narrowed(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return _text(hidden, before="85 Tz"), {}, []


def _half_alpha(hidden: str) -> tuple[str, Resources, list[str | bytes]]:
    return f"q /GS0 gs {_text(hidden)} Q", {"ExtGState": "/GS0 << /ca 0.7 >>"}, []


BENIGN: dict[str, Build] = {
    "grey-text": _grey,
    "white-on-dark-cell": _white_on_dark,
    "small-8pt": _small,
    "condensed-85%": _narrowed,
    "alpha-0.7": _half_alpha,
}
"""Drawn oddly, shown to a reader all the same."""


def seen_pdf(shown: str, hidden: str | None, how: str | None = None) -> bytes:
    """A page showing `shown`, and drawing `hidden` as `ATTACKS[how]` or `BENIGN[how]` (or plainly, for
    `how` None) below it."""
    content = [_text(shown, SHOWN_Y)]
    resources: Resources = {}
    extra: list[str | bytes] = []
    if hidden is not None:
        build = (ATTACKS | BENIGN)[how] if how else None
        drawn, resources, extra = build(hidden) if build else (_text(hidden), {}, [])
        content.append(drawn)
    return _pdf(" ".join(content), resources, extra, off_layer=how == "layer-off")


def swapped_digits_pdf(glyphs: str, says: str, how: str) -> bytes:
    """A page whose glyphs draw `glyphs` and whose text layer says `says` (the same length,
    other digits): by a ToUnicode map ("tounicode") or by /ActualText ("actualtext")."""
    if how == "actualtext":
        content = f"/Span << /ActualText ({_escaped(says)}) >> BDC {_text(glyphs, SHOWN_Y)} EMC"
        return _pdf(content, {}, [])
    pairs = {g: s for g, s in zip(glyphs, says, strict=True) if g != s}
    lines = "".join(f"<{ord(g):02X}> <{ord(s):04X}>\n" for g, s in sorted(pairs.items()))
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CMapName /Swap def 1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"{len(pairs)} beginbfchar\n{lines}endbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    to_unicode = f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream"
    return _pdf(_text(glyphs, SHOWN_Y), {}, [to_unicode], to_unicode=True)


def _pdf(
    content: str,
    resources: Resources,
    extra: list[str | bytes],
    *,
    off_layer: bool = False,
    to_unicode: bool = False,
) -> bytes:
    font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding"
    font += " /ToUnicode 7 0 R >>" if to_unicode else " >>"
    categories = {"Font": "/F1 5 0 R", **resources}
    resource_text = " ".join(f"/{name} << {value} >>" for name, value in categories.items())
    annotations = [i for i, o in enumerate(extra) if isinstance(o, str) and "/Type /Annot" in o]
    annots = " ".join(f"{7 + i} 0 R" for i in annotations)
    page = (
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] "
        f"/Resources << {resource_text} >> /Contents 4 0 R"
        + (f" /Annots [{annots}]" if annots else "")
        + " >>"
    )
    catalog = "<< /Type /Catalog /Pages 2 0 R"
    if off_layer:
        catalog += " /OCProperties << /OCGs [7 0 R] /D << /OFF [7 0 R] >> >>"
    catalog += " >>"
    body = content.encode("latin-1")
    objects: list[str | bytes] = [
        catalog,
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page,
        f"<< /Length {len(body)} >>\nstream\n{content}\nendstream",
        font,
        "<< /Producer (tests) >>",
        *extra,
    ]
    return _serialised(objects)


def _serialised(objects: list[str | bytes]) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, text in enumerate(objects, start=1):
        offsets.append(out.tell())
        raw = text if isinstance(text, bytes) else text.encode("latin-1")
        out.write(f"{number} 0 obj\n".encode() + raw + b"\nendobj\n")
    start = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\n"
        f"startxref\n{start}\n%%EOF\n".encode()
    )
    return out.getvalue()


def scan_with_layer(image_says: str, layer_says: str, dpi: int = 200) -> bytes:
    """A scanned page: an image of `image_says` (a reader's view), with an invisible text
    layer (render mode 3, as OCR tools write one) that says `layer_says` where it sits."""
    scale = dpi / 72
    width, height = int(PAGE_WIDTH * scale), int(PAGE_HEIGHT * scale)
    image = Image.new("L", (width, height), 255)
    font = ImageFont.truetype(FONT_PATH, int(FONT_SIZE * scale))
    ImageDraw.Draw(image).text(
        (72 * scale, (PAGE_HEIGHT - SHOWN_Y - FONT_SIZE) * scale), image_says, font=font, fill=0
    )
    pixels = zlib.compress(image.tobytes())
    picture = (
        f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} "
        f"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>"
    )
    content = f"q {PAGE_WIDTH} 0 0 {PAGE_HEIGHT} 0 0 cm /Im0 Do Q {_text(layer_says, SHOWN_Y, before='3 Tr')}"
    stream = picture.encode() + b"\nstream\n" + pixels + b"\nendstream"
    return _pdf(content, {"XObject": "/Im0 7 0 R"}, [stream])


Run = tuple[str, float, float]
"""Text, its size in points, and how far it is raised (PDF's text rise, `Ts`)."""


def raised_pdf(*lines: tuple[Run, ...]) -> bytes:
    """A page whose lines are drawn run by run, each run at its own size and rise, one line
    under the other from the top: a footnote marker is a run set small and raised
    ("disposals", then "(2)" at 9 points raised 5)."""
    drawn = []
    for number, runs in enumerate(lines):
        shown = " ".join(
            f"/F1 {size:g} Tf {rise:g} Ts ({_escaped(text)}) Tj" for text, size, rise in runs
        )
        drawn.append(f"BT 72 {SHOWN_Y - 40 * number} Td {shown} ET")
    return _pdf(" ".join(drawn), {}, [])
