"""The shape of what the bot says about routines (`RoutineWords`): research it runs again
daily, weekly or monthly, posting only what changed. The `routines` part of a language's
table (`Words.routines` in schema.py), filled by `pt_routines` and `en_routines` with the
same placeholders (tests/engine/words/test_tables.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoutineWords:
    """What the bot says about routines in Slack."""

    watch_button: str
    """The button on a delivered report that makes it a routine."""
    how_often: str
    """The question the Watch button answers with, above one button per frequency."""
    daily: str
    weekly: str
    monthly: str
    created: str
    """{question}, {frequency}, {next}: the date of the next run."""
    already: str
    """This report is already watched: {frequency}."""
    watch_usage: str
    """`/research watch` without a frequency or a question."""
    help: str
    """The routines' lines of `/research help`."""
    list_title: str
    none: str
    line: str
    """One routine in `/research routines`: {question}, {frequency}, {next}, {last}, {usd}."""
    paused_word: str
    never_ran: str
    result_first: str
    result_no_change: str
    result_changed: str
    """{count}: how many changes the last run posted."""
    result_failed: str
    result_over_cap: str
    channel_spend: str
    """The listing's foot: {month}, {spent} and {cap} (US$)."""
    pause: str
    resume: str
    delete: str
    paused: str
    """{question}, {user}: who paused it."""
    resumed: str
    deleted: str
    frequency_changed: str
    """{question}, {frequency}, {user}."""
    not_yours: str
    not_found: str
    more_changes: str
    """The message's last line when not every change fits: {count}."""
    files_updated: str
    """The comment of the updated files uploaded under a run's message."""
    paused_failures: str
    """Told the requester once, when three failed runs in a row paused it: {question}."""
    over_cap: str
    """Told the requester once a month, when the channel's cap stopped a run: {question},
    {cap}."""
