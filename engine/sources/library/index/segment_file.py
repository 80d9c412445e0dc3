"""One file of named numpy arrays, written once, then read by memory map.

Layout: a magic line, the length of a JSON header (8 bytes, little-endian), the header
(`{name: [dtype, shape, offset]}` plus free metadata), then each array's bytes at an offset
aligned to 64 bytes. Reading maps the file and views the arrays in place, so opening costs
nothing and a query reads only the pages it touches. Written with `write_atomically`: the
file is complete or absent.
"""

from __future__ import annotations

import json
import mmap
import struct
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.disk import write_atomically
from engine.errors import SourceError

MAGIC = b"FONTE-ARRAYS-1\n"
_ALIGN = 64
_LENGTH = struct.Struct("<Q")


class DamagedFile(SourceError):
    """The file is not an array file this module wrote (truncated, overwritten, other)."""


def encode_arrays(arrays: dict[str, npt.NDArray[Any]], metadata: dict[str, Any]) -> bytes:
    """The bytes of an array file holding `arrays` (C order) and `metadata` (JSON values)."""
    layout: dict[str, list[Any]] = {}
    offset = 0
    blobs: list[tuple[int, bytes]] = []
    for name, array in arrays.items():
        data = np.ascontiguousarray(array).tobytes()
        layout[name] = [array.dtype.str, list(array.shape), offset]
        blobs.append((offset, data))
        offset += -(-len(data) // _ALIGN) * _ALIGN
    header = json.dumps({"arrays": layout, "metadata": metadata}).encode("utf-8")
    start = -(-(len(MAGIC) + _LENGTH.size + len(header)) // _ALIGN) * _ALIGN
    content = bytearray(start + offset)
    content[: len(MAGIC)] = MAGIC
    content[len(MAGIC) : len(MAGIC) + _LENGTH.size] = _LENGTH.pack(len(header))
    content[len(MAGIC) + _LENGTH.size : len(MAGIC) + _LENGTH.size + len(header)] = header
    for position, data in blobs:
        content[start + position : start + position + len(data)] = data
    return bytes(content)


def write_arrays(path: Path, arrays: dict[str, npt.NDArray[Any]], metadata: dict[str, Any]) -> None:
    write_atomically(path, encode_arrays(arrays, metadata))


class ArrayFile:
    """The arrays of one file, viewed in place (read-only) through a memory map."""

    def __init__(self, path: Path) -> None:
        try:
            with path.open("rb") as handle:
                self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as error:  # ValueError: an empty file cannot be mapped
            raise DamagedFile(f"{path.name}: {error}") from error
        self.arrays, self.metadata = _parse(self._map, path.name)

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        return self.arrays[name]


def _parse(buffer: mmap.mmap, name: str) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
    header_at = len(MAGIC) + _LENGTH.size
    if buffer[: len(MAGIC)] != MAGIC or len(buffer) < header_at:
        raise DamagedFile(f"{name}: not an array file")
    (length,) = _LENGTH.unpack(buffer[len(MAGIC) : header_at])
    try:
        header = json.loads(buffer[header_at : header_at + length])
        start = -(-(header_at + length) // _ALIGN) * _ALIGN
        arrays: dict[str, npt.NDArray[Any]] = {}
        for key, (dtype, shape, offset) in header["arrays"].items():
            kind = np.dtype(dtype)
            count = int(np.prod(shape, dtype=np.int64))
            if start + offset + count * kind.itemsize > len(buffer):
                raise DamagedFile(f"{name}: truncated")
            if count == 0:
                arrays[key] = np.empty(shape, dtype=kind)
                continue
            view = np.frombuffer(buffer, dtype=kind, count=count, offset=start + offset)
            arrays[key] = view.reshape(shape)
        metadata = header["metadata"]
    except (ValueError, KeyError, TypeError) as error:
        raise DamagedFile(f"{name}: bad header ({error})") from error
    if not isinstance(metadata, dict):
        raise DamagedFile(f"{name}: bad metadata")
    return arrays, metadata
