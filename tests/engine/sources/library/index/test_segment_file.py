from pathlib import Path

import numpy as np
import pytest

from engine.sources.library.index.segment_file import (
    MAGIC,
    ArrayFile,
    DamagedFile,
    encode_arrays,
    write_arrays,
)


def test_arrays_and_metadata_round_trip_through_a_memory_map(tmp_path: Path) -> None:
    arrays = {
        "counts": np.array([1, 2, 65535], dtype=np.uint16),
        "grid": np.arange(12, dtype=np.int32).reshape(4, 3),
        "empty": np.zeros((0, 4), dtype=np.int64),
        "offsets": np.array([0, 5, 9], dtype=np.int64),
    }
    write_arrays(tmp_path / "a.seg", arrays, {"note": "x"})
    loaded = ArrayFile(tmp_path / "a.seg")
    assert loaded.metadata == {"note": "x"}
    for name, array in arrays.items():
        assert loaded[name].dtype == array.dtype
        assert np.array_equal(loaded[name], array)
    assert not loaded["grid"].flags.writeable
    assert [p.name for p in tmp_path.iterdir()] == ["a.seg"]


@pytest.mark.parametrize("damage", ["empty", "magic", "truncated", "header"])
def test_a_damaged_file_is_refused(tmp_path: Path, damage: str) -> None:
    data = encode_arrays({"a": np.arange(100, dtype=np.int64)}, {})
    if damage == "empty":
        data = b""
    elif damage == "magic":
        data = b"X" + data[1:]
    elif damage == "truncated":
        data = data[:-80]
    else:
        data = MAGIC + data[len(MAGIC) : len(MAGIC) + 8] + b"{not json" + data[len(MAGIC) + 17 :]
    path = tmp_path / "a.seg"
    path.write_bytes(data)
    with pytest.raises(DamagedFile):
        ArrayFile(path)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DamagedFile):
        ArrayFile(tmp_path / "absent.seg")
