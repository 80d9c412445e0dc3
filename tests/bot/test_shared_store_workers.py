"""Through the Slack stand-in, two real `fonte worker` processes with caches of their own and
no copy of the library's folder answer from the shared store (`FONTE_LIBRARY_STORE`), and
the report cites the library's documents as a run on the folder does (issue 32, acceptance)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.bench.processes import start_worker
from bot.flows import handle_step
from bot.steps import Ask, Start
from engine import ClaimStatus
from engine.sources.library import Library
from tests.support.bot_env import wait_planned, wait_state
from tests.support.slack_stub import SlackStub
from tests.support.worker_processes import killed_at_the_end, worker_env

DM, USER, TS = "D7", "U1", "7.1"
QUESTION = "Qual é o limite de potência instalada da microgeração distribuída?"


@pytest.fixture
def stored_library(library: Path, tmp_path: Path, postgres_url: str) -> Iterator[Path]:
    """The test's library indexed into the shared store, then moved where no worker looks:
    its path names the library in the store, and no file of it is on the workers' host."""
    Library.open(library, cache_dir=tmp_path / "indexer-cache", store=postgres_url)
    away = tmp_path / "elsewhere"
    shutil.move(library, away)
    assert not library.exists()
    yield library
    shutil.move(away, library)


@pytest.fixture
def workers(
    slack: SlackStub,
    stored_library: Path,
    tmp_path: Path,
    redis_prefix: str,
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[list[subprocess.Popen[bytes]]]:
    monkeypatch.setenv("FONTE_LIBRARY_STORE", postgres_url)  # the bot's side, as deployed
    with killed_at_the_end() as processes:
        for n in (1, 2):
            env = worker_env(
                slack.api_url,
                redis_prefix,
                stored_library,
                tmp_path / f"cache-{n}",
                FONTE_LIBRARY_STORE=postgres_url,
            )
            processes.append(start_worker(env, tmp_path / f"worker-{n}.log"))
        yield processes


async def test_two_workers_without_the_folder_answer_from_the_shared_store(
    make_settings: Any,
    runtimes: Any,
    workers: list[subprocess.Popen[bytes]],
    stored_library: Path,
    tmp_path: Path,
) -> None:
    rt = await runtimes(make_settings())  # the bot's side: it only enqueues
    await handle_step(
        rt, Ask(origin="ask", channel=DM, thread_ts=TS, user=USER, text=QUESTION, is_dm=True)
    )
    report_id = await wait_planned(rt, DM, TS)
    await handle_step(rt, Start(report_id=report_id, user=USER))
    state = await wait_state(rt, report_id, lambda s: s.delivered == 1, within=180)
    report = await rt.states.load_report(report_id, state.reported)
    assert report is not None
    verified = [c for c in report.claims if c.status is ClaimStatus.verified]
    law = (stored_library / "lei-14300.md").as_uri()
    assert any(c.url.startswith(law) and "75 kW" in c.excerpt for c in verified), [
        (c.url, c.excerpt) for c in report.claims
    ]
    assert [worker.poll() for worker in workers] == [None, None], "no worker died"
    logs = "".join((tmp_path / f"worker-{n}.log").read_text() for n in (1, 2))
    assert "report_job" in logs, "the research ran in a worker process"
