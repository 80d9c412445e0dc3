"""Every test starts from a clean environment: a developer's real keys or provider settings
must never send a test's traffic beyond loopback, nor change which model or source runs."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest

from tests.support.system_packages import failed_for_want_of_pango, pango_problem
from tests.support.task_dump import tasks_dumped_if_stuck, uncaptured_stderr

pytest_plugins = ("tests.support.postgres",)  # `postgres_url`: a schema of a test's own

_ISOLATED_PREFIXES = ("FONTE_", "ANTHROPIC_", "SLACK_", "SEARXNG_", "BRAVE_", "TAVILY_")
_ISOLATED_NAMES = {"REDIS_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"}


@pytest.fixture(autouse=True)
def isolated_environment(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> None:
    for name in list(os.environ):
        if name.startswith(_ISOLATED_PREFIXES) or name.upper() in _ISOLATED_NAMES:
            monkeypatch.delenv(name)
    monkeypatch.setenv("FONTE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "fonte-cache"))
    if request.node.get_closest_marker("seen") is None:
        # Rendering every cited page (OCR, a browser, LibreOffice) costs seconds per report:
        # only the tests marked `seen` (its own, through fonte ask and fonte verify) pay it.
        monkeypatch.setenv("FONTE_SEEN_CHECK", "off")


@pytest.fixture(autouse=True)
def restored_logging() -> Iterator[None]:
    """`fonte bot` and `fonte worker` configure the root logger on the stderr of their moment,
    which is a test's captured stream; the next tests must not log into it once closed."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test stuck for minutes writes what its asyncio tasks await (tests/support/task_dump),
    where faulthandler writes its threads: the terminal's stderr, which pytest does not
    capture (a write to sys.stderr would stay in the stuck test's captured output)."""
    with tasks_dumped_if_stuck(item.nodeid, out=uncaptured_stderr(item.config)):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Iterator[None]:  # pragma: no cover - only on a machine without Pango
    """On a machine without Pango, a test that failed because a report's PDF could not be
    made is reported as skipped, with that reason; with Pango installed this changes
    nothing (CI installs it, so there every such test runs)."""
    report: pytest.TestReport = yield  # type: ignore[misc]
    if report.failed and call.when == "call":
        texts = [report.longreprtext, *(content for _, content in report.sections)]
        if failed_for_want_of_pango(texts):
            problem = pango_problem()
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {problem}")
    return report  # type: ignore[return-value]
