"""The eval corpus beside the repository (`../shared/corpus`), for the tests that read it.

A clone that stands on its own has no `../shared`: there each of those tests skips, and
pytest's summary (`-ra` in pyproject's addopts) gives its one line saying why."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


def corpus_folder(name: str = "", needs: str = "") -> Path:
    """`../shared/corpus` (or its `name` subfolder), once `needs` (a file in it, when given)
    is there; otherwise the calling test is skipped with the path it looked for."""
    folder = SHARED_CORPUS / name if name else SHARED_CORPUS
    wanted = folder / needs if needs else folder
    if not wanted.exists():
        pytest.skip(f"eval corpus not found at {wanted}: these tests read ../shared/corpus")
    return folder
