"""The shape of what the bot says in Slack (`SlackWords`), the `slack` part of a language's
table (`Words.slack` in schema.py), in a module of its own so each shape stays readable. Both
tables (`pt_slack`, `en_slack`) fill every field with the same placeholders
(tests/engine/words/test_tables.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class SlackWords:
    """What the bot says in Slack."""

    clarify_intro: str
    clarify_hint: str
    answered: str
    plan_title: str
    subquestions: str
    sufficient_when: str
    caps: str
    caps_line: str
    estimate: str
    estimate_line: str
    start: str
    edit: str
    cancel: str
    started_by: str
    cancelled_by: str
    cancelling: str
    researching: str
    research_done: str
    subagents: str
    claims_line: str
    spend_line: str
    open_gaps: str
    partial_banner: str
    deepen: str
    deepening: str
    show_excerpt: str
    sources: str
    no_sentences: str
    version: str
    files_comment: str
    excerpt_title: str
    statement: str
    verdict: str
    page_crop_title: str
    page_crop_alt: str
    not_yours: str
    not_your_plan: str
    run_as_mine: str
    lost_run: str
    refused_run: str
    run_again: str
    busy: str
    not_found: str
    edit_title: str
    edit_subquestions: str
    edit_steps: str
    edit_minutes: str
    edit_usd: str
    save: str
    edit_invalid: str
    continued: str
    asked_by: str
    not_in_channel: str
    subagent_running: str
    subagent_done: str
    subagent_stopped: str
    subagent_failed: str
    claims_count_one: str
    claims_count_many: str
    question_empty: str
    question_too_long: str
    empty_mention: str
    thread_has_report: str
    not_deepenable: str
    failed_not_deepenable: str
    failed_run: str
    already_started: str
    nothing_to_cancel: str
    stale_button: str
    cancelled_banner: str
    delivery_failed: str
    delivery_partial: str
    upload_failed: str
    files_not_made: str
    error_missing_scope: str
    error_not_in_channel: str
    error_too_long: str
    error_rate_limited: str
    error_unavailable: str
    error_archived: str
    """The channel was archived (chat.postMessage's `is_archived`)."""
    error_restricted: str
    """A workspace setting forbids the post (chat.postMessage's `restricted_action*`)."""
    error_auth: str
    """The bot's token no longer works (`invalid_auth`, `token_revoked`, ...)."""
    error_other: str
    no_library: str
    """The one line a research request gets while FONTE_LIBRARY is missing or empty."""
    feedback_prompt: str
    feedback_up: str
    feedback_down: str
    feedback_thanks: str
    assistant_status: str
    assistant_planning: str
    prompts_title: str
    assistant_greeting: str
    help_intro: str
    """`/research help`: how to ask for research."""
    help_templates: str
    # -- the report message
    see_attached: str
    """Ends a report message that had to leave part of the report out."""
    report_files_note: str
    """The report message's last line: where the full report is."""
    files_button: str
    citations_placeholder: str
    """The select of a report's citations; each opens its excerpt."""
    feedback_up_label: str
    feedback_down_label: str
    # -- crops, retention and export
    page_comment: str
    """The message the cited page's crop is shared with in the report's thread."""
    page_in_thread: str
    page_not_shown: str
    """The excerpt modal's one line when it cannot show the page: {reason}."""
    page_not_rendered: str
    page_processing: str
    page_gone: str
    export_comment: str
    export_expired: str
    """A report past retention: {days}, how long reports are kept."""
    export_no_version: str
    export_failed: str
    # -- streamed progress
    stream_plan_title: str
    """The streamed plan card's title while the research runs."""
    stream_plan_done: str
    """Its title once the research ended: {verified} claims verified."""
    task_writing: str
    """The plan's last task: writing the report once the subquestions are researched."""
    task_verified: str
    """A task's output: {count} claims verified, {sources} sources."""
    task_gap: str
    task_failed: str
    stream_closing: str
    """The streamed progress's last line, just before the report is posted."""
    tasks_heading: str
    task_pending: str
    task_running: str
    task_done: str
    task_gap_word: str
    task_failed_word: str
    loading_task: str
    """A status line loading message per task under way: {title}."""
    loading_reading: str
    loading_verifying: str
    # -- shared files
    files_kept: str
    """The reply to files shared in a thread or DM: {files}, the names kept as sources."""
    files_refused: str
    """Its part for the files not kept, a line each below it: "• name: reason"."""
    file_too_big: str
    """{limit}: the size cap in MB (FONTE_SLACK_FILE_MB)."""
    file_not_supported: str
    file_not_downloaded: str
    file_login_page: str
    file_over_limit: str
    """A file that, opened, would take far more memory than it weighs (a zip bomb)."""
    # -- Slack search as a source (docs/slack.md, "Slack search as a source")
    slack_search_offer: str
    """The first time a user asks while FONTE_SLACK_SEARCH is on: may Fonte search as them."""
    slack_search_allow: str
    slack_search_decline: str
    slack_search_allowed: str
    slack_search_declined: str
    slack_search_not_used: str
    """The report's note when Slack's search failed: {reason}, one of the reasons below."""
    slack_search_reasons: Mapping[str, str]
    """Why, by Slack's error code (assistant.search.context, "Errors"); "other" for any
    other code, filled in with {error}."""
