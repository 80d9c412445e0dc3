"""ENGLISH_ROUTINES: what the bot says about routines in English, the `routines` part of
`ENGLISH` (en.py)."""

from __future__ import annotations

from engine.words.routine_schema import RoutineWords

ENGLISH_ROUTINES = RoutineWords(
    watch_button="👁 Watch",
    how_often="How often should I watch this research? I only post when something changed.",
    daily="daily",
    weekly="weekly",
    monthly="monthly",
    created=(
        "I will watch “{question}” ({frequency}) and post in this thread only when something "
        "changed. Next run: {next}."
    ),
    already="I already watch this research ({frequency}). See `/research routines`.",
    watch_usage="Use `/research watch daily|weekly|monthly QUESTION`.",
    help=(
        "*Routines*\n`/research watch daily|weekly|monthly QUESTION` (or a report's 👁 Watch "
        "button) runs the research again and posts only when something changed; "
        "`/research routines` lists this channel's."
    ),
    list_title="*Routines in this channel*",
    none=(
        "No routines in this channel. Make one with a report's 👁 Watch button or "
        "`/research watch weekly QUESTION`."
    ),
    line="*{question}* · {frequency} · next: {next} · last: {last} · spent this month: US$ {usd}",
    paused_word="paused",
    never_ran="not run yet",
    result_first="the report it was made from",
    result_no_change="no change",
    result_changed="{count} change(s)",
    result_failed="failed",
    result_over_cap="not run: the channel's monthly cap",
    channel_spend="Routines in this channel in {month}: US$ {spent} of US$ {cap}",
    pause="Pause",
    resume="Resume",
    delete="Delete",
    paused="<@{user}> paused the routine “{question}”.",
    resumed="<@{user}> resumed the routine “{question}”.",
    deleted="<@{user}> deleted the routine “{question}”.",
    frequency_changed="<@{user}> changed the routine “{question}” to {frequency}.",
    not_yours="Only whoever made this routine (or an admin) can pause, change or delete it.",
    not_found="That routine no longer exists.",
    more_changes="… and {count} more in the attached report",
    files_updated="Updated files",
    paused_failures=(
        "The routine “{question}” failed three times in a row and is paused. "
        "Resume it in `/research routines`."
    ),
    over_cap=(
        "The routine “{question}” did not run: this channel's routines reached the month's "
        "cap (US$ {cap})."
    ),
)
