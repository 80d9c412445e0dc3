"""Surviving a worker's crash: the heartbeat an orchestrator attempt keeps while it owns its
report's run, so a killed worker's report is taken over within seconds (bot.redis.runs holds
the lease itself, bot.worker the arq side), and the end of a report whose workers kept
dying under it (`attempts`)."""

from bot.recovery.attempts import REPORT_ATTEMPTS, RepeatedCrashes, give_up, out_of_attempts
from bot.recovery.heartbeat import RunHeartbeat, run_token

__all__ = [
    "REPORT_ATTEMPTS",
    "RepeatedCrashes",
    "RunHeartbeat",
    "give_up",
    "out_of_attempts",
    "run_token",
]
