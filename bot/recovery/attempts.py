"""How many times a report's orchestrator job may start before the report is given up.

Each start counts, a SIGKILLed worker's and a Redis outage's included (arq's job_try). arq
itself fails a job past its max_tries without running it, which left the report `running`
for good and its requester waiting; so arq allows one start more than REPORT_ATTEMPTS, and
that last start ends the report `failed` and tells the user, instead of researching again.
"""

from __future__ import annotations

from bot.conversation.delivery import tell_user
from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.slack.texts import texts_for
from engine import DeliveryError

REPORT_ATTEMPTS = 5
"""An attempt resumes from what Redis holds, so it is cheap: a report survives four crashes."""


class RepeatedCrashes(DeliveryError):
    """The report's workers kept stopping under it (killed, or Redis lost) past its attempts."""


def out_of_attempts(job_try: int) -> bool:
    return job_try > REPORT_ATTEMPTS


async def give_up(rt: Runtime, report_id: str, version: int) -> None:
    """End a run that used up its attempts: `failed`, with one line to the user."""
    await end_failed(rt, report_id, version, RepeatedCrashes.__name__)


async def end_failed(rt: Runtime, report_id: str, version: int, error: str) -> None:
    """End version `version`'s run `failed`, if it is still running, and tell the user in
    one line why (`error`, the failure's name)."""
    ended: list[ReportState] = []

    def failed(current: ReportState) -> ReportState | None:
        if current.status != "running" or current.version != version:
            return None
        ended.append(current.model_copy(update={"status": "failed", "delivered": version}))
        return ended[-1]

    await rt.states.update(report_id, failed)
    if ended:
        t = texts_for(ended[0].language)
        await tell_user(rt, ended[0], t.failed_run.format(error=error))
