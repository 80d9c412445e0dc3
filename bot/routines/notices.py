"""What routines say in Slack, built within Block Kit's limits (bot.slack.blockkit): the
question the Watch button asks, the listing of `/research routines` with each routine's
buttons, and a run's one short message of what changed, each change with its citations.

Every word is the `routines` part of `engine.words`, in the routine's language."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.routines.schedule import FREQUENCIES, Frequency
from bot.routines.store import Routine
from bot.slack.blockkit import (
    MAX_BLOCKS,
    MAX_FALLBACK_TEXT,
    Block,
    Message,
    actions,
    button,
    context,
    escape,
    link,
    section,
    sections,
    value,
)
from bot.slack.blocks import ROUTINE, WATCH, money
from engine import Claim, Language, Report
from engine.render import changes_part, shown_url
from engine.text import clip
from engine.words import RoutineWords, words_for

__all__ = [
    "MAX_CHANGES_SHOWN",
    "QUOTED_CHARS",
    "ROUTINE_EVENT",
    "changes_message",
    "frequency_word",
    "how_often",
    "routine_list",
    "run_marker",
    "when",
]

ROUTINE_EVENT = "fonte_routine_run"
"""The metadata event type of a run's message, so a run again after a crash can tell whether
its message reached the thread (docs.slack.dev/messaging/message-metadata)."""

MAX_CHANGES_SHOWN = 15
"""Changes listed in one message; the rest are in the report's files below it."""

QUOTED_CHARS = 200
"""Of a new or gone finding's excerpt, quoted after its line."""


def words(language: str) -> RoutineWords:
    return words_for(language).routines


def frequency_word(w: RoutineWords, frequency: Frequency) -> str:
    return {"daily": w.daily, "weekly": w.weekly, "monthly": w.monthly}[frequency]


def when(moment: datetime) -> str:
    """A date as the listing and the messages show it (UTC)."""
    return moment.strftime("%Y-%m-%d")


def how_often(report_id: str, language: Language) -> Message:
    """The Watch button's answer: one button per frequency."""
    w = words(language)
    buttons = [button(frequency_word(w, f), WATCH, value(r=report_id, f=f)) for f in FREQUENCIES]
    return Message(w.how_often, [section(w.how_often), *actions(buttons, block_id="watch")])


def _last(w: RoutineWords, routine: Routine) -> str:
    run = routine.last
    if run is None:
        return w.never_ran
    return {
        "first": w.result_first,
        "no_change": w.result_no_change,
        "changed": w.result_changed.format(count=run.changes),
        "failed": w.result_failed,
        "over_cap": w.result_over_cap,
    }[run.result] + f" ({when(run.at)})"


def _controls(w: RoutineWords, routine: Routine) -> list[Block]:
    def pressed(label: str, action: str, style: str | None = None) -> Block:
        return button(label, ROUTINE, value(i=routine.routine_id, a=action), style)

    toggle = pressed(w.resume, "resume") if routine.paused else pressed(w.pause, "pause")
    other = [pressed(frequency_word(w, f), f) for f in FREQUENCIES if f != routine.frequency]
    return actions(
        [toggle, *other, pressed(w.delete, "delete", "danger")],
        block_id=f"routine:{routine.routine_id}",
    )


def routine_list(
    routines: Sequence[Routine], language: Language, now: datetime, spent: float, cap: float
) -> Message:
    """`/research routines`: each routine with its next run, last result and spend this
    month, and its buttons; the channel's spend against its monthly cap at the foot."""
    w = words(language)
    foot = context(w.channel_spend.format(month=when(now)[:7], spent=money(spent), cap=money(cap)))
    if not routines:
        return Message(w.none, [section(w.none), foot])
    blocks: list[Block] = [section(w.list_title)]
    for routine in routines:
        if len(blocks) + 3 > MAX_BLOCKS:
            break
        line = w.line.format(
            question=escape(clip(routine.question, 200)),
            frequency=frequency_word(w, routine.frequency),
            next=w.paused_word if routine.paused else when(routine.next_run),
            last=_last(w, routine),
            usd=money(routine.spent_in(now)),
        )
        blocks += [section(line), *_controls(w, routine)]
    return Message(w.list_title, [*blocks, foot])


def run_marker(routine_id: str, period: str) -> dict[str, str]:
    return {"routine": routine_id, "period": period}


class _Citations:
    """Each cited claim numbered once, in the order the message cites them, linked to its
    source."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def marks(self, claims: Sequence[Claim]) -> str:
        """A web page's number links to it; a library document's is followed by its file
        name, never its path on this server (`engine.render.shown_url`)."""
        shown = []
        for claim in claims:
            number = self.numbers.setdefault(claim.id, len(self.numbers) + 1)
            web = claim.url.startswith(("http://", "https://"))
            label = f"[{number}]" if web else f"[{number}] {shown_url(claim.url)}"
            shown.append(link(claim.url if web else None, label))
        return " ".join(shown)


def changes_message(routine: Routine, report: Report, period: str) -> Message:
    """A run's message: what changed since the report compared (`report.previous`), worded
    as every format words it (`engine.render.changes_part`), a line per change with its
    citations (this report's claims; a gone change, the previous report's, as it sealed
    them), at most `MAX_CHANGES_SHOWN` of them."""
    w = words(report.language)
    part = changes_part(report)
    assert part is not None, "a run's message shows a compared report"
    new_claims = {claim.id: claim for claim in report.claims}
    citations = _Citations()
    lines = []
    shown = zip(part.changes, report.changes, strict=True)
    for change, of in list(shown)[:MAX_CHANGES_SHOWN]:
        cited = [new_claims[c] for c in change.after if c in new_claims] or list(change.before)
        said = f"{change.line} — {change.why}" if change.why else change.line
        if of.subject == "finding" and cited:  # its line names the document: quote it
            said += f" “{clip(cited[0].excerpt, QUOTED_CHARS)}”"
        lines.append(f"• {escape(said)} {citations.marks(cited)}".rstrip())
    left = len(part.changes) - MAX_CHANGES_SHOWN
    if left > 0:
        lines.append(f"_{escape(w.more_changes.format(count=left))}_")
    title = f"*{escape(part.heading)}*"
    asked = f"_{escape(clip(routine.question, 200))}_"
    marker = run_marker(routine.routine_id, period)
    return Message(
        clip(f"{part.heading}: {routine.question}", MAX_FALLBACK_TEXT),
        [*sections(title, [asked]), *sections("", lines)],
        metadata={"event_type": ROUTINE_EVENT, "event_payload": marker},
    )
