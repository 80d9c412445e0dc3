"""The heartbeat of one orchestrator attempt.

An attempt first takes its report's run lease (waiting while another live attempt holds it,
and giving up when the run ends meanwhile), then renews it three times per lease. Each
renewal also tells the budget the orchestrator is alive, so its clock stands still once the
beats stop. If the lease was lost (this attempt's loop stalled past the lease and another
attempt took the run over), `on_lost` is called: the attempt must stop, and deliver nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.redis.outage import Outage, is_outage
from bot.redis.runs import RunLeases
from engine import stop_task, unless_cancelled

log = logging.getLogger(__name__)


def run_token() -> str:
    """Names one attempt: host, process and a random part (two attempts never share one)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class RunHeartbeat:
    def __init__(self, leases: RunLeases, report_id: str, token: str | None = None) -> None:
        self.leases = leases
        self.report_id = report_id
        self.token = token or run_token()
        self.lost = False
        self._task: asyncio.Task[None] | None = None
        self._outage = Outage(f"heartbeat of report {report_id}")

    @property
    def interval(self) -> float:
        return self.leases.seconds / 3

    async def take(self, still_wanted: Callable[[], Awaitable[bool]]) -> bool:
        """Take the run, waiting while another attempt holds it; False once `still_wanted`
        says the run needs no one any more (it ended while we waited)."""
        waited = False
        while not await self.leases.take(self.report_id, self.token):
            if not await still_wanted():
                return False
            if not waited:
                holder = await self.leases.holder(self.report_id)
                log.info("report %s: waiting for the run held by %s", self.report_id, holder)
                waited = True
            await asyncio.sleep(self.interval)
        return True

    async def while_held(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` (once the run is taken) while this attempt holds the run: cancelled
        when the lease is lost to another attempt (which finishes the run: this returns
        quietly), the run let go at the end."""
        attempt = asyncio.create_task(work)
        self.start(on_lost=attempt.cancel)
        try:
            await attempt
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if self.lost and (current is None or not current.cancelling()):
                return  # the attempt that took the run over finishes it
            raise
        finally:
            await self.stop()

    def start(self, on_lost: Callable[[], object]) -> None:
        self._task = asyncio.create_task(self._beat(on_lost))

    async def _beat(self, on_lost: Callable[[], object]) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                held = await self.leases.take(self.report_id, self.token)
            except Exception as error:
                unless_cancelled(error)
                if not is_outage(error):
                    raise
                await asyncio.sleep(self._outage.failed(error))
                continue
            self._outage.answered()
            if not held:
                self.lost = True
                log.warning(
                    "report %s: another attempt took the run over; this one stops",
                    self.report_id,
                )
                on_lost()
                return

    async def stop(self) -> None:
        """Stop beating and let the run go at once, unless it was lost to another attempt."""
        if self._task is not None:
            with contextlib.suppress(Exception):  # a beat's failure is the lease's, not ours
                await stop_task(self._task)
        if not self.lost:
            try:
                await self.leases.release(self.report_id, self.token)
            except Exception as error:
                if not is_outage(error):
                    raise
                # The lease then expires by itself.
                log.warning("report %s: could not release the run: %s", self.report_id, error)
