"""Reading a response body under a size cap, content encodings included.

The cap counts decoded bytes, and decoders never produce more than one small piece per step,
so a compressed bomb (a few kB that inflate to gigabytes) is cut as early as a plain body:
memory stays near the cap whatever the sender does.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterable, Iterator
from typing import Protocol

import brotli  # type: ignore[import-untyped]

from engine.sources.protocols import FetchError

ACCEPT_ENCODING = "gzip, deflate, br"
_PIECE = 64 * 1024


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:g} MB"


class ContentDecoder(Protocol):
    def decode(self, data: bytes) -> Iterator[bytes]: ...

    def flush(self) -> Iterator[bytes]: ...


class IdentityDecoder:
    def decode(self, data: bytes) -> Iterator[bytes]:
        yield data

    def flush(self) -> Iterator[bytes]:
        yield from ()


class ZlibDecoder:
    """gzip, or deflate (zlib-wrapped, or raw as some servers send it)."""

    def __init__(self, encoding: str) -> None:
        self._encoding = encoding
        self._gzip = encoding in {"gzip", "x-gzip"}
        self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS if self._gzip else zlib.MAX_WBITS)
        self._started = False

    def decode(self, data: bytes) -> Iterator[bytes]:
        try:
            piece = self._inflate.decompress(data, _PIECE)
        except zlib.error as error:
            if self._gzip or self._started:
                raise FetchError(f"bad {self._encoding} body ({error})") from None
            self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
            piece = self._safely(data)
        self._started = True
        yield piece
        # A full piece means zlib may hold more output, even when all input was consumed.
        while len(piece) == _PIECE:
            piece = self._safely(self._inflate.unconsumed_tail)
            yield piece

    def flush(self) -> Iterator[bytes]:
        yield self._inflate.flush()

    def _safely(self, data: bytes) -> bytes:
        try:
            return self._inflate.decompress(data, _PIECE)
        except zlib.error as error:
            raise FetchError(f"bad {self._encoding} body ({error})") from None


class BrotliDecoder:
    def __init__(self) -> None:
        self._brotli = brotli.Decompressor()

    def decode(self, data: bytes) -> Iterator[bytes]:
        yield from self._drain(data)

    def flush(self) -> Iterator[bytes]:
        yield from self._drain(b"")

    def _drain(self, data: bytes) -> Iterator[bytes]:
        # Output held back by the limit comes out of further calls with empty input; an empty
        # answer means brotli needs more input.
        try:
            piece = self._brotli.process(data, output_buffer_limit=_PIECE)
            yield piece
            while piece and not self._brotli.is_finished():
                piece = self._brotli.process(b"", output_buffer_limit=_PIECE)
                yield piece
        except brotli.error as error:
            raise FetchError(f"bad br body ({error})") from None


def content_decoder(content_encoding: str | None) -> ContentDecoder:
    """The decoder for a Content-Encoding header; FetchError for one we cannot decode."""
    encoding = (content_encoding or "identity").strip().lower()
    if encoding in {"", "identity"}:
        return IdentityDecoder()
    if encoding in {"gzip", "x-gzip", "deflate"}:
        return ZlibDecoder(encoding)
    if encoding == "br":
        return BrotliDecoder()
    raise FetchError(f"unsupported content-encoding {encoding!r}")


class SizeCap:
    """Counts bytes against a limit; `add` refuses the piece that would go over it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0

    def room(self) -> int:
        return self.limit - self.total

    def add(self, size: int) -> None:
        if size > self.room():
            raise FetchError(f"body over {megabytes(self.limit)}")
        self.total += size


async def read_capped(
    chunks: AsyncIterable[bytes], decoder: ContentDecoder, limit: int, *, cut: bool = False
) -> bytes:
    """The decoded body. Over `limit` bytes: FetchError, or with `cut` the first `limit` bytes."""
    cap = SizeCap(limit)
    parts: list[bytes] = []

    def take(pieces: Iterator[bytes]) -> bool:
        for piece in pieces:
            if cut and len(piece) > cap.room():
                parts.append(piece[: cap.room()])
                return False
            cap.add(len(piece))
            parts.append(piece)
        return True

    async for chunk in chunks:
        if not take(decoder.decode(chunk)):
            return b"".join(parts)
    take(decoder.flush())
    return b"".join(parts)
