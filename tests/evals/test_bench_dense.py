"""The dense experiment's rankings, with a fake encoder: cosine order over every passage,
or over the keyword candidates only."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evals.bench_dense import DenseIndex

AXES = {"capex": 0, "revenue": 1, "lei": 2}


class _Encoder:
    name = "fake"
    size_mb = 0.0

    def passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return np.stack([self.query(text) for text in texts])

    def query(self, text: str) -> npt.NDArray[np.float32]:
        vector = np.zeros(len(AXES), dtype=np.float32)
        for word, axis in AXES.items():
            vector[axis] = text.count(word)
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector


def test_dense_search_ranks_every_passage_by_cosine() -> None:
    hits = [("u#page=1", "revenue"), ("u#page=2", "capex capex revenue"), ("u#page=3", "capex")]
    encoder = _Encoder()
    index = DenseIndex(hits, encoder.passages([text for _, text in hits]), 0.0, 3)

    assert index.search(encoder, "capex", 2) == [hits[2], hits[1]]
    assert index.search(encoder, "capex", 10) == [hits[2], hits[1], hits[0]]
