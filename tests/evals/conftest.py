"""Fixtures for the eval tests: a small suite folder in the seed's case format."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.corpus import corpus_folder
from tests.support.eval_suites import write_suite


@pytest.fixture
def suite_folder(tmp_path: Path) -> Path:
    return write_suite(tmp_path / "suite")


@pytest.fixture
def corpus() -> Path:
    return corpus_folder()


@pytest.fixture
def hotpotqa_corpus() -> Path:
    return corpus_folder("hotpotqa", needs="corpus.json")
