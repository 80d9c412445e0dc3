from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import AsyncIterator, Iterable

import brotli  # type: ignore[import-untyped]
import pytest

from engine.sources.protocols import FetchError
from engine.sources.web.body import SizeCap, content_decoder, megabytes, read_capped
from tests.support.hostile_files import compressed_zeros

TEXT = ("Capacidade instalada de geração distribuída: 26 GW em 2023. " * 2000).encode()


async def chunks(data: bytes | Iterable[bytes], size: int = 4096) -> AsyncIterator[bytes]:
    if isinstance(data, bytes):
        for start in range(0, len(data), size):
            yield data[start : start + size]
    else:
        for chunk in data:
            yield chunk


def _raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


@pytest.mark.parametrize(
    ("encoding", "encode"),
    [
        (None, lambda data: data),
        ("identity", lambda data: data),
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", _raw_deflate),
        ("br", brotli.compress),
        ("BR", brotli.compress),
    ],
)
async def test_each_encoding_decodes_to_the_original(encoding: str | None, encode: object) -> None:
    encoded = encode(TEXT)  # type: ignore[operator]
    body = await read_capped(chunks(encoded), content_decoder(encoding), len(TEXT))
    assert body == TEXT


async def test_the_cap_counts_decoded_bytes() -> None:
    with pytest.raises(FetchError, match=r"^body over 0\.1 MB$"):
        await read_capped(chunks(gzip.compress(TEXT)), content_decoder("gzip"), 100_000)


async def test_exactly_the_cap_is_accepted() -> None:
    assert await read_capped(chunks(TEXT), content_decoder(None), len(TEXT)) == TEXT
    with pytest.raises(FetchError):
        await read_capped(chunks(TEXT), content_decoder(None), len(TEXT) - 1)


async def test_cut_keeps_the_first_bytes_instead_of_failing() -> None:
    assert await read_capped(chunks(TEXT), content_decoder(None), 1000, cut=True) == TEXT[:1000]
    body = await read_capped(chunks(brotli.compress(TEXT)), content_decoder("br"), 999, cut=True)
    assert body == TEXT[:999]


@pytest.mark.parametrize("encoding", ["gzip", "br"])
async def test_a_compression_bomb_is_cut_without_inflating_it(encoding: str) -> None:
    compressed = compressed_zeros(encoding, 50_000_000)
    assert len(compressed) < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(FetchError, match="body over 1 MB"):
            await read_capped(chunks(compressed, size=65536), content_decoder(encoding), 1_000_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


async def test_corrupt_bodies_are_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="bad gzip body"):
        await read_capped(chunks(b"not gzip at all"), content_decoder("gzip"), 1000)
    with pytest.raises(FetchError, match="bad br body"):
        await read_capped(chunks(b"\xff" * 64), content_decoder("br"), 1000)


def test_unknown_encodings_are_refused() -> None:
    with pytest.raises(FetchError, match="unsupported content-encoding 'zstd'"):
        content_decoder("zstd")
    with pytest.raises(FetchError, match="unsupported content-encoding 'gzip, br'"):
        content_decoder("gzip, br")


def test_size_cap_accounting() -> None:
    cap = SizeCap(10)
    cap.add(4)
    cap.add(6)
    assert (cap.total, cap.room()) == (10, 0)
    with pytest.raises(FetchError):
        cap.add(1)
    assert cap.total == 10
    assert megabytes(20_000_000) == "20 MB"
    assert megabytes(1_500_000) == "1.5 MB"
