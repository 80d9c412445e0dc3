from pathlib import Path

from engine.sources.library.index.vocabulary import Vocabulary


def test_ids_are_handed_out_in_order_and_never_change() -> None:
    vocabulary = Vocabulary()
    assert [vocabulary.id_of(t) for t in ["solar", "wind", "solar"]] == [0, 1, 0]
    assert len(vocabulary) == 2
    assert vocabulary.ids == {"solar": 0, "wind": 1}


def test_saved_vocabulary_loads_its_first_tokens(tmp_path: Path) -> None:
    vocabulary = Vocabulary(["geracao", "75", "3.5", "kw"])
    vocabulary.save(tmp_path / "v.txt")
    loaded = Vocabulary.load(tmp_path / "v.txt", 3)
    assert loaded is not None
    assert loaded.tokens == ["geracao", "75", "3.5"]
    assert Vocabulary.load(tmp_path / "v.txt", 5) is None
    assert Vocabulary.load(tmp_path / "absent.txt", 1) is None
    empty = Vocabulary.load(tmp_path / "absent.txt", 0)
    assert empty is not None
    assert len(empty) == 0


def test_ids_of_many_tokens_at_once_adds_the_new_ones_in_order() -> None:
    vocabulary = Vocabulary(["solar", "wind"])
    assert vocabulary.ids_of(("wind", "tide", "solar", "wave", "tide")).tolist() == [1, 2, 0, 3, 2]
    assert vocabulary.tokens == ["solar", "wind", "tide", "wave"]
    assert vocabulary.ids_of(("solar",)).tolist() == [0]
