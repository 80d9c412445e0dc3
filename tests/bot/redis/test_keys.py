"""Every Redis key carries the prefix."""

from __future__ import annotations

from bot.redis.keys import Keys


def test_every_key_carries_the_prefix_and_names_differ() -> None:
    keys = Keys("p1")
    names = [
        keys.state("r"),
        keys.report("r", 1),
        keys.page_file("r", 1, "c1"),
        keys.thread("C", "1.1"),
        keys.dm_open("D"),
        keys.board("r"),
        keys.board_order("r"),
        keys.budget("r"),
        keys.reservations("r"),
        keys.snapshot("r", "https://x"),
        keys.runner("r"),
        keys.reports_queue,
        keys.tasks_queue,
        keys.report_job_id("r", 1),
        keys.subagent_job_id("r", 1, "s1"),
        keys.verification_job_id("r", 1, "c1"),
        keys.step_job("event:1"),
        keys.health(keys.tasks_queue, "h"),
        keys.routine("r"),
        keys.routines,
        keys.channel_routines("C"),
        keys.routine_history("r"),
        keys.routine_baseline("r"),
        keys.routine_run_report("r", "2026-W49"),
        keys.routine_spend("C", "2026-12"),
        keys.routine_cron,
        keys.routine_job_id("r", "2026-W49"),
    ]
    assert all(name.startswith("p1:") for name in names)
    assert len(set(names)) == len(names)
    assert keys.step_job("a") == keys.step_job("a") != keys.step_job("b")
