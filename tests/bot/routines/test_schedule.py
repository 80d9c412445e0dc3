"""When routines run: a day, an ISO week or a month in UTC, due once the next one began."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.routines.schedule import frequency_named, is_due, month_of, next_start, period_of

TUESDAY = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("frequency", "period", "next"),
    [
        ("daily", "2026-12-01", datetime(2026, 12, 2, tzinfo=UTC)),
        ("weekly", "2026-W49", datetime(2026, 12, 7, tzinfo=UTC)),
        ("monthly", "2026-12", datetime(2027, 1, 1, tzinfo=UTC)),
    ],
)
def test_each_frequency_names_its_period_and_when_the_next_begins(
    frequency: str, period: str, next: datetime
) -> None:
    assert period_of(frequency, TUESDAY) == period  # type: ignore[arg-type]
    assert next_start(frequency, TUESDAY) == next  # type: ignore[arg-type]


def test_periods_are_read_in_utc() -> None:
    late_in_sao_paulo = datetime.fromisoformat("2026-12-01T22:30:00-03:00")  # 01:30 UTC
    assert period_of("daily", late_in_sao_paulo) == "2026-12-02"
    assert month_of(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)) == "2026-12"


def test_a_routine_is_due_once_the_next_period_began_and_not_before() -> None:
    claimed = TUESDAY
    assert not is_due("weekly", claimed, datetime(2026, 12, 6, 23, 59, tzinfo=UTC))
    assert is_due("weekly", claimed, datetime(2026, 12, 7, tzinfo=UTC))
    assert not is_due("daily", claimed, datetime(2026, 12, 1, 23, 59, tzinfo=UTC))
    assert is_due("daily", claimed, datetime(2026, 12, 2, 0, 0, 1, tzinfo=UTC))


def test_a_new_frequency_is_read_from_the_period_last_run() -> None:
    """Weekly made daily on the Thursday of a week it ran on Tuesday: due on Friday, once."""
    assert is_due("daily", TUESDAY, datetime(2026, 12, 3, 9, tzinfo=UTC))
    # Daily made monthly: due when the next month begins, not at the next day.
    assert not is_due("monthly", TUESDAY, datetime(2026, 12, 20, tzinfo=UTC))


@pytest.mark.parametrize(
    ("word", "frequency"),
    [("daily", "daily"), ("diária", "daily"), ("Semanal", "weekly"), ("mensal", "monthly")],
)
def test_the_words_a_command_takes_for_each_frequency(word: str, frequency: str) -> None:
    assert frequency_named(word) == frequency


def test_a_word_that_is_no_frequency_is_none() -> None:
    assert frequency_named("hourly") is None
