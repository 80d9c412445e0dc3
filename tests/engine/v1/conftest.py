"""A small English corpus about solar energy, and sources that record how they are called."""

from __future__ import annotations

import pytest

from tests.support.claude_fixtures import (  # noqa: F401 (fixtures of the Claude roles' tests)
    anthropic,
    config,
    make_model,
    model,
    sleeps,
)
from tests.support.pages_source import PagesSource
from tests.support.solar_pages import solar_pages


@pytest.fixture
def solar() -> PagesSource:
    return solar_pages()
