"""The shape of what the bot says in Slack (`SlackWords`), the `slack` part of a language's
table (`Words.slack` in schema.py), in a module of its own so each shape stays readable. Both
tables (`pt_slack`, `en_slack`) fill every field with the same placeholders
(tests/engine/words/test_tables.py)."""

from __future__ import annotations

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
