"""The BM25 index over passages, and where each passage sits (document, page, span).

Saved as a directory: bm25s's own files plus `passages.npy`, written under a temporary
name and renamed into place, so a cached index is complete or absent.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import NamedTuple

import bm25s
import numpy as np
import numpy.typing as npt

_PASSAGES_FILE = "passages.npy"

# Anserini's passage-retrieval setting: a lower k1 and b than bm25s's defaults (1.5, 0.75)
# ranked FinanceBench gold pages better and the br-laws cases no worse (evals/bench_library).
BM25_PARAMETERS = {"k1": 0.9, "b": 0.4}


class PassageRef(NamedTuple):
    """Passage `text[start:end]` of page `page` (0-based; 0 for unpaged) of `document`."""

    document: int
    page: int
    start: int
    end: int


class PassageIndex:
    """BM25 over passage tokens (bm25s), with each passage's place in its document."""

    def __init__(self, retriever: bm25s.BM25, refs: npt.NDArray[np.int64]) -> None:
        self._retriever = retriever
        self._refs = refs

    @classmethod
    def build(cls, refs: list[PassageRef], corpus_tokens: list[list[str]]) -> PassageIndex:
        if not refs or len(refs) != len(corpus_tokens):
            raise ValueError("an index needs one token list per passage, and some passages")
        retriever = bm25s.BM25(**BM25_PARAMETERS)
        retriever.index(corpus_tokens, show_progress=False)
        return cls(retriever, np.array(refs, dtype=np.int64).reshape(len(refs), 4))

    def __len__(self) -> int:
        return len(self._refs)

    def ref(self, passage: int) -> PassageRef:
        document, page, start, end = (int(value) for value in self._refs[passage])
        return PassageRef(document, page, start, end)

    def refs(self) -> list[PassageRef]:
        return [PassageRef(*row) for row in self._refs.tolist()]

    def passage_documents(self) -> npt.NDArray[np.int64]:
        """The document number of each passage."""
        return self._refs[:, 0]

    def scores(self, query_tokens: list[str]) -> npt.NDArray[np.float32]:
        """The BM25 score of every passage (each distinct token counted once)."""
        vocabulary: dict[str, int] = self._retriever.vocab_dict
        ids = [vocabulary[token] for token in dict.fromkeys(query_tokens) if token in vocabulary]
        if not ids:
            return np.zeros(len(self._refs), dtype=np.float32)
        scores: npt.NDArray[np.float32] = self._retriever.get_scores_from_ids(ids)
        return scores

    def save(self, directory: Path) -> None:
        """Write the index to `directory`, replacing whatever is there, atomically."""
        directory.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=directory.parent, prefix=f".{directory.name}."))
        try:
            self._retriever.save(staging, show_progress=False)
            np.save(staging / _PASSAGES_FILE, self._refs, allow_pickle=False)
            if directory.exists():
                shutil.rmtree(directory)
            os.replace(staging, directory)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    @classmethod
    def load(cls, directory: Path) -> PassageIndex | None:
        """The index saved in `directory`, or None when absent or damaged."""
        if not directory.is_dir():
            return None
        try:
            retriever = bm25s.BM25.load(directory, show_progress=False)
            refs = np.load(directory / _PASSAGES_FILE, allow_pickle=False)
        # A damaged cache shows up as any of OSError, ValueError, KeyError, EOFError...: all
        # mean "rebuild".
        except Exception:
            return None
        num_docs = retriever.scores.get("num_docs")
        if refs.dtype != np.int64 or refs.shape != (num_docs, 4):
            return None
        return cls(retriever, refs)
