from pathlib import Path

import numpy as np
import pytest

from engine.sources.library.passage_index import PassageIndex, PassageRef

REFS = [PassageRef(0, 0, 0, 10), PassageRef(0, 1, 5, 20), PassageRef(1, 0, 0, 7)]
TOKENS = [["solar", "panel", "roof"], ["wind", "turbine"], ["solar", "battery", "battery"]]


def test_scores_rank_matching_passages() -> None:
    index = PassageIndex.build(REFS, TOKENS)
    scores = index.scores(["battery"])
    assert scores[2] > 0
    assert scores[0] == scores[1] == 0
    assert index.scores(["unknown"]).tolist() == [0.0, 0.0, 0.0]


def test_refs_and_documents_are_kept() -> None:
    index = PassageIndex.build(REFS, TOKENS)
    assert len(index) == 3
    assert index.ref(1) == PassageRef(0, 1, 5, 20)
    assert index.refs() == REFS
    assert index.passage_documents().tolist() == [0, 0, 1]


def test_build_needs_one_token_list_per_passage() -> None:
    with pytest.raises(ValueError, match="one token list per passage"):
        PassageIndex.build(REFS, TOKENS[:2])
    with pytest.raises(ValueError, match="some passages"):
        PassageIndex.build([], [])


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    index = PassageIndex.build(REFS, TOKENS)
    index.save(tmp_path / "key")
    loaded = PassageIndex.load(tmp_path / "key")
    assert loaded is not None
    assert loaded.refs() == REFS
    assert np.array_equal(loaded.scores(["solar", "wind"]), index.scores(["solar", "wind"]))
    assert [p.name for p in tmp_path.iterdir()] == ["key"]


def test_save_replaces_an_existing_index(tmp_path: Path) -> None:
    PassageIndex.build(REFS[:1], TOKENS[:1]).save(tmp_path / "key")
    PassageIndex.build(REFS, TOKENS).save(tmp_path / "key")
    loaded = PassageIndex.load(tmp_path / "key")
    assert loaded is not None
    assert len(loaded) == 3


def test_missing_index_loads_as_none(tmp_path: Path) -> None:
    assert PassageIndex.load(tmp_path / "absent") is None


@pytest.mark.parametrize(
    "damage", ["delete_vocab", "truncate_scores", "wrong_refs", "garbage_params"]
)
def test_damaged_index_loads_as_none(tmp_path: Path, damage: str) -> None:
    directory = tmp_path / "key"
    PassageIndex.build(REFS, TOKENS).save(directory)
    if damage == "delete_vocab":
        (directory / "vocab.index.json").unlink()
    elif damage == "truncate_scores":
        (directory / "data.csc.index.npy").write_bytes(b"\x93NUMPY")
    elif damage == "wrong_refs":
        np.save(directory / "passages.npy", np.zeros((2, 4), dtype=np.int64))
    else:
        (directory / "params.index.json").write_text("{")
    assert PassageIndex.load(directory) is None
