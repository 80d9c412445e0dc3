"""Surviving a worker's crash: the heartbeat an orchestrator attempt keeps while it owns its
report's run, so a killed worker's report is taken over within seconds (bot.redis.runs holds
the lease itself, bot.worker the arq side)."""

from bot.recovery.heartbeat import RunHeartbeat, run_token

__all__ = ["RunHeartbeat", "run_token"]
