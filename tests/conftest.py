"""Every test starts from a clean environment: a developer's real keys or provider settings
must never send a test's traffic beyond loopback, nor change which model or source runs."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest

_ISOLATED_PREFIXES = ("FONTE_", "ANTHROPIC_", "SLACK_", "SEARXNG_", "BRAVE_", "TAVILY_")
_ISOLATED_NAMES = {"REDIS_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"}


@pytest.fixture(autouse=True)
def isolated_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    for name in list(os.environ):
        if name.startswith(_ISOLATED_PREFIXES) or name.upper() in _ISOLATED_NAMES:
            monkeypatch.delenv(name)
    monkeypatch.setenv("FONTE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "fonte-cache"))


@pytest.fixture(autouse=True)
def restored_logging() -> Iterator[None]:
    """`fonte bot` and `fonte worker` configure the root logger on the stderr of their moment,
    which is a test's captured stream; the next tests must not log into it once closed."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
