"""Which character encoding a body is in: byte order mark, then the Content-Type charset, then
a `<meta>` charset (HTML), then a guess (strict UTF-8, else charset-normalizer)."""

from __future__ import annotations

import codecs
import re

import charset_normalizer

from engine.text.confusables import without_invisible_controls

_META_CHARSET = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([a-z0-9_.:-]+)""", re.IGNORECASE | re.DOTALL
)
_META_WINDOW = 4096
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Browsers read these labels as windows-1252 (WHATWG Encoding), and so do servers' authors.
_READ_AS_CP1252 = frozenset({"latin-1", "iso8859-1", "ascii"})
_LEGACY_DEFAULT = "cp1252"
_NOISE_MARGIN = 0.1


def codec_for(label: str | None) -> str | None:
    """Python's codec for a charset label ("ISO-8859-1" -> "cp1252"), None if unknown."""
    if not label:
        return None
    try:
        name = codecs.lookup(label.strip().strip("\"'")).name
    except LookupError:
        return None
    return _LEGACY_DEFAULT if name in _READ_AS_CP1252 else name


def bom_codec(data: bytes) -> str | None:
    return next((codec for bom, codec in _BOMS if data.startswith(bom)), None)


def meta_charset(data: bytes) -> str | None:
    """The codec a `<meta charset>` or `<meta http-equiv content="…; charset=…">` names."""
    match = _META_CHARSET.search(data[:_META_WINDOW])
    codec = codec_for(match.group(1).decode("ascii")) if match else None
    # A document that can carry this tag in ASCII is not UTF-16, whatever the tag says.
    return "utf-8" if codec is not None and codec.startswith("utf-16") else codec


def guess_codec(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8; else charset-normalizer's guess.

    Windows-1252 wins when it decodes the bytes about as cleanly as the best codec, as in
    browsers for undeclared Western pages: charset-normalizer's own ranking reads Portuguese
    "ação" as cp1250 "açăo".
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"
    results = list(charset_normalizer.from_bytes(data))
    if not results:
        return _LEGACY_DEFAULT
    least_noise = min(r.chaos for r in results)
    calm = [r for r in results if r.chaos <= least_noise + _NOISE_MARGIN]
    if any(_LEGACY_DEFAULT in r.could_be_from_charset for r in calm):
        return _LEGACY_DEFAULT
    best = max((r for r in results if r.chaos == least_noise), key=lambda r: r.coherence)
    return codec_for(best.encoding) or _LEGACY_DEFAULT


def choose_codec(data: bytes, header_charset: str | None, *, html: bool) -> str:
    return (
        bom_codec(data)
        or codec_for(header_charset)
        or (meta_charset(data) if html else None)
        or guess_codec(data)
    )


def decode_body(data: bytes, header_charset: str | None, *, html: bool) -> str:
    """The body as text, line ends normalised to `\\n`; undecodable bytes become U+FFFD;
    zero-width and bidi control characters removed, as a reader sees the page."""
    text = data.decode(choose_codec(data, header_charset, html=html), errors="replace")
    return without_invisible_controls(text.replace("\r\n", "\n").replace("\r", "\n"))
