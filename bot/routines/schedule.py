"""When a routine runs: pure rules over UTC datetimes, no clock of their own.

A routine runs once per period of its frequency: a day, an ISO week (Monday to Sunday) or
a calendar month, in UTC. A period is named by a string ("2026-12-02", "2026-W49",
"2026-12") that names its run's job and message; a routine is due once the period after
the one it last ran in has begun, and a routine made in a period has that period's run
already: the report it was made from.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Literal, get_args

Frequency = Literal["daily", "weekly", "monthly"]
FREQUENCIES: tuple[Frequency, ...] = get_args(Frequency)

_WORDS: dict[str, Frequency] = {
    "daily": "daily",
    "day": "daily",
    "diario": "daily",
    "diaria": "daily",
    "diário": "daily",
    "diária": "daily",
    "weekly": "weekly",
    "week": "weekly",
    "semanal": "weekly",
    "monthly": "monthly",
    "month": "monthly",
    "mensal": "monthly",
}
"""The words `/research watch` takes for each frequency, in both languages (a parsing rule,
as the templates' names are: what a user types, not what the bot says)."""


def frequency_named(word: str) -> Frequency | None:
    return _WORDS.get(word.strip().lower())


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def period_of(frequency: Frequency, moment: datetime) -> str:
    """The period `moment` falls in."""
    moment = _utc(moment)
    if frequency == "daily":
        return moment.strftime("%Y-%m-%d")
    if frequency == "weekly":
        year, week, _ = moment.isocalendar()
        return f"{year:04d}-W{week:02d}"
    return moment.strftime("%Y-%m")


def next_start(frequency: Frequency, moment: datetime) -> datetime:
    """When the period after the one `moment` falls in begins (midnight UTC)."""
    day = _utc(moment).replace(hour=0, minute=0, second=0, microsecond=0)
    if frequency == "daily":
        return day + timedelta(days=1)
    if frequency == "weekly":
        return day + timedelta(days=7 - day.weekday())
    if day.month == 12:
        return day.replace(year=day.year + 1, month=1, day=1)
    return day.replace(month=day.month + 1, day=1)


def month_of(moment: datetime) -> str:
    """The calendar month a spend counts against ("2026-12"): the channel's cap is monthly."""
    return period_of("monthly", moment)


def is_due(frequency: Frequency, claimed_at: datetime, moment: datetime) -> bool:
    """A period after the one last run (claimed at `claimed_at`) has begun at `moment`. Read
    in the routine's frequency now, so a routine whose frequency changed runs once in the
    new period, never twice in one."""
    return _utc(moment) >= next_start(frequency, claimed_at)
